/**
 * An issued bill as a PDF qualified invoice (適格請求書, the invoice system of the consumption tax
 * law since October 2023). It carries what the law asks of one:
 *   1. the issuer's name and registration number (登録番号 T + 13 digits),
 *   2. the date of the transactions (the billed month) and of issue,
 *   3. the transactions (each device: serial, days used, monthly unit price, amount),
 *   4. the amounts per tax rate (10 %対象, 8 %対象 subtotals) and the tax rates,
 *   5. the consumption tax per tax rate (rounded once per rate for the whole invoice),
 *   6. the recipient's legal name,
 * plus the total, the due date (from the contract's payment terms), the period billed (only days
 * that have passed) and the invoice number (sequential per issuer). Japanese text needs a Japanese font:
 * Noto Sans JP (SIL Open Font License) from @expo-google-fonts/noto-sans-jp, embedded as a
 * subset by pdfkit, so `pdftotext` and screen readers get the text back.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import PDFDocument from 'pdfkit';
import { billTotals, type RateTotal } from '@nemuri/shared/billing/billArithmetic';
import type { Data } from '@nemuri/shared/documents/update';
import { numberOr, text } from './agencyData.ts';

const require = createRequire(import.meta.url);
const FONT_FILES = {
  regular: '@expo-google-fonts/noto-sans-jp/400Regular/NotoSansJP_400Regular.ttf',
  bold: '@expo-google-fonts/noto-sans-jp/700Bold/NotoSansJP_700Bold.ttf',
} as const;

/** The fonts, read once (5 MB each) on the first invoice. */
let fonts: Promise<{ regular: Buffer; bold: Buffer }> | null = null;
function loadFonts(): Promise<{ regular: Buffer; bold: Buffer }> {
  fonts ??= Promise.all([readFile(require.resolve(FONT_FILES.regular)), readFile(require.resolve(FONT_FILES.bold))]).then(([regular, bold]) => ({
    regular,
    bold,
  }));
  return fonts;
}

export interface InvoiceIssuer {
  name: string;
  registrationNumber: string;
  postalCode: string | null;
  address: string | null;
  phone: string | null;
}

const yen = (value: number): string => `${value.toLocaleString('ja-JP')}円`;

/** `2026年11月23日` of an ISO instant, in Japan time. */
export function japaneseDate(iso: string | null): string {
  if (iso === null) return '—';
  const ms = Date.parse(iso.length === 10 ? `${iso}T00:00:00+09:00` : iso);
  if (Number.isNaN(ms)) return iso;
  const jst = new Date(ms + 9 * 3_600_000);
  return `${jst.getUTCFullYear()}年${jst.getUTCMonth() + 1}月${jst.getUTCDate()}日`;
}

function monthLabel(month: string): string {
  const [year, m] = month.split('-');
  return `${year}年${Number(m)}月分`;
}

/** The days billed: the month, or its first days when it was billed while under way. */
function periodLabel(bill: Data, daysInMonth: number): string {
  const month = String(bill.month);
  const through = text(bill.billedThrough);
  const lastDay = through === null ? daysInMonth : Number(through.slice(8, 10));
  const [, m] = month.split('-');
  return `${monthLabel(month)}（${Number(m)}月1日〜${Number(m)}月${lastDay}日、${lastDay}日間）`;
}

/** The issuer as printed: fixed on the bill at issue, the agency record for the rest. */
export function issuerOf(bill: Data, agency: Data): InvoiceIssuer {
  const address = typeof agency.address === 'object' && agency.address !== null ? (agency.address as Data) : {};
  const line = [text(address.prefecture), text(address.city), text(address.line)].filter((part) => part !== null).join('');
  return {
    name: text(bill.issuerName) ?? text(agency.name) ?? '',
    registrationNumber: text(bill.issuerRegistrationNumber) ?? text(agency.invoiceRegistrationNumber) ?? '',
    postalCode: text(address.postalCode),
    address: line === '' ? null : line,
    phone: text(agency.phone),
  };
}

interface Line {
  deviceSerial: string;
  daysUsed: number;
  unitPrice: number;
  amount: number;
  taxRate: number;
}

function linesOf(bill: Data, taxRate: number): Line[] {
  const lines = Array.isArray(bill.lines) ? (bill.lines as Data[]) : [];
  return lines.map((line) => ({
    deviceSerial: String(line.deviceSerial),
    daysUsed: numberOr(line.daysUsed, 0),
    unitPrice: numberOr(line.unitPrice, 0),
    amount: numberOr(line.amount, 0),
    taxRate: numberOr(line.taxRate, taxRate),
  }));
}

/** The per-rate parts as stored at generation, or computed from the lines for bills made before they were stored. */
function taxesOf(bill: Data, lines: readonly Line[], taxRate: number): RateTotal[] {
  if (Array.isArray(bill.taxes) && bill.taxes.length > 0)
    return (bill.taxes as Data[]).map((part) => ({ rate: numberOr(part.rate, taxRate), base: numberOr(part.base, 0), tax: numberOr(part.tax, 0) }));
  if (lines.length > 0) return billTotals(lines, taxRate).taxes;
  return [{ rate: taxRate, base: numberOr(bill.subtotal, 0), tax: numberOr(bill.consumptionTax, 0) }];
}

/**
 * The invoice of an issued or paid bill, as PDF bytes. `addressee` is the partner's legal name
 * (the bill's, fixed at issue, or the partner domain's for bills issued before it was fixed).
 */
