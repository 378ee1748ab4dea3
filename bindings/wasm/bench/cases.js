// The per-key benchmark, run unchanged in Node and in the browser page: samekey-wasm vs
// @noble/hashes sha256 + base32 (the synchronous pure-JS alternative) and vs
// crypto.subtle.digest (asynchronous, so awaited per key). Every equivalent is checked
// to produce the same ids before it is timed.

import { MESSAGE, base32, frame } from './equivalent.js';

export async function runBench({ samekey, sha256, subtle, now, n = 20000 }) {
  const slugs = Array.from({ length: n }, (_, i) => `my-first-post-${String(i).padStart(6, '0')}`);
  const times = Array.from({ length: n }, (_, i) => 1714564800000 + i);
  const noble = (i) => base32(times[i], sha256(MESSAGE.subarray(0, frame([slugs[i], 'en']))));
  const webcrypto = async (i) => base32(times[i], new Uint8Array(await subtle.digest('SHA-256', MESSAGE.subarray(0, frame([slugs[i], 'en'])))));
  for (let i = 0; i < 50; i++) {
    const want = samekey.deriveUlid([slugs[i], 'en'], { time: times[i] }).toString();
    if (noble(i) !== want || (await webcrypto(i)) !== want) throw new Error('an equivalent is not equivalent');
  }
  const deriver = new samekey.UlidDeriver();
  const cases = [
    ['@noble/hashes sha256 + base32', () => { for (let i = 0; i < n; i++) noble(i); }],
    ['crypto.subtle.digest (awaited)', async () => { for (let i = 0; i < n; i++) await webcrypto(i); }],
    ['samekey-wasm deriveUlid', () => { for (let i = 0; i < n; i++) samekey.deriveUlid([slugs[i], 'en'], { time: times[i] }).toString(); }],
    ['samekey-wasm UlidDeriver.derive', () => { for (let i = 0; i < n; i++) deriver.derive([slugs[i], 'en'], { time: times[i] }).toString(); }],
    ['samekey-wasm UlidDeriver.deriveMany', () => { deriver.deriveMany(times, [slugs, Array(n).fill('en')], { asString: true }); }],
  ];
  // Rounds interleave the cases, so a slow spell of a shared machine hits them all
  // alike; each case reports its fastest round.
  const rows = cases.map(([name]) => [name, Infinity]);
  for (let r = 0; r < 7; r++) {
    for (const [i, [, fn]] of cases.entries()) {
      const start = now();
      await fn();
      rows[i][1] = Math.min(rows[i][1], ((now() - start) * 1e6) / n);
    }
  }
  const peer = rows[0][1];
  return [
    '| implementation | ns per key | speed-up vs @noble/hashes |',
    '|---|---:|---:|',
    ...rows.map(([name, ns]) => `| ${name} | ${ns.toFixed(0)} | ${(peer / ns).toFixed(1)}x |`),
  ].join('\n');
}
