// The WHATWG "forgiving-base64 decode" algorithm, written from the specification text, as the oracle.
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

export function forgivingBase64(text: string): Uint8Array | null {
  let data = text.replace(/[\t\n\f\r ]/g, '');
  if (data.length % 4 === 0) data = data.replace(/==?$/, '');
  if (data.length % 4 === 1) return null;
  for (const c of data) if (!ALPHABET.includes(c)) return null;
  const out: number[] = [];
  let buffer = 0;
  let bits = 0;
  for (const c of data) {
    buffer = (buffer << 6) | ALPHABET.indexOf(c);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out.push((buffer >> bits) & 0xff);
    }
  }
  return Uint8Array.from(out);
}
