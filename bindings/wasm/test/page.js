// Runs every vector of /vectors.json through the browser build and reports the count.
import * as namespace from '../pkg/web.js';
import { runDocument } from '../pkg/lib/vectors.mjs';

const status = document.getElementById('status');
try {
  const samekey = await namespace.init();
  const text = await (await fetch('/vectors.json')).text();
  const outcomes = runDocument(samekey, text);
  const failed = outcomes.filter((o) => !o.passed);
  const id = samekey.deriveUlid(['hello-world', 'en'], { time: new Date('2024-05-01T12:00:00Z'), namespace: 'posts' });
  status.className = failed.length ? 'bad' : 'ok';
  status.innerHTML = `<strong>${outcomes.length - failed.length} passed, ${failed.length} failed</strong> — ` +
    `samekey ${samekey.version()} in ${navigator.userAgent.match(/Chrom\S+/)?.[0] ?? 'this browser'}; ` +
    `selftest ${samekey.selftest()} ok; <code>deriveUlid(['hello-world', 'en'])</code> = <code>${id}</code>`;
  for (const o of failed.slice(0, 20)) {
    const li = document.createElement('li');
    li.textContent = `${o.id}: expected ${JSON.stringify(o.expected).slice(0, 200)}, got ${JSON.stringify(o.actual).slice(0, 200)}`;
    document.getElementById('failures').append(li);
  }
  // The browser entry lists its named exports by hand: they must be exactly the API's.
  const named = Object.keys(namespace).filter((k) => k !== 'default').sort();
  const exportsMatch = JSON.stringify(named) === JSON.stringify(Object.keys(samekey).sort());
  window.__result = { passed: outcomes.length - failed.length, failed: failed.length, ids: failed.map((o) => o.id), exportsMatch };
} catch (e) {
  status.className = 'bad';
  status.textContent = `error: ${e}`;
  window.__result = { passed: 0, failed: -1, error: String(e) };
}
