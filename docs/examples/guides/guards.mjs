import { contentHashJson, deriveUlid, needsWrite, SamekeyError, verify } from 'samekey';

const stored = { slug: 'hello-world', lang: 'en', publishedAt: '2024-05-01T12:00:00Z',
  body: 'Hello!' };
const storedId = deriveUlid([stored.slug, stored.lang], { time: stored.publishedAt,
  namespace: 'posts' });
const storedHash = contentHashJson(stored);
console.log('stored:', String(storedId), storedHash);

// Skip unchanged: the same post with its keys in another order is the same canonical JSON.
const again = { body: 'Hello!', publishedAt: '2024-05-01T12:00:00Z', lang: 'en',
  slug: 'hello-world' };
const edited = { ...stored, body: 'Hello, world!' };
for (const [name, post] of [['again', again], ['edited', edited]]) {
  const write = needsWrite(storedHash, contentHashJson(post));
  console.log(`${name}: ${write ? 'write' : 'skip'}`);
}

// Refuse a changed identity: a new publishedAt is a new id, and would orphan the stored post.
const moved = { ...stored, publishedAt: '2024-05-02T12:00:00Z' };
for (const [name, post] of [['edited', edited], ['moved', moved]]) {
  try {
    const scheme = verify(storedId, [post.slug, post.lang], { time: post.publishedAt,
      namespace: 'posts' });
    console.log(`${name}: same identity (${scheme})`);
  } catch (e) {
    if (!(e instanceof SamekeyError)) throw e;
    console.log(`${name}: refused (${e.code})`);
  }
}
