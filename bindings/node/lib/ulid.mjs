// ULIDs: the Ulid value, derivers (one id, many rows) and the message behind an id (spec §4).
import { text, typeName } from './errors.mjs';
import { fieldList, namespaceArg, optionsArg, schemeArg, secretArg, stringsFirst } from './args.mjs';
import { warnIfSeconds } from './time.mjs';

/** Crockford's base 32 digits' values by character code (the canonical text's upper case). */
const DIGIT_VALUE = new Uint8Array(128);
for (const [i, c] of [...'0123456789ABCDEFGHJKMNPQRSTVWXYZ'].entries()) DIGIT_VALUE[c.charCodeAt(0)] = i;

/**
 * The 16 bytes of canonical ULID text (the core made it: 26 digits, the first at most 7).
 * Decoded here: a native call returning a new Buffer cost Node 1.2 µs and the WASM build
 * 0.45 µs (`just bench-matrix`); the test suite holds this to the core's `fromBytes`.
 */
function bytesOfCanonical(text_) {
  const out = new Uint8Array(16);
  let acc = DIGIT_VALUE[text_.charCodeAt(0)];
  let bits = 3;
  for (let i = 1, o = 0; i < 26; i++) {
    acc = (acc << 5) | DIGIT_VALUE[text_.charCodeAt(i)];
    bits += 5;
    if (bits >= 8) {
      bits -= 8;
      out[o++] = acc >>> bits;
      acc &= (1 << bits) - 1;
    }
  }
  return out;
}

/** Rows per native call of `deriveMany`. */
const BATCH_CHUNK = 2048;

