// The registry client in a page of another origin than the registry's (CORS): registers
// a JSON value and bytes, reads them back, and reports what it saw in window.__result.
import { init } from '../pkg/web.js';
import { Registry, RegistryError } from '../pkg/registry.js';

const status = document.getElementById('status');
try {
  const registryUrl = new URLSearchParams(location.search).get('registry');
  const token = null;
  const value = { title: 'Grüße 😀', n: 1500, id: crypto.randomUUID() };
  // README: the registry client
  await init(); // samekey-wasm's, once, before the first call of any function
  const registry = new Registry(registryUrl, { token });
  const json = await registry.register(value); // retried safely; its key checked here
  // README end
  const again = await registry.registerJson(JSON.stringify(value, null, 2));
  const bytes = await registry.registerBytes(new Uint8Array([0, 255, 16, 226, 130, 172]), { parent: json.key });
  const stored = await new Response(await registry.data(bytes.key)).arrayBuffer();
  let missing;
  try {
    await registry.revision(json.key.replace(/.$/, (c) => (c === '0' ? '1' : '0')));
  } catch (e) {
    missing = { code: e.code, status: e.status, isRegistryError: e instanceof RegistryError };
  }
  window.__result = { value, json, again, bytes, stored: [...new Uint8Array(stored)], missing };
  status.textContent = `registered ${json.key}`;
} catch (e) {
  status.textContent = `error: ${e}`;
  window.__result = { error: `${e}\n${e.stack}` };
}
