// The per-key benchmark, run unchanged in Node and in the browser page: samekey-wasm vs
// @noble/hashes sha256 + base32 (the synchronous pure-JS alternative) and vs
// crypto.subtle.digest (asynchronous, so awaited per key). Every equivalent is checked
// to produce the same ids before it is timed.

const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const enc = new TextEncoder();
const TAG = new Uint8Array(64);
TAG.set(enc.encode('samekey/v1/ulid'));
const MESSAGE = new Uint8Array(4096);
MESSAGE.set(TAG);
const VIEW = new DataView(MESSAGE.buffer);
const ID = new Uint8Array(16);

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

function base32(t, digest) {
  const hi = Math.floor(t / 2 ** 16);
  ID[0] = hi >>> 24; ID[1] = (hi >>> 16) & 255; ID[2] = (hi >>> 8) & 255; ID[3] = hi & 255;
  ID[4] = (t >>> 8) & 255; ID[5] = t & 255;
  ID.set(digest.subarray(0, 10), 6);
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
  const rows = [];
  for (const [name, fn] of cases) {
    let best = Infinity;
    for (let r = 0; r < 7; r++) {
      const start = now();
      await fn();
      best = Math.min(best, ((now() - start) * 1e6) / n);
    }
    rows.push([name, best]);
  }
  const peer = rows[0][1];
  return [
    '| implementation | ns per key | speed-up vs @noble/hashes |',
    '|---|---:|---:|',
    ...rows.map(([name, ns]) => `| ${name} | ${ns.toFixed(0)} | ${(peer / ns).toFixed(1)}x |`),
  ].join('\n');
}
