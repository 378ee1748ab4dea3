// Bundles test/bundle/app.js as a user would, with samekey-wasm installed from its packed
// tarball (or from the registry given in npm_config_registry) into a fresh project, then
// runs every vector from each bundle in headless Chromium. Builders: esbuild (ES module),
// esbuild-iife (IIFE, ES2020), vite and webpack (production builds).
//
//   node test/bundle/run.mjs esbuild esbuild-iife vite webpack
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { serve, vectorFile } from '../serve.mjs';
import { launch } from '../browser.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const pkgDir = path.resolve(here, '../..');
const TOOLS = { esbuild: '0.28.2', vite: '8.3.8', webpack: '5.112.2' };
const builders = process.argv.slice(2);
const run = (cmd, args, cwd) => execFileSync(cmd, args, { cwd, stdio: ['ignore', 'pipe', 'inherit'] }).toString();

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'samekey-bundle-'));
const app = path.join(work, 'app');
fs.mkdirSync(path.join(app, 'src'), { recursive: true });
const spec = process.env.SAMEKEY_WASM_SPEC
  ?? path.join(work, run('npm', ['pack', '--silent', '--pack-destination', work], pkgDir).trim().split('\n').pop());
fs.writeFileSync(path.join(app, 'package.json'), JSON.stringify({ private: true, type: 'module' }));
const tools = [...new Set(builders.map((b) => b.replace(/-.*/, '')))].map((t) => `${t}@${TOOLS[t]}`);
run('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error', '--save-exact', spec, ...tools], app);
for (const f of ['app.js', 'index.html']) fs.copyFileSync(path.join(here, f), path.join(app, 'src', f));
const appRequire = createRequire(path.join(app, 'package.json'));

async function build(builder) {
  const out = path.join(work, 'out', builder);
  fs.mkdirSync(out, { recursive: true });
  if (builder.startsWith('esbuild')) {
    const esbuild = await import(pathToFileURL(appRequire.resolve('esbuild')));
    const iife = builder === 'esbuild-iife';
    await esbuild.build({
      entryPoints: [path.join(app, 'src/app.js')], bundle: true, platform: 'browser', outfile: path.join(out, 'app.js'),
      format: iife ? 'iife' : 'esm', target: iife ? 'es2020' : 'esnext', minify: true, logLevel: 'warning',
    });
    // esbuild does not follow `new URL(..., import.meta.url)`: ship the module and say where.
    fs.copyFileSync(appRequire.resolve('samekey-wasm/samekey.wasm'), path.join(out, 'samekey.wasm'));
    fs.writeFileSync(path.join(out, 'index.html'), '<!doctype html><meta charset="utf-8"><title>samekey-wasm bundled</title>' +
      `<script>globalThis.SAMEKEY_WASM_URL = new URL('samekey.wasm', location.href);</script>` +
      `<script ${iife ? '' : 'type="module" '}src="./app.js"></script>`);
  } else if (builder === 'vite') {
    run(path.join(app, 'node_modules/.bin/vite'), ['build', 'src', '--outDir', out, '--emptyOutDir', '--logLevel', 'warn'], app);
  } else if (builder === 'webpack') {
    const { default: webpack } = await import(pathToFileURL(appRequire.resolve('webpack')));
    const stats = await new Promise((resolve, reject) => webpack({
      mode: 'production', entry: path.join(app, 'src/app.js'), output: { path: out, filename: 'app.js' },
    }, (err, s) => (err ? reject(err) : resolve(s))));
    if (stats.hasErrors()) throw new Error(stats.toString('errors-only'));
    fs.writeFileSync(path.join(out, 'index.html'),
      '<!doctype html><meta charset="utf-8"><title>samekey-wasm bundled</title><script src="./app.js"></script>');
  } else {
    throw new Error(`unknown builder ${builder}`);
  }
  return out;
}

const total = JSON.parse(fs.readFileSync(vectorFile(), 'utf8')).vectors.length;
const browser = await launch();
try {
  for (const builder of builders) {
    const out = await build(builder);
    const files = fs.readdirSync(out, { recursive: true }).filter((f) => fs.statSync(path.join(out, f)).isFile());
    const server = await serve(out);
    try {
      const errors = [];
      browser.page.removeAllListeners('pageerror');
      browser.page.on('pageerror', (e) => errors.push(String(e)));
      await browser.page.goto(`${server.url}/index.html`);
      await browser.page.waitForFunction(() => window.__result !== undefined, null, { timeout: 60_000 });
      const result = await browser.page.evaluate(() => window.__result);
      assert.deepEqual(errors, []);
      assert.equal(result.error, undefined, result.error);
      assert.deepEqual(result.failed, []);
      assert.equal(result.passed, total);
      assert.equal(result.namedExportsWork, true);
      assert.equal(result.refused, 'invalid_ulid');
      assert.ok(result.codes > 0);
      assert.match(result.beforeInit, /not initialized: `await init\(\)` first/);
      assert.equal(result.failedLoad, true);
      const wasm = files.find((f) => f.endsWith('.wasm'));
      console.log(`bundle ${builder}: ${result.passed} vectors passed in Chromium (${files.length} files, wasm: ${wasm})`);
    } finally {
      server.close();
    }
  }
} finally {
  await browser.close();
  fs.rmSync(work, { recursive: true, force: true });
}
