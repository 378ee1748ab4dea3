// Entry for hosts that do not ship the `.wasm` file that `new URL(..., import.meta.url)`
// names (esbuild, Rollup, Parcel, a single-file bundle, a CDN script): the WebAssembly
// module is inside this entry as base64, so `await init()` needs no URL, no fetch and no
// copy step. It costs a third more bytes than the `.wasm` before compression (see the
// README's "Size"); the API is web.js's, named exports and default export alike.
import web, { init as initFrom } from './web.js';
import { WASM_BASE64 } from './web/samekey_web_bg.wasm.base64.js';

export * from './web.js';

function moduleBytes() {
  const text = atob(WASM_BASE64);
  const bytes = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);
  return bytes;
}

/** Instantiates the embedded WebAssembly module once (or the one `input` names); resolves to the API. */
export function init(input) {
  return initFrom(input === undefined ? moduleBytes() : input);
}

export default { ...web, init };
