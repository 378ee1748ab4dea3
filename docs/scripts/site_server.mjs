// The built site (target/docs) served from 127.0.0.1 as GitHub Pages serves it, and the
// headless Chromium the site's browser tests drive (playwright-core, Debian's chromium).
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

export const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const site = path.join(repo, 'target/docs');

const TYPES = { '.html': 'text/html', '.js': 'text/javascript', '.mjs': 'text/javascript', '.css': 'text/css',
  '.wasm': 'application/wasm', '.json': 'application/json', '.svg': 'image/svg+xml', '.png': 'image/png',
  '.woff2': 'font/woff2', '.woff': 'font/woff', '.ttf': 'font/ttf', '.txt': 'text/plain' };

// The site under `base` ('/' or '/some/path/'); `routes` maps a path to [type, body] for
// pages a test adds. A missing file gets 404.html with status 404, as GitHub Pages does.
export function serve({ base = '/', routes = {} } = {}) {
  const server = http.createServer((req, res) => {
    const url = new URL(req.url, 'http://x');
    if (routes[url.pathname]) {
      const [type, body] = routes[url.pathname];
      res.writeHead(200, { 'content-type': type }).end(body);
      return;
    }
    const inside = url.pathname.startsWith(base) ? url.pathname.slice(base.length - 1) : null;
    let file = inside && path.join(site, path.normalize(decodeURIComponent(inside)));
    // A directory is its index.html, as GitHub Pages serves it (DocC links directories).
    if (file && file.startsWith(site) && fs.existsSync(file) && fs.statSync(file).isDirectory()) file = path.join(file, 'index.html');
    if (!file || !file.startsWith(site) || !fs.existsSync(file) || !fs.statSync(file).isFile()) {
      res.writeHead(404, { 'content-type': 'text/html' });
      res.end(req.method === 'HEAD' ? undefined : fs.readFileSync(path.join(site, '404.html')));
      return;
    }
    res.writeHead(200, { 'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream' });
    res.end(req.method === 'HEAD' ? undefined : fs.readFileSync(file));
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({
    url: `http://127.0.0.1:${server.address().port}`, close: () => server.close(),
  })));
}

// A persistent Chromium context in a scratch profile; close() removes the profile.
export async function launch() {
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'samekey-docs-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium', headless: true, viewport: { width: 1280, height: 900 },
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  return { context, close: async () => { await context.close(); fs.rmSync(profile, { recursive: true, force: true }); } };
}
