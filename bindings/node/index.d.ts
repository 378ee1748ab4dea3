/**
 * samekey: deterministic ULIDs, content hashes and revision keys that are identical,
 * byte for byte, in every language samekey supports. Rules: spec/samekey.md.
 *
 * @module samekey
 */

/** A scheme name: `'v1'` (SHA-256), `'v2'` (BLAKE3), `'v0'` (legacy ULIDs only). */
export type Scheme = 'v0' | 'v1' | 'v2';
/** An identity field: text (hashed as UTF-8) or bytes (a Node Buffer is a Uint8Array). */
export type Field = string | Uint8Array;
/**
 * The identity fields in order: an array (or other iterable) of fields. Never a lone
 * string, which is iterable too and would silently hash its characters as fields.
 */
export type Fields = Iterable<Field> & { readonly charAt?: never };
/** A time: a valid Date, integer milliseconds since the epoch, or RFC 3339 text. */
export type Time = Date | number | string;
/** JSON data as JS values; `undefined` members follow JSON.stringify. */
export type JsonValue = null | boolean | number | bigint | string | undefined | JsonValue[] | { [key: string]: JsonValue };

/** Every code a SamekeyError can carry. */
export type ErrorCode =
  | 'timestamp_out_of_range' | 'invalid_timestamp' | 'no_fields' | 'field_too_long'
  | 'invalid_string' | 'empty_secret' | 'unknown_scheme' | 'scheme_not_supported'
  | 'namespace_not_supported' | 'secret_not_supported' | 'invalid_ulid' | 'invalid_key'
  | 'scheme_mismatch' | 'scheme_not_accepted' | 'empty_parent' | 'duplicate_key'
  | 'number_out_of_range' | 'invalid_json' | 'nesting_too_deep' | 'identity_mismatch' | 'io_error';

export declare const ERROR_CODES: readonly ErrorCode[];

/** A samekey operation failed; `code` is shared by every samekey implementation. */
export declare class SamekeyError extends Error {
  constructor(code: ErrorCode, message: string);
  readonly code: ErrorCode;
}

/** A ULID: 48-bit millisecond timestamp and 80 bits. Immutable; compared by its text. */
export declare class Ulid {
  /** Parses ULID text (either case); throws SamekeyError `invalid_ulid`. */
  constructor(text: string);
  static parse(text: string): Ulid;
  static fromBytes(bytes: Uint8Array): Ulid;
  /** The 16 bytes. */
  readonly bytes: Uint8Array;
  /** The same 128 bits as lowercase UUID text. */
  readonly uuid: string;
  readonly timestampMs: number;
  readonly date: Date;
  equals(other: unknown): boolean;
  compare(other: Ulid): -1 | 0 | 1;
  /** The 26-character ULID text. */
  toString(): string;
  toJSON(): string;
}

/**
 * When: `time` (a Date, RFC 3339 text, or a number of milliseconds, which warns once if it
 * reads as seconds) or `timeMs` (integer milliseconds, named so), exactly one of them.
 */
export type TimeOptions = { time: Time; timeMs?: undefined } | { timeMs: number; time?: undefined };

/** The inputs of an id besides its fields, under a key ring's primary scheme. */
export type IdOptions = TimeOptions & { namespace?: string; secret?: Uint8Array | null };

export type UlidOptions = IdOptions & { scheme?: Scheme };

/** The deterministic ULID of `fields` at `time` (spec §4). */
export declare function deriveUlid(fields: Fields, options: UlidOptions): Ulid;
/** The exact bytes hashed for a ULID, to debug a mismatch between implementations. */
export declare function ulidMessage(fields: Fields, options?: { namespace?: string; scheme?: Scheme }): Uint8Array;

/** Derives ids for one scheme, namespace and secret, checked and prepared once. */
export declare class UlidDeriver {
  constructor(options?: { scheme?: Scheme; namespace?: string; secret?: Uint8Array | null });
  readonly scheme: Scheme;
  derive(fields: Fields, options: TimeOptions): Ulid;
  /** Ids of many rows given as columns: `deriveMany(times, [slugs, langs])`. */
  deriveMany(times: Iterable<Time>, columns: Iterable<Field>[], options?: { asString?: false }): Ulid[];
  deriveMany(times: Iterable<Time>, columns: Iterable<Field>[], options: { asString: true }): string[];
}

