/**
 * The qualified invoice (適格請求書) read back with poppler's `pdftotext`: every field the invoice
 * system asks for, with two tax rates (10 % and the reduced 8 %) each summed and taxed on its own.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { billTotals } from '@nemuri/shared/billing/billArithmetic';
import { renderInvoicePdf } from './invoicePdf.ts';

const run = promisify(execFile);

async function pdfText(bytes: Buffer): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'nemuri-invoice-'));
  try {
    await writeFile(join(dir, 'invoice.pdf'), bytes);
    const { stdout } = await run('pdftotext', ['-enc', 'UTF-8', '-layout', join(dir, 'invoice.pdf'), '-']);
    return stdout.replace(/[ \t]+/g, ' ');
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

describe('qualified invoice PDF', () => {
  it('carries issuer, registration number, addressee’s legal name, number, dates, lines and each rate’s base and tax', async () => {
    const lines = [
      { deviceSerial: 'NM-0001', daysUsed: 30, unitPrice: 2980, amount: 2980, taxRate: 10 },
      { deviceSerial: 'NM-0002', daysUsed: 15, unitPrice: 2980, amount: 1490, taxRate: 10 },
      { deviceSerial: 'SUP-0001', daysUsed: 30, unitPrice: 1234, amount: 1234, taxRate: 8 },
    ];
    const totals = billTotals(lines, 10);
    // 10 %: floor(4470 × 0.1) = 447; 8 %: floor(1234 × 0.08) = 98.
    expect(totals.taxes).toEqual([
      { rate: 10, base: 4470, tax: 447 },
      { rate: 8, base: 1234, tax: 98 },
    ]);
    const bill = {
      partnerDomainId: 'demo-corp',
      month: '2026-09',
      billedThrough: '2026-09-30',
      lines,
      ...totals,
      status: 'issued',
      issuedAt: '2026-10-01T00:30:00.000Z',
      dueDate: '2026-11-30',
      invoiceNumber: '000042',
      invoiceSequence: 42,
    };
    const issuer = {
      name: 'ねむりケア販売株式会社',
      registrationNumber: 'T5120001234567',
      postalCode: '530-0001',
      address: '大阪府大阪市北区梅田1-2-3',
      phone: '06-1234-5678',
    };
    const text = await pdfText(await renderInvoicePdf(bill, issuer, '社会福祉法人さくら会', 30));
    for (const expected of [
      '適格請求書',
      '請求書番号: 000042',
      '発行日: 2026年10月1日',
      'お支払期限: 2026年11月30日',
      '社会福祉法人さくら会 御中',
      'ねむりケア販売株式会社',
      '登録番号: T5120001234567',
      '2026年9月分',
      '9月1日〜9月30日',
      'NM-0001',
      'SUP-0001 ※（8%）',
      '2,980円',
      '1,490円',
      '1,234円',
      '小計（税抜） 5,704円',
      '10%対象（税抜） 4,470円',
      '消費税（10%） 447円',
      '8%対象（税抜） 1,234円',
      '消費税（8%） 98円',
      '消費税合計 545円',
      '合計（税込） 6,249円',
    ]) {
      expect(text).toContain(expected);
    }
    expect(text).not.toContain('demo-corp');
  }, 60_000);
});
