// The built site in headless Debian Chromium (playwright-core), served from 127.0.0.1:
// every ulid vector of the vector file (SAMEKEY_VECTORS honoured) through the playground's
// derive(), 20 of them typed into its inputs, every content_json vector through
// compareJson() and one through its text areas, the link round trip, the error links, the
// seconds warning, keyboard-only use, axe-core, no console errors, no request beyond
// 127.0.0.1, the pages' gzipped transfer size; screenshots in target/docs-screenshots/.
//
//   node scripts/test_playground.mjs   (after `just docs`)
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { launch, repo, serve, site } from './site_server.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const shots = path.join(repo, 'target/docs-screenshots');
const vectorFile = process.env.SAMEKEY_VECTORS || path.join(repo, 'test-vectors/samekey.json');
const vectorText = fs.readFileSync(vectorFile, 'utf8');
const vectors = JSON.parse(vectorText).vectors;
const BUDGET = 300 * 1024; // the playground page, gzipped, WebAssembly included

// The home page's browser example, run as a reader runs it: a module of a page that maps
// 'samekey-wasm' to the package the site ships (the playground's copy).
const EXAMPLE_PAGE = '/__examples/hello-wasm.html';
const EXAMPLES = {
  [EXAMPLE_PAGE]: ['text/html', '<!doctype html><meta charset="utf-8"><title>hello-wasm</title>'
    + '<script type="importmap">{"imports":{"samekey-wasm":"/playground/samekey-wasm/web.js"}}</script>'
    + '<script type="module" src="/__examples/hello-wasm.mjs"></script>'],
  '/__examples/hello-wasm.mjs': ['text/javascript', fs.readFileSync(path.join(repo, 'docs/examples/hello/hello-wasm.mjs'))],
};

const browser = await launch();
const { context } = browser;
const server = await serve({ routes: EXAMPLES });
const problems = { console: [], external: [] };
const transfer = new Map(); // page path -> gzipped bytes of every response it loaded

function watch(page, name) {
  page.on('console', (m) => { if (m.type() === 'error') problems.console.push(`${name}: ${m.text()}`); });
  page.on('pageerror', (e) => problems.console.push(`${name}: ${e}`));
  page.on('request', (r) => {
    const url = new URL(r.url());
    if (!['data:', 'blob:'].includes(url.protocol) && url.hostname !== '127.0.0.1') problems.external.push(`${name}: ${r.url()}`);
  });
  page.on('response', async (r) => {
    const body = await r.body().catch(() => Buffer.alloc(0));
    transfer.set(name, (transfer.get(name) ?? 0) + zlib.gzipSync(body, { level: 9 }).length);
  });
}

async function open(name, urlPath) {
  const page = await context.newPage();
  watch(page, name);
  await page.goto(`${server.url}${urlPath}`, { waitUntil: 'networkidle' });
  return page;
}

const playground = async (hash = '') => {
  const page = await open('playground', `/playground.html${hash}`);
  await page.evaluate(() => window.samekeyPlayground.ready);
  return page;
};

// What the page shows after its inputs changed.
async function shown(page) {
  return page.evaluate(() => {
    const code = document.querySelector('#skp-ulid-result .skp-error a code');
    return code ? { error: code.textContent } : { ulid: document.getElementById('skp-id').textContent, uuid: document.getElementById('skp-uuid').textContent };
  });
}

async function typeCase(page, c) {
  const rows = async () => page.locator('#skp-fields input').count();
  while (await rows() < c.fields.length) await page.click('#skp-add');
  while (await rows() > c.fields.length) await page.click('#skp-fields .skp-row:last-child button');
  for (const [i, f] of c.fields.entries()) await page.fill(`#skp-field-${i + 1}`, f);
  await page.fill('#skp-time', String(c.timestamp_ms));
  await page.selectOption('#skp-scheme', c.scheme);
  if (c.scheme !== 'v0') await page.fill('#skp-namespace', c.namespace); // v0's is set aside
  await page.fill('#skp-secret', c.secret);
}

const checks = [];
const check = (what) => { checks.push(what); console.log(`ok ${checks.length} ${what}`); };

