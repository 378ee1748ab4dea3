// The site's search, as a reader who has an error code uses it: for every code of the
// error page (each a section of its own), the code typed into mdBook's search box in
// headless Chromium, and the first result must be that code's section of the error page.
//
//   node scripts/test_search.mjs   (after `just site::build`)
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { launch, serve, site } from './site_server.mjs';

const errorsPage = fs.readFileSync(path.join(site, 'reference/errors.html'), 'utf8');
const codes = [...errorsPage.matchAll(/<h3 id="([a-z0-9_]+)"/g)].map((m) => m[1]);
assert.ok(codes.length >= 30, `the error page has ${codes.length} code sections`);

const browser = await launch();
const server = await serve();
const page = await browser.context.newPage();
const wrong = [];
try {
  await page.goto(`${server.url}/index.html`, { waitUntil: 'networkidle' });
  for (const code of codes) {
    if (!(await page.isVisible('#mdbook-searchbar'))) await page.click('#mdbook-search-toggle');
    await page.fill('#mdbook-searchbar', code);
    await page.press('#mdbook-searchbar', 'End'); // mdBook searches on keyup
    await page.waitForFunction((c) => document.querySelector('#mdbook-searchresults-header')?.textContent.includes(`'${c}'`), code);
    const first = page.locator('#mdbook-searchresults li a').first();
    await first.waitFor({ timeout: 10000 });
    const href = new URL(await first.getAttribute('href'), `${server.url}/`);
    const at = `${href.pathname.replace(/^\//, '')}${href.hash}`;
    if (at !== `reference/errors.html#${code}`) wrong.push(`${code}: the first result is ${at}`);
  }
} finally {
  await browser.close();
  server.close();
}
for (const w of wrong) console.log(`test_search: ${w}`);
console.log(`test_search: ${codes.length - wrong.length} of ${codes.length} error codes find their section first`);
process.exit(wrong.length ? 1 : 0);
