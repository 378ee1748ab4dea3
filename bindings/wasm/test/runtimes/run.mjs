// samekey-wasm in the JavaScript runtimes beside Node that install from npm: Deno and Bun,
// each from its npm package (pinned), in a fresh project that installed samekey-wasm from
// its packed tarball (or the registry in npm_config_registry). Each runtime runs
// vectors.mjs; every vector must pass and every runtime must print Node's line.
//
//   node test/runtimes/run.mjs
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { vectorFile } from '../serve.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const pkgDir = path.resolve(here, '../..');
const RUNTIMES = { deno: '2.9.6', bun: '1.4.5' };
const run = (cmd, args, cwd, env = {}) =>
  execFileSync(cmd, args, { cwd, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] }).toString();

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'samekey-runtimes-'));
try {
  const spec = process.env.SAMEKEY_WASM_SPEC
    ?? path.join(work, run('npm', ['pack', '--silent', '--pack-destination', work], pkgDir).trim().split('\n').pop());
  const app = path.join(work, 'app');
  fs.mkdirSync(app);
  fs.writeFileSync(path.join(app, 'package.json'), JSON.stringify({ private: true, type: 'module' }));
  const tools = Object.entries(RUNTIMES).map(([name, version]) => `${name}@${version}`);
  run('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error', '--save-exact', spec, ...tools], app);
  fs.copyFileSync(path.join(here, 'vectors.mjs'), path.join(app, 'vectors.mjs'));

  const total = JSON.parse(fs.readFileSync(vectorFile(), 'utf8')).vectors.length;
  const env = { SAMEKEY_VECTORS: path.resolve(vectorFile()), DENO_NO_UPDATE_CHECK: '1', NO_COLOR: '1' };
  const bin = (name) => path.join(app, 'node_modules/.bin', name);
  const lines = {
    node: run(process.execPath, ['vectors.mjs'], app, env),
    // Deno reads node_modules because the project has a package.json; it may read the
    // module file and the vector file, and nothing else.
    deno: run(bin('deno'), ['run', '--no-remote', '--allow-read', '--allow-env=SAMEKEY_VECTORS', 'vectors.mjs'], app, env),
    bun: run(bin('bun'), ['vectors.mjs'], app, env),
  };
  const version = {
    deno: run(bin('deno'), ['--version'], app, env).split('\n')[0],
    bun: `bun ${run(bin('bun'), ['--version'], app, env).trim()}`,
  };
  const node = JSON.parse(lines.node);
  for (const [entry, r] of Object.entries(node)) {
    assert.deepEqual(r.failed, [], `node, ${entry}`);
    assert.equal(r.passed, total, `node, ${entry}`);
  }
  for (const name of Object.keys(RUNTIMES)) {
    assert.deepEqual(JSON.parse(lines[name]), node, `${name} prints what Node prints`);
    for (const [entry, r] of Object.entries(node)) {
      console.log(`${version[name]}: ${entry}: ${r.passed} of ${total} vectors passed, hello-world ${r.hello}`);
    }
  }
} finally {
  fs.rmSync(work, { recursive: true, force: true });
}
