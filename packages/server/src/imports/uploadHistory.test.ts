/**
 * What the upload history says, on a real server (PGlite, demo accounts, the import worker): every
 * file of the shared recordings (../shared/data) either accepted with what was read from it column by
 * column, or refused with the reason; a per-minute CSV with a column the importer cannot read refused
 * until the uploader chooses to skip it; a recording too short or outside the night imported with a
 * warning and no sleep day; and the product's own per-minute CSV export, in UTF-8 and in Windows-31J,
 * imported back to the same minutes. Attackers: bad choices, other facilities' rooms, residents.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_DOMAINS } from '@nemuri/shared/demoAccounts';
import { UPLOAD_FILE_NAME_HEADER, UPLOAD_UNKNOWN_COLUMNS_HEADER } from '@nemuri/shared/imports';
import { SHARED_DATA_DIR } from '@nemuri/simulator/eit';
import { SYSTEM_PRINCIPAL } from '../documents/systemPrincipal.ts';
import { signedInClient, startIngestServer, type IngestTestServer } from '../ingest/testing.ts';
import type { BrowserClient } from '../testing/browserClient.ts';

const A = DEMO_DOMAINS.facilityA;
const B = DEMO_DOMAINS.facilityB;
const stamp = Date.now().toString(36);

type Expected = { refused: string } | { days: string[]; warnings: string[]; columns: [string, string | null, string][] };

/** Every file of the shared recordings and what its upload must say. */
const SHARED_FILES: Readonly<Record<string, Expected>> = {
  'README.md': { refused: 'unsupported-format' },
  'edf/short_psg.edf': {
    days: [],
    warnings: ['too-short 1989-04-24'],
    columns: [
      ['EEG Fpz-Cz', null, 'skipped'],
      ['EEG Pz-Oz', null, 'skipped'],
      ['EOG horizontal', null, 'skipped'],
      ['Resp oro-nasal', 'impe', 'read'],
      ['EMG submental', null, 'skipped'],
      ['Temp rectal', 'temperature', 'read'],
      ['Event marker', null, 'skipped'],
    ],
  },
  'edf/short_psg.bdf': {
    days: [],
    warnings: ['too-short 1989-04-24'],
    columns: [
      ['EEG Fpz-Cz', null, 'skipped'],
      ['EEG Pz-Oz', null, 'skipped'],
      ['EOG horizontal', null, 'skipped'],
      ['Resp oro-nasal', 'impe', 'read'],
      ['EMG submental', null, 'skipped'],
      ['Temp rectal', 'temperature', 'read'],
      ['Event marker', null, 'skipped'],
    ],
  },
  'edf/SC4001EC-Hypnogram.edf': { days: ['1989-04-24'], warnings: ['outside-night 1989-04-25'], columns: [['EDF Annotations', 'hypnogram', 'read']] },
  'edf/SC4001EC-Hypnogram.bdf': { days: ['1989-04-24'], warnings: ['outside-night 1989-04-25'], columns: [['BDF Annotations', 'hypnogram', 'read']] },
  'edf/hmc_sn001_hypnogram.edf': { days: ['2001-01-01'], warnings: [], columns: [['EDF Annotations', 'hypnogram', 'read']] },
  'eit/P04P-1016.get': { refused: 'unsupported-format' },
  'wfdb/100.hea': { refused: 'unsupported-format' },
  'wfdb/100.dat': { refused: 'unsupported-format' },
  'wfdb/100.atr': { refused: 'unsupported-format' },
  'wfdb/v102s.hea': { refused: 'unsupported-format' },
  'wfdb/v102s.dat': { refused: 'unsupported-format' },
  ...Object.fromEntries(
    ['104', '105', '108', '116'].flatMap((record) => ['hea', 'dat', 'beats'].map((ext) => [`wfdb/mitdb/${record}.${ext}`, { refused: 'unsupported-format' }])),
  ),
};

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)).replaceAll('\\', '/'))
    .sort();
}

