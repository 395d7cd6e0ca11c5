/**
 * Text made ready for Windows-31J (CP932, what Excel in Japan calls Shift_JIS). Unicode has two forms
 * of several JIS characters: the JIS X 0208 mapping (〜 U+301C, − U+2212, ‖ U+2016, ¢ £ ¬, — U+2014)
 * and the Microsoft one (～ U+FF5E, － U+FF0D, ∥ U+2225, ￠ ￡ ￢, ― U+2015). Windows-31J encodes only
 * the Microsoft forms, so the JIS forms — which macOS input methods and many texts produce — would be
 * written as `?`. Each is replaced by the form that encodes to the same JIS code point (the "WAVE DASH
 * problem"; WHATWG Encoding, index-jis0208 and its Shift_JIS encoder, and Microsoft's cp932 table).
 */
export const JIS_TO_WINDOWS_31J: Readonly<Record<string, string>> = {
  '\u301c': '\uff5e', // 〜 WAVE DASH → ～ FULLWIDTH TILDE (0x8160)
  '\u2212': '\uff0d', // − MINUS SIGN → － FULLWIDTH HYPHEN-MINUS (0x817C)
  '\u2016': '\u2225', // ‖ DOUBLE VERTICAL LINE → ∥ PARALLEL TO (0x8161)
  '\u00a2': '\uffe0', // ¢ → ￠ (0x8191)
  '\u00a3': '\uffe1', // £ → ￡ (0x8192)
  '\u00ac': '\uffe2', // ¬ → ￢ (0x81CA)
  '\u2014': '\u2015', // — EM DASH → ― HORIZONTAL BAR (0x815C)
  '\u00a6': '\uffe4', // ¦ → ￤ (0xFA55)
};

const MISMATCHED = new RegExp(`[${Object.keys(JIS_TO_WINDOWS_31J).join('')}]`, 'g');

/** The text with every JIS-mapping character in its Windows-31J form (other characters unchanged). */
export function toWindows31jForms(text: string): string {
  return text.replace(MISMATCHED, (char) => JIS_TO_WINDOWS_31J[char] as string);
}
