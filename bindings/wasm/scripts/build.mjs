// Builds pkg/: the WebAssembly module for browsers (wasm-bindgen `web` target) and for
// Node (`nodejs` target), each optimized by wasm-opt, plus the JS API shared with the
// napi package (../node/lib, ES modules) and the entry points in js/.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..');
const repo = path.resolve(root, '../..');
const pkg = path.join(root, 'pkg');
const run = (cmd, args, opts = {}) => execFileSync(cmd, args, { stdio: 'inherit', ...opts });

// SIMD128 selects sha2's vector SHA-256 (measured: ~20 % faster ids in Node 20, and a
// smaller module). Every engine this package supports has it: Chrome/Edge 91, Firefox
// 89, Safari 16.4, Node 16.4.
const rustflags = { CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUSTFLAGS: '-C target-feature=+simd128' };
run('cargo', ['build', '-p', 'samekey-wasm', '--target', 'wasm32-unknown-unknown', '--profile', 'wasm-release'],
  { cwd: repo, env: { ...process.env, ...rustflags } });
const wasm = path.join(repo, 'target/wasm32-unknown-unknown/wasm-release/samekey_wasm.wasm');

fs.rmSync(pkg, { recursive: true, force: true });
for (const [target, name] of [['web', 'samekey_web'], ['nodejs', 'samekey_node']]) {
  const out = path.join(pkg, target === 'web' ? 'web' : 'node');
  run('wasm-bindgen', ['--target', target, '--out-dir', out, '--out-name', name, wasm]);
  const file = path.join(out, `${name}_bg.wasm`);
  // Debian's wasm-opt is too old for this output; the npm binaryen package is not.
  run(path.join(root, 'node_modules/.bin/wasm-opt'), ['-Oz', '--enable-simd', '--enable-bulk-memory', '--enable-sign-ext',
    '--enable-nontrapping-float-to-int', '--enable-mutable-globals', file, '-o', file]);
}

// wasm-bindgen's nodejs output is CommonJS; this package is "type": "module".
fs.writeFileSync(path.join(pkg, 'node', 'package.json'), '{ "type": "commonjs" }\n');

// The JS API is the napi package's lib/ folder of ES modules, copied as it is.
const nodeDir = path.join(repo, 'bindings/node');
fs.cpSync(path.join(nodeDir, 'lib'), path.join(pkg, 'lib'), { recursive: true });
fs.copyFileSync(path.join(nodeDir, 'index.d.ts'), path.join(pkg, 'index.d.ts'));
for (const entry of fs.readdirSync(path.join(root, 'js'))) fs.copyFileSync(path.join(root, 'js', entry), path.join(pkg, entry));
console.log(`built ${path.relative(repo, pkg)}`);
