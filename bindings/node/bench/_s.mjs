import { createRequire } from 'node:module';
const require = createRequire(import.meta.url);
const native = require('/work/main/bindings/node/native.js');
import * as samekey from 'samekey';
const N = 20000;
const SLUGS = Array.from({ length: N }, (_, i) => `my-first-post-${String(i).padStart(6, '0')}`);
const TIMES = Array.from({ length: N }, (_, i) => 1714564800000 + i);
const d = new samekey.UlidDeriver();
const buf = new Uint8Array(1024);
const p = Buffer.from([1,1,0,2,0,0,0,0, 20,0,0,0, ...Buffer.from('my-first-post-000001'), 2,0,0,0, ...Buffer.from('en')]);
buf.set(p);
const v = {
  'native derivePacked': () => { for (let i=0;i<N;i++) native.derivePacked(buf, TIMES[i]); },
  'native coreVersion (empty call)': () => { for (let i=0;i<N;i++) native.coreVersion(); },
  'deriver.derive': () => { for (let i=0;i<N;i++) d.derive([SLUGS[i], 'en'], { time: TIMES[i] }).toString(); },
  'deriveUlid': () => { for (let i=0;i<N;i++) samekey.deriveUlid([SLUGS[i], 'en'], { time: TIMES[i] }).toString(); },
};
const rows = Object.fromEntries(Object.keys(v).map(k => [k, Infinity]));
for (let r = 0; r < 30; r++) for (const [k, f] of Object.entries(v)) { const s = process.hrtime.bigint(); f(); rows[k] = Math.min(rows[k], Number(process.hrtime.bigint() - s) / N); }
console.log(rows);
