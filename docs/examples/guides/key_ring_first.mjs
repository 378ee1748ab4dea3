import { deriveUlid, KeyRing } from 'samekey';

const fields = ['hello-world', 'en'], where = { time: '2024-05-01T12:00:00Z', namespace: 'posts' };
const storedId = deriveUlid(fields, where); // scheme v1, the default
console.log('stored last year under v1:', String(storedId));

const ring = new KeyRing('v2', ['v1']); // new ids under v2; ids under v1 still recognised
console.log("a new post's id, under v2:", String(ring.deriveUlid(fields, where)));
for (const { scheme, ulid } of ring.candidateUlids(fields, where)) {
  console.log(`look the post up by its ${scheme} id:`, String(ulid));
}
console.log("the stored id is the post's, under", ring.verifyUlid(storedId, fields, where));
