// Per-key cost of the samekey addon next to the fastest JS equivalent on node:crypto
// (one-shot crypto.hash of the whole framed message, or a copied precomputed tag state,
// whichever is faster here) and @noble/hashes, each with the same base32 text.
// Prints a table; `just bench-node` runs it.
import crypto from 'node:crypto';
import { sha256 } from '@noble/hashes/sha2.js';
import * as samekey from 'samekey';
import { MESSAGE, base32, frame } from '../../wasm/bench/equivalent.js';

const N = 20000;
const SLUGS = Array.from({ length: N }, (_, i) => `my-first-post-${String(i).padStart(6, '0')}`);
const LANGS = Array(N).fill('en');
const TIMES = Array.from({ length: N }, (_, i) => 1714564800000 + i);
const TAG = Buffer.alloc(64);
TAG.write('samekey/v1/ulid');
const TAG_STATE = crypto.createHash('sha256').update(TAG);

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

// Rounds interleave every variant, so a slow spell of this (shared, noisy) machine hits
// them all alike; each variant reports its fastest round.
const ROUNDS = 25;
const deriver = new samekey.UlidDeriver();
const variants = {};
for (const [name, fn] of Object.entries(peers)) {
  variants[name] = () => { for (let i = 0; i < N; i++) fn([SLUGS[i], LANGS[i]], TIMES[i]); };
}
variants['samekey deriveUlid'] = () => { for (let i = 0; i < N; i++) samekey.deriveUlid([SLUGS[i], LANGS[i]], { time: TIMES[i] }).toString(); };
variants['samekey UlidDeriver.derive'] = () => { for (let i = 0; i < N; i++) deriver.derive([SLUGS[i], LANGS[i]], { time: TIMES[i] }).toString(); };
variants['samekey UlidDeriver.deriveMany'] = () => deriver.deriveMany(TIMES, [SLUGS, LANGS], { asString: true });

const rows = Object.fromEntries(Object.keys(variants).map((name) => [name, Infinity]));
for (let r = 0; r < ROUNDS; r++) {
  for (const [name, fn] of Object.entries(variants)) {
    const start = process.hrtime.bigint();
    fn();
    rows[name] = Math.min(rows[name], Number(process.hrtime.bigint() - start) / N);
  }
}

const cryptoBest = Math.min(rows['node:crypto crypto.hash (one-shot)'], rows['node:crypto copied tag state']);
console.log(`ULID text per key, 20-byte slug + 'en', fastest of ${ROUNDS} interleaved rounds of ${N} keys (Node ${process.version})`);
console.log('| implementation | ns per key | speed-up vs fastest node:crypto |');
console.log('|---|---:|---:|');
for (const [name, ns] of Object.entries(rows)) console.log(`| ${name} | ${ns.toFixed(0)} | ${(cryptoBest / ns).toFixed(1)}x |`);
