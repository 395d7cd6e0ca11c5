/**
 * The PDF of one or more rooms' sleep reports, drawn on the server with pdfkit on landscape A4:
 * per room a heading, the sleep diary (vector bars, one per day across 24 hours, breathing pauses
 * marked), the table of per-day metrics with the period averages, the respiration and heart-rate
 * trends and the staff comment; each room starts on a new page. Noto Sans JP is embedded (pdfkit
 * keeps only the glyphs used, so a page is a few KB). Everything it writes comes from
 * @nemuri/shared/report, as the screen and the CSV.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import PDFDocument from 'pdfkit';
import { cellText, dayLabelJa, DIARY_COLORS, METRIC_LABELS_JA, REPORT_LABELS_JA as L, reportDate } from '@nemuri/shared/report/columns';
import { DIARY_MINUTES, METRIC_KEYS, type DiaryKind, type RateStat, type RoomReport, type TrendPoint } from '@nemuri/shared/report/roomReport';
import { clockOfOffset } from '@nemuri/shared/report/sleepDayClock';
import { SLEEP_REFERENCE_RANGES } from '@nemuri/shared/sleepReference';

const require = createRequire(import.meta.url);
let fonts: { regular: Buffer; bold: Buffer } | null = null;

/** The two Noto Sans JP weights, read once (5 MB each). */
function fontData(): { regular: Buffer; bold: Buffer } {
  fonts ??= {
    regular: readFileSync(require.resolve('@expo-google-fonts/noto-sans-jp/400Regular/NotoSansJP_400Regular.ttf')),
    bold: readFileSync(require.resolve('@expo-google-fonts/noto-sans-jp/700Bold/NotoSansJP_700Bold.ttf')),
  };
  return fonts;
}

const MARGIN = 30;
const COLORS: Record<DiaryKind, string> = DIARY_COLORS;
const PAUSE_COLOR = DIARY_COLORS.pause;
const GRID = '#adb5bd';
const TEXT = '#212529';

type Doc = PDFKit.PDFDocument;

interface Page {
  doc: Doc;
  width: number;
  bottom: number;
}

/** Moves to a new page unless `height` fits below the cursor. */
function ensure(page: Page, height: number): void {
  if (page.doc.y + height > page.bottom) page.doc.addPage();
}

function heading(page: Page, report: RoomReport, generatedAt: string): void {
  const { doc } = page;
  doc.font('bold').fontSize(15).fillColor(TEXT).text(`${L.title}\u3000${report.room.name}`, MARGIN, MARGIN);
  const facts = [
    `${L.period}: ${reportDate(report.from)} 〜 ${reportDate(report.to)}`,
    report.room.floor ? `${L.floor}: ${report.room.floor}` : null,
    report.room.residentName ? `${L.resident}: ${report.room.residentName}` : null,
    `${L.recordedDays}: ${report.averages.days}`,
    `${L.generatedAt}: ${generatedAt}`,
  ].filter((fact): fact is string => fact !== null);
  doc
    .font('regular')
    .fontSize(8.5)
    .text(facts.join('\u3000'), MARGIN, doc.y + 2);
  doc.moveDown(0.6);
}

function sectionTitle(page: Page, title: string): void {
  page.doc.font('bold').fontSize(10).fillColor(TEXT).text(title, MARGIN, page.doc.y);
  page.doc.moveDown(0.3);
}

/** The diary: a label column, then 24 hours from the sleep day's boundary, a row per day. */
function diary(page: Page, report: RoomReport): void {
  const { doc } = page;
  const labelWidth = 52;
  const left = MARGIN + labelWidth;
  const width = page.width - MARGIN - left;
  const rowHeight = report.diary.length > 16 ? 11 : 16;
  const x = (minute: number) => left + (minute / DIARY_MINUTES) * width;
  let index = 0;
  while (index < report.diary.length) {
    ensure(page, 14 + rowHeight * Math.min(4, report.diary.length - index) + 20);
    sectionTitle(page, index === 0 ? L.diary : `${L.diary}（続き）`);
    // Hour axis every 3 hours, labelled with clock times.
    const axisY = doc.y;
    doc.font('regular').fontSize(6.5).fillColor(TEXT);
    for (let hour = 0; hour <= 24; hour += 3)
      doc.text(clockOfOffset(hour * 60, report.rule), x(hour * 60) - 12, axisY, { width: 24, align: 'center', lineBreak: false });
    let y = axisY + 10;
    const top = y;
    while (index < report.diary.length && y + rowHeight <= page.bottom - 16) {
      const day = report.diary[index];
      if (day === undefined) break;
      doc
        .font('regular')
        .fontSize(7)
        .fillColor(TEXT)
        .text(dayLabelJa(day.day), MARGIN, y + (rowHeight - 8) / 2, { width: labelWidth - 4, lineBreak: false });
      for (const segment of day.segments)
        doc.rect(x(segment.startMin), y + 1.5, Math.max(0.4, x(segment.endMin) - x(segment.startMin)), rowHeight - 3).fill(COLORS[segment.kind]);
      for (const pause of day.pauses)
        doc
          .moveTo(x(pause.minute + 0.5), y)
          .lineTo(x(pause.minute + 0.5), y + rowHeight)
          .lineWidth(0.7)
          .stroke(PAUSE_COLOR);
      doc
        .moveTo(left, y + rowHeight)
        .lineTo(left + width, y + rowHeight)
        .lineWidth(0.2)
        .stroke(GRID);
      y += rowHeight;
      index += 1;
    }
    for (let hour = 0; hour <= 24; hour += 3)
      doc
        .moveTo(x(hour * 60), top)
        .lineTo(x(hour * 60), y)
        .lineWidth(hour % 12 === 0 ? 0.5 : 0.2)
        .stroke(GRID);
    doc.y = y + 4;
    legend(page);
  }
}

