// Times as the core takes them: milliseconds since the Unix epoch (spec §8).
import { fail, text, typeName } from './errors.mjs';
import { stringsFirst } from './args.mjs';

let warnedSeconds = false;

/**
 * A time that looks like seconds given as milliseconds (the core decides) is valid: warn
 * once rather than refuse. Callers on hot paths skip the call for times of 1e10 and above,
 * which are never lookalikes.
 */
export function warnIfSeconds(native, ms) {
  if (warnedSeconds || !native.likelySeconds(ms)) return;
  warnedSeconds = true;
  const message = `time ${ms} is ${new Date(ms).toISOString()} as milliseconds; if it is seconds ` +
    `(${new Date(ms * 1000).toISOString()}), pass ${ms * 1000} or a Date`;
  if (typeof globalThis.process?.emitWarning === 'function') globalThis.process.emitWarning(message, 'SamekeySecondsWarning');
  else if (typeof console !== 'undefined') console.warn(`samekey: ${message}`);
}

export function times(native, call) {
  /** Milliseconds since the epoch of RFC 3339 text (spec §8.1). */
  function parseRfc3339(rfc3339) {
    return call(native.parseRfc3339, text(rfc3339, 'timestamp'));
  }

  /** A time as milliseconds: a valid Date, an integer number, or RFC 3339 text (spec §8.2). */
  function toMs(time) {
    if (time instanceof Date) {
      const ms = time.getTime();
      if (Number.isNaN(ms)) fail('invalid_timestamp', 'the Date is invalid');
      return ms;
    }
    if (typeof time === 'number') {
      // A host conversion, so it comes before every other check (spec §4.4); the range is
      // checked by the core in its place.
      if (!Number.isInteger(time)) fail('invalid_timestamp', `${time} is not an integer number of milliseconds`);
      if (time < 1e10) warnIfSeconds(native, time);
      return time;
    }
    // Parsed, not range-checked: the core checks the range after the scheme (spec §4.4).
    if (typeof time === 'string') return call(native.rfc3339UncheckedMs, text(time, 'timestamp'));
    throw new TypeError(`a time is a Date, integer milliseconds or RFC 3339 string, not ${typeName(time)}`);
  }

  /**
   * The time of an options object: `time` (a Date, RFC 3339 text or a number) or `timeMs`
   * (integer milliseconds, named so: no seconds warning), exactly one of them.
   */
  function timeOf({ time, timeMs }) {
    if (timeMs === undefined) {
      if (time === undefined) throw new TypeError('a time is required: time (a Date or RFC 3339 text) or timeMs (integer milliseconds)');
      return toMs(time);
    }
    if (time !== undefined) throw new TypeError('pass time or timeMs, not both');
    if (typeof timeMs !== 'number') throw new TypeError(`timeMs must be a number, not ${typeName(timeMs)}`);
    if (!Number.isInteger(timeMs)) fail('invalid_timestamp', `timeMs ${timeMs} is not an integer number of milliseconds`);
    return timeMs;
  }

  /** The time of an id call, converted after the call's strings (`stringsFirst`). */
  function timeOfCall(opts, fields, others) {
    return stringsFirst(opts.namespace, fields, () => timeOf(opts), others);
  }

  return { parseRfc3339, toMs, timeOf, timeOfCall };
}
