// Browser entry of samekey-wasm: instantiates the module (fetched next to this file),
// then exports the same API as the Node packages.
import init, * as native from './web/samekey_web.js';
import createSamekey from './lib/api.mjs';
import { runDocument } from './lib/vectors.mjs';

await init();

const samekey = createSamekey(native, { runDocument, copiesArguments: true });
export const {
  ERROR_CODES, SamekeyError, Ulid, UlidDeriver, ContentHasher, KeyRing, deriveUlid, ulidMessage, contentHash,
  contentHashAsync, canonicalJson, canonicalJsonText, contentHashJson, contentHashJsonText, revisionKey,
  revisionMessage, needsWrite, parseRfc3339, parseKey, verify, version, selftest,
} = samekey;
export default samekey;