/** 22:00–06:00 of 2026-11-20: out of bed, awake, asleep with rates to one decimal, two pauses. */
function nightCsv(): string {
  const lines = ['時刻,状態,呼吸数[回/分],心拍数[拍/分],体動,呼吸停止'];
  for (let minute = 0; minute < 480; minute++) {
    const at = new Date(Date.parse('2026-11-20T22:00:00+09:00') + minute * 60_000 + 9 * 3_600_000)
      .toISOString()
      .replace('T', ' ')
      .slice(0, 16)
      .replaceAll('-', '/');
    const state = minute < 10 ? '離床' : minute < 30 ? '覚醒' : minute % 90 < 20 ? '深い睡眠' : minute % 90 > 70 ? 'レム睡眠' : '浅い睡眠';
    const out = state === '離床';
    lines.push(
      `${at},${state},${out ? '' : (13 + (minute % 7) / 2).toFixed(1)},${out ? '' : 52 + (minute % 11)},${out ? '' : minute % 4},${minute === 100 || minute === 300 ? 1 : 0}`,
    );
  }
  return `${lines.join('\r\n')}\r\n`;
}

describe('the upload history', () => {
  let base: IngestTestServer;
  let staff: BrowserClient;
  let admin: BrowserClient;
  let resident: BrowserClient;
  const room = (name: string) => `history-${name}-${stamp}`;

  const documents = () => base.server.app.documents;
  const upload = async (client: BrowserClient, roomId: string, fileName: string, bytes: Uint8Array, headers: Record<string, string> = {}) => {
    const response = await fetch(`${base.server.url}/api/rooms/${roomId}/uploads`, {
      method: 'POST',
      headers: {
        cookie: client.cookieHeader,
        origin: base.server.url,
        'content-type': 'application/octet-stream',
        [UPLOAD_FILE_NAME_HEADER]: encodeURIComponent(fileName),
        ...headers,
      },
      body: new Blob([new Uint8Array(bytes)]),
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };
  const uploadOf = async (roomId: string, uploadId: unknown) =>
    (await documents().get(SYSTEM_PRINCIPAL, `rooms/${roomId}/uploads/${String(uploadId)}`))?.document;
  const sleepOf = async (roomId: string, day: string) => (await documents().get(SYSTEM_PRINCIPAL, `rooms/${roomId}/sleeps/${day}`))?.document;
  const settled = async () => base.server.app.imports.idle();
  const download = async (client: BrowserClient, query: string) => {
    const response = await fetch(`${base.server.url}/api/reports/csv?${query}`, { headers: { cookie: client.cookieHeader } });
    expect(response.status).toBe(200);
    return new Uint8Array(await response.arrayBuffer());
  };

  beforeAll(async () => {
    base = await startIngestServer();
    const as = (email: string) => signedInClient(base.server, email);
    [staff, admin, resident] = await Promise.all([as('staff@example.com'), as('admin@example.com'), as('individual@example.com')]);
    for (const name of ['shared', 'csv', 'night', 'sjis', 'utf8'])
      await documents().set(SYSTEM_PRINCIPAL, `rooms/${room(name)}`, { domainId: A, name: `履歴 ${name}` }, false);
    await documents().set(SYSTEM_PRINCIPAL, `rooms/${room('other')}`, { domainId: B, name: '他施設' }, false);
  }, 120_000);

  afterAll(async () => {
    await base?.stop();
    await base?.remove();
  });

  it('imports every shared recording with what it read, or refuses it with the reason', async () => {
    const files = await filesUnder(SHARED_DATA_DIR);
    // A file added to the shared data needs its expected result here.
    expect(files).toEqual(Object.keys(SHARED_FILES).sort());
    for (const file of files) {
      const expected = SHARED_FILES[file] as Expected;
      const name = file.split('/').pop() as string;
      const answer = await upload(staff, room('shared'), name, await readFile(join(SHARED_DATA_DIR, file)));
      if ('refused' in expected) {
        expect(answer.status, file).toBe(415);
        expect(answer.body, file).toMatchObject({ reason: expected.refused });
        continue;
      }
      expect(answer.status, `${file}: ${JSON.stringify(answer.body)}`).toBe(201);
      await settled();
      const done = await uploadOf(room('shared'), answer.body.uploadId);
      expect(done?.status, file).toBe('done');
      expect(done?.sleepDays, file).toEqual(expected.days);
      expect(
        (done?.warnings as { code: string; day: string }[]).map((warning) => `${warning.code} ${warning.day}`),
        file,
      ).toEqual(expected.warnings);
      expect(
        (done?.columns as { name: string; as: string | null; status: string }[]).map((column) => [column.name, column.as, column.status]),
        file,
      ).toEqual(expected.columns);
    }
    // The afternoon excerpt made no day; the hypnograms' nights did.
    expect(await sleepOf(room('shared'), '1989-04-25')).toBeUndefined();
    expect(await sleepOf(room('shared'), '1989-04-24')).toMatchObject({ timeInBedMin: expect.any(Number) });
  }, 120_000);

  it('refuses a CSV column it cannot read until the uploader chooses to skip it, listing every column', async () => {
    const csv = Buffer.from(
      `時刻,状態,心拍数(拍/分),体温(℃)\r\n${Array.from({ length: 60 }, (_, minute) => `2026/11/20 23:${String(minute).padStart(2, '0')},浅い睡眠,60,36.5`).join('\r\n')}\r\n`,
    );
    const refused = await upload(staff, room('csv'), 'temperature.csv', csv);
    expect(refused.status).toBe(201);
    await settled();
    const failed = await uploadOf(room('csv'), refused.body.uploadId);
    expect(failed).toMatchObject({ status: 'failed', errorCode: 'unknown-columns', unknownColumns: 'refuse' });
    expect(failed?.columns).toEqual([
      { name: '時刻', as: 'time', unit: null, status: 'read', reason: null, values: 60 },
      { name: '状態', as: 'state', unit: null, status: 'read', reason: null, values: 60 },
      { name: '心拍数(拍/分)', as: 'heartRate', unit: '拍/分', status: 'read', reason: null, values: 60 },
      { name: '体温(℃)', as: null, unit: '°C', status: 'problem', reason: 'unknown', values: 60 },
    ]);
    expect(await sleepOf(room('csv'), '2026-11-20')).toBeUndefined();

    // The uploader decides from the history: import without the column.
    const again = await staff.post(`/api/rooms/${room('csv')}/uploads/${String(refused.body.uploadId)}/reprocess`, { unknownColumns: 'skip' });
    expect(again.status, again.text).toBe(202);
    await settled();
    const done = await uploadOf(room('csv'), refused.body.uploadId);
    expect(done).toMatchObject({ status: 'done', unknownColumns: 'skip', sleepDays: ['2026-11-20'], warnings: [] });
    expect((done?.columns as { status: string; reason: string | null }[])[3]).toMatchObject({ status: 'skipped', reason: 'unknown' });

    // Or at the upload, with the header.
    const skipped = await upload(staff, room('csv'), 'temperature-2.csv', Buffer.concat([csv, Buffer.from('\r\n')]), {
      [UPLOAD_UNKNOWN_COLUMNS_HEADER]: 'skip',
    });
    expect(skipped.body.upload).toMatchObject({ unknownColumns: 'skip' });
    await settled();
    expect(await uploadOf(room('csv'), skipped.body.uploadId)).toMatchObject({ status: 'done' });
  }, 60_000);

  it.each(['sjis', 'utf8bom'] as const)(
    "re-imports the product's own per-minute export (%s) to the same minutes",
    async (encoding) => {
      const first = await upload(staff, room('night'), `night-${encoding}.csv`, Buffer.from(`${nightCsv()}${encoding === 'sjis' ? '' : '\r\n'}`));
      expect(first.status).toBe(201);
      await settled();
      expect(await uploadOf(room('night'), first.body.uploadId)).toMatchObject({ status: 'done', sleepDays: ['2026-11-20'] });
      const exported = await download(admin, `rooms=${room('night')}&from=2026-11-20&to=2026-11-20&kind=epochs&encoding=${encoding}`);

      const target = room(encoding === 'sjis' ? 'sjis' : 'utf8');
      const back = await upload(staff, target, `export-${encoding}.csv`, exported);
      expect(back.status).toBe(201);
      await settled();
      const imported = await uploadOf(target, back.body.uploadId);
      expect(imported).toMatchObject({ status: 'done', sleepDays: ['2026-11-20'], warnings: [] });
      expect(
        (imported?.columns as { name: string; as: string | null; status: string; values: number }[]).map((column) => [column.name, column.as, column.status]),
      ).toEqual([
        ['部屋', 'room', 'context'],
        ['睡眠日', 'sleepDay', 'context'],
        ['時刻', 'time', 'read'],
        ['状態', 'state', 'read'],
        ['呼吸数(回/分)', 'respirationRate', 'read'],
        ['心拍数(回/分)', 'heartRate', 'read'],
        ['体動', 'activity', 'read'],
        ['呼吸停止回数', 'pauses', 'read'],
      ]);
      const minutes = (record: Record<string, unknown> | undefined) => record?.epochs as unknown[];
      const original = await sleepOf(room('night'), '2026-11-20');
      const copy = await sleepOf(target, '2026-11-20');
      expect(minutes(original)).toHaveLength(1440);
      expect(minutes(copy)).toEqual(minutes(original));
      for (const key of ['bedTime', 'sleepOnset', 'finalWake', 'outOfBedTime', 'timeInBedMin', 'totalSleepMin', 'wasoMin', 'apneaEvents', 'epochStart'])
        expect(copy?.[key], key).toEqual(original?.[key]);
      // And the copy exports to the same bytes, but for the room's name.
      const again = await download(admin, `rooms=${target}&from=2026-11-20&to=2026-11-20&kind=epochs&encoding=${encoding}`);
      const text = (bytes: Uint8Array) => new TextDecoder(encoding === 'sjis' ? 'shift_jis' : 'utf-8').decode(bytes).replace(/^[^,\r\n]*,/gm, '');
      expect(text(again)).toBe(text(exported));
    },
    60_000,
  );

  it('refuses bad choices, other facilities and residents', async () => {
    const csv = Buffer.from('時刻,状態\r\n2026/11/20 23:00,覚醒\r\n');
    const bad = await upload(staff, room('csv'), 'x.csv', csv, { [UPLOAD_UNKNOWN_COLUMNS_HEADER]: 'always' });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ code: 'invalid-argument' });
    const [one] = await documents().query(SYSTEM_PRINCIPAL, { collection: `rooms/${room('csv')}/uploads`, limit: 1 });
    const path = `/api/rooms/${room('csv')}/uploads/${String(one?.documentReferenceId)}/reprocess`;
    for (const body of [{ unknownColumns: 'everything' }, { unknownColumns: 'skip', status: 'done' }, { unknownColumns: ['skip'] }, []]) {
      const reply = await staff.post(path, body);
      expect(reply.status, JSON.stringify(body)).toBe(400);
    }
    // Another facility's room reads as missing; a resident may not; nobody signed out.
    expect((await upload(admin, room('other'), 'x.csv', csv, { [UPLOAD_UNKNOWN_COLUMNS_HEADER]: 'skip' })).status).toBe(404);
    expect((await admin.post(`/api/rooms/${room('other')}/uploads/${String(one?.documentReferenceId)}/reprocess`, { unknownColumns: 'skip' })).status).toBe(
      404,
    );
    expect((await resident.post(path, { unknownColumns: 'skip' })).status).toBe(403);
    const anonymous = await fetch(`${base.server.url}${path}`, {
      method: 'POST',
      headers: { origin: base.server.url, 'content-type': 'application/json' },
      body: '{"unknownColumns":"skip"}',
    });
    expect(anonymous.status).toBe(401);
    // The upload records stay the server's: nobody writes a choice or a column list through the documents API.
    const forged = await admin.send(
      'PATCH',
      `/api/documents/rooms/${room('csv')}/uploads/${String(one?.documentReferenceId)}`,
      JSON.stringify({ data: { unknownColumns: 'skip' } }),
      { 'content-type': 'application/json' },
    );
    expect([403, 405]).toContain(forged.status);
  }, 60_000);
});
