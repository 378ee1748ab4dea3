// The JavaScript API of samekey: conversions of JS values (times, strings, JSON values,
// errors) over a native backend, which is the napi addon of bindings/node and the
// WebAssembly module of bindings/wasm (whose build copies this folder as it is). Both
// backends export the same functions, so code moves between the packages unchanged.
// Every rule is in the Rust core; these modules only shape the API for JavaScript.
//
// `native` is the backend. `host` provides `runDocument` (the vector runner, for
// `selftest`), and may provide `openFile(path)` -> async iterable of bytes for hashing
// paths where the backend has no `contentHashFile`, `fileURLToPath`, and
// `copiesArguments` when the backend copies byte arguments rather than borrowing them.
import { SamekeyError, translation } from './errors.mjs';
import { packing } from './packing.mjs';
import { times } from './time.mjs';
import { canonicalJsonOf } from './json.mjs';
import { ulids } from './ulid.mjs';
import { contentKeys } from './content.mjs';
import { keyRings } from './keyring.mjs';

export default function createSamekey(native, host = {}) {
  const ERROR_CODES = Object.freeze(native.errorCodes().split(','));
  const { translate, call } = translation(ERROR_CODES);
  const pack = packing(native, host, translate);
  const { parseRfc3339, toMs, timeOf, timeOfCall } = times(native, call);
  const json = canonicalJsonOf(native, call);
  const ids = ulids(native, { call, packing: pack, toMs, timeOf, timeOfCall });
  const content = contentKeys(native, host, { call, translate });
  const rings = keyRings(native, { call, packing: pack, timeOfCall, ...ids, contentHash: content.contentHash });

  /** Runs the embedded test vectors through this package; returns how many passed. */
  function selftest() {
    const outcomes = host.runDocument(api, native.selftestVectors());
    const failed = outcomes.find((o) => !o.passed);
    if (failed) throw new Error(`samekey selftest: ${failed.id}: expected ${JSON.stringify(failed.expected)}, got ${JSON.stringify(failed.actual)}`);
    return outcomes.length;
  }

  const api = {
    ERROR_CODES,
    SamekeyError,
    Ulid: ids.Ulid,
    UlidDeriver: ids.UlidDeriver,
    ContentHasher: content.ContentHasher,
    KeyRing: rings.KeyRing,
    deriveUlid: ids.deriveUlid,
    ulidMessage: ids.ulidMessage,
    contentHash: content.contentHash,
    contentHashAsync: content.contentHashAsync,
    contentHashFile: content.contentHashFile,
    canonicalJson: json.canonicalJson,
    canonicalJsonText: json.canonicalJsonText,
    contentHashJson: json.contentHashJson,
    contentHashJsonText: json.contentHashJsonText,
    revisionKey: content.revisionKey,
    revisionMessage: content.revisionMessage,
    needsWrite: content.needsWrite,
    parseRfc3339,
    parseKey: content.parseKey,
    verify: rings.verify,
    version: () => native.coreVersion(),
    selftest,
    // Resolves at once: the WebAssembly package's browser entry has a real one, so code
    // that awaits init() runs unchanged on either package.
    init: async () => api,
  };
  return api;
}
