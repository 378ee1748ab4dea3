// The "Your first id" page (docs/src/start.md) walked as a newcomer walks it: each
// language's tab, every code block copied with the page's own copy button, then run
// exactly as the page says in a new, empty directory, in a shell where SAMEKEY is this
// checkout: its shell steps in bash, its files saved under the names the page gives,
// the browser's pages served with the page's command and opened in Chromium, and what
// each run printed (or each page showed) compared with the output the page shows.
//
// Each block's role is the `<!-- step: ROLE [ARG] -->` comment before it in start.md:
// published (the line once samekey is published: run against local registries by the
// dist tests, not here), checkout (a build in the checkout, once: not repeated here; the
// recipe that runs this test made it first, and the test checks that what it makes is
// there), new and run (bash), file NAME, serve URL, output.
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { repo } from './site_server.mjs';

const page = path.join(repo, 'docs/src/start.md');
const version = fs.readFileSync(path.join(repo, 'Cargo.toml'), 'utf8').match(/^version = "(.+)"/m)[1];

// What each line of a checkout step makes in the checkout: the line's build is there.
const CHECKOUT_MAKES = {
  'git clone https://github.com/samekey/samekey': () => '.git',
  'cd samekey': () => '.git',
  './dev build': () => ['target/release/samekey', `target/npm/samekey-${version}.tgz`, `target/npm/samekey-wasm-${version}.tgz`,
    ...fs.readdirSync(path.join(repo, 'target/python-dist')).filter((f) => f.startsWith(`samekey-${version}-`) && f.endsWith('.whl'))
      .map((f) => `target/python-dist/${f}`).slice(0, 1)],
  'export SAMEKEY=$PWD': () => '.git',
  'just ffi::build': () => 'target/release/libsamekey_ffi.a',
  'just jvm::dist linux-x86-64': () => `target/dist/maven/io/github/samekey/samekey/${version}`,
  'bindings/swift/scripts/dist.sh --host target/swift-sdk': () => 'target/swift-sdk/lib/pkgconfig/samekey-ffi.pc',
  'extensions/postgres/scripts/extension.sh install': () =>
    `${execFileSync('pg_config', ['--sharedir'], { encoding: 'utf8' }).trim()}/extension/samekey--${version}.sql`,
};

// Fails unless each line of a checkout step is one the test knows and what it makes is there.
function checkoutMade(code, where) {
  for (const line of code.split('\n').filter(Boolean)) {
    const makes = CHECKOUT_MAKES[line] ?? assert.fail(`${where}: the checkout step ${JSON.stringify(line)}: the test does not know what it makes`);
    for (const made of [makes()].flat()) {
      assert.ok(fs.existsSync(path.resolve(repo, made)), `${where}: ${line} in the checkout should have made ${made}: run it first`);
    }
  }
}

// The page's steps: [{ role, arg, file }] before the tabs (key ''), then per tab key.
export function steps() {
  const text = fs.readFileSync(page, 'utf8');
  const start = text.indexOf('<div class="sk-tabs"');
  const parse = (part) => [...part.matchAll(/<!-- step: (\w+)(?: ([^ ]+?))? -->\n```\w*\n\{\{#include ([^}]+)\}\}\n```/g)]
    .map(([, role, arg, file]) => ({ role, arg, file: path.resolve(path.dirname(page), file) }));
  const tabs = { '': parse(text.slice(0, start)) };
  for (const part of text.slice(start).split('<div class="sk-tab" ').slice(1)) {
    tabs[part.match(/^data-sk-key="([\w-]+)"/)[1]] = parse(part);
  }
  const fences = (text.match(/^```\w*$/gm) ?? []).length / 2;
  const found = Object.values(tabs).reduce((n, s) => n + s.length, 0);
  assert.equal(found, fences, `start.md: ${fences} code blocks, ${found} of them after a step comment`);
  return tabs;
}

// Where the walk works: beside a link named as a newcomer's clone names the checkout
// (SwiftPM names a path dependency after its folder), outside the repository (cargo new
// inside it joins the workspace), but for Swift: the toolchain's chroot sees only the
// repository.
const work = { outside: fs.mkdtempSync(path.join(os.tmpdir(), 'samekey-start-')), inside: path.join(repo, 'target/start') };
const base = (key) => (key === 'swift' ? work.inside : work.outside);
const shims = path.join(work.inside, 'bin');

function prepare() {
  fs.rmSync(work.inside, { recursive: true, force: true });
  fs.mkdirSync(shims, { recursive: true });
  for (const dir of Object.values(work)) fs.symlinkSync(repo, path.join(dir, 'samekey'));
  // Without a swift on PATH, the page's `swift` runs in the swift root's toolchain
  // (just swift::setup) through in-swift.sh, in the directory it was called from.
  if (!commandExists('swift')) {
    fs.writeFileSync(path.join(shims, 'swift'),
      // in-swift.sh must not find this shim as the machine's swift: the PATH without it.
      `#!/bin/sh\nPATH=${JSON.stringify(process.env.PATH)} exec "${repo}/bindings/swift/scripts/in-swift.sh" "$PWD" swift "$@"\n`,
      { mode: 0o755 });
  }
}

