// Errors of the JS API: SamekeyError with the core's stable codes, and the type checks
// every module uses. A native backend throws its errors in its own shape; `translation`
// turns them into SamekeyError or TypeError.

/** A samekey operation failed; `code` is the stable code every samekey implementation uses. */
export class SamekeyError extends Error {
  constructor(code, message) {
    super(message);
    this.name = 'SamekeyError';
    this.code = code;
  }
}

export function fail(code, message) {
  throw new SamekeyError(code, message);
}

export function typeName(v) {
  if (v === null) return 'null';
  if (typeof v === 'object') return v.constructor ? v.constructor.name : 'object';
  return typeof v;
}

/** napi turns a lone surrogate into U+FFFD; samekey refuses it instead (spec §2.2). */
export function text(s, what) {
  if (typeof s !== 'string') throw new TypeError(`${what} must be a string, not ${typeName(s)}`);
  if (!s.isWellFormed()) fail('invalid_string', `${what} contains a lone surrogate: it is not valid Unicode`);
  return s;
}

/** `translate(e)` and `call(fn, ...args)` for a backend whose error codes are `codes`. */
export function translation(codes) {
  const known = new Set(codes);

  /** Native errors carry the core's code; wrong JS types become TypeError. */
  function translate(e) {
    if (typeof e === 'string') {
      // The WebAssembly backend throws `code: message` strings.
      if (e.startsWith('TypeError: ')) return new TypeError(e.slice(11));
      e = new Error(e);
    }
    if (e instanceof SamekeyError || !(e instanceof Error)) return e;
    if (known.has(e.code)) return new SamekeyError(e.code, e.message);
    const prefixed = /^([a-z_]+): (.*)$/s.exec(e.message); // errors of off-thread tasks
    if (prefixed && known.has(prefixed[1])) return new SamekeyError(prefixed[1], prefixed[2]);
    if (e.code === 'TypeError' || e.code === 'InvalidArg' || e.code === 'NumberExpected' || e.code === 'StringExpected') {
      return new TypeError(e.message);
    }
    return e;
  }

  function call(fn, ...args) {
    try {
      return fn(...args);
    } catch (e) {
      throw translate(e);
    }
  }

  return { translate, call };
}
