// Content hashes (spec §5), revision keys (spec §7), the write guard (spec §9.3) and key texts.
import { SamekeyError, text, typeName } from './errors.mjs';
import { dataArg, optionsArg, parentArg, schemeArg, secretArg } from './args.mjs';

export function contentKeys(native, host, { call, translate }) {
  /** The content hash (spec §5) of a string (UTF-8) or bytes. */
  function contentHash(data, options) {
    const { scheme = 'v1' } = optionsArg(options, ['scheme'], 'contentHash');
    return call(native.contentHash, dataArg(data), schemeArg(scheme));
  }

  /** An incremental content hash: `update()` with chunks, `digest()` for the text. */
  class ContentHasher {
    #inner;

    constructor(options) {
      const { scheme = 'v1' } = optionsArg(options, ['scheme'], 'ContentHasher');
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
   * The content hash of a file, given by its path or `file:` URL, without blocking the
   * event loop (hashed on the libuv thread pool by the napi package). A failure to read it
   * is a SamekeyError `io_error` naming the path.
   */
  async function contentHashFile(path, options) {
    const { scheme = 'v1' } = optionsArg(options, ['scheme'], 'contentHashFile');
    schemeArg(scheme);
    if (native.contentHashFile === undefined && host.openFile === undefined) {
      throw new TypeError('contentHashFile: this environment has no files; hash a stream with contentHashAsync');
    }
    const file = path instanceof URL ? host.fileURLToPath(path) : text(path, 'path');
    if (native.contentHashFile === undefined) return hashChunks(host.openFile(file), scheme, file);
    try {
      return await native.contentHashFile(file, scheme);
    } catch (e) {
      throw translate(e);
    }
  }

  /**
   * The content hash of a stream, any async iterable of byte chunks (a Node readable
   * stream, a browser `ReadableStream`), without blocking the event loop. A string or
   * bytes are hashed as they are, as by `contentHash`: a string is text, never a path
   * (use `contentHashFile` for files).
   */
  async function contentHashAsync(source, options) {
    const { scheme = 'v1' } = optionsArg(options, ['scheme'], 'contentHashAsync');
    schemeArg(scheme);
    if (typeof source === 'string' || source instanceof Uint8Array) return contentHash(source, { scheme });
    if (source == null || typeof source[Symbol.asyncIterator] !== 'function') {
      throw new TypeError(`source must be a readable stream, an async iterable of bytes, a string or bytes, not ${typeName(source)} (a file goes to contentHashFile)`);
    }
    return hashChunks(source, scheme, 'the stream');
  }

  async function hashChunks(source, scheme, name) {
    const hasher = new ContentHasher({ scheme });
    try {
      for await (const chunk of source) {
        if (!(chunk instanceof Uint8Array)) throw new TypeError(`stream chunks must be bytes, not ${typeName(chunk)}: do not set an encoding`);
        hasher.update(chunk);
      }
    } catch (e) {
      if (e instanceof TypeError || e instanceof SamekeyError) throw e;
      throw new SamekeyError('io_error', `reading ${name} failed: ${e && e.message}`);
    }
    return hasher.digest();
  }

  /** The revision key of content on a parent revision (spec §7). */
  function revisionKey(contentHash_, options) {
    const { parent, scheme, secret } = optionsArg(options, ['parent', 'scheme', 'secret'], 'revisionKey');
    return call(native.revisionKey, text(contentHash_, 'contentHash'), parentArg(parent), scheme === undefined ? undefined : schemeArg(scheme), secretArg(secret));
  }

  function revisionMessage(contentHash_, options) {
    const { parent, scheme } = optionsArg(options, ['parent', 'scheme'], 'revisionMessage');
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

  return { contentHash, ContentHasher, contentHashAsync, contentHashFile, revisionKey, revisionMessage, needsWrite, parseKey };
}
