// A static server on 127.0.0.1 for the browser tests and benchmarks: the package (pkg/),
// the test pages, node_modules (for @noble/hashes), and the vector file as /vectors.json.
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const TYPES = { '.html': 'text/html', '.js': 'text/javascript', '.mjs': 'text/javascript', '.wasm': 'application/wasm', '.json': 'application/json' };

export function vectorFile() {
  return process.env.SAMEKEY_VECTORS || path.resolve(root, '../../test-vectors/samekey.json');
}

/** Starts a server of `dir` (the package folder by default); resolves to { url, close }. */
export function serve(dir = root) {
  const server = http.createServer((req, res) => {
    const urlPath = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    const file = urlPath === '/vectors.json' ? vectorFile() : path.join(dir, path.normalize(urlPath));
    if (!file.startsWith(dir) && urlPath !== '/vectors.json') {
      res.writeHead(403).end();
      return;
    }
    fs.readFile(file, (err, body) => {
      if (err) {
        res.writeHead(404).end();
        return;
      }
      res.writeHead(200, { 'content-type': TYPES[path.extname(file)] || 'application/octet-stream' });
      res.end(body);
    });
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      resolve({ url: `http://127.0.0.1:${server.address().port}`, close: () => server.close() });
    });
  });
}
