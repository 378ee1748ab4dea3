// samekey/registry against bare fetch on the same kept-alive connections (Node's
// undici), interleaved rounds, medians: a small JSON registration and a large file
// streamed (`--file-mib`), with this process's peak RSS.
//
//   node bench/registry_client.mjs URL [rounds] [small] [fileMiB]
import { createReadStream, mkdtempSync, openSync, writeSync, closeSync, statSync, rmSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { Registry } from 'samekey/registry';

const [url, rounds = 9, small = 2000, fileMiB = 256] = [process.argv[2], ...process.argv.slice(3).map(Number)];
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const value = { title: 'Hello', tags: ['a', 'b'], n: 3 };
const body = JSON.stringify(value);
const client = new Registry(url, { skipUploadAbove: null });
await client.register(value);
const bare = [], ours = [];
for (let r = 0; r < rounds; r++) {
  let t = performance.now();
  for (let i = 0; i < small; i++) {
    const res = await fetch(`${url}/v1/revisions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    await res.arrayBuffer();
  }
  bare.push((performance.now() - t) / small);
  t = performance.now();
  for (let i = 0; i < small; i++) await client.register(value);
  ours.push((performance.now() - t) / small);
}
const dir = mkdtempSync(join(tmpdir(), 'samekey-bench-'));
const file = join(dir, 'big.bin');
const fd = openSync(file, 'w');
const block = randomBytes(1 << 20);
for (let i = 0; i < fileMiB; i++) (block[0] = i & 255), writeSync(fd, block);
closeSync(fd);
// New data each run (every run stores it; the lookup finds nothing): its last bytes.
const renew = () => {
  const f = openSync(file, 'r+');
  writeSync(f, randomBytes(16), 0, 16, fileMiB * (1 << 20) - 16);
  closeSync(f);
};
const lookup = new Registry(url); // the default: hashed, looked up, then sent
const bareBig = [], oursBig = [], lookupBig = [];
for (let r = 0; r < 3; r++) {
  renew();
  let t = performance.now();
  const res = await fetch(`${url}/v1/revisions`, {
    method: 'POST', duplex: 'half', redirect: 'error', headers: { 'content-type': 'application/octet-stream' },
    body: Readable.toWeb(createReadStream(file, { highWaterMark: 1 << 20 })),
  });
  await res.arrayBuffer();
  bareBig.push(performance.now() - t);
  for (const [c, times] of [[client, oursBig], [lookup, lookupBig]]) {
    renew();
    t = performance.now();
    if (!(await c.registerStream(() => createReadStream(file, { highWaterMark: 1 << 20 }))).created) throw new Error('not new');
    times.push(performance.now() - t);
  }
}
rmSync(dir, { recursive: true });
const [b, o, bb, ob, lb] = [median(bare), median(ours), median(bareBig), median(oursBig), median(lookupBig)];
const rss = process.resourceUsage().maxRSS >> 10;
console.log(`| Node ${process.version} (fetch) | bare | samekey/registry | ratio (bare / client) |`);
console.log('|---|---:|---:|---:|');
console.log(`| small JSON registration, kept-alive, median of ${rounds} rounds of ${small} | ${(b * 1000).toFixed(0)} µs | ${(o * 1000).toFixed(0)} µs | ${(b / o).toFixed(2)}x |`);
console.log(`| ${fileMiB} MiB file, hashed while sent (\`skipUploadAbove: null\`; peak RSS of the process: ${rss} MiB) | ${(fileMiB / (bb / 1000)).toFixed(0)} MiB/s | ${(fileMiB / (ob / 1000)).toFixed(0)} MiB/s | ${(bb / ob).toFixed(2)}x |`);
console.log(`| ${fileMiB} MiB, hashed, looked up (not there), then sent (the default) | ${(fileMiB / (bb / 1000)).toFixed(0)} MiB/s | ${(fileMiB / (lb / 1000)).toFixed(0)} MiB/s | ${(bb / lb).toFixed(2)}x |`);