function legend(page: Page): void {
  const { doc } = page;
  const y = doc.y;
  let x = MARGIN;
  doc.font('regular').fontSize(7);
  for (const [kind, label] of [
    ['outOfBed', L.outOfBed],
    ['inBedAwake', L.inBedAwake],
    ['asleep', L.asleep],
  ] as const) {
    doc.rect(x, y + 1, 14, 7).fill(COLORS[kind]);
    doc.fillColor(TEXT).text(label, x + 17, y, { lineBreak: false });
    x += 17 + doc.widthOfString(label) + 14;
  }
  doc
    .moveTo(x + 3, y)
    .lineTo(x + 3, y + 9)
    .lineWidth(1)
    .stroke(PAUSE_COLOR);
  doc.fillColor(TEXT).text(L.pause, x + 8, y, { lineBreak: false });
  doc.y = y + 16;
}

/** The metric table: a heading row, a row per day, the averages; continued on new pages with its heading. */
function table(page: Page, report: RoomReport): void {
  const { doc } = page;
  const dayWidth = 48;
  const columnWidth = (page.width - 2 * MARGIN - dayWidth) / METRIC_KEYS.length;
  const rowHeight = 10.5;
  const headerHeight = 26;
  const header = () => {
    const y = doc.y;
    doc.rect(MARGIN, y, page.width - 2 * MARGIN, headerHeight).fill('#e9ecef');
    doc
      .font('bold')
      .fontSize(6.2)
      .fillColor(TEXT)
      .text(L.day, MARGIN + 2, y + 3, { width: dayWidth - 4 });
    METRIC_KEYS.forEach((key, column) =>
      doc.text(METRIC_LABELS_JA[key], MARGIN + dayWidth + column * columnWidth + 1, y + 3, {
        width: columnWidth - 2,
        height: headerHeight - 3,
        align: 'center',
      }),
    );
    doc.y = y + headerHeight;
  };
  const row = (label: string, cells: string[], bold: boolean) => {
    const y = doc.y;
    if (bold) doc.rect(MARGIN, y, page.width - 2 * MARGIN, rowHeight).fill('#f1f3f5');
    doc
      .font(bold ? 'bold' : 'regular')
      .fontSize(6.8)
      .fillColor(TEXT)
      .text(label, MARGIN + 2, y + 1.5, { width: dayWidth - 4, lineBreak: false });
    cells.forEach((cell, column) =>
      doc.text(cell === '' ? '—' : cell, MARGIN + dayWidth + column * columnWidth, y + 1.5, { width: columnWidth - 3, align: 'right', lineBreak: false }),
    );
    doc
      .moveTo(MARGIN, y + rowHeight)
      .lineTo(page.width - MARGIN, y + rowHeight)
      .lineWidth(0.2)
      .stroke(GRID);
    doc.y = y + rowHeight;
  };
  // A table that fits a page of its own is not split: it moves to the next page whole.
  const whole = 16 + headerHeight + rowHeight * (report.rows.length + 1);
  ensure(page, whole <= page.bottom - MARGIN ? whole : 16 + headerHeight + rowHeight * 3);
  sectionTitle(page, L.metrics);
  header();
  for (const entry of report.rows) {
    if (doc.y + rowHeight > page.bottom) {
      doc.addPage();
      header();
    }
    row(
      dayLabelJa(entry.day),
      METRIC_KEYS.map((key) => cellText(entry, key)),
      false,
    );
  }
  ensure(page, rowHeight);
  row(
    L.average,
    METRIC_KEYS.map((key) => cellText(report.averages, key)),
    true,
  );
  doc.y += 8;
}

