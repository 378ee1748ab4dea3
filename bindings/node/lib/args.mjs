// Checks of the arguments the API takes, before they reach the backend.
import { SamekeyError, text, typeName } from './errors.mjs';

/**
 * `fn()` with the call's strings converted first (spec §2.2: a host conversion, before a
 * time's and every check): when `fn` fails with a SamekeyError (a time that is no time, a
 * scheme's error), a lone surrogate in the namespace, a text field or one of `others`
 * (`[value, name]` pairs: the scheme name) is reported instead.
 * The strings are checked only on that error, off the path of a valid call; the one place
 * the JS layer orders checks, since JS strings are converted here, not in the core.
 */
export function stringsFirst(namespace, fields, fn, others = []) {
  try {
    return fn();
  } catch (e) {
    if (e instanceof SamekeyError) {
      for (const [s, what] of others) if (typeof s === 'string') text(s, what);
      namespaceArg(namespace);
      for (const f of fieldList(fields)) if (typeof f === 'string') text(f, 'field');
    }
    throw e;
  }
}

/**
 * An options object, refusing keys the function does not know: a misspelt option
 * (`namepsace`) would otherwise be ignored and silently derive another id.
 */
export function optionsArg(options, known, where) {
  if (options === undefined) return {};
  if (options === null || typeof options !== 'object') throw new TypeError(`${where}: options must be an object, not ${typeName(options)}`);
  for (const key in options) {
    if (!known.includes(key)) throw new TypeError(`${where}: unknown option '${key}' (it takes ${known.map((k) => `'${k}'`).join(', ')})`);
  }
  return options;
}

export function schemeArg(scheme) {
  if (typeof scheme !== 'string') throw new TypeError(`scheme must be a string such as 'v1', not ${typeName(scheme)}`);
  // A lone surrogate is invalid_string before the name is looked at (spec §2.2): passed on,
  // it would arrive as U+FFFD.
  return text(scheme, 'scheme');
}

export function secretArg(secret) {
  if (secret === undefined || secret === null) return undefined;
  if (secret instanceof Uint8Array) return secret;
  throw new TypeError(`secret must be a Uint8Array, not ${typeName(secret)}`);
}

export function namespaceArg(ns) {
  return ns === undefined ? '' : text(ns, 'namespace');
}

export function parentArg(parent) {
  return parent === undefined || parent === null ? undefined : text(parent, 'parent');
}

const utf8 = new TextEncoder();

/** Bytes to hash: a string's UTF-8 (refusing lone surrogates) or the bytes themselves. */
export function dataArg(data) {
  if (typeof data === 'string') return utf8.encode(text(data, 'data'));
  if (data instanceof Uint8Array) return data;
  throw new TypeError(`data must be a string or Uint8Array, not ${typeName(data)}`);
}

/** The fields argument as an array: any iterable except a lone string or byte array. */
export function fieldList(fields) {
  if (Array.isArray(fields)) return fields;
  if (typeof fields === 'string' || fields instanceof Uint8Array || fields == null || typeof fields[Symbol.iterator] !== 'function') {
    throw new TypeError(`fields must be an array of strings/Uint8Arrays, not ${typeName(fields)}`);
  }
  return Array.from(fields);
}
