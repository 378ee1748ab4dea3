// Canonical JSON (spec §6) of JS values and of JSON text.
import { fail, text, typeName } from './errors.mjs';
import { schemeArg, optionsArg } from './args.mjs';

export function canonicalJsonOf(native, call) {
  // The core's limits (samekey::MAX_DEPTH, MAX_SAFE_INTEGER), checked here on JS values
  // before they become JSON text.
  const [MAX_DEPTH, MAX_SAFE_INTEGER] = Array.from(native.jsonLimits());
  const MAX_SAFE_BIGINT = BigInt(MAX_SAFE_INTEGER);

  /**
   * A JS value as plain JSON data, following JSON.stringify for `undefined`, functions and
   * symbols (left out of objects, null in arrays). BigInts within 2^53-1 become numbers.
   */
  function jsonValue(v, depth, seen) {
    switch (typeof v) {
      case 'string':
        return text(v, 'a JSON string');
      case 'boolean':
        return v;
      case 'number':
        if (!Number.isFinite(v)) fail('number_out_of_range', `${v} is not a finite number`);
        return v;
      case 'bigint':
        if (v > MAX_SAFE_BIGINT || v < -MAX_SAFE_BIGINT) fail('number_out_of_range', `${v} is beyond ±(2^53-1)`);
        return Number(v);
      case 'object':
        break;
      default:
        throw new TypeError(`${typeof v} is not JSON data`);
    }
    if (v === null) return null;
    if (depth >= MAX_DEPTH) fail('nesting_too_deep', `JSON nesting is deeper than ${MAX_DEPTH} levels`);
    if (seen.has(v)) throw new TypeError('cannot hash a cyclic structure as JSON');
    seen.add(v);
    let out;
    if (Array.isArray(v)) {
      out = v.map((x) => (x === undefined || typeof x === 'function' || typeof x === 'symbol' ? null : jsonValue(x, depth + 1, seen)));
    } else {
      const proto = Object.getPrototypeOf(v);
      if (proto !== Object.prototype && proto !== null) {
        throw new TypeError(`${typeName(v)} is not JSON data: use plain objects, arrays, strings, numbers, booleans and null`);
      }
      out = {};
      for (const key of Object.keys(v)) {
        const x = v[key];
        if (x === undefined || typeof x === 'function' || typeof x === 'symbol') continue;
        out[text(key, 'a JSON object key')] = jsonValue(x, depth + 1, seen);
      }
    }
    seen.delete(v);
    return out;
  }

  function json(value) {
    if (value === undefined) throw new TypeError('undefined is not JSON data');
    return jsonValue(value, 0, new Set());
  }

  /** The RFC 8785 canonical JSON text of a JS value (spec §6). */
  function canonicalJson(value) {
    // JSON.stringify of the checked value is only transport: the core reads its numbers
    // as the doubles they were (spec §6.2) and writes the canonical form itself.
    return call(native.canonicalJsonValue, JSON.stringify(json(value)));
  }

  /** The RFC 8785 canonical form of JSON text, parsed strictly (spec §6.1). */
  function canonicalJsonText(jsonText) {
    return call(native.canonicalJsonText, text(jsonText, 'JSON text'));
  }

  function contentHashJson(value, options) {
    const { scheme = 'v1' } = optionsArg(options, ['scheme'], 'contentHashJson');
    // The scheme name's conversion before the value's (spec §6.2); the value's errors
    // still come before the scheme's own checks, which the core makes.
    const name = schemeArg(scheme);
    return call(native.contentHashJsonValue, JSON.stringify(json(value)), name);
  }

  function contentHashJsonText(jsonText, options) {
    const { scheme = 'v1' } = optionsArg(options, ['scheme'], 'contentHashJsonText');
    return call(native.contentHashJsonText, text(jsonText, 'JSON text'), schemeArg(scheme));
  }

  return { canonicalJson, canonicalJsonText, contentHashJson, contentHashJsonText };
}
