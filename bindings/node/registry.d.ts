/**
 * The registry client (`samekey/registry`, and `samekey-wasm/registry` in browsers):
 * registers data with a samekey registry, deriving each key itself, retrying what may be
 * retried, streaming files in bounded memory.
 *
 * @module samekey/registry
 */
import type { JsonValue, KeyRing, Scheme } from './index';

/** When a request is tried again (every field optional in `RegistryOptions.retry`). */
export interface Retry {
  /** Retries after the first attempt (2). */
  maxRetries: number;
  /** The first wait's ceiling, doubling each retry (500 ms); waits are drawn from 0 up to it. */
  initialDelayMs: number;
  /** The ceiling's ceiling (5 s). */
  maxDelayMs: number;
  /** No wait ends past this long after the call started (60 s); the last error is thrown. */
  deadlineMs: number;
  /** Statuses retried besides connection failures and timeouts (429, 500, 502, 503, 504). */
  statuses: readonly number[];
}

export declare const DEFAULT_RETRY: Readonly<Retry>;

export interface RegistryOptions {
  token?: string | null;
  /** The key ring this client expects the registry to use (v1). */
  ring?: KeyRing | null;
  retry?: Partial<Retry>;
  /** Each attempt's timeout (30 s). */
  timeoutMs?: number;
  /** Payloads larger than this are looked up first and not sent when the registry has them (1 MiB; null never asks). */
  skipUploadAbove?: number | null;
  fetch?: typeof globalThis.fetch;
}

/** A registered revision; `created` is whether this call created it. */
export interface Revision {
  readonly key: string;
  readonly parent: string | null;
  readonly scheme: Scheme;
  readonly contentHash: string;
  readonly mediaType: string;
  readonly size: number;
  readonly createdAt: Date;
  readonly created: boolean;
}

export interface CallOptions {
  signal?: AbortSignal;
}

export interface RegisterOptions extends CallOptions {
  /** The parent revision's key; absent or null for a root. */
  parent?: string | null;
}

/**
 * A failed request: `code` is the registry's problem code or the client's own. At run time
 * it is also a `SamekeyError` (`instanceof` holds); its type extends `Error` because its
 * codes are more than the core's `ErrorCode`.
 */
export declare class RegistryError extends Error {
  constructor(code: string, message: string, options?: { status?: number | null; problem?: Record<string, unknown> | null });
  readonly code: string;
  readonly status: number | null;
  readonly detail: string;
  readonly problem: Record<string, unknown> | null;
  /** The keys of a `key_mismatch`. */
  readonly expected?: string;
  readonly answered?: string;
}

export type ByteSource = ReadableStream<Uint8Array> | AsyncIterable<Uint8Array> | Iterable<Uint8Array>;

export declare class Registry {
  constructor(baseUrl: string, options?: RegistryOptions);
  readonly ring: KeyRing;
  register(value: JsonValue, options?: RegisterOptions): Promise<Revision>;
  registerJson(text: string, options?: RegisterOptions): Promise<Revision>;
  registerBytes(data: Uint8Array, options?: RegisterOptions): Promise<Revision>;
  /** A stream is hashed while sent and never resent; a function opening the same bytes anew is hashed first and retried. */
  registerStream(source: ByteSource | (() => ByteSource), options?: RegisterOptions): Promise<Revision>;
  revision(key: string, options?: CallOptions): Promise<Revision>;
  history(key: string, options?: CallOptions & { limit?: number }): Promise<Revision[]>;
  data(key: string, options?: CallOptions): Promise<ReadableStream<Uint8Array>>;
}
