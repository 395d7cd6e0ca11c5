import { describe, expect, it } from 'vitest';
import { fileNameOf } from './usePdfDownload.ts';

describe('report PDF file name', () => {
  it('takes the Japanese name of Content-Disposition (RFC 5987), else the plain one, else the fallback', () => {
    const japanese = '睡眠レポート_101号室_2026-10-01_2026-10-31.pdf';
    expect(fileNameOf(`attachment; filename="sleep-report_x.pdf"; filename*=UTF-8''${encodeURIComponent(japanese)}`, 'f.pdf')).toBe(japanese);
    expect(fileNameOf('attachment; filename="sleep-report_x.pdf"', 'f.pdf')).toBe('sleep-report_x.pdf');
    expect(fileNameOf("attachment; filename*=UTF-8''%E3%81", 'f.pdf')).toBe('f.pdf');
    expect(fileNameOf(null, 'f.pdf')).toBe('f.pdf');
  });
});
