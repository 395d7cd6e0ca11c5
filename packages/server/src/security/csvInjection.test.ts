/**
 * CSV formula injection (security issue, finding 10): a staff member names rooms and residents so
 * that a spreadsheet would run them as formulas, and an administrator downloads the report CSVs
 * over HTTP. Every text cell starting with `= + - @`, tab or CR must come out with a quote in front
 * (OWASP), in both kinds (per day, per minute) and both encodings; numbers stay numbers.
 */
import iconv from 'iconv-lite';
import { DEMO_DOMAINS } from '@nemuri/shared/demoAccounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ok, signedIn, startTestServer, type DatabaseChoice, type DocumentsClient, type TestServer } from '../documents/testing.ts';
import { describePostgres } from '../testing/postgres.ts';

const HOSTILE_NAMES = ['=HYPERLINK("http://x")', '@SUM(1)', '-2+3', '\t=1', '+1+1', '\r=1', '＝1+1'];
const FORMULA_START = /^[=+\-@\t\r\uff1d\uff0b\uff0d\uff20]/;
const NUMBER = /^-?\d+(\.\d+)?$/;
const DAY = '2026-11-02';

/** RFC 4180 fields (quoted fields may hold commas, quotes and line breaks). */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (quoted) {
      if (char === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (char === '"') quoted = false;
      else field += char;
    } else if (char === '"') quoted = true;
    else if (char === ',') {
      row.push(field);
      field = '';
    } else if (char === '\r' && text[i + 1] === '\n') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
      i++;
    } else field += char;
  }
  if (field !== '' || row.length > 0) rows.push([...row, field]);
  return rows;
}

function csvInjectionHolds(choice: DatabaseChoice): void {
  let test: TestServer;
  let admin: DocumentsClient;
  const roomIds = HOSTILE_NAMES.map((_, index) => `csvi-${index}`);

  beforeAll(async () => {
    test = await startTestServer(choice);
    admin = await signedIn(test.server, 'admin@example.com');
    const staff = await signedIn(test.server, 'staff@example.com');
    for (const [index, name] of HOSTILE_NAMES.entries()) {
      ok(
        await admin.setDocument(`rooms/${roomIds[index]}`, {
          domainId: DEMO_DOMAINS.facilityA,
          name,
          residentName: HOSTILE_NAMES[(index + 1) % HOSTILE_NAMES.length],
          floor: '-1F',
        }),
      );
      ok(
        await staff.setDocument(`rooms/${roomIds[index]}/sleeps/${DAY}`, {
          source: 'test',
          epochStart: `${DAY}T22:00:00+09:00`,
          epochs: [{ state: 'awake', respirationRate: 15, heartRate: 60, activity: 0.5 }, { state: 'light' }],
          totalSleepMin: 400,
          sleepEfficiency: 88.5,
        }),
      );
    }
  }, 120_000);
  afterAll(async () => {
    await test?.stop();
  });

  const download = async (kind: string, encoding: string): Promise<string[][]> => {
    const response = await fetch(
      new URL(`/api/reports/csv?rooms=${roomIds.join(',')}&from=${DAY}&to=${DAY}&kind=${kind}&encoding=${encoding}`, test.server.url),
      {
        headers: { cookie: admin.cookieHeader },
      },
    );
    expect(response.status).toBe(200);
    const bytes = Buffer.from(await response.arrayBuffer());
    return parseCsv(encoding === 'sjis' ? iconv.decode(bytes, 'Shift_JIS') : iconv.decode(bytes, 'utf8', { stripBOM: true }));
  };

  for (const kind of ['days', 'epochs']) {
    for (const encoding of ['utf8bom', 'sjis']) {
      it(`neutralises every formula-like cell of the ${kind} CSV (${encoding})`, async () => {
        const rows = await download(kind, encoding);
        expect(rows.length).toBeGreaterThan(HOSTILE_NAMES.length);
        for (const row of rows) {
          for (const cell of row) {
            if (NUMBER.test(cell)) continue;
            expect(cell, `cell ${JSON.stringify(cell)} of ${JSON.stringify(row)}`).not.toMatch(FORMULA_START);
          }
        }
        // The names are all there, each behind one quote (Shift_JIS lacks the full-width forms' neighbours, not these).
        const firstColumn = new Set(rows.map((row) => row[0]));
        for (const name of HOSTILE_NAMES) expect(firstColumn.has(`'${name}`), name).toBe(true);
        // The numbers are still numbers.
        if (kind === 'days') expect(rows.some((row) => row.includes('400') && row.includes('88.5'))).toBe(true);
        else expect(rows.some((row) => row.includes('15') && row.includes('60') && row.includes('0.5'))).toBe(true);
      });
    }
  }
}

describe('CSV formula injection on PGlite', () => {
  csvInjectionHolds('pglite');
});

describePostgres('CSV formula injection on PostgreSQL', () => {
  csvInjectionHolds('postgresql');
});
