import { describe, expect, it } from 'vitest';
import { BASE64_ERROR_MESSAGE, loadParser, ParseError } from './node.ts';
import { forgivingBase64 } from './testing/base64.ts';
import { Random } from './testing/random.ts';

const parser = await loadParser();

function decode(text: string): Uint8Array | ParseError {
  try {
    return parser.decodeBase64(text);
  } catch (error) {
    if (error instanceof ParseError) return error;
    throw error;
  }
}

describe('base64', () => {
  it('decodes what Buffer encodes, for every length up to 100 and a large one', () => {
    const random = new Random(3);
    for (const length of [...Array.from({ length: 101 }, (_, i) => i), 1 << 20]) {
      const bytes = random.bytes(length);
      const text = Buffer.from(bytes).toString('base64');
      expect(Buffer.from(parser.decodeBase64(text)).equals(Buffer.from(bytes))).toBe(true);
      expect(Buffer.from(parser.decodeBase64(text.replace(/=+$/, ''))).equals(Buffer.from(bytes))).toBe(true);
    }
  });

  it.each([
    ['', []],
    ['QQ==', [0x41]],
    ['QQ', [0x41]],
    ['QUI=', [0x41, 0x42]],
    ['QR==', [0x41]],
    [' Q Q = = ', [0x41]],
    ['SGVs\nbG8=\r\n', [72, 101, 108, 108, 111]],
    ['\tSGVsbG8\f', [72, 101, 108, 108, 111]],
    ['+/+/', [0xfb, 0xff, 0xbf]],
  ])('accepts %j like atob', (text, bytes) => {
    expect(Array.from(parser.decodeBase64(text))).toEqual(bytes);
    expect(Array.from(atob(text), (c) => c.charCodeAt(0))).toEqual(bytes);
  });

  it.each(['Q', 'QQ=', 'QQ===', 'Q===', '====', '=', 'QQ=Q', 'QUJD=', 'QQ-_', 'QQ\u00a0', 'QQ\u3042', 'QQ\v', 'QQ%3D', '\ud800QQ'])(
    'rejects %j with the exact message',
    (text) => {
      const result = decode(text);
      expect(result).toBeInstanceOf(ParseError);
      expect((result as ParseError).code).toBe('invalid-base64');
      expect((result as ParseError).message).toBe(BASE64_ERROR_MESSAGE);
      expect(BASE64_ERROR_MESSAGE).toBe('Failed to construct data from Base64 string');
      expect(forgivingBase64(text)).toBeNull();
    },
  );
});
