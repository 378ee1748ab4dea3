// Bundles test/bundle/app.js as a user would, with samekey-wasm installed from its packed
// tarball (or from the registry given in npm_config_registry) into a fresh project, then
// runs every vector from each bundle in headless Chromium. Builders: esbuild (ES module),
// esbuild-iife (IIFE, ES2020), vite and webpack (production builds), parcel (no config:
// the package's `browser` field, as Parcel resolves by default), and the zero-config
// `samekey-wasm/inline` entry through esbuild-inline and rollup-inline (node-resolve).
//
//   node test/bundle/run.mjs esbuild esbuild-iife esbuild-inline rollup-inline parcel vite webpack
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
// What each builder installs, pinned.
const TOOLS = {
  esbuild: ['esbuild@0.28.2'],
  rollup: ['rollup@4.69.3', '@rollup/plugin-node-resolve@16.0.3'],
  parcel: ['parcel@2.16.4'],
  vite: ['vite@8.3.8'],
  webpack: ['webpack@5.112.2'],
};
const builders = process.argv.slice(2);
const run = (cmd, args, cwd) => execFileSync(cmd, args, { cwd, stdio: ['ignore', 'pipe', 'inherit'] }).toString();
const inline = (builder) => builder.endsWith('-inline');

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'samekey-bundle-'));
const app = path.join(work, 'app');
fs.mkdirSync(path.join(app, 'src'), { recursive: true });
const spec = process.env.SAMEKEY_WASM_SPEC
  ?? path.join(work, run('npm', ['pack', '--silent', '--pack-destination', work], pkgDir).trim().split('\n').pop());
fs.writeFileSync(path.join(app, 'package.json'), JSON.stringify({ private: true, type: 'module' }));
const tools = [...new Set(builders.flatMap((b) => {
  const tool = TOOLS[b.replace(/-.*/, '')];
  if (tool === undefined) throw new Error(`unknown builder ${b}`);
  return tool;
}))];
run('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error', '--save-exact', spec, ...tools], app);
const appRequire = createRequire(path.join(app, 'package.json'));
const bin = (name) => path.join(app, 'node_modules/.bin', name);
const page = (script) => '<!doctype html><html lang="en"><meta charset="utf-8"><title>samekey-wasm bundled</title>' + script;

// The app's sources for one builder: app.js as it is, or importing samekey-wasm/inline.
function sources(builder) {
  const src = path.join(app, `src-${builder}`);
  fs.mkdirSync(src);
  const code = fs.readFileSync(path.join(here, 'app.js'), 'utf8');
  const from = inline(builder) ? code.replace("from 'samekey-wasm';", "from 'samekey-wasm/inline';") : code;
  assert.notEqual(from.includes("'samekey-wasm/inline'"), !inline(builder));
  fs.writeFileSync(path.join(src, 'app.js'), from);
  fs.copyFileSync(path.join(here, 'index.html'), path.join(src, 'index.html'));
  return src;
}

async function build(builder) {
  const out = path.join(work, 'out', builder);
  fs.mkdirSync(out, { recursive: true });
  const src = sources(builder);
  if (builder.startsWith('esbuild')) {
    const esbuild = await import(pathToFileURL(appRequire.resolve('esbuild')));
    const iife = builder === 'esbuild-iife';
    await esbuild.build({
      entryPoints: [path.join(src, 'app.js')], bundle: true, platform: 'browser', outfile: path.join(out, 'app.js'),
      format: iife ? 'iife' : 'esm', target: iife ? 'es2020' : 'esnext', minify: true, logLevel: 'warning',
    });
    let where = '';
    if (!inline(builder)) {
      // esbuild does not follow `new URL(..., import.meta.url)`: ship the module and say where.
      fs.copyFileSync(appRequire.resolve('samekey-wasm/samekey.wasm'), path.join(out, 'samekey.wasm'));
      where = `<script>globalThis.SAMEKEY_WASM_URL = new URL('samekey.wasm', location.href);</script>`;
    }
    fs.writeFileSync(path.join(out, 'index.html'), page(`${where}<script ${iife ? '' : 'type="module" '}src="./app.js"></script>`));
  } else if (builder === 'rollup-inline') {
    // The configuration every Rollup app has for npm packages: node-resolve, nothing else.
    fs.writeFileSync(path.join(src, 'rollup.config.mjs'), "import { nodeResolve } from '@rollup/plugin-node-resolve';\n" +
      `export default { input: 'app.js', output: { dir: ${JSON.stringify(out)}, format: 'es' }, plugins: [nodeResolve({ browser: true })] };\n`);
    run(bin('rollup'), ['--config', 'rollup.config.mjs', '--silent'], src);
    fs.copyFileSync(path.join(src, 'index.html'), path.join(out, 'index.html'));
  } else if (builder === 'parcel') {
    run(bin('parcel'), ['build', 'index.html', '--dist-dir', out, '--public-url', './', '--no-cache', '--log-level', 'warn'], src);
  } else if (builder === 'vite') {
    run(bin('vite'), ['build', src, '--outDir', out, '--emptyOutDir', '--logLevel', 'warn'], app);
  } else if (builder === 'webpack') {
    const { default: webpack } = await import(pathToFileURL(appRequire.resolve('webpack')));
    const stats = await new Promise((resolve, reject) => webpack({
      mode: 'production', entry: path.join(src, 'app.js'), output: { path: out, filename: 'app.js' },
    }, (err, s) => (err ? reject(err) : resolve(s))));
    if (stats.hasErrors()) throw new Error(stats.toString('errors-only'));
    fs.writeFileSync(path.join(out, 'index.html'), page('<script src="./app.js"></script>'));
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
      // The inline entry needs no module file beside the bundle; the others need theirs.
      if (inline(builder)) assert.equal(wasm, undefined, `${builder}: a .wasm beside an inline bundle`);
      else assert.ok(wasm, `${builder}: no .wasm in ${files}`);
      console.log(`bundle ${builder}: ${result.passed} vectors passed in Chromium (${files.length} files, wasm: ${wasm ?? 'inline'})`);
    } finally {
      server.close();
    }
  }
} finally {
  await browser.close();
  fs.rmSync(work, { recursive: true, force: true });
}
