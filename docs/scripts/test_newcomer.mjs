// A newcomer's walk through the built site in headless Chromium, at 1280 and at 390 px:
// the home page, each language tab in turn, its install line and its example copied with
// the page's own copy button, each equal to the file the tests run (docs/src/index.md
// includes them: the install lines of docs/examples/install/, run against local
// registries by the dist tests; the examples, run by test_examples.py); the Install
// page's tab of that language, its first line the same; nothing wider than the screen;
// axe-core clean at 390 px; each Python session (pycon) copied as a program, without its
// prompts; every page at 390 px with no short inline code (a flag) broken over two lines;
// each of mdBook's five themes clean under axe-core, contrast included. Then 404.html
// served under other base paths, as GitHub Pages
// serves it for any missing path: its styles load and its links lead into the site.
// And "Your first id" (start.html), each language's tab copied with its buttons and run
// as the page says in an empty directory (start_page.mjs).
//
//   node scripts/test_newcomer.mjs   (after `just docs`)
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { launch, repo, serve } from './site_server.mjs';
import { steps as startSteps, walkStartPage } from './start_page.mjs';

const src = path.join(repo, 'docs/src');

// The files each tab of a page's first language group includes, in order, by tab key.
function tabIncludes(page) {
  const text = fs.readFileSync(path.join(src, page), 'utf8');
  const group = text.slice(text.indexOf('<div class="sk-tabs"'));
  const tabs = {};
  for (const part of group.split('<div class="sk-tab" ').slice(1)) {
    const key = part.match(/^data-sk-key="([\w-]+)"/)[1];
    tabs[key] = [...part.matchAll(/\{\{#include ([^}:]+)\}\}/g)]
      .map((m) => path.resolve(path.dirname(path.join(src, page)), m[1]));
  }
  return tabs;
}

const home = tabIncludes('index.md');
const install = tabIncludes('install.md');
const relative = (file) => path.relative(repo, file);
for (const [key, files] of Object.entries(home)) {
  assert.ok(files.length === 2 && relative(files[0]).startsWith('docs/examples/install/'),
    `the home page's ${key} tab shows ${files.map(relative)}: an install line, then the example`);
  assert.deepEqual(install[key]?.[0], files[0], `the Install page's ${key} tab starts with the home page's line`);
}

const browser = await launch();
const { context } = browser;
await context.grantPermissions(['clipboard-read', 'clipboard-write']);
const problems = [];
const checks = [];
const check = (what) => { checks.push(what); console.log(`ok ${checks.length} ${what}`); };

// What the copy button of each code block of the tab `key` puts on the clipboard.
async function copyTab(page, key) {
  const tab = page.locator(`.sk-tabs [role="tab"][data-sk-key="${key}"]`).first();
  await tab.click();
  const panel = page.locator(`#${await tab.getAttribute('aria-controls')}`);
  assert.ok(await panel.isVisible(), `the ${key} tab's panel is hidden after a click`);
  const copied = [];
  for (const pre of await panel.locator('pre').all()) {
    await pre.hover();
    await pre.locator('.clip-button').click();
    copied.push(lines(await page.evaluate(() => navigator.clipboard.readText())));
  }
  return copied;
}

// Equal but for the last newline (mdBook drops a Rust block's).
const lines = (code) => code.replace(/\n*$/, '\n');
const text = (file) => lines(fs.readFileSync(file, 'utf8'));

async function walk(width) {
  const server = await serve();
  const page = await context.newPage();
  page.on('pageerror', (e) => problems.push(`${width}px: ${e}`));
  await page.setViewportSize({ width, height: 844 });
  await page.goto(`${server.url}/index.html`, { waitUntil: 'networkidle' });
  for (const [key, files] of Object.entries(home)) {
    const copied = await copyTab(page, key);
    assert.deepEqual(copied, files.map(text), `home page, ${key} tab, ${width} px: what the copy buttons copy`);
    const wide = await page.evaluate(() => document.scrollingElement.scrollWidth - window.innerWidth);
    assert.ok(wide <= 0, `home page, ${key} tab, ${width} px: the page is ${wide} px wider than the screen`);
  }
  check(`${width} px: each of the home page's ${Object.keys(home).length} tabs copies its install line and example as the tests run them`);
  const installPage = await context.newPage();
  await installPage.setViewportSize({ width, height: 844 });
  await installPage.goto(`${server.url}/install.html`, { waitUntil: 'networkidle' });
  for (const [key, files] of Object.entries(install)) {
    const copied = await copyTab(installPage, key);
    assert.deepEqual(copied, files.map(text), `Install page, ${key} tab, ${width} px`);
  }
  check(`${width} px: the Install page's tabs copy the same lines`);
  if (width < 500) {
    const start = Object.fromEntries(Object.entries(startSteps()).filter(([key]) => key));
    for (const [name, tabs] of [['index.html', home], ['install.html', install], ['start.html', start]]) await axeClean(server, name, tabs, width);
    check(`${width} px: axe-core finds no serious or critical violation on the home, Install and first-id pages, each tab shown`);
  }
  await page.close();
  await installPage.close();
  server.close();
}

// Each Python session (```pycon) of the guides copies as a program: no prompt, no
// printed result, one line per prompt line, and Python parses it.
async function sessionsCopy(server) {
  const page = await context.newPage();
  let blocks = 0;
  for (const name of fs.readdirSync(path.join(src, 'guides')).filter((f) => f.endsWith('.md'))) {
    await page.goto(`${server.url}/guides/${name.replace(/\.md$/, '.html')}`, { waitUntil: 'networkidle' });
    for (const pre of await page.locator('pre:has(code.language-pycon)').all()) {
      const prompts = (await pre.locator('code').innerText()).split('\n').filter((l) => /^(>>>|\.\.\.)( |$)/.test(l)).length;
      await pre.hover();
      await pre.locator('.clip-button').click();
      const copied = await page.evaluate(() => navigator.clipboard.readText());
      const lines = copied.replace(/\n$/, '').split('\n');
      assert.ok(!lines.some((l) => /^(>>>|\.\.\.)/.test(l)), `${name}: a prompt was copied`);
      assert.equal(lines.length, prompts, `${name}: ${lines.length} lines copied for ${prompts} prompt lines`);
      execFileSync('python3', ['-c', 'import ast, sys; ast.parse(sys.stdin.read())'], { input: copied });
      blocks += 1;
    }
  }
  assert.ok(blocks > 0, 'no Python session on the guides');
  await page.close();
  return blocks;
}

// axe-core on a fresh load of a page (no copy made: mdBook's clipboard.js leaves its
// unlabelled scratch textarea until the next click), after showing each tab in turn.
async function axeClean(server, name, tabs, width) {
  const page = await context.newPage();
  await page.setViewportSize({ width, height: 844 });
  await page.goto(`${server.url}/${name}`, { waitUntil: 'networkidle' });
  for (const key of Object.keys(tabs)) await page.locator(`.sk-tabs [role="tab"][data-sk-key="${key}"]`).first().click();
  await page.addScriptTag({ path: path.join(repo, 'docs/node_modules/axe-core/axe.min.js') });
  const { violations } = await page.evaluate(() => window.axe.run());
  const serious = violations.filter((v) => ['serious', 'critical'].includes(v.impact))
    .map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`);
  assert.deepEqual(serious, [], `axe-core at ${width} px on ${name}`);
  await page.close();
}

// At a phone's width, every page: no short inline code (a flag, a code) broken over two
// lines, and nothing wider than the screen.
async function shortCodesWhole(server, width) {
  const page = await context.newPage();
  await page.setViewportSize({ width, height: 844 });
  const pages = ['index.html', 'install.html', 'start.html', ...['guides', 'reference'].flatMap((dir) =>
    fs.readdirSync(path.join(src, dir)).filter((f) => f.endsWith('.md')).map((f) => `${dir}/${f.replace(/\.md$/, '.html')}`))];
  let codes = 0;
  for (const name of pages) {
    await page.goto(`${server.url}/${name}`, { waitUntil: 'networkidle' });
    const seen = await page.evaluate(() => ({
      broken: [...document.querySelectorAll(':not(pre) > code')].filter((c) => c.textContent.length <= 32)
        .filter((c) => c.getClientRects().length > 1).map((c) => c.textContent),
      count: [...document.querySelectorAll(':not(pre) > code')].filter((c) => c.textContent.length <= 32).length,
      wide: document.scrollingElement.scrollWidth - window.innerWidth,
    }));
    assert.deepEqual(seen.broken, [], `${name} at ${width} px: inline code broken over two lines`);
    assert.ok(seen.wide <= 0, `${name} at ${width} px: ${seen.wide} px wider than the screen`);
    codes += seen.count;
  }
  await page.close();
  return `${pages.length} pages at ${width} px: none of their ${codes} short inline codes breaks over two lines, none is wider than the screen`;
}

// Each of mdBook's themes (picked by the reader, or by the system's dark mode: navy)
// clean under axe-core, colour contrast included.
async function themesClean(server) {
  const themes = ['light', 'rust', 'coal', 'navy', 'ayu'];
  for (const theme of themes) {
    const page = await context.newPage();
    await page.addInitScript((t) => localStorage.setItem('mdbook-theme', t), theme);
    for (const name of ['index.html', 'install.html', 'guides/registry.html', 'reference/errors.html', 'reference/http-api.html']) {
      await page.goto(`${server.url}/${name}`, { waitUntil: 'networkidle' });
      assert.ok(await page.evaluate((t) => document.documentElement.classList.contains(t), theme), `${name}: theme ${theme} not applied`);
      await page.addScriptTag({ path: path.join(repo, 'docs/node_modules/axe-core/axe.min.js') });
      const { violations } = await page.evaluate(() => window.axe.run());
      const serious = violations.filter((v) => ['serious', 'critical'].includes(v.impact))
        .map((v) => `${v.id}: ${v.help} (${v.nodes.slice(0, 3).map((n) => `${n.target.join(' ')}: ${n.any[0]?.message ?? ''}`).join('; ')})`);
      assert.deepEqual(serious, [], `axe-core, theme ${theme}, ${name}`);
    }
    await page.close();
  }
  return `axe-core finds no serious or critical violation in any of the ${themes.length} themes (${themes.join(', ')})`;
}

// 404.html under a base path: its styles and scripts load from the site, which lays out
// its menu bar, and index.html resolves inside the site.
async function notFound(base) {
  const server = await serve({ base });
  const page = await context.newPage();
  page.on('pageerror', (e) => problems.push(`404 under ${base}: ${e}`));
  const response = await page.goto(`${server.url}${base}no/such/page.html`, { waitUntil: 'networkidle' });
  assert.equal(response.status(), 404);
  const seen = await page.evaluate(async () => ({
    base: document.baseURI,
    sheets: await Promise.all([...document.querySelectorAll('link[rel="stylesheet"], script[src]')]
      .map(async (l) => `${l.href ?? l.src}: ${(await fetch(l.href ?? l.src)).status}`)),
    styled: getComputedStyle(document.querySelector('#mdbook-menu-bar, .menu-bar') ?? document.body).display,
    home: (await fetch(new URL('index.html', document.baseURI))).status,
  }));
  assert.equal(seen.base, `${server.url}${base}`, `404 under ${base}: its base`);
  assert.ok(seen.sheets.length > 5 && seen.sheets.every((s) => s.startsWith(`${server.url}${base}`) && s.endsWith(': 200')),
    `404 under ${base}: its styles and scripts: ${seen.sheets}`);
  assert.equal(seen.styled, 'flex', `404 under ${base}: the menu bar is not laid out by mdBook's styles`);
  assert.equal(seen.home, 200, `404 under ${base}: index.html from its base`);
  await page.close();
  server.close();
}

try {
  await walk(1280);
  await walk(390);
  const server = await serve();
  check(await shortCodesWhole(server, 390));
  check(await themesClean(server));
  check(`${await sessionsCopy(server)} Python sessions of the guides copy as programs Python parses, without prompts or results`);
  await walkStartPage(context, server.url, copyTab, check);
  server.close();
  for (const base of ['/', '/samekey/', '/docs/v2/']) await notFound(base);
  check('404.html under /, /samekey/ and /docs/v2/: its styles load, its links lead into the site');
  assert.deepEqual(problems, []);
} finally {
  await browser.close();
}
