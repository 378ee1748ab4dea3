// Runs samekey test vectors (spec §10) through the public JS API. Used by `selftest()`
// on the embedded subset and by the tests on the whole shared file; plain JS (no Node
// built-ins) so that the WebAssembly package runs it in browsers too.

function fromHex(hex) {
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.substr(2 * i, 2), 16);
  return out;
}

function toHex(bytes) {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/** Structural equality of JSON-like outputs. */
function same(a, b) {
  return JSON.stringify(sorted(a)) === JSON.stringify(sorted(b));
}

function sorted(v) {
  if (v === null || typeof v !== 'object') return v;
  if (Array.isArray(v)) return v.map(sorted);
  return Object.fromEntries(Object.keys(v).sort().map((k) => [k, sorted(v[k])]));
}

/** Text, or `{"utf16": ...}` code units (spec §10.1) as the JS string they make, lone surrogates included. */
function text(t) {
  if (typeof t === 'string' || t === null || t === undefined) return t;
  const units = [];
  for (let i = 0; i < t.utf16.length; i += 4) units.push(parseInt(t.utf16.substr(i, 4), 16));
  return String.fromCharCode(...units);
}

function field(f) {
  return typeof f === 'object' && f.hex !== undefined ? fromHex(f.hex) : text(f);
}

function parent(v) {
  return v.parent === null ? null : text(v.parent);
}

function secret(v) {
  return v.secret_hex === undefined ? undefined : fromHex(v.secret_hex);
}

function ring(sk, accepted) {
  return sk.KeyRing.fromAccept(accepted.map(text));
}

const OPS = {
  ulid(sk, v) {
    const fields = v.fields.map(field);
    const opts = { time: v.timestamp_ms, namespace: text(v.namespace), scheme: text(v.scheme), secret: secret(v) };
    const id = sk.deriveUlid(fields, opts);
    const message = sk.ulidMessage(fields, { namespace: text(v.namespace), scheme: text(v.scheme) });
    return { ulid: id.toString(), uuid: id.uuid, message_hex: toHex(message) };
  },
  content(sk, v) {
    return { hash: sk.contentHash(fromHex(v.data_hex), { scheme: text(v.scheme) }) };
  },
  content_json(sk, v) {
    // The hash first: it checks the scheme before the text (spec §6.1).
    const hash = sk.contentHashJsonText(text(v.json), { scheme: text(v.scheme) });
    return { canonical: sk.canonicalJsonText(text(v.json)), hash };
  },
  revision(sk, v) {
    const key = sk.revisionKey(text(v.content_hash), { parent: parent(v), scheme: text(v.scheme), secret: secret(v) });
    const message = sk.revisionMessage(text(v.content_hash), { parent: parent(v), scheme: text(v.scheme) });
    return { key, message_hex: toHex(message) };
  },
  timestamp(sk, v) {
    return { timestamp_ms: sk.parseRfc3339(text(v.rfc3339)) };
  },
  ulid_parse(sk, v) {
    const id = sk.Ulid.parse(text(v.text));
    return { ulid: id.toString(), uuid: id.uuid, timestamp_ms: id.timestampMs };
  },
  key_parse(sk, v) {
    // A ring is checked when it is made, before it parses anything (spec §9.1).
    const r = v.accepted === undefined ? undefined : ring(sk, v.accepted);
    const parsed = { ...sk.parseKey(text(v.text)) };
    if (r !== undefined) parsed.scheme = r.schemeOfKey(text(v.text));
    return parsed;
  },
  verify(sk, v) {
    const r = ring(sk, v.accepted);
    const opts = { time: v.timestamp_ms, namespace: text(v.namespace), secret: secret(v) };
    return { scheme: r.verifyUlid(text(v.ulid), v.fields.map(field), opts) };
  },
  candidates(sk, v) {
    const r = ring(sk, v.accepted);
    const opts = { time: v.timestamp_ms, namespace: text(v.namespace), secret: secret(v) };
    const found = r.candidateUlids(v.fields.map(field), opts);
    return { candidates: found.map((c) => ({ scheme: c.scheme, ulid: c.ulid.toString() })) };
  },
  ring_revision(sk, v) {
    const r = ring(sk, v.accepted);
    return { key: r.revisionKey(text(v.content_hash), { parent: parent(v), secret: secret(v) }) };
  },
  needs_write(sk, v) {
    return { needs_write: sk.needsWrite(text(v.stored), text(v.incoming)) };
  },
};

/** One vector's outcome. Anything it throws but a SamekeyError fails that vector alone
 * (spec §10.1), so one bad vector never ends the run. */
function runVector(sk, v) {
  let actual;
  try {
    if (!Object.hasOwn(OPS, v.op)) throw new Error(`unknown op ${JSON.stringify(v.op)}`);
    actual = OPS[v.op](sk, v);
  } catch (e) {
    actual = e instanceof sk.SamekeyError ? { error: e.code } : { exception: String(e?.stack ?? e) };
  }
  return { id: v.id, passed: same(actual, v.expect), expected: v.expect, actual };
}

function runDocument(sk, text) {
  const doc = JSON.parse(text);
  if (doc.schema !== 'samekey-test-vectors/1') throw new Error(`unsupported vector schema ${doc.schema}`);
  const outcomes = doc.vectors.map((v) => runVector(sk, v));
  if (new Set(outcomes.map((o) => o.id)).size !== outcomes.length) throw new Error('a vector id appears more than once');
  return outcomes;
}

export { runDocument, runVector };
