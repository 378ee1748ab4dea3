// Compiled by `tsc --strict` (npm run typecheck): uses every export of the package.
import samekey, {
  ContentHasher, ERROR_CODES, KeyRing, SamekeyError, Ulid, UlidDeriver, canonicalJson, canonicalJsonText,
  contentHash, contentHashAsync, contentHashFile, contentHashJson, contentHashJsonText, deriveUlid, needsWrite, parseKey,
  parseRfc3339, revisionKey, revisionMessage, selftest, ulidMessage, verify, version, init,
  type ErrorCode, type InitInput, type Field, type JsonValue, type Scheme, type Time,
} from 'samekey';

const fields: Field[] = ['hello-world', new Uint8Array([1, 2])];
const time: Time = new Date('2024-05-01T12:00:00Z');
const id: Ulid = deriveUlid(fields, { time, namespace: 'posts', scheme: 'v2', secret: new Uint8Array([1]) });
const parsed: Ulid = Ulid.parse(id.toString());
const same: boolean = parsed.equals(id) && Ulid.fromBytes(id.bytes).compare(id) === 0;
const when: Date = id.date;
const uuid: string = id.uuid;
const message: Uint8Array = ulidMessage(fields, { namespace: 'posts' });
const deriver = new UlidDeriver({ namespace: 'posts' });
const many: Ulid[] = deriver.deriveMany([1, 2], [['a', 'b']]);
const texts: string[] = deriver.deriveMany([1, 2], [['a', 'b']], { asString: true });
const one: Ulid = deriver.derive(['a'], { time: 5 });
const h: string = contentHash('x', { scheme: 'v1' });
const hasher: string = new ContentHasher({ scheme: 'v2' }).update('a').update(new Uint8Array(2)).digest();
const later: Promise<string> = contentHashFile('/etc/hostname');
const fromText: Promise<string> = contentHashAsync('text, not a path');
const byMs: Ulid[] = [deriveUlid(fields, { timeMs: 1714564800000 }), deriver.derive(['a'], { timeMs: 5 })];
// @ts-expect-error time and timeMs are exclusive
deriveUlid(fields, { time: 1, timeMs: 1 });
// @ts-expect-error a lone string is not a list of fields
deriveUlid('slug', { time: 1 });
// @ts-expect-error a scheme is one of 'v0' | 'v1' | 'v2'
contentHash('x', { scheme: 'v3' });
const value: JsonValue = { a: [1, 2n, null, 'x', undefined], b: { c: true } };
const canonical: string = canonicalJson(value) + canonicalJsonText('{"a":1}');
const hashes: string = contentHashJson(value) + contentHashJsonText('[]', { scheme: 'v2' });
const rev: string = revisionKey(h, { parent: null, secret: null });
const revMessage: Uint8Array = revisionMessage(h, { parent: rev });
const write: boolean = needsWrite(null, h) && needsWrite(h, h);
const ms: number = parseRfc3339('2024-05-01T12:00:00Z');
const key: { kind: 'content' | 'revision'; scheme: Scheme; canonical: string } = parseKey(rev);
const ring = new KeyRing('v2', ['v1', 'v0']);
const fromList: KeyRing = KeyRing.fromAccept(['v2', 'v1']);
const candidates: { scheme: Scheme; ulid: Ulid }[] = ring.candidateUlids(['a'], { time: 1 });
const schemes: Scheme[] = [ring.verifyUlid(id, fields, { time }), ring.schemeOfKey(h), verify(id, fields, { time, accept: ['v2'] })];
const ringed: string = ring.deriveUlid(['a'], { time: 1 }).toString() + ring.contentHash('a') + ring.revisionKey(h, {});
const codes: readonly ErrorCode[] = ERROR_CODES;
const v: string = version();
const n: number = selftest() + samekey.selftest();
const input: InitInput = new URL('https://example.com/samekey.wasm');
void init(input).then((api) => api.selftest() + n);
try {
  deriveUlid(['a'], { time: 1.5 });
} catch (e) {
  if (e instanceof SamekeyError) {
    const code: ErrorCode = e.code;
    console.log(code);
  }
}
console.log(same, when, uuid, message, many, texts, one, hasher, later, fromText, byMs, canonical, hashes, revMessage, write, ms, key,
  candidates, schemes, ringed, codes, v, n, ring.primary, ring.accepted);

// samekey/registry
import { DEFAULT_RETRY, Registry, RegistryError, type Retry, type Revision } from 'samekey/registry';
const retry: Readonly<Retry> = DEFAULT_RETRY;
const client = new Registry('http://127.0.0.1:8080', { token: 't', ring: new KeyRing('v2', ['v1']), retry: { maxRetries: 4 }, timeoutMs: 1000, skipUploadAbove: null });
const registered: Promise<Revision> = client.register({ a: [1, 'b', null] }, { parent: null });
const fromStream: Promise<Revision> = client.registerStream(() => [new Uint8Array(1)], { signal: AbortSignal.timeout(10) });
const chain: Promise<Revision[]> = client.history('rev:v1:00', { limit: 5 });
const stream: Promise<ReadableStream<Uint8Array>> = client.data('rev:v1:00');
const code: string | null = new RegistryError('x', 'y').status === null ? 'none' : null;
// @ts-expect-error a parent is a key or null
client.registerBytes(new Uint8Array(1), { parent: 5 });
export const registryTypes = [retry, registered, fromStream, chain, stream, code];
