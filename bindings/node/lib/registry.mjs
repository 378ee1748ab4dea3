// The registry client (samekey serve) on the platform's fetch, for Node and browsers:
// `createRegistry(samekey)` binds it to a backend's API (the napi package's or the
// WebAssembly one's), so both packages share this file.
//
// Retrying is safe by construction: a registration's key derives from its content and
// parent, so the retry of a request whose answer was lost finds what the first attempt
// created. The client derives that key itself with the ring it expects the registry to
// use, before sending: a large payload the registry has is not uploaded again, and an
// answer under any other key is a RegistryError `key_mismatch` instead of accepted.

export const CONNECTION_FAILED = 'connection_failed';
export const DEADLINE_EXCEEDED = 'deadline_exceeded';
export const NOT_REWINDABLE = 'not_rewindable';
export const KEY_MISMATCH = 'key_mismatch';
export const UNEXPECTED_RESPONSE = 'unexpected_response';

/** 2 retries, waits from 0 up to 500 ms doubling to 5 s (full jitter), a 60 s deadline. */
export const DEFAULT_RETRY = Object.freeze({
  maxRetries: 2,
  initialDelayMs: 500,
  maxDelayMs: 5000,
  deadlineMs: 60000,
  statuses: Object.freeze([429, 500, 502, 503, 504]),
});

const JSON_TYPE = 'application/json';
const BYTES_TYPE = 'application/octet-stream';
const CHUNK = 1 << 20;

