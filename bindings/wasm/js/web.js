// Browser (and bundler) entry of samekey-wasm. Nothing runs at import: `await init()`
// instantiates the WebAssembly module, by default fetched from next to this file
// (`new URL(..., import.meta.url)`, which Vite and webpack 5 turn into an emitted asset),
// or from what the host passes: a URL or path string, a Request or Response (or a promise
// of one), the module's bytes, or a compiled WebAssembly.Module. It resolves to the API,
// and the named exports below work from then on, exactly as in the Node packages.
import initWasm, * as native from './web/samekey_web.js';
import createSamekey from './lib/api.mjs';
import { SamekeyError } from './lib/errors.mjs';
import { runDocument } from './lib/vectors.mjs';

let api;
let pending;

/** Instantiates the WebAssembly module once; resolves to the API. */
export function init(input) {
  pending ??= (async () => {
    await initWasm(input === undefined ? undefined : { module_or_path: await input });
    api = createSamekey(native, { runDocument, copiesArguments: true });
    ERROR_CODES.push(...api.ERROR_CODES);
    Object.freeze(ERROR_CODES);
    return api;
  })().catch((e) => {
    pending = undefined; // a failed fetch may be retried, with the same input or another
    throw e;
  });
  return pending;
}

function ready() {
  if (api === undefined) {
    throw new Error('samekey-wasm is not initialized: `await init()` first (see the README, "Bundlers")');
  }
  return api;
}

const forward = (name) => ({ [name]: (...args) => ready()[name](...args) })[name];

// A constructor that builds the API's class of that name, and answers `instanceof` for it.
function forwardClass(name, statics = []) {
  const Class = function (...args) {
    if (new.target === undefined) throw new TypeError(`Class constructor ${name} cannot be invoked without 'new'`);
    return new (ready()[name])(...args);
  };
  Object.defineProperty(Class, 'name', { value: name });
  Object.defineProperty(Class, Symbol.hasInstance, { value: (x) => api !== undefined && x instanceof api[name] });
  for (const s of statics) Class[s] = (...args) => ready()[name][s](...args);
  return Class;
}

/** The core's error codes; filled by `init()`. */
export const ERROR_CODES = [];
export { SamekeyError };
export const Ulid = forwardClass('Ulid', ['parse', 'fromBytes']);
export const UlidDeriver = forwardClass('UlidDeriver');
export const ContentHasher = forwardClass('ContentHasher');
export const KeyRing = forwardClass('KeyRing', ['fromAccept']);
export const deriveUlid = forward('deriveUlid');
export const ulidMessage = forward('ulidMessage');
export const contentHash = forward('contentHash');
export const contentHashAsync = forward('contentHashAsync');
export const contentHashFile = forward('contentHashFile');
export const canonicalJson = forward('canonicalJson');
export const canonicalJsonText = forward('canonicalJsonText');
export const contentHashJson = forward('contentHashJson');
export const contentHashJsonText = forward('contentHashJsonText');
export const revisionKey = forward('revisionKey');
export const revisionMessage = forward('revisionMessage');
export const needsWrite = forward('needsWrite');
export const parseRfc3339 = forward('parseRfc3339');
export const parseKey = forward('parseKey');
export const verify = forward('verify');
export const version = forward('version');
export const selftest = forward('selftest');

// The default export holds the same bindings, for `import samekey from 'samekey-wasm'`.
export default {
  init, ERROR_CODES, SamekeyError, Ulid, UlidDeriver, ContentHasher, KeyRing, deriveUlid, ulidMessage, contentHash,
  contentHashAsync, contentHashFile, canonicalJson, canonicalJsonText, contentHashJson, contentHashJsonText, revisionKey,
  revisionMessage, needsWrite, parseRfc3339, parseKey, verify, version, selftest,
};
