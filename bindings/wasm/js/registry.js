// samekey-wasm/registry in browsers and bundlers: the registry client on fetch (the napi
// package's lib/registry.mjs) over this package's API. `await init()` (from
// samekey-wasm) before the first call, as for every other function.
import * as samekey from './web.js';
import createRegistry from './lib/registry.mjs';

export { DEFAULT_RETRY } from './lib/registry.mjs';
export const { Registry, RegistryError } = createRegistry(samekey);
