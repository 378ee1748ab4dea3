// `samekey/registry`: the registry client on this package's samekey (see lib/registry.mjs).
import * as samekey from './index.mjs';
import createRegistry from './lib/registry.mjs';

export { DEFAULT_RETRY } from './lib/registry.mjs';
export const { Registry, RegistryError } = createRegistry(samekey);
