import * as samekey from 'samekey-wasm';

await samekey.init(); // fetches and instantiates the .wasm once; in Node it resolves at once
const published = new Date('2024-05-01T12:00:00Z');
const id = samekey.deriveUlid(['hello-world', 'en'], { time: published, namespace: 'posts' });
console.log(id.toString());
