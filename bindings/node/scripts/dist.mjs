// The npm release artifacts in target/dist/npm: one package per platform of
// bindings/node/platforms.json (the napi-rs layout: `samekey-<platform>` with os, cpu and
// libc, holding `samekey.<platform>.node`), the main `samekey` package naming them in
// optionalDependencies, and samekey-wasm; each also as the tarball `npm pack` makes.
// Linux and macOS addons are cross-built with cargo-zigbuild (zig from target/dist-tools),
// which holds glibc at 2.17; Windows with Debian's mingw-w64.
//
//   node bindings/node/scripts/dist.mjs [platform...]     (every platform by default)
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const nodeDir = path.join(repo, 'bindings/node');
const out = path.join(repo, 'target/dist/npm');
const platforms = JSON.parse(fs.readFileSync(path.join(nodeDir, 'platforms.json'), 'utf8'));
const main = JSON.parse(fs.readFileSync(path.join(nodeDir, 'package.json'), 'utf8'));
const wanted = process.argv.slice(2).length ? process.argv.slice(2) : Object.keys(platforms);
const env = { ...process.env, PATH: `${path.join(repo, 'target/dist-tools/bin')}:${process.env.PATH}` };
const run = (cmd, args, opts = {}) => execFileSync(cmd, args, { stdio: ['ignore', 'inherit', 'inherit'], env, ...opts });
const LICENSES = ['LICENSE-MIT', 'LICENSE-APACHE'];
const COMMON = ['version', 'license', 'homepage', 'repository', 'bugs', 'engines'];

function build(target) {
  const triple = target.replace(/\.\d+\.\d+$/, ''); // x86_64-unknown-linux-gnu.2.17: glibc pin
  const installed = execFileSync('rustup', ['target', 'list', '--installed']).toString().split('\n');
  if (!installed.includes(triple)) run('rustup', ['target', 'add', triple]);
  if (triple.endsWith('windows-gnu')) {
    run(path.join(repo, 'scripts/setup-system.sh'), []); // mingw-w64
    // napi-build links `node` for the GNU target, expecting the libnode.dll of a shared-library
    // Node; with dyn-symbols nothing is taken from it, so an empty archive stands in.
    const libnode = path.join(repo, 'target', triple, 'libnode');
    fs.mkdirSync(libnode, { recursive: true });
    fs.writeFileSync(path.join(libnode, 'libnode.dll'), '');
    run('x86_64-w64-mingw32-ar', ['rc', path.join(libnode, 'libnode.a')]);
    run('cargo', ['build', '--release', '-p', 'samekey-node', '--target', triple], { cwd: repo, env: { ...env, LIBNODE_PATH: libnode } });
  } else {
    // A cdylib on musl must link the C library dynamically: the host (Node) has it.
    const musl = { [`CARGO_TARGET_${triple.toUpperCase().replaceAll('-', '_')}_RUSTFLAGS`]: '-C target-feature=-crt-static' };
    // Without it zig stamps its newest macOS as the minimum; these are rustc's own floors.
    const macos = { MACOSX_DEPLOYMENT_TARGET: triple.startsWith('aarch64') ? '11.0' : '10.12' };
    run('cargo', ['zigbuild', '--release', '-p', 'samekey-node', '--target', target], {
      cwd: repo, env: { ...env, ...(triple.endsWith('musl') ? musl : {}), ...(triple.endsWith('darwin') ? macos : {}) },
    });
  }
  const dir = path.join(repo, 'target', triple, 'release');
  const file = ['libsamekey_node.so', 'libsamekey_node.dylib', 'samekey_node.dll'].find((f) => fs.existsSync(path.join(dir, f)));
  return path.join(dir, file);
}

function pack(dir) {
  const name = execFileSync('npm', ['pack', '--silent', '--pack-destination', out], { cwd: dir, env }).toString().trim().split('\n').pop();
  return path.join(out, name);
}

fs.mkdirSync(out, { recursive: true });
for (const name of wanted) {
  const p = platforms[name];
  if (!p) throw new Error(`unknown platform ${name}: one of ${Object.keys(platforms).join(', ')}`);
  console.error(`dist-node: ${name} (${p.target})`);
  const dir = path.join(out, `samekey-${name}`);
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  const binary = `samekey.${name}.node`;
  fs.copyFileSync(build(p.target), path.join(dir, binary));
  for (const f of LICENSES) fs.copyFileSync(path.join(repo, f), path.join(dir, f));
  fs.writeFileSync(path.join(dir, 'README.md'),
    `# samekey-${name}\n\nThe ${name} native addon of [samekey](https://www.npmjs.com/package/samekey), built from ` +
    `\`${p.target}\`. Install \`samekey\`, not this package: npm picks it for this platform.\n`);
  const manifest = {
    name: `samekey-${name}`, ...Object.fromEntries(COMMON.map((k) => [k, main[k]])),
    description: `The ${name} native addon of samekey`,
    os: [p.os], cpu: [p.cpu], ...(p.libc ? { libc: [p.libc] } : {}),
    main: binary, files: [binary, ...LICENSES],
  };
  fs.writeFileSync(path.join(dir, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  console.log(path.relative(repo, pack(dir)));
}

// The main package, staged as npm would pack it from bindings/node, without a local addon
// and with every platform package as an exact optional dependency.
const stage = path.join(out, 'samekey');
fs.rmSync(stage, { recursive: true, force: true });
fs.mkdirSync(stage, { recursive: true });
for (const f of [...LICENSES]) fs.copyFileSync(path.join(repo, f), path.join(nodeDir, f));
for (const entry of main.files.filter((f) => f !== '*.node')) {
  fs.cpSync(path.join(nodeDir, entry), path.join(stage, entry), { recursive: true });
}
fs.copyFileSync(path.join(nodeDir, 'README.md'), path.join(stage, 'README.md'));
const { devDependencies, scripts, napi, ...released } = main;
released.files = main.files.filter((f) => f !== '*.node');
released.optionalDependencies = Object.fromEntries(Object.keys(platforms).map((n) => [`samekey-${n}`, main.version]));
fs.writeFileSync(path.join(stage, 'package.json'), `${JSON.stringify(released, null, 2)}\n`);
console.log(path.relative(repo, pack(stage)));
console.log(path.relative(repo, pack(path.join(repo, 'bindings/wasm'))));
