/** The CSV writer: formula-like text is neutralised (OWASP), numbers stay numbers, quoting per RFC 4180. */
import { describe, expect, it } from 'vitest';
import { csvField, toCsv } from './csv.ts';

describe('CSV cells', () => {
  it('puts a quote before text a spreadsheet would evaluate', () => {
    expect(csvField('=HYPERLINK("http://x")')).toBe(`"'=HYPERLINK(""http://x"")"`);
    expect(csvField('@SUM(1)')).toBe("'@SUM(1)");
    expect(csvField('+1')).toBe("'+1");
    expect(csvField('-2+3')).toBe("'-2+3");
    expect(csvField('\t=1')).toBe("'\t=1");
    expect(csvField('\r=1')).toBe(`"'\r=1"`);
    expect(csvField('＝1+1')).toBe("'＝1+1");
    // A text cell is text even when it looks like a number: only number cells are numbers.
    expect(csvField('-5')).toBe("'-5");
  });

  it('leaves ordinary text, and numbers (negative ones too), as they are', () => {
    expect(csvField('101号室')).toBe('101号室');
    expect(csvField('a=b')).toBe('a=b');
    expect(csvField(-3)).toBe('-3');
    expect(csvField(-2.26)).toBe('-2.3');
    expect(csvField(91.3)).toBe('91.3');
    expect(csvField(null)).toBe('');
    expect(csvField(Number.NaN)).toBe('');
  });

  it('quotes fields with commas, quotes and line breaks and ends lines in CRLF', () => {
    expect(
      toCsv([
        ['a,b', 'say "hi"', 'x\ny'],
        [1, null, '-'],
      ]),
    ).toBe(`"a,b","say ""hi""","x\ny"\r\n1,,'-\r\n`);
  });
});