function commandExists(name) {
  try { execFileSync('bash', ['-c', `command -v ${name}`], { stdio: 'ignore' }); return true; } catch { return false; }
}

// The environment of a newcomer's shell: SAMEKEY, and where the tools keep what they
// download or build between runs (the site's tests already use these caches), so the
// walk does not fetch or compile again what the machine has; psql's variables for the
// test database; nothing of the checkout's own build on PATH.
function shellEnv(key) {
  const env = { ...process.env, SAMEKEY: path.join(base(key), 'samekey') };
  delete env.VIRTUAL_ENV;
  if (key === 'swift') env.PATH = `${shims}:${env.PATH}`;
  if (key === 'rust') env.CARGO_TARGET_DIR = path.join(repo, 'target/docs-examples');
  if (key === 'kotlin' || key === 'java') {
    // A local repository that never held samekey (as bindings/kotlin/scripts/consumer.sh).
    const local = path.join(repo, 'target/m2-consumer');
    fs.rmSync(path.join(local, 'io/github/samekey'), { recursive: true, force: true });
    env.MAVEN_OPTS = `${env.MAVEN_OPTS ?? ''} -Dmaven.repo.local=${local}`.trim();
  }
  if (key === 'sql') {
    const url = new URL(process.env.SAMEKEY_TEST_POSTGRES ?? assert.fail('SAMEKEY_TEST_POSTGRES is not set: run through just site::test'));
    Object.assign(env, { PGHOST: url.hostname, PGPORT: url.port || '5432', PGUSER: decodeURIComponent(url.username),
      PGDATABASE: url.pathname.slice(1) });
    if (url.password) env.PGPASSWORD = decodeURIComponent(url.password);
  }
  return env;
}

// Runs `code` in bash in `dir` as its own process group, killed afterwards with anything
// it left running (the registry's `samekey serve &`); resolves to stdout, the directory
// the shell ended in and its environment: the page's steps are one shell session (a
// step may `cd` or `export`).
function bash(code, dir, env, { background = false, timeout = 300_000 } = {}) {
  const marker = path.join(os.tmpdir(), `samekey-start-${process.pid}-${Math.random().toString(36).slice(2)}`);
  const child = spawn('bash', ['-euo', 'pipefail', '-c', `${code}\n${background ? '' : `pwd > ${marker}.cwd; env -0 > ${marker}.env`}`],
    { cwd: dir, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout.on('data', (d) => { out += d; });
  child.stderr.on('data', (d) => { err += d; });
  const kill = () => { try { process.kill(-child.pid, 'SIGTERM'); } catch { /* gone */ } };
  if (background) return { kill };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => { kill(); reject(new Error(`timed out after ${timeout / 1000} s:\n${code}\n${out}${err}`)); }, timeout);
    child.on('close', (status) => {
      clearTimeout(timer);
      kill();
      if (status !== 0) return reject(new Error(`exit ${status}:\n${code}\n--- stdout\n${out}--- stderr\n${err}`));
      const cwd = fs.readFileSync(`${marker}.cwd`, 'utf8').trim();
      const after = Object.fromEntries(fs.readFileSync(`${marker}.env`, 'utf8').split('\0').filter(Boolean)
        .map((kv) => [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)]));
      for (const m of ['cwd', 'env']) fs.rmSync(`${marker}.${m}`);
      for (const name of ['PWD', 'OLDPWD', 'SHLVL', '_']) delete after[name];
      resolve({ out, cwd, env: after });
    });
  });
}

async function portFree(port) {
  await new Promise((resolve, reject) => {
    const server = net.createServer().once('error', () => reject(new Error(
      `port ${port} is taken: the page's commands use it; stop what listens there`)));
    server.listen(port, '127.0.0.1', () => server.close(resolve));
  });
}

