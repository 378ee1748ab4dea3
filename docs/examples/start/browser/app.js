import * as samekey from 'samekey-wasm/inline';

await samekey.init(); // the .wasm is inside the bundle: nothing to fetch
const published = new Date('2024-05-01T12:00:00Z');
const id = samekey.deriveUlid(['hello-world', 'en'], { time: published, namespace: 'posts' });
document.body.append(id.toString());