/** The content hash (`sha256:…` or `blake3:…`) of a string (UTF-8) or bytes. */
export declare function contentHash(data: string | Uint8Array, options?: { scheme?: Scheme }): string;
/**
 * The content hash of a stream, any async iterable of byte chunks (a Node readable stream,
 * a browser `ReadableStream`), without blocking. A string or bytes are hashed as they are,
 * like `contentHash`: a string is always text, never a path (see `contentHashFile`).
 */
export declare function contentHashAsync(
  source: AsyncIterable<Uint8Array> | string | Uint8Array,
  options?: { scheme?: Scheme },
): Promise<string>;
/**
 * The content hash of the file at `path` (a path or `file:` URL), hashed off the main
 * thread in Node. A failure to read it is SamekeyError `io_error` naming the path.
 */
export declare function contentHashFile(path: string | URL, options?: { scheme?: Scheme }): Promise<string>;

/** An incremental content hash. */
export declare class ContentHasher {
  constructor(options?: { scheme?: Scheme });
  update(data: string | Uint8Array): this;
  /** The hash of everything fed so far; feeding may continue. */
  digest(): string;
}

/** RFC 8785 canonical JSON of a JS value. */
export declare function canonicalJson(value: JsonValue): string;
/** RFC 8785 canonical form of JSON text, parsed strictly. */
export declare function canonicalJsonText(json: string): string;
export declare function contentHashJson(value: JsonValue, options?: { scheme?: Scheme }): string;
export declare function contentHashJsonText(json: string, options?: { scheme?: Scheme }): string;

export interface RevisionOptions {
  /** The parent revision; absent or null for a root revision. */
  parent?: string | null;
  /** Defaults to the content hash's scheme. */
  scheme?: Scheme;
  secret?: Uint8Array | null;
}

/** The revision key `H(parent, H(data))` (spec §7). */
export declare function revisionKey(contentHash: string, options?: RevisionOptions): string;
export declare function revisionMessage(contentHash: string, options?: { parent?: string | null; scheme?: Scheme }): Uint8Array;
/** Whether `incoming` content must be written over `stored`. */
export declare function needsWrite(stored: string | null | undefined, incoming: string): boolean;
/** Milliseconds since the epoch of RFC 3339 text with an offset. */
export declare function parseRfc3339(text: string): number;
export declare function parseKey(key: string): { kind: 'content' | 'revision'; scheme: Scheme; canonical: string };

/** Derives under `primary` and recognises every scheme of `accepted` (spec §9). */
export declare class KeyRing {
  constructor(primary: Scheme, accepted?: Iterable<Scheme>);
  /** The ring of `accept`, newest first: the first is the primary. An empty list throws `unknown_scheme`. */
  static fromAccept(accept: Iterable<Scheme>): KeyRing;
  readonly primary: Scheme;
  readonly accepted: Scheme[];
  deriveUlid(fields: Fields, options: IdOptions): Ulid;
  candidateUlids(fields: Fields, options: IdOptions): { scheme: Scheme; ulid: Ulid }[];
  verifyUlid(id: Ulid | string, fields: Fields, options: IdOptions): Scheme;
  contentHash(data: string | Uint8Array): string;
  revisionKey(contentHash: string, options?: { parent?: string | null; secret?: Uint8Array | null }): string;
  schemeOfKey(key: string): Scheme;
}

/** The accepted scheme that derived `id` from the inputs, or SamekeyError `identity_mismatch`. */
export declare function verify(
  id: Ulid | string,
  fields: Fields,
  options: IdOptions & { accept?: Scheme[] },
): Scheme;

/** The samekey core version. */
export declare function version(): string;
/** Runs the embedded test vectors; returns how many passed, throws on the first failure. */
export declare function selftest(): number;

/**
 * What `init` of samekey-wasm's browser entry loads the WebAssembly module from: a URL or
 * path, a fetch `Request` or `Response` (or a promise of one), the module's bytes, or a
 * compiled `WebAssembly.Module`.
 */
export type InitInput = string | URL | Request | Response | ArrayBuffer | ArrayBufferView | object;

/**
 * Resolves to the API once it can be used. In samekey-wasm's browser entry it instantiates
 * the WebAssembly module (from `input`, else from next to the entry file) and must be awaited
 * before anything else is called; in the Node packages it resolves at once, so code that
 * awaits it runs unchanged on every package.
 */
export declare function init(input?: InitInput | Promise<InitInput>): Promise<typeof import('./index')>;
