/** The ring buffer and the signal storage (staging, compaction into gzip chunks, reads, retention) on PGlite and PostgreSQL. */
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadParser } from '@nemuri/parser/node';
import type { Parser } from '@nemuri/parser/parser';
import type { Database } from '../database/database.ts';
import { migrate } from '../database/migrate.ts';
import { IngestPipeline } from '../ingest/pipeline.ts';
import { FrameRing } from './ringBuffer.ts';
import { SignalStore, type PendingFrame } from './signalStore.ts';
import { frameHeaderAt, splitFrames } from './smfHeader.ts';
import { createDeviceServices } from '../devices/deviceServices.ts';
import { createSignalServices } from './signalServices.ts';
import { DocumentStore } from '../documents/store.ts';
import { describeOnBothDatabases, type TestDatabase } from '../testing/bothDatabases.ts';

describe('FrameRing', () => {
  const frame = (n: number) => Uint8Array.of(n);

  it('keeps 60 s of frames by their start time, growing as needed', () => {
    const ring = new FrameRing(2);
    for (let second = 0; second < 100; second++) ring.push(frame(second), second * 1e6);
    expect(ring.size).toBe(61);
    expect(ring.since(0).map((bytes) => bytes[0])).toEqual([...Array(61).keys()].map((i) => i + 39));
    expect(ring.since(97e6).map((bytes) => bytes[0])).toEqual([97, 98, 99]);
    expect(ring.newestStartUs).toBe(99e6);
  });
});

// Both databases: the staging write sends the frames' bytes differently to each (signalStore.ts #write).
describeOnBothDatabases('SignalStore', signalStoreSuite);