async function until(what, probe, ms = 20_000) {
  const end = Date.now() + ms;
  for (;;) {
    try { if (await probe()) return; } catch { /* not yet */ }
    assert.ok(Date.now() < end, `${what}: not ready after ${ms / 1000} s`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

// ANSI colour codes are the terminal's, not the program's (Maven 3.8 writes resets in
// batch mode); a JSON answer's created_at is when it ran.
const shown = (text) => text.replace(/\x1b\[[0-9;]*m/g, '').trim();
const comparable = (text) => {
  if (!text.trimStart().startsWith('{')) return shown(text);
  const value = JSON.parse(text);
  assert.match(value.created_at ?? '', /^\d{4}-\d\d-\d\dT/, `a revision without created_at: ${text}`);
  return { ...value, created_at: '(when it ran)' };
};

// Walks one tab: `copied` holds the text each of its blocks copies, in order.
async function walkTab(context, key, tabSteps, copied) {
  const dir = fs.mkdtempSync(path.join(base(key), `${key}-`));
  let env = shellEnv(key);
  let cwd = dir;
  let printed = null;
  const ran = [];
  try {
    for (const [i, step] of tabSteps.entries()) {
      const code = copied[i];
      if (step.role === 'published') continue;
      if (step.role === 'checkout') {
        checkoutMade(code, key);
        ran.push('checkout built');
      } else if (step.role === 'new' || step.role === 'run') {
        for (const port of code.match(/127\.0\.0\.1:(\d+)/g) ?? []) await portFree(Number(port.split(':')[1]));
        ({ out: printed, cwd, env } = await bash(code, cwd, env));
        ran.push(step.role === 'new' ? 'set up' : 'ran');
      } else if (step.role === 'file') {
        const file = path.join(cwd, step.arg);
        fs.mkdirSync(path.dirname(file), { recursive: true });
        fs.writeFileSync(file, code);
        ran.push(`saved ${step.arg}`);
      } else if (step.role === 'serve') {
        const url = new URL(step.arg);
        await portFree(Number(url.port));
        const server = bash(code, cwd, env, { background: true });
        try {
          await until(`${key}: ${code.trim()}`, async () => (await fetch(url)).ok);
          printed = await shownInChromium(context, key, url);
        } finally {
          server.kill();
        }
        ran.push(`opened ${url.pathname}`);
      } else if (step.role === 'output') {
        assert.notEqual(printed, null, `${key}: an output with nothing run before it`);
        assert.deepEqual(comparable(printed), comparable(code), `${key}: printed (actual) vs the page's output (expected)`);
        ran.push('output as shown');
        printed = null;
      } else {
        assert.fail(`${key}: unknown step ${step.role}`);
      }
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
  return ran;
}

// What a page shows once its module ran: its text, with no page error and no failed request.
async function shownInChromium(context, key, url) {
  const tab = await context.newPage();
  const problems = [];
  tab.on('pageerror', (e) => problems.push(`page error: ${e}`));
  tab.on('requestfailed', (r) => problems.push(`${r.url()}: ${r.failure()?.errorText}`));
  tab.on('response', (r) => { if (r.status() >= 400) problems.push(`${r.url()}: ${r.status()}`); });
  try {
    // localhost as the page says; Chromium resolves it to 127.0.0.1 where the server listens.
    await tab.goto(url.href, { waitUntil: 'load' });
    await tab.waitForFunction(() => document.body && document.body.innerText.trim().length > 0, null, { timeout: 15_000 })
      .catch(() => problems.push('the page showed nothing in 15 s'));
    assert.deepEqual(problems, [], `${key}: ${url}`);
    return await tab.evaluate(() => document.body.innerText);
  } finally {
    await tab.close();
  }
}

// Every tab of start.html: copied with the buttons, each block equal to its file, then
// walked (only the tabs `only` names, when it names any). `copyBlocks(page, key)` is
// test_newcomer's copy of a tab's blocks.
export async function walkStartPage(context, siteUrl, copyBlocks, check, only = []) {
  const tabs = steps();
  prepare();
  try {
    const page = await context.newPage();
    await page.goto(`${siteUrl}/start.html`, { waitUntil: 'networkidle' });
    const text = (file) => fs.readFileSync(file, 'utf8').replace(/\n*$/, '\n');
    const before = await page.locator('main > pre').all();
    assert.equal(before.length, tabs[''].length, 'start.html: the blocks before the tabs');
    for (const [i, pre] of before.entries()) {
      await pre.hover();
      await pre.locator('.clip-button').click();
      assert.equal((await page.evaluate(() => navigator.clipboard.readText())).replace(/\n*$/, '\n'), text(tabs[''][i].file));
    }
    checkoutMade(text(tabs[''][0].file), "start.md's checkout");
    check(`start.html: the checkout's block copies as ${path.relative(repo, tabs[''][0].file)}, and what it makes is there`);
    for (const [key, tabSteps] of Object.entries(tabs)) {
      if (!key || (only.length && !only.includes(key))) continue;
      const copied = await copyBlocks(page, key);
      assert.deepEqual(copied, tabSteps.map((s) => text(s.file)), `start.html, ${key} tab: what the copy buttons copy`);
      const began = Date.now();
      const ran = await walkTab(context, key, tabSteps, copied);
      check(`start.html, ${key} tab, in an empty directory: ${ran.join(', ')} (${((Date.now() - began) / 1000).toFixed(1)} s)`);
    }
    await page.close();
  } finally {
    for (const dir of Object.values(work)) fs.rmSync(dir, { recursive: true, force: true });
  }
}
