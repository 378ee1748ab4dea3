// ES module entry: the same objects as the CommonJS entry (one native addon, one state).
import samekey from './index.js';

export const {
  ERROR_CODES,
  SamekeyError,
  Ulid,
  UlidDeriver,
  ContentHasher,
  KeyRing,
  deriveUlid,
  ulidMessage,
  contentHash,
  contentHashAsync,
  contentHashFile,
  canonicalJson,
  canonicalJsonText,
  contentHashJson,
  contentHashJsonText,
  revisionKey,
  revisionMessage,
  needsWrite,
  parseRfc3339,
  parseKey,
  verify,
  version,
  selftest,
  init,
} = samekey;
export default samekey;