export async function renderInvoicePdf(bill: Data, issuer: InvoiceIssuer, addressee: string, daysInMonth: number): Promise<Buffer> {
  const { regular, bold } = await loadFonts();
  const doc = new PDFDocument({ size: 'A4', margin: 50, info: { Title: `適格請求書 ${text(bill.invoiceNumber) ?? ''}`, Author: issuer.name } });
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  doc.registerFont('regular', regular);
  doc.registerFont('bold', bold);
  const left = doc.page.margins.left;
  const width = doc.page.width - doc.page.margins.left - doc.page.margins.right;
  const taxRate = numberOr(bill.taxRate, 10);
  const subtotal = numberOr(bill.subtotal, 0);
  const tax = numberOr(bill.consumptionTax, 0);
  const total = numberOr(bill.total, subtotal + tax);
  const lines = linesOf(bill, taxRate);
  const multipleRates = new Set(lines.map((line) => line.taxRate)).size > 1;

  doc.font('bold').fontSize(20).text('適格請求書', { align: 'center' });
  doc.moveDown(0.5);
  doc.font('regular').fontSize(10);
  doc.text(`請求書番号: ${text(bill.invoiceNumber) ?? '—'}`, { align: 'right' });
  doc.text(`発行日: ${japaneseDate(text(bill.issuedAt))}`, { align: 'right' });
  doc.text(`お支払期限: ${japaneseDate(text(bill.dueDate))}`, { align: 'right' });
  if (bill.status === 'paid') doc.text(`入金日: ${japaneseDate(text(bill.paidAt))}`, { align: 'right' });
  doc.moveDown();

  const top = doc.y;
  doc
    .font('bold')
    .fontSize(14)
    .text(`${addressee} 御中`, left, top, { width: width / 2 });
  doc
    .font('regular')
    .fontSize(10)
    .moveDown(0.5)
    .text(`対象期間: ${periodLabel(bill, daysInMonth)}`, { width: width / 2 });
  const issuerX = left + width / 2 + 20;
  doc
    .font('bold')
    .fontSize(11)
    .text(issuer.name, issuerX, top, { width: width / 2 - 20 });
  doc.font('regular').fontSize(9);
  if (issuer.postalCode !== null) doc.text(`〒${issuer.postalCode}`, { width: width / 2 - 20 });
  if (issuer.address !== null) doc.text(issuer.address, { width: width / 2 - 20 });
  if (issuer.phone !== null) doc.text(`TEL ${issuer.phone}`, { width: width / 2 - 20 });
  doc.text(`登録番号: ${issuer.registrationNumber}`, { width: width / 2 - 20 });
  doc.x = left;
  doc.moveDown(2);

  doc
    .font('bold')
    .fontSize(13)
    .text(`ご請求金額（税込）: ${yen(total)}`, left, Math.max(doc.y, top + 90), { width });
  doc.moveDown();

  // The transactions: one row per device.
  const columns = [
    { title: 'シリアル番号', width: width * 0.34, align: 'left' as const },
    { title: '利用日数', width: width * 0.14, align: 'right' as const },
    { title: '月額単価（税抜）', width: width * 0.24, align: 'right' as const },
    { title: '金額（税抜）', width: width * 0.28, align: 'right' as const },
  ];
  const row = (cells: string[], font: 'regular' | 'bold'): void => {
    if (doc.y > doc.page.height - doc.page.margins.bottom - 120) doc.addPage();
    const y = doc.y;
    let x = left;
    doc.font(font).fontSize(9);
    cells.forEach((cell, index) => {
      const column = columns[index];
      if (column === undefined) return;
      doc.text(cell, x + 4, y, { width: column.width - 8, align: column.align, lineBreak: false });
      x += column.width;
    });
    doc.y = y + 16;
    doc
      .moveTo(left, doc.y - 3)
      .lineTo(left + width, doc.y - 3)
      .lineWidth(0.3)
      .strokeColor('#999999')
      .stroke();
  };
  row(
    columns.map((column) => column.title),
    'bold',
  );
  // With more than one rate, each line names its rate (※ marks the reduced rate, as is customary).
  const serialOf = (line: Line): string => (multipleRates ? `${line.deviceSerial}${line.taxRate < 10 ? ' ※' : ''}（${line.taxRate}%）` : line.deviceSerial);
  for (const line of lines) row([serialOf(line), `${line.daysUsed}日`, yen(line.unitPrice), yen(line.amount)], 'regular');
  doc.moveDown();

  // Amounts per tax rate: each rate's base and its tax, rounded once.
  const summary: [string, string][] = [
    ['小計（税抜）', yen(subtotal)],
    ...taxesOf(bill, lines, taxRate).flatMap((part): [string, string][] => [
      [`${part.rate}%対象（税抜）`, yen(part.base)],
      [`消費税（${part.rate}%）`, yen(part.tax)],
    ]),
    ['消費税合計', yen(tax)],
    ['合計（税込）', yen(total)],
  ];
  const labelX = left + width * 0.4;
  for (const [label, amount] of summary) {
    const y = doc.y;
    doc.font(label.startsWith('合計') ? 'bold' : 'regular').fontSize(10);
    doc.text(label, labelX, y, { width: width * 0.32, lineBreak: false });
    doc.text(amount, labelX + width * 0.32, y, { width: width * 0.28, align: 'right', lineBreak: false });
    doc.y = y + 18;
  }
  doc.x = left;
  doc.moveDown();
  doc.font('regular').fontSize(8).fillColor('#444444');
  doc.text(
    `金額は月額単価を利用日数で日割り（月額単価 × 利用日数 ÷ 当月日数（${daysInMonth}日）、円未満切り捨て）しています。消費税は税率ごとに請求書単位で1回端数処理（切り捨て）しています。${multipleRates ? '※は軽減税率（8%）対象です。' : ''}`,
    left,
    doc.y,
    { width },
  );
  doc.end();
  return done;
}
