// The app the bundler tests build: samekey-wasm as a user imports it, every vector of
// /vectors.json run through the named exports after `init()`. No top-level await, so the
// same source bundles to ES modules, to an IIFE and to ES2020.
import { init, deriveUlid, Ulid, UlidDeriver, SamekeyError, ERROR_CODES } from 'samekey-wasm';
import { runDocument } from 'samekey-wasm/vectors';

async function main() {
  // esbuild does not emit the .wasm that `new URL(..., import.meta.url)` names: its build
  // copies samekey-wasm/samekey.wasm and sets this URL. Vite and webpack need nothing.
  let beforeInit = '';
  try {
    deriveUlid(['x'], { time: 0 });
  } catch (e) {
    beforeInit = e.message;
  }
  // A failed load leaves init() free to be called again.
  const failedLoad = await init('/no-such-module.wasm').then(() => false, () => true);
  const api = await init(globalThis.SAMEKEY_WASM_URL);
  const outcomes = runDocument(api, await (await fetch('/vectors.json')).text());
  const failed = outcomes.filter((o) => !o.passed);
  const time = new Date('2024-05-01T12:00:00Z');
  const id = deriveUlid(['hello-world', 'en'], { time, namespace: 'posts' });
  const same = new UlidDeriver({ namespace: 'posts' }).derive(['hello-world', 'en'], { time });
  let refused = '';
  try {
    Ulid.parse('not a ulid');
  } catch (e) {
    refused = e instanceof SamekeyError ? e.code : String(e);
  }
  return {
    passed: outcomes.length - failed.length,
    failed: failed.map((o) => o.id),
    namedExportsWork: id instanceof Ulid && id.equals(same) && id.toString() === api.deriveUlid(['hello-world', 'en'], { time, namespace: 'posts' }).toString(),
    refused,
    codes: ERROR_CODES.length,
    beforeInit,
    failedLoad,
  };
}

main().then(
  (result) => { window.__result = result; },
  (e) => { window.__result = { error: String(e && e.stack || e) }; },
);
