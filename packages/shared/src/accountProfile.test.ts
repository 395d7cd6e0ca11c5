import { describe, expect, it } from 'vitest';
import { formatPhoneNumber, normalizePhoneNumber } from './accountProfile.ts';

describe('normalizePhoneNumber', () => {
  it('accepts Japanese numbers in their usual spellings', () => {
    expect(normalizePhoneNumber('090-1234-5678')).toBe('09012345678');
    expect(normalizePhoneNumber('０９０－１２３４－５６７８'.normalize('NFKC'))).toBe('09012345678');
    expect(normalizePhoneNumber('+81 90 1234 5678')).toBe('09012345678');
    expect(normalizePhoneNumber('03-1234-5678')).toBe('0312345678');
    expect(normalizePhoneNumber('(0120) 123-456')).toBe('0120123456');
    expect(normalizePhoneNumber('050-1234-5678')).toBe('05012345678');
  });

  it('refuses what is not one', () => {
    for (const wrong of ['', '12345', '090-1234-567', '0312345678 9', 'abc', '+1 415 555 0100', '090-1234-56789', '050-1234-567'])
      expect(normalizePhoneNumber(wrong), wrong).toBeNull();
  });

  it('writes numbers with hyphens for display', () => {
    expect(formatPhoneNumber('09012345678')).toBe('090-1234-5678');
    expect(formatPhoneNumber('0312345678')).toBe('03-1234-5678');
    expect(formatPhoneNumber('0451234567')).toBe('045-123-4567');
    expect(formatPhoneNumber('0120123456')).toBe('0120-123-456');
  });
});
