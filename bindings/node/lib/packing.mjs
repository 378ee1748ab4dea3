// Fields travel to the backend packed in one reused buffer (u32 LE length + bytes each):
// napi converts an array of strings element by element at several times the cost of
// hashing them. Packing is transport only; the samekey framing happens in the core.
// A backend may lend a request buffer that `deriveShared` reads without arguments. The
// napi addon lends a Uint8Array (src/shared_scratch.rs) and returns the id. The wasm
// module names a region of its memory and leaves the id's text at its start; views of
// that memory detach (length 0) when it grows, and are then made again. Packing grows
// past the lent buffer into a private one when a request needs more room.
import { fail, typeName } from './errors.mjs';
import { fieldList } from './args.mjs';

/** The packing state of one backend: its request buffer and the calls that read it. */
export function packing(native, host, translate) {
  let shared, sharedView, sharedText;
  const ascii = native.sharedScratchAddress && new TextDecoder();
  function freshScratch() {
    if (shared === undefined || shared.length === 0) {
      if (native.sharedScratch) shared = native.sharedScratch();
      else if (native.sharedScratchAddress) shared = new Uint8Array(native.wasmMemory().buffer, native.sharedScratchAddress(), 1 << 16);
      else return new Uint8Array(1 << 16);
      sharedView = new DataView(shared.buffer, shared.byteOffset, shared.byteLength);
      sharedText = shared.subarray(0, 26);
    }
    return shared;
  }
  let scratch = freshScratch();

  function reserve(at, extra) {
    // Every packing starts at 0: the moment to replace a detached view.
    if (at === 0 && scratch.length === 0) scratch = freshScratch();
    if (at + extra > scratch.length) {
      const bigger = new Uint8Array(Math.max(scratch.length * 2, at + extra));
      bigger.set(scratch.subarray(0, at));
      scratch = bigger;
    }
  }

  function writeLength(n, at) {
    scratch[at] = n & 255;
    scratch[at + 1] = (n >>> 8) & 255;
    scratch[at + 2] = (n >>> 16) & 255;
    scratch[at + 3] = n >>> 24;
  }

  /**
   * UTF-8 of a string written straight into `scratch`: for the short strings that ids are
   * made of, a JS loop is several times cheaper than a call into Buffer's C++ encoder.
   * A lone surrogate is `invalid_string` (spec §2.2), never replaced.
   */
  function writeUtf8(s, at) {
    for (let i = 0; i < s.length; i++) {
      let c = s.charCodeAt(i);
      if (c < 0x80) {
        scratch[at++] = c;
      } else if (c < 0x800) {
        scratch[at++] = 0xc0 | (c >> 6);
        scratch[at++] = 0x80 | (c & 63);
      } else if (c < 0xd800 || c > 0xdfff) {
        scratch[at++] = 0xe0 | (c >> 12);
        scratch[at++] = 0x80 | ((c >> 6) & 63);
        scratch[at++] = 0x80 | (c & 63);
      } else {
        const low = s.charCodeAt(i + 1);
        if (c > 0xdbff || !(low >= 0xdc00 && low <= 0xdfff)) {
          fail('invalid_string', 'a field contains a lone surrogate: it is not valid Unicode');
        }
        c = 0x10000 + ((c - 0xd800) << 10) + (low - 0xdc00);
        i += 1;
        scratch[at++] = 0xf0 | (c >> 18);
        scratch[at++] = 0x80 | ((c >> 12) & 63);
        scratch[at++] = 0x80 | ((c >> 6) & 63);
        scratch[at++] = 0x80 | (c & 63);
      }
    }
    return at;
  }

  /** Packs one field at `at`; returns its end. */
  function packField(f, at) {
    if (typeof f === 'string') {
      reserve(at, 4 + 3 * f.length);
      const end = writeUtf8(f, at + 4);
      writeLength(end - at - 4, at);
      return end;
    }
    if (f instanceof Uint8Array) {
      reserve(at, 4 + f.length);
      scratch.set(f, at + 4);
      writeLength(f.length, at);
      return at + 4 + f.length;
    }
    throw new TypeError(`a field must be a string or Uint8Array, not ${typeName(f)}`);
  }

  /**
   * Packs a request (see crates/samekey-wire): scheme codes (primary first), whether
   * a secret follows, the field count, then namespace, [secret], fields. Returns its end.
   */
  function packRequest(codes, namespace, secret, fields) {
    const list = fieldList(fields);
    reserve(0, codes.length + 6);
    scratch[0] = codes.length;
    scratch.set(codes, 1);
    scratch[codes.length + 1] = secret === undefined ? 0 : 1;
    writeLength(list.length, codes.length + 2);
    let at = packField(namespace, codes.length + 6);
    if (secret !== undefined) at = packField(secret, at);
    for (let i = 0; i < list.length; i++) at = packField(list[i], at);
    return at;
  }

  /** A copy of the packed settings of a one-scheme request with no fields. */
  function packedSettings(code, namespace, secret) {
    // Pack first: packing may replace `scratch` with a larger buffer.
    const end = packRequest([code], namespace, secret, []);
    return scratch.slice(0, end);
  }

  /** Writes settings from `packedSettings` for a request of `count` fields; returns the end. */
  function unpackSettings(settings, count) {
    reserve(0, settings.length);
    scratch.set(settings, 0);
    writeLength(count, 3); // after k = 1, the code and has_secret
    return settings.length;
  }

  /**
   * Calls a packed native function, then lets a huge scratch buffer go. A backend that
   * copies byte arguments (wasm-bindgen copies into linear memory) gets only the used part.
   */
  function withPacked(end, fn) {
    try {
      if (!host.copiesArguments) return fn(scratch);
      // A view of wasm memory would detach, and copy in as empty, if making room for the
      // copy grew that memory: the lent buffer goes over as a copy of its own.
      return fn(scratch === shared ? scratch.slice(0, end) : scratch.subarray(0, end));
    } catch (e) {
      throw translate(e);
    } finally {
      // Grown for a large request: back to the usual buffer.
      if (scratch.length > 1 << 16) scratch = freshScratch();
    }
  }

  /** The id text of the request packed in `scratch[0, end)` at `ms`. */
  function deriveText(end, ms) {
    if (scratch === shared && end + 8 <= shared.length) {
      sharedView.setFloat64(end, ms, true);
      try {
        const id = native.deriveShared();
        if (id !== undefined) return id;
      } catch (e) {
        throw translate(e);
      }
      if (shared.length === 0) scratch = freshScratch(); // the memory grew during the call
      return ascii.decode(sharedText);
    }
    return withPacked(end, (buf) => native.derivePacked(buf, ms));
  }

  return { packField, packRequest, packedSettings, unpackSettings, withPacked, deriveText };
}
