// Node entry of samekey-wasm (ES module): the same objects as node.cjs.
import { createRequire } from 'node:module';

const samekey = createRequire(import.meta.url)('./node.cjs');
export const {
  ERROR_CODES, SamekeyError, Ulid, UlidDeriver, ContentHasher, KeyRing, deriveUlid, ulidMessage, contentHash,
  contentHashAsync, contentHashFile, canonicalJson, canonicalJsonText, contentHashJson, contentHashJsonText, revisionKey,
  revisionMessage, needsWrite, parseRfc3339, parseKey, verify, version, selftest, init,
} = samekey;
export default samekey;
