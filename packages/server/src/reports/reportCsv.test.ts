/**
 * The CSV bytes Excel in Japan opens: UTF-8 with a byte order mark, and Windows-31J where the JIS forms
 * of 〜 − ‖ ¢ £ ¬ — ¦ take their Windows-31J forms instead of becoming `?`. Every character class the
 * product writes is checked byte for byte against the code points of Microsoft's cp932 table, written
 * out here by hand (not produced by the encoder under test).
 */
import { describe, expect, it } from 'vitest';
import { toCsv } from '@nemuri/shared/report/csv';
import { decodeCsvText } from '@nemuri/shared/importCsv';
import { EPOCH_CSV_HEADER, METRIC_LABELS_JA } from '@nemuri/shared/report/columns';
import { encodeCsv } from '../http/csvDownload.ts';

const hex = (bytes: Uint8Array): string => Buffer.from(bytes).toString('hex').toUpperCase();

/** Each text and its Windows-31J bytes (cp932 code points). */
const CLASSES: Readonly<Record<string, readonly [string, string][]>> = {
  ascii: [['Room 101, 22:15', '526F6F6D203130312C2032323A3135']],
  hiragana: [['あいうえおをん', '82A082A282A482A682A882F082F1']],
  katakana: [['アイウエオヲンヴー', '83418343834583478349839283938394815B']],
  halfWidthKatakana: [['ｱｲｳｴｵﾞﾟ', 'B1B2B3B4B5DEDF']],
  kanji: [
    ['睡眠日誌', '908796B093FA8E8F'],
    ['呼吸数', '8CC48B7A9094'],
    ['心拍数', '9053948F9094'],
    ['離床', '97A38FB0'],
  ],
  // IBM extension kanji (names): 髙 (はしご高), 﨑 (たつさき).
  ibmKanji: [
    ['髙橋', 'FBFC8BB4'],
    ['山﨑', '8E52FAB1'],
  ],
  fullWidth: [
    ['ＡＢＣ１２３', '826082618262825082518252'],
    ['（）［］％＋＝', '8169816A816D816E8193817B8181'],
  ],
  punctuation: [
    ['、。・「」『』〒', '814181428145817581768177817881A7'],
    ['※×÷°℃', '81A6817E8180818B818E'],
  ],
  // NEC special characters.
  necSpecial: [['①⑩Ⅰ㈱№℡', '874087498754878A87828784']],
  // The JIS mapping forms, written as the Windows-31J ones.
  jisForms: [
    ['〜', '8160'],
    ['−', '817C'],
    ['‖', '8161'],
    ['¢', '8191'],
    ['£', '8192'],
    ['¬', '81CA'],
    ['—', '815C'],
    ['¦', 'FA55'],
  ],
  windows31jForms: [['～－∥￠￡￢―￤', '8160817C81618191819281CA815CFA55']],
};

describe('Windows-31J CSV', () => {
  for (const [name, cases] of Object.entries(CLASSES)) {
    it(`writes ${name} byte for byte`, () => {
      for (const [text, bytes] of cases) expect(hex(encodeCsv(text, 'sjis')), text).toBe(bytes);
    });
  }

  it('writes the CSV cells, quoting and line ends as they are, and nothing becomes ?', () => {
    const text = toCsv([
      ['部屋', '期間', '備考'],
      ['101号室', '2026/11/01 〜 2026/11/07', '呼吸数 −2, 心拍 ‖'],
    ]);
    const bytes = encodeCsv(text, 'sjis');
    expect(hex(bytes)).toBe(
      [
        '9594' + '89AE',
        '2C',
        '8AFA' + '8AD4',
        '2C',
        '94F5' + '8D6C',
        '0D0A',
        '313031' + '8D86' + '8EBA',
        '2C',
        '323032362F31312F3031' + '20' + '8160' + '20' + '323032362F31312F3037',
        '2C',
        '22' + '8CC4' + '8B7A' + '9094' + '20' + '817C' + '322C20' + '9053' + '948F' + '20' + '8161' + '22',
        '0D0A',
      ].join(''),
    );
    expect(bytes.includes(0x3f)).toBe(false);
  });

  it('reads back as the Windows-31J forms (as Excel shows them)', () => {
    const heading = [...EPOCH_CSV_HEADER, ...Object.values(METRIC_LABELS_JA)].join(',');
    expect(decodeCsvText(encodeCsv(`${heading}\r\n`, 'sjis'))).toBe(`${heading}\r\n`);
    expect(decodeCsvText(encodeCsv('〜−‖¢£¬—¦', 'sjis'))).toBe('～－∥￠￡￢―￤');
  });

  it('writes a character Windows-31J has no form of as ?, one per character', () => {
    expect(hex(encodeCsv('a😀b𠮷c', 'sjis'))).toBe('613F623F63');
  });
});

describe('UTF-8 CSV', () => {
  it('starts with the byte order mark and writes every class as UTF-8, the JIS forms unchanged', () => {
    const text = 'あア ｱ 髙﨑 ＡＢ１ 〜−‖ ①㈱\r\n';
    const bytes = encodeCsv(text, 'utf8bom');
    expect(hex(bytes.subarray(0, 3))).toBe('EFBBBF');
    expect(hex(bytes.subarray(3))).toBe(
      [
        'E38182',
        'E382A2',
        '20',
        'EFBDB1',
        '20',
        'E9AB99',
        'EFA891',
        '20',
        'EFBCA1',
        'EFBCA2',
        'EFBC91',
        '20',
        'E3809C',
        'E28892',
        'E28096',
        '20',
        'E291A0',
        'E388B1',
        '0D0A',
      ].join(''),
    );
    expect(decodeCsvText(bytes)).toBe(text);
  });
});
