// `samekey-wasm/vectors` for resolvers that do not read package.json's "exports" (Parcel
// by default): they look for this file. Node and the other bundlers use the exports map.
export * from './pkg/lib/vectors.mjs';
