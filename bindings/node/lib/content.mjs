// Content hashes (spec §5), revision keys (spec §7), the write guard (spec §9.3) and key texts.
import { SamekeyError, text, typeName } from './errors.mjs';
import { dataArg, parentArg, schemeArg, secretArg } from './args.mjs';

export function contentKeys(native, host, { call, translate }) {
  /** The content hash (spec §5) of a string (UTF-8) or bytes. */
  function contentHash(data, { scheme = 'v1' } = {}) {
    return call(native.contentHash, dataArg(data), schemeArg(scheme));
  }

  /** An incremental content hash: `update()` with chunks, `digest()` for the text. */
  class ContentHasher {
    #inner;

    constructor({ scheme = 'v1' } = {}) {
      this.#inner = call(() => new native.ContentHasher(schemeArg(scheme)));
    }

    update(data) {
      this.#inner.update(dataArg(data));
      return this;
    }

    /** The hash of everything fed so far; feeding may continue. */
    digest() {
      return this.#inner.finalize();
    }
  }

  /**
   * The content hash of a file (a path: hashed on the libuv thread pool) or of a readable
   * stream / async iterable of chunks, without blocking the event loop.
   */
  async function contentHashAsync(source, { scheme = 'v1' } = {}) {
    schemeArg(scheme);
    if (typeof source === 'string' || source instanceof URL) {
      if (native.contentHashFile === undefined && host.openFile === undefined) {
        throw new TypeError('this environment has no files: pass a stream or async iterable of bytes');
      }
      const path = source instanceof URL ? host.fileURLToPath(source) : text(source, 'path');
      if (native.contentHashFile === undefined) source = host.openFile(path);
      else {
        try {
          return await native.contentHashFile(path, scheme);
        } catch (e) {
          throw translate(e);
        }
      }
    }
    if (source == null || typeof source[Symbol.asyncIterator] !== 'function') {
      throw new TypeError(`source must be a path, URL, readable stream or async iterable, not ${typeName(source)}`);
    }
    const hasher = new ContentHasher({ scheme });
    try {
      for await (const chunk of source) {
        if (!(chunk instanceof Uint8Array)) throw new TypeError(`stream chunks must be bytes, not ${typeName(chunk)}: do not set an encoding`);
        hasher.update(chunk);
      }
    } catch (e) {
      if (e instanceof TypeError || e instanceof SamekeyError) throw e;
      throw new SamekeyError('io_error', `reading the data failed: ${e && e.message}`);
    }
    return hasher.digest();
  }

  /** The revision key of content on a parent revision (spec §7). */
  function revisionKey(contentHash_, { parent, scheme, secret } = {}) {
    return call(native.revisionKey, text(contentHash_, 'contentHash'), parentArg(parent), scheme === undefined ? undefined : schemeArg(scheme), secretArg(secret));
  }

  function revisionMessage(contentHash_, { parent, scheme } = {}) {
    return call(native.revisionMessage, text(contentHash_, 'contentHash'), parentArg(parent), scheme === undefined ? undefined : schemeArg(scheme));
  }

  /** Whether `incoming` content must be written over `stored` (spec §9.3). */
  function needsWrite(stored, incoming) {
    return call(native.needsWrite, stored == null ? undefined : text(stored, 'stored'), text(incoming, 'incoming'));
  }

  /** `{ kind, scheme, canonical }` of a content hash or revision key text. */
  function parseKey(key) {
    const [kind, scheme, canonical] = call(native.parseKey, text(key, 'key')).split(' ');
    return { kind, scheme, canonical };
  }

  return { contentHash, ContentHasher, contentHashAsync, revisionKey, revisionMessage, needsWrite, parseKey };
}
