// The parts of a ULID's hashed message (spec §3, §4.2, §4.3), for the playground's
// labelled hex. The bytes are the core's (`ulidMessage`); this only names their parts.

const hex = (bytes) => Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
const u32 = (bytes, at) => new DataView(bytes.buffer, bytes.byteOffset + at, 4).getUint32(0);
const text = (bytes) => new TextDecoder().decode(bytes);

/**
 * [{ label, hex, bytes }] covering every byte of `message` in order. v1/v2 messages are read
 * by their own framing; a v0 message (fields joined by ":") by the fields' UTF-8 lengths.
 */
export function messageParts(message, scheme, fields) {
  const parts = [];
  let at = 0;
  const take = (n, label) => {
    const bytes = message.subarray(at, at + n);
    if (bytes.length !== n) throw new Error(`the message ends inside ${label}`);
    parts.push({ label, hex: hex(bytes), bytes: n });
    at += n;
    return bytes;
  };
  if (scheme === 'v0') {
    fields.forEach((field, i) => {
      if (i > 0) take(1, 'separator ":"');
      const bytes = typeof field === 'string' ? new TextEncoder().encode(field) : field;
      take(bytes.length, `field ${i + 1}: "${text(bytes)}"`);
    });
  } else {
    const tag = text(message.subarray(0, 64)).replace(/\0+$/, '');
    take(64, `tag block: "${tag}" and zero bytes to 64`);
    const nsLength = u32(message, at);
    take(4, `namespace length: ${nsLength}`);
    const ns = take(nsLength, `namespace "${text(message.subarray(at, at + nsLength))}"`);
    if (ns.length === 0) parts.pop(); // no bytes to show
    const count = u32(message, at);
    take(4, `field count: ${count}`);
    for (let i = 1; i <= count; i++) {
      const length = u32(message, at);
      take(4, `field ${i} length: ${length}`);
      if (length > 0) take(length, `field ${i}: "${text(message.subarray(at, at + length))}"`);
    }
  }
  if (at !== message.length) throw new Error(`${message.length - at} bytes after the last part`);
  return parts;
}