export function ulids(native, { call, packing, toMs, timeOf, timeOfCall }) {
  const { packField, packRequest, packedSettings, unpackSettings, withPacked, deriveText } = packing;
  const TRUSTED = Symbol('canonical text made by the core');

  /** A ULID: 48-bit millisecond timestamp and 80 bits; immutable, compared by its text. */
  class Ulid {
    #text;

    /** Parses ULID text in either case. */
    constructor(text_, trusted = undefined) {
      this.#text = trusted === TRUSTED ? text_ : call(native.ulidCanonical, text(text_, 'ULID text'));
    }

    static parse(text_) {
      return new Ulid(text_);
    }

    static fromBytes(bytes) {
      if (!(bytes instanceof Uint8Array)) throw new TypeError(`bytes must be a Uint8Array, not ${typeName(bytes)}`);
      return new Ulid(call(native.ulidFromBytes, bytes));
    }

    /** @internal Wraps canonical text that the core produced. */
    static _trusted(canonical) {
      return new Ulid(canonical, TRUSTED);
    }

    get bytes() {
      return bytesOfCanonical(this.#text);
    }

    get uuid() {
      return call(native.ulidUuid, this.#text);
    }

    get timestampMs() {
      return call(native.ulidTimestampMs, this.#text);
    }

    get date() {
      return new Date(this.timestampMs);
    }

    equals(other) {
      return other instanceof Ulid && other.#text === this.#text;
    }

    /** -1, 0 or 1: ULID text order, which is timestamp order. */
    compare(other) {
      if (!(other instanceof Ulid)) throw new TypeError(`cannot compare a Ulid with ${typeName(other)}`);
      return this.#text < other.#text ? -1 : this.#text > other.#text ? 1 : 0;
    }

    toString() {
      return this.#text;
    }

    toJSON() {
      return this.#text;
    }

    [Symbol.toPrimitive]() {
      return this.#text;
    }

    [Symbol.for('nodejs.util.inspect.custom')]() {
      return `Ulid(${this.#text})`;
    }
  }

  function ulidText(id) {
    return id instanceof Ulid ? id.toString() : text(id, 'an id');
  }

  /** Derives ids for one scheme, namespace and secret, checked once. */
  class UlidDeriver {
    #code;
    #scheme;
    #namespace;
    #secret;
    #settings;

    constructor(options) {
      const { scheme = 'v1', namespace, secret } = optionsArg(options, ['scheme', 'namespace', 'secret'], 'UlidDeriver');
      this.#scheme = schemeArg(scheme);
      this.#namespace = namespaceArg(namespace);
      this.#secret = secretArg(secret);
      this.#code = call(native.prepareDeriver, this.#scheme, this.#namespace, this.#secret);
    }

    get scheme() {
      return this.#scheme;
    }

    /** Packs the request header, namespace and secret for `count` fields; returns the end. */
    #packSettings(count) {
      this.#settings ??= packedSettings(this.#code, this.#namespace, this.#secret);
      return unpackSettings(this.#settings, count);
    }

    derive(fields, options) {
      // The hot path: one cheap loop instead of optionsArg's general check.
      for (const key in options) if (key !== 'time') optionsArg(options, ['time', 'timeMs'], 'UlidDeriver.derive');
      const time = options?.time;
      let ms;
      if (typeof time === 'number') {
        ms = time;
        if (ms < 1e10) warnIfSeconds(native, ms);
      } else {
        ms = timeOfCall(options ?? {}, fields);
      }
      const list = fieldList(fields);
      let end = this.#packSettings(list.length);
      for (let i = 0; i < list.length; i++) end = packField(list[i], end);
      return Ulid._trusted(deriveText(end, ms));
    }

    #deriveManyPacked(ms, cols, from) {
      let at = this.#packSettings(0);
      for (let r = from; r < from + ms.length; r++) {
        for (const c of cols) at = packField(c[r], at);
      }
      return withPacked(at, (buf) => native.deriveManyPacked(buf, cols.length, ms));
    }

    // All-string columns go to the engine as one joined string and the UTF-16 length of
    // each field: no per-character loop in JavaScript. Undefined if a field is not a string.
    #deriveManyText(ms, cols, from) {
      const width = cols.length;
      const lengths = new Uint32Array(ms.length * width);
      // A rope: V8 concatenates lazily and flattens once, when the engine reads it.
      let joined = '';
      for (let r = from, k = 0; r < from + ms.length; r++) {
        for (let c = 0; c < width; c++, k++) {
          const f = cols[c][r];
          if (typeof f !== 'string') return undefined;
          joined += f;
          lengths[k] = f.length;
        }
      }
      const end = this.#packSettings(0);
      return withPacked(end, (buf) => native.deriveManyUtf16(buf.subarray(0, end), width, ms, joined, lengths));
    }

    /** Ids of many rows given as columns: `deriveMany(times, [slugs, langs])`. */
    deriveMany(times, columns, options) {
      const { asString = false } = optionsArg(options, ['asString'], 'UlidDeriver.deriveMany');
      if (!Array.isArray(columns)) throw new TypeError('columns must be an array of columns');
      const list = Array.isArray(times) ? times : Array.from(times);
      const ms = new Float64Array(list.length);
      for (let i = 0; i < list.length; i++) {
        const t = list[i];
        ms[i] = typeof t === 'number' ? t : toMs(t);
        if (ms[i] < 1e10) warnIfSeconds(native, ms[i]);
      }
      // Arrays are read in place (nothing runs between reading and hashing); other iterables once.
      const cols = columns.map((c) => (Array.isArray(c) ? c : Array.from(c)));
      cols.forEach((c, i) => {
        if (c.length !== ms.length) throw new TypeError(`column ${i} has ${c.length} values but there are ${ms.length} times`);
      });
      const ids = new Array(ms.length);
      // In chunks, so that each chunk's joined text and ids stay small strings in V8's young
      // generation: a megabyte string is a large object, mapped and faulted in afresh on
      // every call (measured: ~12 % of a key's cost at 20,000 rows in one piece).
      let from = 0;
      do {
        const part = ms.subarray(from, from + BATCH_CHUNK);
        const joined = (native.deriveManyUtf16 && this.#deriveManyText(part, cols, from)) ?? this.#deriveManyPacked(part, cols, from);
        for (let i = 0; i < part.length; i++) {
          const id = joined.slice(26 * i, 26 * i + 26);
          ids[from + i] = asString ? id : Ulid._trusted(id);
        }
        from += BATCH_CHUNK;
      } while (from < ms.length);
      return ids;
    }
  }

  // Prepared derivers for keyless (scheme, namespace) pairs, so `deriveUlid` pays the
  // preparation once; bounded, since namespaces may come from data.
  // Keyed by scheme, then namespace: no key string to build on every call.
  const derivers = new Map();

  function deriverFor(scheme, namespace, secret) {
    if (secret !== undefined) return new UlidDeriver({ scheme, namespace, secret });
    let byNamespace = derivers.get(schemeArg(scheme));
    if (byNamespace === undefined) {
      if (derivers.size >= 16) derivers.clear();
      derivers.set(scheme, (byNamespace = new Map()));
    }
    let d = byNamespace.get(namespace);
    if (d === undefined) {
      d = new UlidDeriver({ scheme, namespace });
      if (byNamespace.size >= 64) byNamespace.clear();
      byNamespace.set(namespace, d);
    }
    return d;
  }

  /** The deterministic ULID of `fields` at `time` (spec §4). */
  function deriveUlid(fields, options) {
    const opts = optionsArg(options, ['time', 'timeMs', 'namespace', 'scheme', 'secret'], 'deriveUlid');
    const { namespace, scheme = 'v1', secret } = opts;
    const ms = timeOfCall(opts, fields, [[scheme, 'scheme']]);
    const deriver = stringsFirst(namespace, fields, () => deriverFor(scheme, namespaceArg(namespace), secretArg(secret)));
    return deriver.derive(fields, { timeMs: ms });
  }

  /** The exact bytes hashed for a ULID (spec §4.2, §4.3). */
  function ulidMessage(fields, options) {
    const { namespace, scheme = 'v1' } = optionsArg(options, ['namespace', 'scheme'], 'ulidMessage');
    const code = call(native.prepareDeriver, schemeArg(scheme), '', undefined);
    const end = packRequest([code], namespaceArg(namespace), undefined, fields);
    return withPacked(end, (buf) => native.ulidMessagePacked(buf));
  }

  return { Ulid, ulidText, UlidDeriver, deriveUlid, ulidMessage };
}
