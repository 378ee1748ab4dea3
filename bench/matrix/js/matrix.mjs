// The JavaScript columns of `just bench-matrix`: every operation through the public API of
// the package given as the first argument (the napi addon's `samekey`, or samekey-wasm's
// Node entry), timed the way every runner times (bench/matrix/protocol.md).
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';

const samekey = createRequire(import.meta.url)(process.argv[2]);
const cases = JSON.parse(readFileSync(process.env.SAMEKEY_MATRIX_CASES, 'utf8'));
const { time_ms: timeMs, namespace, fields, json, parent, rfc3339 } = cases;
const small = new TextEncoder().encode(cases.small);
const large = new Uint8Array(cases.large_bytes).map((_, i) => (i * 131) & 255);

const deriver = new samekey.UlidDeriver({ scheme: 'v1', namespace });
const ring = samekey.KeyRing.fromAccept(cases.ring);
const stored = samekey.contentHash(small);
const incoming = samekey.contentHashJsonText(json);
const old = samekey.deriveUlid(fields, { timeMs, namespace });
const ulid = samekey.Ulid.parse(cases.ulid);

const ops = {
  crossing: () => samekey.version(),
  ulid: () => samekey.deriveUlid(fields, { timeMs, namespace }),
  ulid_v2: () => samekey.deriveUlid(fields, { timeMs, namespace, scheme: 'v2' }),
  ulid_prepared: () => deriver.derive(fields, { timeMs }),
  ulid_parse: () => samekey.Ulid.parse(cases.ulid),
  ulid_text: () => ulid.toString(),
  ulid_bytes: () => ulid.bytes,
  hash_40: () => samekey.contentHash(small),
  hash_1m: () => samekey.contentHash(large),
  content_json: () => samekey.contentHashJsonText(json),
  canonical_json: () => samekey.canonicalJsonText(json),
  revision_key: () => samekey.revisionKey(stored, { parent }),
  key_parse: () => samekey.parseKey(stored),
  ring_verify: () => ring.verifyUlid(old, fields, { timeMs, namespace }),
  ring_candidates: () => ring.candidateUlids(fields, { timeMs, namespace }),
  needs_write: () => samekey.needsWrite(stored, incoming),
  rfc3339: () => samekey.parseRfc3339(rfc3339),
};

let sink = 0;
function perCall(op, budgetNs) {
  for (let n = 1; ; n *= 2) {
    const start = process.hrtime.bigint();
    for (let i = 0; i < n; i++) sink ^= op() ? 1 : 0;
    const took = Number(process.hrtime.bigint() - start);
    if (took >= budgetNs) return took / n;
  }
}

for await (const line of createInterface({ input: process.stdin })) {
  const budget = Number(line) * 1e6;
  const row = Object.fromEntries(Object.entries(ops).map(([name, op]) => [name, Math.round(perCall(op, budget) * 10) / 10]));
  process.stdout.write(JSON.stringify({ ...row, sink: sink & 1 }) + '\n');
}