export default function createRegistry(samekey) {
  const { KeyRing, ContentHasher, SamekeyError, canonicalJson, canonicalJsonText, revisionKey } = samekey;

  /** A failed request: `code` (the registry's problem code or the client's own), `status`, `detail`. */
  class RegistryError extends SamekeyError {
    constructor(code, message, { status = null, problem = null, expected, answered } = {}) {
      super(code, message);
      this.name = 'RegistryError';
      this.status = status;
      this.problem = problem;
      this.detail = problem?.detail ?? message;
      if (expected !== undefined) Object.assign(this, { expected, answered });
    }
  }

  async function problemOf(response) {
    const text = await response.text().catch(() => '');
    let problem = null;
    try {
      problem = JSON.parse(text);
    } catch {}
    if (problem && typeof problem.code === 'string') {
      return new RegistryError(problem.code, `${response.status} ${problem.code}: ${problem.detail ?? problem.title ?? ''}`, {
        status: response.status,
        problem,
      });
    }
    return new RegistryError(UNEXPECTED_RESPONSE, `HTTP ${response.status} without a problem document: ${text.slice(0, 200)}`, {
      status: response.status,
    });
  }

  function revisionOf(body, created) {
    const ok = body && typeof body.key === 'string' && typeof body.content_hash === 'string';
    if (!ok) throw new RegistryError(UNEXPECTED_RESPONSE, `not a revision: ${JSON.stringify(body).slice(0, 200)}`);
    return Object.freeze({
      key: body.key,
      parent: body.parent ?? null,
      scheme: body.scheme,
      contentHash: body.content_hash,
      mediaType: body.media_type,
      size: body.size,
      createdAt: new Date(body.created_at),
      created,
    });
  }

  /** A content hasher per scheme of the ring, fed the same chunks. */
  function hashing(ring) {
    const hashers = ring.accepted.map((s) => [s, new ContentHasher({ scheme: s })]);
    return {
      size: 0,
      update(chunk) {
        hashers.forEach(([, h]) => h.update(chunk));
        this.size += chunk.length;
      },
      digest: () => Object.fromEntries(hashers.map(([s, h]) => [s, h.digest()])),
    };
  }

  /** A body stream of `source`'s chunks, each fed to `hashes` as it is read. */
  function hashedWhileSent(source, hashes) {
    return toStream(
      (async function* () {
        for await (const chunk of iterate(source)) {
          hashes.update(chunk);
          yield chunk;
        }
      })(),
    );
  }

  function hashesOf(ring, data) {
    const h = hashing(ring);
    h.update(data);
    return h.digest();
  }

  /** Bytes in memory: `data` is stored and hashed (JSON's canonical form), `body` sent. */
  function memory(ring, mediaType, data, body = data) {
    return { mediaType, size: data.length, hashes: hashesOf(ring, data), rewindable: true, body: () => body };
  }

  function mismatch(expected, answered, why) {
    return new RegistryError(KEY_MISMATCH, `the registry answered ${answered}, this client derived ${expected}: ${why}`, {
      expected,
      answered,
    });
  }

  /** The key this client derives: the ring's primary over `parent`. */
  function expectedKey(ring, p, parent) {
    return revisionKey(p.hashes[ring.primary], { parent, scheme: ring.primary });
  }

  /** The answer if its key is one this client derives for the payload under a scheme of its ring. */
  function check(ring, p, parent, rev) {
    // The key this client expected is derived only to name it in an error.
    const fail = (why) => mismatch(expectedKey(ring, p, parent), rev.key, why);
    let scheme;
    try {
      scheme = ring.schemeOfKey(rev.key);
    } catch (e) {
      throw fail(`its scheme is not one of this client's ring ${ring.accepted}: ${e.message}`);
    }
    if ((rev.parent === null) !== (parent === null)) throw fail(`its parent is ${rev.parent}, not ${parent}`);
    if (rev.parent !== parent) {
      try {
        ring.schemeOfKey(rev.parent);
      } catch {
        throw fail(`its parent ${rev.parent} is not a key of this client's ring`);
      }
    }
    const want = p.hashes[scheme];
    if (rev.contentHash !== want) throw fail(`its content hash is ${rev.contentHash}, this client's ${want}`);
    const key = revisionKey(want, { parent: rev.parent, scheme });
    if (rev.key !== key) throw mismatch(key, rev.key, `derived under ${scheme} over parent ${rev.parent}`);
    if (p.size !== null && rev.size !== p.size) throw fail(`its size is ${rev.size} bytes, the payload's ${p.size}`);
    return rev;
  }

  function retryAfterMs(value) {
    if (value == null) return null;
    if (/^\s*\d+\s*$/.test(value)) return Number(value) * 1000;
    const when = Date.parse(value);
    return Number.isNaN(when) ? null : Math.max(0, when - Date.now());
  }

  const sleep = (ms, signal) =>
    new Promise((resolve, reject) => {
      const t = setTimeout(resolve, ms);
      signal?.addEventListener('abort', () => (clearTimeout(t), reject(signal.reason)), { once: true });
    });

  /**
   * A client of the registry at `baseUrl`. Options: `token`, `ring` (the KeyRing this
   * client expects the registry to use; v1 by default), `retry` (DEFAULT_RETRY's fields),
   * `timeoutMs` (each attempt's, 30 s), `skipUploadAbove` (bytes, 1 MiB; null never
   * asks), `fetch` (another implementation).
   */
  class Registry {
    #base;
    #headers;
    #ring;
    #retry;
    #timeoutMs;
    #skip;
    #fetch;

    constructor(baseUrl, { token = null, ring = null, retry = {}, timeoutMs = 30000, skipUploadAbove = 1 << 20, fetch = globalThis.fetch } = {}) {
      if (!/^https?:\/\//.test(baseUrl)) throw new TypeError(`the registry's base URL must start with http:// or https://, not ${baseUrl}`);
      if (token !== null && (!token || /[\r\n]/.test(token))) throw new TypeError('a token must be non-empty and on one line');
      this.#base = baseUrl.replace(/\/+$/, '');
      this.#headers = { accept: JSON_TYPE, ...(token ? { authorization: `Bearer ${token}` } : {}) };
      this.#ring = ring ?? new KeyRing('v1');
      this.#retry = { ...DEFAULT_RETRY, ...retry };
      this.#timeoutMs = timeoutMs;
      this.#skip = skipUploadAbove;
      // Called as a plain function: a browser's fetch throws "Illegal invocation" when
      // called as a method of another object.
      this.#fetch = (input, init) => fetch(input, init);
    }

    get ring() {
      return this.#ring;
    }

    // Every method is async: input refused here (samekey's SamekeyError, the core's code)
    // rejects the promise like a failed request, instead of throwing where it is called.

    /** Registers a JSON value (its key is its canonical form's). */
    async register(value, { parent = null, signal } = {}) {
      const canonical = new TextEncoder().encode(canonicalJson(value));
      return this.#register(memory(this.#ring, JSON_TYPE, canonical, JSON.stringify(value)), parent, signal);
    }

    /** Registers JSON text, sent as written: any spelling of the same JSON is the same revision. */
    async registerJson(text, { parent = null, signal } = {}) {
      const canonical = new TextEncoder().encode(canonicalJsonText(text));
      return this.#register(memory(this.#ring, JSON_TYPE, canonical, text), parent, signal);
    }

    /** Registers bytes (application/octet-stream). */
    async registerBytes(data, { parent = null, signal } = {}) {
      if (!(data instanceof Uint8Array)) throw new TypeError('registerBytes takes a Uint8Array');
      return this.#register(memory(this.#ring, BYTES_TYPE, data), parent, signal);
    }

    /**
     * Registers what a stream yields (a ReadableStream or an async iterable of
     * Uint8Array): hashed while it is sent, so always uploaded, and not retried once a
     * byte went out (`not_rewindable`). `open`, a function returning a new stream of the
     * same bytes each call (a file's), makes it retried: hashed first and looked up
     * (`skipUploadAbove` set), or hashed while sent (`skipUploadAbove: null`).
     */
    async registerStream(source, { parent = null, signal } = {}) {
      if (typeof source === 'function') {
        if (this.#skip === null) {
          // Never looked up: each attempt hashes what it sends; the answered one's count.
          let sending = null;
          const p = {
            mediaType: BYTES_TYPE,
            size: null,
            hashes: null,
            rewindable: true,
            body: () => hashedWhileSent(source(), (sending = hashing(this.#ring))),
            done: () => {
              if (sending) [p.hashes, p.size] = [sending.digest(), sending.size];
            },
          };
          return this.#register(p, parent, signal);
        }
        const first = hashing(this.#ring);
        for await (const chunk of iterate(source())) first.update(chunk);
        const p = { mediaType: BYTES_TYPE, size: first.size, hashes: first.digest(), rewindable: true, body: () => toStream(iterate(source())) };
        return this.#register(p, parent, signal);
      }
      const hashes = hashing(this.#ring);
      const p = {
        mediaType: BYTES_TYPE,
        size: null,
        hashes: null,
        rewindable: false,
        unread: () => hashes.size === 0,
        body: () => {
          if (hashes.size > 0) {
            throw new RegistryError(NOT_REWINDABLE, 'the stream was partly sent and cannot be read again; pass a function that opens it anew to have it retried');
          }
          return hashedWhileSent(source, hashes);
        },
        done: () => {
          p.hashes = hashes.digest();
        },
      };
      return this.#register(p, parent, signal);
    }

    /** The revision `key` names (any of its keys). */
    async revision(key, { signal } = {}) {
      const response = await this.#request('GET', revisionPath(key), { signal });
      return this.#answer(response);
    }

    /** The revision and its ancestors, nearest first (at most `limit`, 1 to 1000). */
    async history(key, { limit, signal } = {}) {
      const query = limit === undefined ? '' : `?limit=${encodeURIComponent(limit)}`;
      const response = await this.#request('GET', `${revisionPath(key)}/history${query}`, { signal });
      if (response.status !== 200) throw await problemOf(response);
      const body = await response.json();
      if (!Array.isArray(body?.revisions)) throw new RegistryError(UNEXPECTED_RESPONSE, 'a history answer without its revisions');
      return body.revisions.map((r) => revisionOf(r, false));
    }

    /** The stored bytes of `key` (canonical JSON for JSON) as a ReadableStream, streamed. */
    async data(key, { signal } = {}) {
      const response = await this.#request('GET', `${revisionPath(key)}/data`, { signal, whole: false });
      if (response.status !== 200) throw await problemOf(response);
      return response.body;
    }

    async #answer(response) {
      if (response.status !== 200 && response.status !== 201) throw await problemOf(response);
      return revisionOf(await response.json(), response.status === 201);
    }

    async #register(p, parent, signal) {
      const ring = this.#ring;
      if (this.#skip !== null && p.hashes && p.size !== null && p.size > this.#skip) {
        const response = await this.#request('GET', revisionPath(expectedKey(ring, p, parent)), { signal });
        if (response.status === 200) return check(ring, p, parent, await this.#answer(response));
        if (response.status !== 404) throw await problemOf(response);
        await response.body?.cancel();
      }
      const query = parent === null ? '' : `?parent=${encodeURIComponent(parent)}`;
      const response = await this.#request('POST', `/v1/revisions${query}`, { payload: p, signal });
      const rev = await this.#answer(response);
      p.done?.();
      return check(ring, p, parent, rev);
    }

    // With `whole` (every answer but revision data, which streams), the answer's body is
    // read within the attempt, so that an answer cut off mid-way (undici's "terminated")
    // is retried like a lost one: the registration it answers may have committed, and its
    // retry finds it.
    async #request(method, path, { payload = null, signal, whole = true } = {}) {
      const policy = this.#retry;
      const start = Date.now();
      for (let retries = 0; ; retries++) {
        const headers = { ...this.#headers };
        let body;
        if (payload) {
          headers['content-type'] = payload.mediaType;
          body = payload.body();
        }
        const attempt = AbortSignal.timeout(this.#timeoutMs);
        const init = { method, headers, body, signal: signal ? AbortSignal.any([signal, attempt]) : attempt };
        if (body instanceof ReadableStream) {
          init.duplex = 'half';
          // A redirect could not resend a stream anyway; following one makes Node's fetch
          // keep a copy of the whole body (nodejs/undici#4058): 390 MiB for 256 MiB sent.
          init.redirect = 'error';
        }
        let response;
        let failure;
        try {
          response = await this.#fetch(this.#base + path, init);
          if (whole) {
            const bytes = await response.arrayBuffer();
            response = new Response(bytes.byteLength ? bytes : null, { status: response.status, headers: response.headers });
          }
        } catch (e) {
          response = undefined;
          if (signal?.aborted) throw e;
          if (CERTIFICATE_REJECTED.has(e?.cause?.code)) {
            throw new RegistryError(CONNECTION_FAILED, `${method} ${path}: the server's certificate did not verify (${e.cause.message}); not retried, since it will not verify on a retry either: trust its CA (NODE_EXTRA_CA_CERTS, or the fetch you pass)`, { cause: e });
          }
          if (payload && !payload.rewindable && !payload.unread()) {
            throw new RegistryError(NOT_REWINDABLE, `${method} ${path} failed after the stream was partly sent (${e.message}); pass a function that opens it anew to have it retried`, { cause: e });
          }
          failure = e;
        }
        if (response && !policy.statuses.includes(response.status)) return response;
        if (response && payload && !payload.rewindable) return response;
        const asked = response ? retryAfterMs(response.headers.get('retry-after')) : null;
        let wait = asked ?? Math.random() * Math.min(policy.maxDelayMs, policy.initialDelayMs * 2 ** retries);
        if (retries >= policy.maxRetries || Date.now() - start + wait >= policy.deadlineMs) {
          if (response) return response;
          const code = Date.now() - start >= policy.deadlineMs ? DEADLINE_EXCEEDED : CONNECTION_FAILED;
          throw new RegistryError(code, `${method} ${path}: ${failure?.cause?.message ?? failure?.message} (after ${retries} retries)`);
        }
        await response?.body?.cancel();
        await sleep(wait, signal);
      }
    }
  }

  return { Registry, RegistryError };
}

// The server's certificate failed verification (OpenSSL's codes, as Node names them): a
// retry would fail the same way.
const CERTIFICATE_REJECTED = new Set([
  'UNABLE_TO_GET_ISSUER_CERT', 'UNABLE_TO_GET_ISSUER_CERT_LOCALLY', 'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_DECRYPT_CERT_SIGNATURE', 'UNABLE_TO_DECODE_ISSUER_PUBLIC_KEY', 'CERT_SIGNATURE_FAILURE',
  'CERT_NOT_YET_VALID', 'CERT_HAS_EXPIRED', 'ERROR_IN_CERT_NOT_BEFORE_FIELD', 'ERROR_IN_CERT_NOT_AFTER_FIELD',
  'DEPTH_ZERO_SELF_SIGNED_CERT', 'SELF_SIGNED_CERT_IN_CHAIN', 'CERT_CHAIN_TOO_LONG', 'CERT_REVOKED', 'INVALID_CA',
  'PATH_LENGTH_EXCEEDED', 'INVALID_PURPOSE', 'CERT_UNTRUSTED', 'CERT_REJECTED', 'HOSTNAME_MISMATCH',
  'ERR_TLS_CERT_ALTNAME_INVALID',
]);

function revisionPath(key) {
  return `/v1/revisions/${encodeURIComponent(key).replaceAll('%3A', ':')}`;
}

async function* iterate(source) {
  if (source instanceof ReadableStream) {
    const reader = source.getReader();
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return;
        yield value;
      }
    } finally {
      reader.releaseLock();
    }
  } else {
    for await (const chunk of source) yield chunk instanceof Uint8Array ? chunk : new Uint8Array(chunk);
  }
}

function toStream(iterator) {
  return new ReadableStream({
    async pull(controller) {
      const { done, value } = await iterator.next();
      if (done) controller.close();
      else controller.enqueue(value);
    },
    async cancel() {
      await iterator.return?.();
    },
  });
}
