// The fastest plain-JS framing and base32 text of a samekey v1 id, shared by the
// benchmarks of both JS packages (bindings/node/bench, bindings/wasm/bench) so that each
// peer hash is measured with the same surrounding code. One reused buffer, no BigInt.

const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const enc = new TextEncoder();
const TAG = new Uint8Array(64);
TAG.set(enc.encode('samekey/v1/ulid'));
export const MESSAGE = new Uint8Array(4096);
MESSAGE.set(TAG);
const VIEW = new DataView(MESSAGE.buffer);
const ID = new Uint8Array(16);

export function frame(fields) {
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

export function base32(t, digest) {
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
