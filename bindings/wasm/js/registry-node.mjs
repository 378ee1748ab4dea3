// samekey-wasm/registry in Node: the registry client over this package's Node entry.
import * as samekey from './node.mjs';
import createRegistry from './lib/registry.mjs';

export { DEFAULT_RETRY } from './lib/registry.mjs';
export const { Registry, RegistryError } = createRegistry(samekey);