function signalStoreSuite(open: () => Promise<TestDatabase>): void {
  let suite: TestDatabase | undefined;
  let database: Database;
  let parser: Parser;
  let store: SignalStore;
  const minute = Date.UTC(2026, 10, 22, 12, 0) * 1000;

  const ecg = (sequence: number, startUs: number): PendingFrame => {
    const bytes = parser.encodeSmfFrame({
      channel: 'ecg',
      format: 'int16',
      sampleRate: 250,
      sequence,
      startTimeUs: startUs,
      raw: new Int16Array(250).fill(sequence),
    });
    return { serial: 'S-1', channel: 'ecg', startTimeUs: startUs, sequence, bytes, domainId: 'd', rootDomainId: 'r' };
  };

  beforeAll(async () => {
    suite = await open();
    database = suite.database;
    await migrate(database);
    parser = await loadParser();
    store = new SignalStore(database);
  });
  afterAll(async () => {
    await suite?.close();
  });

  it('reads the header fields it needs without the parser', () => {
    const frame = ecg(7, minute + 1e6);
    expect(frameHeaderAt(frame.bytes)).toEqual({ channel: 'ecg', sequence: 7, startTimeUs: minute + 1e6, byteLength: frame.bytes.byteLength });
    expect(splitFrames(Buffer.concat([frame.bytes, frame.bytes]))).toHaveLength(2);
    expect(frameHeaderAt(frame.bytes.subarray(0, 40))).toBeNull();
  });

  it("stages a batch larger than one statement with every frame's own bytes, columns and null domains", async () => {
    const small = new SignalStore(database, { rowsPerStatement: 7 });
    const startUs = minute + 3 * 3600e6;
    const frames: PendingFrame[] = [...Array(20).keys()].map((i) => {
      // Frames of different lengths, so that a wrong offset in the shared bytea shows.
      const bytes =
        i % 2 === 0
          ? parser.encodeSmfFrame({
              channel: 'ecg',
              format: 'int16',
              sampleRate: 250,
              sequence: i,
              startTimeUs: startUs + i * 1e6,
              raw: new Int16Array(250).fill(i),
            })
          : parser.encodeSmfFrame({
              channel: 'respiHr',
              format: 'float32',
              sampleRate: 1,
              sequence: i,
              startTimeUs: startUs + i * 1e6,
              values: new Float32Array([i, 60 + i]),
            });
      return {
        serial: 'W-1',
        channel: i % 2 === 0 ? 'ecg' : 'respiHr',
        startTimeUs: startUs + i * 1e6,
        sequence: i,
        bytes,
        domainId: i % 3 === 0 ? null : `d-${i}`,
        rootDomainId: i % 3 === 0 ? null : 'r',
      };
    });
    await small.append(frames);
    expect(small.writeStats).toMatchObject({ writes: 1, frames: 20 });
    const { rows } = await database.query<{
      channel: string;
      start_us: string;
      last_start_us: string;
      frame_count: number;
      frame: Uint8Array;
      domain_id: string | null;
      root_domain_id: string | null;
    }>("select channel, start_us, last_start_us, frame_count, frame, domain_id, root_domain_id from signal_frames_pending where serial = 'W-1' order by id");
    // Only frames 0 and 6 share a row: same statement, channel (ecg), minute and domains (none); every
    // other frame has a domain of its own or is alone with its channel and domains in its statement.
    const staged = rows.flatMap((row) => {
      const inRow = splitFrames(row.frame);
      expect(inRow).toHaveLength(row.frame_count);
      expect(Number(row.start_us)).toBe(Math.min(...inRow.map((frame) => frame.header.startTimeUs)));
      expect(Number(row.last_start_us)).toBe(Math.max(...inRow.map((frame) => frame.header.startTimeUs)));
      return inRow.map((frame) => [
        row.channel,
        frame.header.startTimeUs,
        frame.header.sequence,
        Buffer.from(frame.bytes).toString('hex'),
        row.domain_id,
        row.root_domain_id,
      ]);
    });
    expect(rows.map((row) => row.frame_count).filter((count) => count > 1)).toEqual([2]);
    expect(staged.sort((a, b) => Number(a[2]) - Number(b[2]))).toEqual(
      frames.map((frame) => [frame.channel, frame.startTimeUs, frame.sequence, Buffer.from(frame.bytes).toString('hex'), frame.domainId, frame.rootDomainId]),
    );
  });

  it("shares a row among a write's frames of one device, channel and minute, and reads, finds, keeps and compacts each frame", async () => {
    // A day before the other tests' frames: this test's compaction and retention reach only its own.
    const base = minute - 24 * 3600e6;
    const frames = [...Array(20).keys()].map((i) => ({ ...ecg(50 + i, base + (50 + i) * 1e6), serial: 'G-1' }));
    await store.append(frames);
    const rows = await database.query<{ frame_count: number; start_us: string; last_start_us: string }>(
      "select frame_count, start_us, last_start_us from signal_frames_pending where serial = 'G-1' order by start_us",
    );
    // Seconds 50–59 and 60–69: a row never crosses a minute.
    expect(rows.rows.map((row) => [row.frame_count, Number(row.start_us) - base, Number(row.last_start_us) - base])).toEqual([
      [10, 50e6, 59e6],
      [10, 60e6, 69e6],
    ]);
    const bytesOf = (from: number, to: number): Buffer => Buffer.concat(frames.slice(from - 50, to - 50).map((frame) => frame.bytes));
    expect((await store.read('G-1', 'ecg', base + 55e6, base + 62e6)).equals(bytesOf(55, 62))).toBe(true);
    expect((await store.read('G-1', 'ecg', base + 59.5e6, base + 60.5e6)).equals(bytesOf(60, 61))).toBe(true);
    expect(await store.hasFrames('G-1', base + 57e6, base + 58e6)).toBe(true);
    expect(await store.hasFrames('G-1', base, base + 50e6)).toBe(false);
    expect(await store.hasFrames('G-1', base + 70e6, base + 80e6)).toBe(false);
    // Retention keeps a row until its last frame is older than the cutoff.
    const retentionAt = (cutoffUs: number) => store.deleteOlderThan(1, cutoffUs / 1000 + 86_400_000);
    expect((await retentionAt(base + 55e6)).pending).toBe(0);
    expect((await store.read('G-1', 'ecg', base, base + 120e6)).equals(bytesOf(50, 70))).toBe(true);
    expect((await retentionAt(base + 60e6)).pending).toBe(1);
    expect(await store.compactAll(base + 120e6)).toBe(10);
    expect((await store.read('G-1', 'ecg', base, base + 120e6)).equals(bytesOf(60, 70))).toBe(true);
    const chunk = await database.query<{ frame_count: number; first_seq: string; last_seq: string }>(
      "select frame_count, first_seq, last_seq from signal_chunks where serial = 'G-1'",
    );
    expect(chunk.rows.map((row) => [row.frame_count, row.first_seq, row.last_seq])).toEqual([[10, '60', '69']]);
  });

  it('stages frames, compacts complete minutes into one gzip chunk, appends late frames, and reads in time order without duplicates', async () => {
    const frames = [...Array(60).keys()].map((second) => ecg(second, minute + second * 1e6));
    // Out of order and one duplicate (a QoS 1 redelivery).
    await Promise.all([store.append(frames.slice(30)), store.append(frames.slice(0, 30)), store.append([frames[5]!])]);
    const next = ecg(60, minute + 60e6);
    await store.append([next]);
    expect(await store.compactAll(minute + 60e6)).toBe(61);
    const chunks = await database.query<{ frame_count: number; first_seq: string; last_seq: string; frames: Uint8Array }>(
      'select frame_count, first_seq, last_seq, frames from signal_chunks where serial = $1 order by minute',
      ['S-1'],
    );
    expect(chunks.rows.map((row) => [row.frame_count, row.first_seq, row.last_seq])).toEqual([[61, '0', '59']]);
    expect(splitFrames(gunzipSync(chunks.rows[0]!.frames))).toHaveLength(61);
    // A late frame of the compacted minute: another gzip member.
    const late = ecg(61, minute + 59.5e6);
    await store.append([late]);
    await store.compactAll(minute + 60e6);
    const all = await store.read('S-1', 'ecg', minute, minute + 120e6);
    const expected = [...frames, late, next].map((frame) => frame.bytes);
    expect(splitFrames(all).map((frame) => frame.header.sequence)).toEqual(expected.map((bytes) => frameHeaderAt(bytes)!.sequence));
    expect(all.equals(Buffer.concat(expected))).toBe(true);
    // A range inside the minute; another channel; another device.
    expect((await store.read('S-1', 'ecg', minute + 10e6, minute + 12e6)).equals(Buffer.concat([frames[10]!.bytes, frames[11]!.bytes]))).toBe(true);
    expect((await store.read('S-1', 'respiAxl', minute, minute + 120e6)).byteLength).toBe(0);
    expect((await store.read('S-2', 'ecg', minute, minute + 120e6)).byteLength).toBe(0);
  });

  it('compacts a long backlog of several devices in passes of whole devices', async () => {
    const start = minute + 3600e6;
    const frames = ['B-1', 'B-2', 'B-3'].flatMap((serial) => [...Array(130).keys()].map((second) => ({ ...ecg(second, start + second * 1e6), serial })));
    await store.append(frames);
    // 390, and the frame the test above left pending.
    expect(await store.compactAll(start + 180e6, { rowsPerPass: 50 })).toBe(391);
    for (const serial of ['B-1', 'B-2', 'B-3']) {
      const stored = await store.read(serial, 'ecg', start, start + 180e6);
      expect(stored.equals(Buffer.concat(frames.filter((frame) => frame.serial === serial).map((frame) => frame.bytes)))).toBe(true);
    }
    const { rows } = await database.query<{ n: number }>("select count(*)::int as n from signal_chunks where serial like 'B-%'");
    expect(rows[0]?.n).toBe(3 * 3);
  });

  it('puts each frame in a chunk once when two processes compact the same devices at once', async () => {
    const start = minute + 2 * 3600e6;
    const frames = ['C-1', 'C-2'].flatMap((serial) => [...Array(120).keys()].map((second) => ({ ...ecg(second, start + second * 1e6), serial })));
    await store.append(frames);
    // Two stores on one database, as two server processes on one PostgreSQL: both read the same rows.
    const other = new SignalStore(database);
    const moved = await Promise.all([store.compactAll(start + 180e6), other.compactAll(start + 180e6)]);
    expect(moved[0] + moved[1]).toBe(frames.length);
    const { rows } = await database.query<{ n: number }>("select sum(frame_count)::int as n from signal_chunks where serial like 'C-%'");
    expect(rows[0]?.n).toBe(frames.length);
    for (const serial of ['C-1', 'C-2']) {
      const stored = await store.read(serial, 'ecg', start, start + 180e6);
      expect(stored.equals(Buffer.concat(frames.filter((frame) => frame.serial === serial).map((frame) => frame.bytes)))).toBe(true);
    }
  });

  it('stops in the middle of a compaction after its pass, leaving the rest staged, before the database closes', async () => {
    // A database of its own, closed at the end as a shutdown closes it.
    const ownDatabase = await open();
    const own = ownDatabase.database;
    await migrate(own);
    const lines: string[] = [];
    const log = {
      info: () => undefined,
      warn: (_: object, message: string) => lines.push(message),
      error: (_: object, message: string) => lines.push(message),
    };
    const signals = createSignalServices(own, log, { compactEveryMs: 20 });
    const startUs = (Math.floor(Date.now() / 60_000) - 30) * 60_000_000;
    const serials = [...Array(20).keys()].map((i) => `U-${i}`);
    // 20 devices × 120 s: about five passes of 500 frames.
    await signals.store.append(serials.flatMap((serial) => [...Array(120).keys()].map((second) => ({ ...ecg(second, startUs + second * 1e6), serial }))));
    const chunkRows = async (): Promise<number> => (await own.query<{ n: number }>('select count(*)::int as n from signal_chunks')).rows[0]!.n;
    signals.upkeep.start();
    const deadline = Date.now() + 10_000;
    while ((await chunkRows()) === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 5));
    await signals.upkeep.stop();
    const pending = (await own.query<{ n: number }>('select coalesce(sum(frame_count), 0)::int as n from signal_frames_pending')).rows[0]!.n;
    const chunked = (await own.query<{ n: number }>('select coalesce(sum(frame_count), 0)::int as n from signal_chunks')).rows[0]!.n;
    await ownDatabase.close();
    // Every frame is in exactly one place, some still staged for the next start's compaction.
    expect(pending + chunked).toBe(serials.length * 120);
    expect(chunked).toBeGreaterThan(0);
    expect(pending).toBeGreaterThan(0);
    // Before, the pass under way went on against the closed database: "signal compaction failed: PGlite is closed".
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(lines).toEqual([]);
  });

  it('is compacted (and vacuumed on PGlite) by the signals upkeep once a minute is over', async () => {
    const lines: string[] = [];
    const log = {
      info: () => undefined,
      warn: (_: object, message: string) => lines.push(message),
      error: (_: object, message: string) => lines.push(message),
    };
    const signals = createSignalServices(database, log, { compactEveryMs: 50 });
    const pipeline = new IngestPipeline({ signals, status: createDeviceServices(database, new DocumentStore(database, log), signals.hub, log).status, log });
    const device = { serial: 'P-1', domainId: 'd', rootDomainId: 'r', credentialHash: null, status: 'in_use' };
    const startUs = (Math.floor(Date.now() / 60_000) - 5) * 60_000_000;
    const frames = [0, 1, 2].map((sequence) => ecg(sequence, startUs + sequence * 1e6).bytes);
    await pipeline.ingest(device, Buffer.concat(frames)).durable;
    pipeline.start();
    signals.upkeep.start();
    try {
      const deadline = Date.now() + 5000;
      const chunkCount = async () => (await database.query<{ n: number }>("select count(*)::int as n from signal_chunks where serial = 'P-1'")).rows[0]?.n;
      while ((await chunkCount()) === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
      expect(await chunkCount()).toBe(1);
    } finally {
      await signals.upkeep.stop();
      await pipeline.stop();
    }
    expect((await store.read('P-1', 'ecg', startUs, startUs + 60e6)).equals(Buffer.concat(frames))).toBe(true);
    // P-1 has no device record, so only its lastSeenAt could not be written.
    expect(lines).toEqual(["could not record the device's lastSeenAt"]);
  });

  it('deletes signals older than the retention', async () => {
    const old = ecg(0, minute - 40 * 86_400e6);
    await store.append([old, ecg(1, minute - 40 * 86_400e6 + 120e6)]);
    await store.compactAll(minute - 40 * 86_400e6 + 60e6);
    const deleted = await store.deleteOlderThan(30, minute / 1000);
    expect(deleted).toEqual({ chunks: 1, pending: 1 });
    expect((await store.read('S-1', 'ecg', minute, minute + 120e6)).byteLength).toBeGreaterThan(0);
  });
}
