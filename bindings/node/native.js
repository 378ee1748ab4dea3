'use strict';
// Loads the native addon of this platform: `samekey.<platform>.node` next to this file (a
// build from a checkout), else the package `samekey-<platform>`, which npm installs from
// the main package's optionalDependencies on the matching os, cpu and libc. Where neither
// exists, the error names the platform, the package looked for, and the way out.

// Every platform with a prebuilt addon, and how bindings/node/scripts/dist.mjs builds it.
const PLATFORMS = Object.keys(require('./platforms.json'));

function libc() {
  if (process.platform !== 'linux') return undefined;
  // Node built against glibc reports its version; on musl there is none. The report
  // leaves out network interfaces, whose lookup can be slow.
  process.report.excludeNetwork = true;
  const header = process.report.getReport().header;
  return header && header.glibcVersionRuntime ? 'gnu' : 'musl';
}

function platform() {
  return [process.platform, process.arch, libc()].filter(Boolean).join('-');
}

function load() {
  const name = platform();
  const failures = [];
  // napi-rs names a Windows build from a checkout after its toolchain (win32-x64-msvc).
  for (const file of [name, `${name}-msvc`, `${name}-gnu`]) {
    try {
      return require(`./samekey.${file}.node`);
    } catch (e) {
      if (e.code !== 'MODULE_NOT_FOUND') failures.push(e);
    }
  }
  const pkg = `samekey-${name}`;
  try {
    return require(pkg);
  } catch (e) {
    if (e.code !== 'MODULE_NOT_FOUND' || !String(e.message).includes(pkg)) failures.push(e);
  }
  const why = failures.length ? `\nLoading it failed: ${failures.map((e) => e.message).join('\n')}` : '';
  const error = new Error(PLATFORMS.includes(name)
    ? `samekey: the native addon for ${name} is missing: the package ${pkg} is not installed. ` +
      'npm installs it with samekey unless optional dependencies are left out (--omit=optional, ' +
      '--no-optional) or the lockfile was made on another platform: reinstall samekey on this machine.' + why
    : `samekey: there is no prebuilt native addon for ${name} (looked for ${pkg}); prebuilt ones exist ` +
      `for ${PLATFORMS.join(', ')}. samekey-wasm has the same API over WebAssembly and runs anywhere ` +
      'Node does: npm install samekey-wasm.' + why);
  error.code = 'SAMEKEY_NO_NATIVE_ADDON';
  throw error;
}

module.exports = load();
