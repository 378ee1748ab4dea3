// The registry's certificate is signed by your own CA: Node's fetch trusts the CAs of
// NODE_EXTRA_CA_CERTS besides its own, read when Node starts.
//   NODE_EXTRA_CA_CERTS=ca.pem SAMEKEY_URL=https://registry.internal:8443 SAMEKEY_TOKEN=… node private_ca.mjs
import { Registry } from 'samekey/registry';

const registry = new Registry(process.env.SAMEKEY_URL, { token: process.env.SAMEKEY_TOKEN });
console.log('trusted the private CA:', (await registry.register({ rows: 3 })).key);
