// Times as the core takes them: milliseconds since the Unix epoch (spec §8).
import { fail, text, typeName } from './errors.mjs';

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
    if (typeof time === 'number') return time; // integrality and range: checked by the core
    if (typeof time === 'string') return parseRfc3339(time);
    throw new TypeError(`a time is a Date, integer milliseconds or RFC 3339 string, not ${typeName(time)}`);
  }

  return { parseRfc3339, toMs };
}
