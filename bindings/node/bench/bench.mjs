// Per-key cost of the samekey addon next to the fastest JS equivalent on node:crypto
// (one-shot crypto.hash of the whole framed message, or a copied precomputed tag state,
// whichever is faster here) and @noble/hashes, each with the same base32 text.
// Prints a table; `just bench-node` runs it.
import crypto from 'node:crypto';
import { sha256 } from '@noble/hashes/sha2.js';
import * as samekey from 'samekey';

const N = 20000;
const SLUGS = Array.from({ length: N }, (_, i) => `my-first-post-${String(i).padStart(6, '0')}`);
const LANGS = Array(N).fill('en');
const TIMES = Array.from({ length: N }, (_, i) => 1714564800000 + i);
const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const TAG = Buffer.alloc(64);
TAG.write('samekey/v1/ulid');
const TAG_STATE = crypto.createHash('sha256').update(TAG);
const enc = new TextEncoder();

// One reused buffer holding block(tag) then the framed fields: no allocation per key.
const MESSAGE = new Uint8Array(4096);
MESSAGE.set(TAG);
const VIEW = new DataView(MESSAGE.buffer);

/** Frames enc("") || u32be(n) || enc(f1) ... after the tag; returns the message length. */
function frame(fields) {
  let at = 64;
  VIEW.setUint32(at, 0);
  VIEW.setUint32(at + 4, fields.length);
  at += 8;
  for (const f of fields) {
    const { written } = enc.encodeInto(f, MESSAGE.subarray(at + 4));
    VIEW.setUint32(at, written);
    at += 4 + written;
  }
  return at;
}

const ID = new Uint8Array(16);

/** 48-bit time and 10 digest bytes as 26 Crockford characters, 5 bits at a time. */
function base32(t, digest) {
  const hi = Math.floor(t / 2 ** 16);
  ID[0] = hi >>> 24; ID[1] = (hi >>> 16) & 255; ID[2] = (hi >>> 8) & 255; ID[3] = hi & 255;
  ID[4] = (t >>> 8) & 255; ID[5] = t & 255;
  ID.set(digest.subarray(0, 10), 6);
  // 130 bits: two zero bits, then the 128 bits of the id.
  let out = '';
  let acc = 0;
  let bits = 2;
  for (let i = 0; i < 16; i++) {
    acc = (acc << 8) | ID[i];
    bits += 8;
    while (bits >= 5) {
      bits -= 5;
      out += ALPHABET[(acc >>> bits) & 31];
    }
    acc &= (1 << bits) - 1;
  }
  return out;
}

const peers = {
  'node:crypto crypto.hash (one-shot)': (fields, t) => base32(t, crypto.hash('sha256', MESSAGE.subarray(0, frame(fields)), 'buffer')),
  'node:crypto copied tag state': (fields, t) => base32(t, TAG_STATE.copy().update(MESSAGE.subarray(64, frame(fields))).digest()),
  '@noble/hashes sha256': (fields, t) => base32(t, sha256(MESSAGE.subarray(0, frame(fields)))),
};

// The equivalents really are equivalent before they are timed.
for (const [name, fn] of Object.entries(peers)) {
  for (let i = 0; i < 50; i++) {
    const want = samekey.deriveUlid([SLUGS[i], LANGS[i]], { time: TIMES[i] }).toString();
    if (fn([SLUGS[i], LANGS[i]], TIMES[i]) !== want) throw new Error(`${name} is not equivalent`);
  }
}

function best(fn, repeat = 15) {
  let min = Infinity;
  for (let r = 0; r < repeat; r++) {
    const start = process.hrtime.bigint();
    fn();
    min = Math.min(min, Number(process.hrtime.bigint() - start) / N);
  }
  return min;
}

const deriver = new samekey.UlidDeriver();
const rows = {};
for (const [name, fn] of Object.entries(peers)) {
  rows[name] = best(() => { for (let i = 0; i < N; i++) fn([SLUGS[i], LANGS[i]], TIMES[i]); });
}
rows['samekey deriveUlid'] = best(() => { for (let i = 0; i < N; i++) samekey.deriveUlid([SLUGS[i], LANGS[i]], { time: TIMES[i] }).toString(); });
rows['samekey UlidDeriver.derive'] = best(() => { for (let i = 0; i < N; i++) deriver.derive([SLUGS[i], LANGS[i]], { time: TIMES[i] }).toString(); });
rows['samekey UlidDeriver.deriveMany'] = best(() => deriver.deriveMany(TIMES, [SLUGS, LANGS], { asString: true }));

const cryptoBest = Math.min(rows['node:crypto crypto.hash (one-shot)'], rows['node:crypto copied tag state']);
console.log(`ULID text per key, 20-byte slug + 'en', best of 15 runs of ${N} keys (Node ${process.version})`);
console.log('| implementation | ns per key | speed-up vs fastest node:crypto |');
console.log('|---|---:|---:|');
for (const [name, ns] of Object.entries(rows)) console.log(`| ${name} | ${ns.toFixed(0)} | ${(cryptoBest / ns).toFixed(1)}x |`);