/** One trend: the daily average as a line, the night's minimum to maximum as a bar, the reference range shaded. */
function trendChart(
  page: Page,
  points: TrendPoint[],
  pick: (point: TrendPoint) => RateStat | null,
  title: string,
  reference: { min?: number; max?: number },
  box: { x: number; y: number; width: number; height: number },
): void {
  const { doc } = page;
  const values = points.flatMap((point) => {
    const stat = pick(point);
    return stat === null ? [] : [stat.avg, stat.min ?? stat.avg, stat.max ?? stat.avg];
  });
  doc.font('regular').fontSize(7.5).fillColor(TEXT).text(title, box.x, box.y, { lineBreak: false });
  const plot = { x: box.x + 24, y: box.y + 12, width: box.width - 28, height: box.height - 24 };
  doc.rect(plot.x, plot.y, plot.width, plot.height).lineWidth(0.4).stroke(GRID);
  if (values.length === 0) {
    doc.fontSize(7).text('—', plot.x, plot.y + plot.height / 2 - 4, { width: plot.width, align: 'center' });
    return;
  }
  const low = Math.floor(Math.min(...values, reference.min ?? Infinity) - 2);
  const high = Math.ceil(Math.max(...values, reference.max ?? -Infinity) + 2);
  const y = (value: number) => plot.y + plot.height - ((value - low) / (high - low)) * plot.height;
  const x = (index: number) => plot.x + (points.length === 1 ? plot.width / 2 : (index / (points.length - 1)) * plot.width);
  if (reference.min !== undefined && reference.max !== undefined)
    doc
      .rect(plot.x, y(reference.max), plot.width, y(reference.min) - y(reference.max))
      .fillOpacity(0.12)
      .fill('#37b24d')
      .fillOpacity(1);
  doc.font('regular').fontSize(6).fillColor(TEXT);
  for (const tick of [low, Math.round((low + high) / 2), high]) doc.text(String(tick), box.x, y(tick) - 3, { width: 21, align: 'right', lineBreak: false });
  // The night's ranges first: each bar is a path of its own, stroked before the line is built.
  points.forEach((point, index) => {
    const stat = pick(point);
    if (stat !== null && stat.min !== null && stat.max !== null)
      doc.moveTo(x(index), y(stat.min)).lineTo(x(index), y(stat.max)).lineWidth(1.5).strokeOpacity(0.35).stroke('#1c7ed6').strokeOpacity(1);
  });
  let drawing = false;
  points.forEach((point, index) => {
    const stat = pick(point);
    if (stat === null) {
      drawing = false;
      return;
    }
    if (drawing) doc.lineTo(x(index), y(stat.avg));
    else doc.moveTo(x(index), y(stat.avg));
    drawing = true;
  });
  doc.lineWidth(1).stroke('#1864ab');
  points.forEach((point, index) => {
    const stat = pick(point);
    if (stat !== null) doc.circle(x(index), y(stat.avg), 1.3).fill('#1864ab');
  });
  const first = points[0];
  const last = points[points.length - 1];
  doc.fillColor(TEXT).fontSize(6);
  if (first) doc.text(dayLabelJa(first.day), plot.x, plot.y + plot.height + 2, { lineBreak: false });
  if (last && points.length > 1)
    doc.text(dayLabelJa(last.day), plot.x + plot.width - 40, plot.y + plot.height + 2, { width: 40, align: 'right', lineBreak: false });
}

function trends(page: Page, report: RoomReport): void {
  const height = 120;
  ensure(page, height + 16);
  sectionTitle(page, L.trend);
  const top = page.doc.y;
  const half = (page.width - 2 * MARGIN - 20) / 2;
  trendChart(page, report.trend, (point) => point.respiration, L.respiration, SLEEP_REFERENCE_RANGES.respirationRate, {
    x: MARGIN,
    y: top,
    width: half,
    height,
  });
  trendChart(page, report.trend, (point) => point.heartRate, L.heartRate, SLEEP_REFERENCE_RANGES.heartRate, {
    x: MARGIN + half + 20,
    y: top,
    width: half,
    height,
  });
  page.doc.y = top + height + 8;
}

function comment(page: Page, report: RoomReport): void {
  if (report.room.comment === null) return;
  const { doc } = page;
  ensure(page, 40);
  sectionTitle(page, L.comment);
  doc
    .font('regular')
    .fontSize(8.5)
    .fillColor(TEXT)
    .text(report.room.comment, MARGIN, doc.y, { width: page.width - 2 * MARGIN });
}

/** The PDF bytes of the reports, one room after another, each from a new page. */
export async function reportPdf(reports: readonly RoomReport[], generatedAt: string): Promise<Buffer> {
  const doc = new PDFDocument({ size: 'A4', layout: 'landscape', margin: MARGIN, info: { Title: L.title, Creator: 'Nemuri Monitor' }, autoFirstPage: false });
  const { regular, bold } = fontData();
  doc.registerFont('regular', regular);
  doc.registerFont('bold', bold);
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  for (const report of reports) {
    doc.addPage();
    const page: Page = { doc, width: doc.page.width, bottom: doc.page.height - MARGIN };
    heading(page, report, generatedAt);
    if (report.averages.days === 0) doc.font('regular').fontSize(9).fillColor(TEXT).text(L.noRecords, MARGIN, doc.y).moveDown(0.5);
    diary(page, report);
    table(page, report);
    trends(page, report);
    comment(page, report);
  }
  if (reports.length === 0) doc.addPage();
  doc.end();
  return done;
}
