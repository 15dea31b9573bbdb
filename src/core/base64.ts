/** Base64 decoding without Buffer or atob, so the embedded core loads on every runtime. */
const LOOKUP = new Uint8Array(128);
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
for (let i = 0; i < ALPHABET.length; i++) LOOKUP[ALPHABET.charCodeAt(i)] = i;

export function decodeBase64(text: string): Uint8Array {
  let len = text.length;
  while (len > 0 && text.charCodeAt(len - 1) === 61 /* = */) len--;
  const out = new Uint8Array((len * 3) >> 2);
  let o = 0;
  let i = 0;
  for (; i + 4 <= len; i += 4) {
    const n =
      (LOOKUP[text.charCodeAt(i)]! << 18) | (LOOKUP[text.charCodeAt(i + 1)]! << 12) |
      (LOOKUP[text.charCodeAt(i + 2)]! << 6) | LOOKUP[text.charCodeAt(i + 3)]!;
    out[o++] = n >> 16;
    out[o++] = (n >> 8) & 0xff;
    out[o++] = n & 0xff;
  }
  const rest = len - i;
  if (rest >= 2) {
    const n = (LOOKUP[text.charCodeAt(i)]! << 18) | (LOOKUP[text.charCodeAt(i + 1)]! << 12) |
      (rest === 3 ? LOOKUP[text.charCodeAt(i + 2)]! << 6 : 0);
    out[o++] = n >> 16;
    if (rest === 3) out[o++] = (n >> 8) & 0xff;
  }
  return out;
}