try {
  fs.mkdirSync(shots, { recursive: true });
  const home = await open('home', '/index.html');
  await home.screenshot({ path: path.join(shots, 'home.png'), fullPage: true });

  // Arrow keys on a focused language tab switch the tab and stay on the page (mdBook
  // turns them into chapter navigation otherwise); so on a code block that scrolls
  // sideways on a phone's width.
  await home.locator('[role="tab"]').first().click();
  const tabBefore = await home.locator('[role="tab"][aria-selected="true"]').first().textContent();
  await home.keyboard.press('ArrowRight');
  await home.waitForTimeout(300);
  assert.ok(home.url().endsWith('/index.html'), `ArrowRight on a tab left the page for ${home.url()}`);
  const tabAfter = await home.locator('[role="tab"][aria-selected="true"]').first().textContent();
  assert.notEqual(tabAfter, tabBefore, 'ArrowRight did not switch the tab');
  await home.keyboard.press('ArrowLeft');
  await home.waitForTimeout(300);
  assert.ok(home.url().endsWith('/index.html'), `ArrowLeft on a tab left the page for ${home.url()}`);
  const narrow = await context.newPage();
  await narrow.setViewportSize({ width: 390, height: 844 });
  await narrow.goto(`${server.url}/index.html`, { waitUntil: 'networkidle' });
  const region = narrow.locator('pre > code[role="region"]:visible').first();
  assert.ok(await region.count(), 'no code block scrolls sideways at 390 px');
  await region.focus();
  await narrow.keyboard.press('ArrowRight');
  await narrow.waitForTimeout(300);
  assert.ok(narrow.url().endsWith('/index.html'), `ArrowRight on a code block left the page for ${narrow.url()}`);
  assert.ok(await region.evaluate((e) => e.scrollLeft > 0), 'ArrowRight did not scroll the code block');
  await narrow.close();
  check('arrow keys on a tab and on a sideways-scrolling code block stay on the page');

  // The print page holds every page's tab groups: each shows the remembered language where
  // it has it (a group of Java alone switches no other).
  const printPage = await context.newPage();
  await printPage.goto(`${server.url}/print.html`, { waitUntil: 'networkidle' });
  const shownTabs = await printPage.evaluate(() => {
    const remembered = localStorage.getItem('samekey-tab-lang');
    return [...document.querySelectorAll('.sk-tabs[data-sk-group="lang"]')].map((g) => {
      const keys = [...g.querySelectorAll(':scope > [role="tablist"] > [role="tab"]')].map((b) => b.dataset.skKey);
      const on = g.querySelector(':scope > [role="tablist"] > [aria-selected="true"]')?.dataset.skKey;
      return { want: keys.includes(remembered) ? remembered : keys[0], on };
    });
  });
  assert.ok(shownTabs.length > 1, 'the print page has no language groups');
  assert.deepEqual(shownTabs.map((t) => t.on), shownTabs.map((t) => t.want), 'the print page\'s tab groups');
  await printPage.close();
  check(`the print page's ${shownTabs.length} language groups each show the remembered language or their own first`);

  // The browser tab's example prints, in Chromium, the id every tab prints (the home page
  // states it; test_examples.py holds it to the reference).
  const printed = await home.locator('code[data-samekey-output]').first().getAttribute('data-samekey-output');
  const example = await context.newPage();
  const logged = [];
  // What the program prints (the browser's own 404 for /favicon.ico is not the program's).
  example.on('console', (m) => { if (m.type() === 'log') logged.push(m.text()); });
  example.on('pageerror', (e) => logged.push(`pageerror: ${e}`));
  await example.goto(`${server.url}${EXAMPLE_PAGE}`, { waitUntil: 'networkidle' });
  for (let i = 0; i < 100 && logged.length === 0; i++) await new Promise((r) => setTimeout(r, 50));
  assert.deepEqual(logged, [printed], 'the home page\'s browser example in Chromium');
  await example.close();
  check(`the home page's browser example prints ${printed} in Chromium`);

  const page = await playground();

  // Every ulid vector through the function the page uses.
  const ulids = vectors.filter((v) => v.op === 'ulid');
  const failures = await page.evaluate((all) => {
    const fromHex = (h) => Uint8Array.from(h.match(/../g) ?? [], (b) => parseInt(b, 16));
    const text = (t) => (typeof t === 'object' && t !== null && t.utf16 !== undefined
      ? String.fromCharCode(...(t.utf16.match(/.{4}/g) ?? []).map((u) => parseInt(u, 16))) : t);
    const field = (f) => (typeof f === 'object' && f.hex !== undefined ? fromHex(f.hex) : text(f));
    const out = [];
    for (const v of all) {
      const r = window.samekeyPlayground.derive({
        fields: v.fields.map(field), time: v.timestamp_ms, namespace: text(v.namespace), scheme: text(v.scheme),
        secret: v.secret_hex === undefined ? null : fromHex(v.secret_hex),
      });
      const got = r.error ? { error: r.error.code } : { ulid: r.id, uuid: r.uuid, message_hex: r.hex };
      const want = v.expect.error ? { error: v.expect.error } : { ulid: v.expect.ulid, uuid: v.expect.uuid, message_hex: v.expect.message_hex };
      if (JSON.stringify(got) !== JSON.stringify(want)) out.push({ id: v.id, got, want });
      // The labelled parts cover the hashed bytes exactly.
      else if (!r.error && r.parts.map((p) => p.hex).join('') !== r.hex) out.push({ id: v.id, parts: r.parts });
    }
    return out;
  }, ulids);
  assert.deepEqual(failures, []);
  check(`${ulids.length} ulid vectors through the playground's derive(): ids, UUIDs, messages, error codes`);

  // 20 of them typed into the inputs: up to eight text fields (one line each; a case of
  // 300 fields took a click and a fill per row, minutes of CI, and derive() above holds
  // it), a scheme the menu has, a secret that is UTF-8 text, a time the input can hold,
  // no namespace with v0 (the page sets it aside: derive() above holds the error).
  const typable = ulids.filter((v) => v.fields.length > 0 && v.fields.length <= 8 && v.fields.every((f) => typeof f === 'string' && !/[\n\r]/.test(f))
    && typeof v.namespace === 'string' && ['v0', 'v1', 'v2'].includes(v.scheme) && Number.isSafeInteger(v.timestamp_ms)
    && !(v.scheme === 'v0' && v.namespace !== '')
    && (v.secret_hex === undefined || (v.secret_hex !== '' && Buffer.from(v.secret_hex, 'hex').every((b) => b >= 0x20 && b < 0x7f))));
  // Any vector file must do: 20 spread over what it has, or all of them if fewer.
  const count = Math.min(20, typable.length);
  const sample = Array.from({ length: count }, (_, i) => typable[Math.floor((i * typable.length) / count)]);
  assert.ok(count > 0, `${vectorFile} has no ulid vector the inputs can hold`);
  for (const v of sample) {
    const secret = v.secret_hex === undefined ? '' : Buffer.from(v.secret_hex, 'hex').toString('latin1');
    await typeCase(page, { ...v, secret });
    const want = v.expect.error ? { error: v.expect.error } : { ulid: v.expect.ulid, uuid: v.expect.uuid };
    assert.deepEqual(await shown(page), want, v.id);
  }
  check(`${count} ulid vectors typed into the inputs (of ${typable.length} typable), ${sample.filter((v) => v.expect.error).length} of them errors`);

  // The link reproduces the case; the secret stays out of it.
  const keyed = sample[0];
  const secret = 'never-in-the-link';
  await typeCase(page, { ...keyed, secret });
  const link = page.url();
  assert.ok(!decodeURIComponent(link).includes(secret), link);
  await typeCase(page, { ...keyed, secret: '' });
  const linkUnkeyed = page.url();
  const shownUnkeyed = await shown(page);
  const again = await playground(new URL(linkUnkeyed).hash);
  assert.deepEqual(await shown(again), shownUnkeyed);
  assert.deepEqual(await again.locator('#skp-fields input').evaluateAll((els) => els.map((e) => e.value)), keyed.fields);
  assert.equal(await again.inputValue('#skp-namespace'), keyed.namespace);
  assert.equal(await again.inputValue('#skp-scheme'), keyed.scheme);
  await again.close();
  check('a link reproduces the inputs and the id; the secret is not in it');

  // An error names its code and links its explanation, which exists.
  await page.fill('#skp-time', '2024-13-01T00:00:00Z');
  const href = await page.getAttribute('#skp-ulid-result .skp-error a', 'href');
  assert.equal(href, 'reference/errors.html#invalid_timestamp');
  const errorsPage = fs.readFileSync(path.join(site, 'reference/errors.html'), 'utf8');
  assert.ok(errorsPage.includes('id="invalid_timestamp"'));
  const said = await page.textContent('#skp-ulid-result .skp-error');
  assert.ok(said.startsWith('invalid_timestamp: ') && !said.includes('invalid timestamp:'), said);
  check('an error shows its code once, linked to its explanation');

  // A time that reads as seconds derives its id, with the warning, and every language's
  // call keeps the value with a comment that says so.
  await page.fill('#skp-time', '1714564800');
  assert.match(await page.textContent('.skp-warning'), /reads as seconds/);
  const secondsCalls = await page.evaluate(() => window.samekeyPlayground.derive(
    { fields: ['a'], time: '1714564800', namespace: '' }).calls);
  for (const [lang, code] of secondsCalls) assert.match(code.split('\n')[0], /^(#|\/\/|--) 1714564800 reads as seconds/, lang);
  check('the seconds warning, and a comment in each language\'s call');

  // v0 takes no namespace: the field is set aside (disabled, said why), not an error.
  await page.selectOption('#skp-scheme', 'v1');
  await page.fill('#skp-namespace', 'posts');
  await page.selectOption('#skp-scheme', 'v0');
  assert.ok(await page.isDisabled('#skp-namespace'));
  assert.match(await page.textContent('#skp-namespace-help'), /takes no namespace/);
  assert.equal(await page.locator('#skp-ulid-result .skp-error').count(), 0);
  await page.selectOption('#skp-scheme', 'v1');
  assert.ok(!(await page.isDisabled('#skp-namespace')));
  check('v0 sets the namespace aside instead of failing');

  // An empty field is said, not taken silently.
  await page.click('#skp-add');
  assert.match(await page.textContent('.skp-empty'), /Field \d+ is empty/);
  await page.click('#skp-fields .skp-row:last-child .skp-remove');
  assert.equal(await page.locator('.skp-empty').count(), 0);
  check('an empty field is warned about');

  // JSON: every content_json vector through compareJson(); one through the text areas,
  // and the first difference of two documents marked.
  const jsons = vectors.filter((v) => v.op === 'content_json');
  const jsonFailures = await page.evaluate((all) => {
    const text = (t) => (typeof t === 'object' && t !== null && t.utf16 !== undefined
      ? String.fromCharCode(...(t.utf16.match(/.{4}/g) ?? []).map((u) => parseInt(u, 16))) : t);
    const out = [];
    for (const v of all) {
      const { a } = window.samekeyPlayground.compareJson(text(v.json), '', text(v.scheme));
      const got = a.error ? { error: a.error.code } : { canonical: a.canonical, hash: a.hash };
      if (JSON.stringify(got) !== JSON.stringify(v.expect.error ? { error: v.expect.error } : { canonical: v.expect.canonical, hash: v.expect.hash })) out.push({ id: v.id, got, want: v.expect });
    }
    return out;
  }, jsons);
  assert.deepEqual(jsonFailures, []);
  const typed = jsons.filter((v) => !v.expect.error && typeof v.json === 'string' && ['v1', 'v2'].includes(v.scheme)).slice(0, 5);
  for (const v of typed) {
    await page.fill('#skp-json-a', v.json);
    await page.fill('#skp-json-b', '');
    await page.selectOption('#skp-json-scheme', v.scheme);
    assert.equal(await page.textContent('#skp-hash-A'), v.expect.hash, v.id);
    assert.equal(await page.textContent('#skp-canonical-A'), v.expect.canonical, v.id);
  }
  // Two canonical documents (RFC 8785: sorted names, no spaces) that differ in one value.
  const [left, right] = ['{"a":1,"b":[true,"x"]}', '{"a":1,"b":[false,"x"]}'];
  let from = 0;
  while (left[from] === right[from]) from++;
  await page.fill('#skp-json-a', left);
  await page.fill('#skp-json-b', right);
  assert.equal(await page.textContent('#skp-canonical-B mark'), right.slice(from));
  assert.match(await page.textContent('#skp-json-verdict'), new RegExp(`character ${from + 1}\\b`));
  await page.fill('#skp-json-b', '{ "b": [true, "x"], "a": 1.0 }');
  assert.match(await page.textContent('#skp-json-verdict'), /^Same canonical form/);
  check(`${jsons.length} content_json vectors through compareJson(), ${typed.length} typed in; the first difference marked`);

  // Keyboard only: Tab reaches every control; typing changes the id; the arrows stay in
  // the field (mdBook binds them to page turns).
  const kb = await playground();
  const before = await kb.textContent('#skp-id');
  const reached = new Set();
  for (let i = 0; i < 60; i++) {
    await kb.keyboard.press('Tab');
    reached.add(await kb.evaluate(() => document.activeElement?.id || ''));
  }
  for (const id of ['skp-field-1', 'skp-add', 'skp-time', 'skp-namespace', 'skp-scheme', 'skp-secret', 'skp-lang', 'skp-copy', 'skp-json-a', 'skp-json-b', 'skp-json-scheme']) {
    assert.ok(reached.has(id), `Tab never reaches #${id}`);
  }
  await kb.focus('#skp-field-1');
  await kb.keyboard.press('End');
  await kb.keyboard.press('ArrowLeft');
  await kb.keyboard.type('X');
  assert.ok(kb.url().includes('/playground.html'), `ArrowLeft left the page: ${kb.url()}`);
  assert.equal(await kb.inputValue('#skp-field-1'), 'hello-worlXd');
  assert.notEqual(await kb.textContent('#skp-id'), before);
  await kb.focus('#skp-scheme');
  await kb.keyboard.press('ArrowDown');
  assert.equal(await kb.inputValue('#skp-scheme'), 'v2');
  await kb.close();
  check('keyboard only: every control reached with Tab, typing and the scheme menu work, the arrows stay in the field');

  // Accessibility: axe-core, no serious or critical violation on either page.
  const axe = path.join(repo, 'docs/node_modules/axe-core/axe.min.js');
  // The guides and reference pages too (the spec's is the longest page of the site).
  const others = ['guides', 'reference'].flatMap((dir) => fs.readdirSync(path.join(site, dir))
    .filter((f) => f.endsWith('.html')).map((f) => `${dir}/${f}`));
  const pages = [['home', home], ['playground', page]];
  for (const other of others) pages.push([other, await open(other, `/${other}`)]);
  for (const [name, p] of pages) {
    await p.addScriptTag({ path: axe });
    const { violations } = await p.evaluate(() => window.axe.run());
    const serious = violations.filter((v) => ['serious', 'critical'].includes(v.impact));
    assert.deepEqual(serious.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`), [], name);
  }
  check(`axe-core: no serious or critical violations on the home page, the playground and ${others.length} guide and reference pages`);

  // The calls the page generates for inputs that test each language's quoting, times and
  // secrets (playground_cases.json, shared with Swift's test), written for
  // test_playground_calls.py, which runs them in their languages.
  const CASES = JSON.parse(fs.readFileSync(path.join(here, 'playground_cases.json'), 'utf8'));
  const generated = await page.evaluate((cases) => cases.map((c) => {
    const r = window.samekeyPlayground.derive(c);
    return { inputs: c, id: r.id, error: r.error, calls: Object.fromEntries(r.calls ?? []) };
  }), CASES);
  for (const g of generated) assert.equal(g.error, undefined, JSON.stringify(g));
  fs.writeFileSync(path.join(repo, 'target/docs-playground-calls.json'), JSON.stringify(generated, null, 1));
  check(`the calls of ${CASES.length} cases written to target/docs-playground-calls.json`);

  // Size of a fresh load, and the screenshot.
  transfer.clear();
  const fresh = await playground();
  await fresh.screenshot({ path: path.join(shots, 'playground.png'), fullPage: true });
  const size = transfer.get('playground');
  console.log(`playground page: ${size} bytes gzipped, WebAssembly included (budget ${BUDGET})`);
  assert.ok(size <= BUDGET, `${size} > ${BUDGET}`);
  check('the playground page loads under 300 KB gzipped');

  assert.deepEqual(problems.console, []);
  assert.deepEqual(problems.external, []);
  check('no console errors; no request left 127.0.0.1');
  console.log(`screenshots: ${path.relative(repo, shots)}/home.png, playground.png`);
} finally {
  await browser.close();
  server.close();
}
