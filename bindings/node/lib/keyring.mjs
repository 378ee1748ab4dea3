// Key rings: derive under the newest scheme, recognise the older ones (spec §9).
import { text } from './errors.mjs';
import { namespaceArg, optionsArg, parentArg, schemeArg, secretArg } from './args.mjs';

const ID_OPTIONS = ['time', 'timeMs', 'namespace', 'secret'];

export function keyRings(native, { call, packing, timeOfCall, Ulid, ulidText, contentHash }) {
  const { packRequest, withPacked, deriveText } = packing;
  // Marks a constructor call from KeyRing.fromAccept (private fields need the constructor).
  const FROM_ACCEPT = Symbol('fromAccept');

  /** Derives under `primary` and recognises every scheme of `accepted` (spec §9). */
  class KeyRing {
    #codes;
    #schemes;

    constructor(primary, accepted = []) {
      const names = primary === FROM_ACCEPT
        ? Array.from(accepted, schemeArg)
        : [schemeArg(primary), ...Array.from(accepted, schemeArg)];
      this.#codes = call(native.prepareRing, names);
      this.#schemes = Array.from(this.#codes, (c) => ['v0', 'v1', 'v2'][c]);
    }

    /** The ring of `accept`, newest first: the first is the primary (spec §9). An empty list throws `unknown_scheme`. */
    static fromAccept(accept) {
      return new KeyRing(FROM_ACCEPT, accept);
    }

    get primary() {
      return this.#schemes[0];
    }

    /** The accepted schemes, primary first, then newest to oldest. */
    get accepted() {
      return [...this.#schemes];
    }

    #pack(fields, namespace, secret) {
      return packRequest(this.#codes, namespaceArg(namespace), secretArg(secret), fields);
    }

    deriveUlid(fields, options) {
      const opts = optionsArg(options, ID_OPTIONS, 'KeyRing.deriveUlid');
      const { namespace, secret } = opts;
      const ms = timeOfCall(opts, fields);
      const end = this.#pack(fields, namespace, secret);
      return Ulid._trusted(deriveText(end, ms));
    }

    candidateUlids(fields, options) {
      const opts = optionsArg(options, ID_OPTIONS, 'KeyRing.candidateUlids');
      const { namespace, secret } = opts;
      const ms = timeOfCall(opts, fields);
      const end = this.#pack(fields, namespace, secret);
      const words = withPacked(end, (buf) => native.candidatesPacked(buf, ms)).split(' ');
      const found = [];
      for (let i = 0; i < words.length; i += 2) found.push({ scheme: words[i], ulid: Ulid._trusted(words[i + 1]) });
      return found;
    }

    verifyUlid(id, fields, options) {
      const opts = optionsArg(options, ID_OPTIONS, 'KeyRing.verifyUlid');
      const { namespace, secret } = opts;
      // The id's text first: its conversion is a string's, before the time's (spec §9.2).
      const idText = ulidText(id);
      const ms = timeOfCall(opts, fields);
      const end = this.#pack(fields, namespace, secret);
      return withPacked(end, (buf) => native.verifyPacked(buf, idText, ms));
    }

    contentHash(data) {
      return contentHash(data, { scheme: this.#schemes[0] });
    }

    revisionKey(contentHash_, options) {
      const { parent, secret } = optionsArg(options, ['parent', 'secret'], 'KeyRing.revisionKey');
      return call(native.ringRevisionKey, this.#codes, text(contentHash_, 'contentHash'), parentArg(parent), secretArg(secret));
    }

    schemeOfKey(key) {
      return call(native.ringSchemeOfKey, this.#codes, text(key, 'key'));
    }
  }

  /**
   * The scheme (of `accept`, newest first) that derived `id` from these inputs, or a
   * SamekeyError with code `identity_mismatch`: the guard that refuses a write which would
   * orphan the document stored under `id`.
   */
  function verify(id, fields, options) {
    const { time, timeMs, namespace, accept = ['v1'], secret } = optionsArg(options, [...ID_OPTIONS, 'accept'], 'verify');
    return KeyRing.fromAccept(accept).verifyUlid(id, fields, { time, timeMs, namespace, secret });
  }

  return { KeyRing, verify };
}
