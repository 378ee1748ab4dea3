'use strict';
// The JavaScript API of samekey: conversions of JS values (times, strings, JSON values,
// errors) over a native backend, which is the napi addon here (index.js) and the
// WebAssembly module in bindings/wasm, whose build makes an ES-module copy of this file.
// Both backends export the same functions, so code moves between the packages unchanged.
// Every rule is in the Rust core; this file only shapes the API for JavaScript.
//
// `native` is the backend. `host` provides `runDocument` (the vector runner, for
// `selftest`), and may provide `openFile(path)` -> async iterable of bytes for hashing
// paths where the backend has no `contentHashFile`, `fileURLToPath`, and
// `copiesArguments` when the backend copies byte arguments rather than borrowing them.

function createSamekey(native, host = {}) {

const ERROR_CODES = Object.freeze(native.errorCodes().split(','));
const CODES = new Set(ERROR_CODES);

/** A samekey operation failed; `code` is the stable code every samekey implementation uses. */
class SamekeyError extends Error {
  constructor(code, message) {
    super(message);
    this.name = 'SamekeyError';
    this.code = code;
  }
}

function fail(code, message) {
  throw new SamekeyError(code, message);
}

/** Native errors carry the core's code; wrong JS types become TypeError. */
function translate(e) {
  if (typeof e === 'string') {
    // The WebAssembly backend throws `code: message` strings.
    if (e.startsWith('TypeError: ')) return new TypeError(e.slice(11));
    e = new Error(e);
  }
  if (e instanceof SamekeyError || !(e instanceof Error)) return e;
  if (CODES.has(e.code)) return new SamekeyError(e.code, e.message);
  const prefixed = /^([a-z_]+): (.*)$/s.exec(e.message); // errors of off-thread tasks
  if (prefixed && CODES.has(prefixed[1])) return new SamekeyError(prefixed[1], prefixed[2]);
  if (e.code === 'TypeError' || e.code === 'InvalidArg' || e.code === 'NumberExpected' || e.code === 'StringExpected') {
    return new TypeError(e.message);
  }
  return e;
}

function call(fn, ...args) {
  try {
    return fn(...args);
  } catch (e) {
    throw translate(e);
  }
}

function typeName(v) {
  if (v === null) return 'null';
  if (typeof v === 'object') return v.constructor ? v.constructor.name : 'object';
  return typeof v;
}

/** napi turns a lone surrogate into U+FFFD; samekey refuses it instead (spec §2.2). */
function text(s, what) {
  if (typeof s !== 'string') throw new TypeError(`${what} must be a string, not ${typeName(s)}`);
  if (!s.isWellFormed()) fail('invalid_string', `${what} contains a lone surrogate: it is not valid Unicode`);
  return s;
}

function field(f) {
  if (typeof f === 'string') return text(f, 'a field');
  if (f instanceof Uint8Array) return f;
  throw new TypeError(`a field must be a string or Uint8Array, not ${typeName(f)}`);
}

// Fields travel to the addon packed in one reused buffer (u32 LE length + bytes each):
// napi converts an array of strings element by element at several times the cost of
// hashing them. Packing is transport only; the samekey framing happens in the core.
// A backend may lend a request buffer that `deriveShared` reads without arguments. The
// napi addon lends a Uint8Array (src/shared_scratch.rs) and returns the id. The wasm
// module names a region of its memory and leaves the id's text at its start; views of
// that memory detach (length 0) when it grows, and are then made again. Packing grows
// past the lent buffer into a private one when a request needs more room.
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

/** The fields argument as an array: any iterable except a lone string or byte array. */
function fieldList(fields) {
  if (Array.isArray(fields)) return fields;
  if (typeof fields === 'string' || fields instanceof Uint8Array || fields == null || typeof fields[Symbol.iterator] !== 'function') {
    throw new TypeError(`fields must be an array of strings/Uint8Arrays, not ${typeName(fields)}`);
  }
  return Array.from(fields);
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
 * Packs a request (see crates' samekey-wire): scheme codes (primary first), whether
 * a secret follows, the field count, then namespace, [secret], fields. Returns its end.
 */
function packRequest(codes, namespace, secret, fields) {
  const list = fieldList(fields);
  if (list.length > 255) throw new TypeError('at most 255 identity fields');
  reserve(0, codes.length + 3);
  scratch[0] = codes.length;
  scratch.set(codes, 1);
  scratch[codes.length + 1] = secret === undefined ? 0 : 1;
  scratch[codes.length + 2] = list.length;
  let at = packField(namespace, codes.length + 3);
  if (secret !== undefined) at = packField(secret, at);
  for (let i = 0; i < list.length; i++) at = packField(list[i], at);
  return at;
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

function schemeArg(scheme) {
  if (typeof scheme !== 'string') throw new TypeError(`scheme must be a string such as 'v1', not ${typeName(scheme)}`);
  return scheme;
}

function secretArg(secret) {
  if (secret === undefined || secret === null) return undefined;
  if (secret instanceof Uint8Array) return secret;
  throw new TypeError(`secret must be a Uint8Array, not ${typeName(secret)}`);
}

function namespaceArg(ns) {
  return ns === undefined ? '' : text(ns, 'namespace');
}

/** A time as milliseconds: a valid Date, an integer number, or RFC 3339 text (spec §8.2). */
function toMs(time) {
  if (time instanceof Date) {
    const ms = time.getTime();
    if (Number.isNaN(ms)) fail('invalid_timestamp', 'the Date is invalid');
    return ms;
  }
  if (typeof time === 'number') return time; // integrality and range: checked by the core
  if (typeof time === 'string') return parseRfc3339(time);
  throw new TypeError(`a time is a Date, integer milliseconds or RFC 3339 string, not ${typeName(time)}`);
}

// The core's limits (samekey::MAX_DEPTH, MAX_SAFE_INTEGER), checked here on JS values
// before they become JSON text.
const [MAX_DEPTH, MAX_SAFE_INTEGER] = Array.from(native.jsonLimits());
const MAX_SAFE_BIGINT = BigInt(MAX_SAFE_INTEGER);

/**
 * A JS value as plain JSON data, following JSON.stringify for `undefined`, functions and
 * symbols (left out of objects, null in arrays). BigInts within 2^53-1 become numbers.
 */
function jsonValue(v, depth, seen) {
  switch (typeof v) {
    case 'string':
      return text(v, 'a JSON string');
    case 'boolean':
      return v;
    case 'number':
      if (!Number.isFinite(v)) fail('number_out_of_range', `${v} is not a finite number`);
      return v;
    case 'bigint':
      if (v > MAX_SAFE_BIGINT || v < -MAX_SAFE_BIGINT) fail('number_out_of_range', `${v} is beyond ±(2^53-1)`);
      return Number(v);
    case 'object':
      break;
    default:
      throw new TypeError(`${typeof v} is not JSON data`);
  }
  if (v === null) return null;
  if (depth >= MAX_DEPTH) fail('nesting_too_deep', `JSON nesting is deeper than ${MAX_DEPTH} levels`);
  if (seen.has(v)) throw new TypeError('cannot hash a cyclic structure as JSON');
  seen.add(v);
  let out;
  if (Array.isArray(v)) {
    out = v.map((x) => (x === undefined || typeof x === 'function' || typeof x === 'symbol' ? null : jsonValue(x, depth + 1, seen)));
  } else {
    const proto = Object.getPrototypeOf(v);
    if (proto !== Object.prototype && proto !== null) {
      throw new TypeError(`${typeName(v)} is not JSON data: use plain objects, arrays, strings, numbers, booleans and null`);
    }
    out = {};
    for (const key of Object.keys(v)) {
      const x = v[key];
      if (x === undefined || typeof x === 'function' || typeof x === 'symbol') continue;
      out[text(key, 'a JSON object key')] = jsonValue(x, depth + 1, seen);
    }
  }
  seen.delete(v);
  return out;
}

function json(value) {
  if (value === undefined) throw new TypeError('undefined is not JSON data');
  return jsonValue(value, 0, new Set());
}

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
    return call(native.ulidBytes, this.#text);
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
function deriveUlid(fields, { time, namespace, scheme = 'v1', secret } = {}) {
  const ms = toMs(time);
  return deriverFor(scheme, namespaceArg(namespace), secretArg(secret)).derive(fields, { time: ms });
}

/** The exact bytes hashed for a ULID (spec §4.2, §4.3). */
function ulidMessage(fields, { namespace, scheme = 'v1' } = {}) {
  const code = call(native.prepareDeriver, schemeArg(scheme), '', undefined);
  const end = packRequest([code], namespaceArg(namespace), undefined, fields);
  return withPacked(end, (buf) => native.ulidMessagePacked(buf));
}

/** Rows per native call of `deriveMany`. */
const BATCH_CHUNK = 2048;

/** Derives ids for one scheme, namespace and secret, checked once. */
class UlidDeriver {
  #code;
  #scheme;
  #namespace;
  #secret;

  constructor({ scheme = 'v1', namespace, secret } = {}) {
    this.#scheme = schemeArg(scheme);
    this.#namespace = namespaceArg(namespace);
    this.#secret = secretArg(secret);
    this.#code = call(native.prepareDeriver, this.#scheme, this.#namespace, this.#secret);
  }

  get scheme() {
    return this.#scheme;
  }

  #settings;

  /** Packs the request header, namespace and secret for `count` fields; returns the end. */
  #packSettings(count) {
    if (this.#settings === undefined) {
      // Pack first: packing may replace `scratch` with a larger buffer.
      const end = packRequest([this.#code], this.#namespace, this.#secret, []);
      this.#settings = scratch.slice(0, end);
    }
    reserve(0, this.#settings.length);
    scratch.set(this.#settings, 0);
    scratch[3] = count; // after k = 1, the code and has_secret
    return this.#settings.length;
  }

  derive(fields, { time } = {}) {
    const ms = typeof time === 'number' ? time : toMs(time);
    const list = fieldList(fields);
    if (list.length > 255) return this.deriveMany([ms], list.map((f) => [f]))[0];
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
    let text = '';
    for (let r = from, k = 0; r < from + ms.length; r++) {
      for (let c = 0; c < width; c++, k++) {
        const f = cols[c][r];
        if (typeof f !== 'string') return undefined;
        text += f;
        lengths[k] = f.length;
      }
    }
    const end = this.#packSettings(0);
    return withPacked(end, (buf) => native.deriveManyUtf16(buf.subarray(0, end), width, ms, text, lengths));
  }

  /** Ids of many rows given as columns: `deriveMany(times, [slugs, langs])`. */
  deriveMany(times, columns, { asString = false } = {}) {
    if (!Array.isArray(columns)) throw new TypeError('columns must be an array of columns');
    const list = Array.isArray(times) ? times : Array.from(times);
    const ms = new Float64Array(list.length);
    for (let i = 0; i < list.length; i++) {
      const t = list[i];
      ms[i] = typeof t === 'number' ? t : toMs(t);
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

/** The content hash (spec §5) of a string (UTF-8) or bytes. */
function contentHash(data, { scheme = 'v1' } = {}) {
  return call(native.contentHash, dataArg(data), schemeArg(scheme));
}

const utf8 = new TextEncoder();

/** Bytes to hash: a string's UTF-8 (refusing lone surrogates) or the bytes themselves. */
function dataArg(data) {
  if (typeof data === 'string') return utf8.encode(text(data, 'data'));
  if (data instanceof Uint8Array) return data;
  throw new TypeError(`data must be a string or Uint8Array, not ${typeName(data)}`);
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

/** The RFC 8785 canonical JSON text of a JS value (spec §6). */
function canonicalJson(value) {
  // JSON.stringify of the checked value is only transport: the core reads its numbers
  // as the doubles they were (spec §6.2) and writes the canonical form itself.
  return call(native.canonicalJsonValue, JSON.stringify(json(value)));
}

/** The RFC 8785 canonical form of JSON text, parsed strictly (spec §6.1). */
function canonicalJsonText(jsonText) {
  return call(native.canonicalJsonText, text(jsonText, 'JSON text'));
}

function contentHashJson(value, { scheme = 'v1' } = {}) {
  return call(native.contentHashJsonValue, JSON.stringify(json(value)), schemeArg(scheme));
}

function contentHashJsonText(jsonText, { scheme = 'v1' } = {}) {
  return call(native.contentHashJsonText, text(jsonText, 'JSON text'), schemeArg(scheme));
}

function parentArg(parent) {
  return parent === undefined || parent === null ? undefined : text(parent, 'parent');
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

/** Milliseconds since the epoch of RFC 3339 text (spec §8.1). */
function parseRfc3339(rfc3339) {
  return call(native.parseRfc3339, text(rfc3339, 'timestamp'));
}

/** `{ kind, scheme, canonical }` of a content hash or revision key text. */
function parseKey(key) {
  const [kind, scheme, canonical] = call(native.parseKey, text(key, 'key')).split(' ');
  return { kind, scheme, canonical };
}

// Marks a constructor call from KeyRing.fromAccept (private fields need the constructor).
const FROM_ACCEPT = Symbol('fromAccept');

/** Derives under `primary` and recognises every scheme of `accepted` (spec §9). */
class KeyRing {
  #codes;
  #schemes;

  constructor(primary, accepted = []) {
    const names = primary === FROM_ACCEPT
      ? Array.from(accepted, schemeArg)
      : [schemeArg(primary), ...Array.from(accepted, schemeArg)];
    this.#codes = call(native.prepareRing, names);
    this.#schemes = Array.from(this.#codes, (c) => ['v0', 'v1', 'v2'][c]);
  }

  /** The ring of `accept`, newest first: the first is the primary (spec §9). An empty list throws `unknown_scheme`. */
  static fromAccept(accept) {
    return new KeyRing(FROM_ACCEPT, accept);
  }

  get primary() {
    return this.#schemes[0];
  }

  /** The accepted schemes, primary first, then newest to oldest. */
  get accepted() {
    return [...this.#schemes];
  }

  #pack(fields, namespace, secret) {
    return packRequest(this.#codes, namespaceArg(namespace), secretArg(secret), fields);
  }

  deriveUlid(fields, { time, namespace, secret } = {}) {
    const ms = toMs(time);
    const end = this.#pack(fields, namespace, secret);
    return Ulid._trusted(deriveText(end, ms));
  }

  candidateUlids(fields, { time, namespace, secret } = {}) {
    const ms = toMs(time);
    const end = this.#pack(fields, namespace, secret);
    const words = withPacked(end, (buf) => native.candidatesPacked(buf, ms)).split(' ');
    const found = [];
    for (let i = 0; i < words.length; i += 2) found.push({ scheme: words[i], ulid: Ulid._trusted(words[i + 1]) });
    return found;
  }

  verifyUlid(id, fields, { time, namespace, secret } = {}) {
    const ms = toMs(time);
    const idText = ulidText(id);
    const end = this.#pack(fields, namespace, secret);
    return withPacked(end, (buf) => native.verifyPacked(buf, idText, ms));
  }

  contentHash(data) {
    return contentHash(data, { scheme: this.#schemes[0] });
  }

  revisionKey(contentHash_, { parent, secret } = {}) {
    return call(native.ringRevisionKey, this.#codes, text(contentHash_, 'contentHash'), parentArg(parent), secretArg(secret));
  }

  schemeOfKey(key) {
    return call(native.ringSchemeOfKey, this.#codes, text(key, 'key'));
  }
}

/**
 * The scheme (of `accept`, newest first) that derived `id` from these inputs, or a
 * SamekeyError with code `identity_mismatch`: the guard that refuses a write which would
 * orphan the document stored under `id`.
 */
function verify(id, fields, { time, namespace, accept = ['v1'], secret } = {}) {
  return KeyRing.fromAccept(accept).verifyUlid(id, fields, { time, namespace, secret });
}

function version() {
  return native.coreVersion();
}

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
  Ulid,
  UlidDeriver,
  ContentHasher,
  KeyRing,
  deriveUlid,
  ulidMessage,
  contentHash,
  contentHashAsync,
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
};
return api;
}

module.exports = createSamekey;
