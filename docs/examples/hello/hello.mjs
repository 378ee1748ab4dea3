import * as samekey from 'samekey';

const published = new Date('2024-05-01T12:00:00Z');
const id = samekey.deriveUlid(['hello-world', 'en'], { time: published, namespace: 'posts' });
console.log(id.toString());
