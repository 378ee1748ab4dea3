// Registering revisions with samekey/registry: a dataset's schema as JSON, then a data
// file on it; run twice, it creates nothing the second time.
//
//   node examples/registry.mjs http://127.0.0.1:8080 data.csv [token]
import { createReadStream } from 'node:fs';
import { KeyRing } from 'samekey';
import { Registry, RegistryError } from 'samekey/registry';

// ANCHOR: publish
export async function publish(url, path, token = null) {
  // The ring this client expects the registry to use; every answer is checked against it.
  const registry = new Registry(url, { token, ring: new KeyRing('v1'), retry: { maxRetries: 4 } });
  const schema = await registry.register({ columns: ['id', 'name'], version: 1 });
  console.log('schema', schema.created ? 'created' : 'found', schema.key);
  try {
    // A function that opens the file anew: hashed, looked up, streamed, resent on a retry.
    const data = await registry.registerStream(() => createReadStream(path), { parent: schema.key });
    console.log('data', data.created ? 'created' : 'found', data.key, data.size, 'bytes');
    return data;
  } catch (e) {
    if (e instanceof RegistryError && e.code === 'key_mismatch') throw new Error(`client and registry disagree: ${e.message}`);
    throw e; // e.code, e.status, e.detail: e.g. payload_too_large, 413
  }
}
// ANCHOR_END: publish

if (import.meta.url === `file://${process.argv[1]}`) await publish(process.argv[2], process.argv[3], process.argv[4] ?? null);
