/**
 * Raw signal storage in PostgreSQL (PGlite or PostgreSQL, migration 004):
 * - `append` puts frames in `signal_frames_pending`, batched: every caller's promise resolves once its
 *   frames are committed, so the MQTT acknowledgement (or the HTTP 202) can wait for it without a
 *   database round trip per frame. The frames one write carries of the same device, channel and
 *   minute share a row (concatenated, like a chunk's): a device sending its backlog, or faster than
 *   once a second, costs a row per write instead of one per frame;
 * - `compactAll` moves pending frames whose minute is over into `signal_chunks`, one row per device,
 *   channel and minute: the concatenated frames, gzip-compressed. A frame arriving after its minute was
 *   compacted becomes another gzip member appended to the chunk (gzip readers read concatenated
 *   members as one stream), so compaction never reads a chunk back;
 * - `read` returns a channel's frames of a time range from both tables, in time order, without
 *   duplicates (QoS 1 may deliver a frame twice);
 * - `deleteOlderThan` is the retention.
 * Why a staging table rather than holding a minute in memory: see docs/architecture.md, "Raw signal storage".
 */
import { promisify } from 'node:util';
import { gunzip as gunzipCallback, gzip as gzipCallback } from 'node:zlib';
import type { Database, Queryable } from '../database/database.ts';
import { againOnConnectionLoss } from '../database/connectionLoss.ts';
import { deferred, type Deferred } from '../deferred.ts';
import { splitFrames } from './smfHeader.ts';

/** Rows one retention delete removes at a time (deleteOlderThan). */
const RETENTION_BATCH_ROWS = 5000;

const gzip = promisify(gzipCallback);
const gunzip = promisify(gunzipCallback);

export interface PendingFrame {
  serial: string;
  channel: string;
  startTimeUs: number;
  sequence: number;
  bytes: Uint8Array;
  domainId: string | null;
  rootDomainId: string | null;
}

export interface SignalStoreOptions {
  /** Wait this long after a flush before the next one, gathering frames meanwhile. Default 5 ms: in effect a group commit — frames arriving while one write is under way go in the next. */
  flushIntervalMs?: number;
  /**
   * Rows per insert statement (arrays: no parameter limit; this bounds one statement's size). Default
   * 5,000 on PostgreSQL; 1,000 on PGlite, whose one connection a long statement would hold.
   */
  rowsPerStatement?: number;
}

const MINUTE_US = 60_000_000;

/**
 * A staging row holding a frame that starts in [$from, $to), for parameters numbered `from` and `to`.
 * A row's frames are of one minute, so its first starts less than a minute before its last: the
 * index range on start_us grows by a minute at most. A null last_start_us is a row of one frame
 * (written before migration 011).
 */
function pendingRowOverlaps(from: number, to: number): string {
  return `start_us > $${from}::bigint - ${MINUTE_US} and start_us < $${to} and coalesce(last_start_us, start_us) >= $${from}`;
}

interface Batch {
  frames: PendingFrame[];
  /** Settles when the batch is committed; marked handled, since all its callers may be gone. */
  done: Deferred<void>;
}

function newBatch(): Batch {
  return { frames: [], done: deferred<void>() };
}

/** What the staging writes cost so far: frames per commit and database time per frame (bench, /metrics). */
export interface StagingWriteStats {
  /** Commits of staged frames (each acknowledges every message it carries). */
  writes: number;
  frames: number;
  /** Sum of the writes' durations (ms), from the first statement sent to the commit answered. */
  writeMs: number;
  /** The longest write (ms). */
  maxWriteMs: number;
}

export class SignalStore {
  readonly writeStats: StagingWriteStats = { writes: 0, frames: 0, writeMs: 0, maxWriteMs: 0 };
  readonly #database: Database;
  readonly #stagingInsert: string;
  readonly #flushIntervalMs: number;
  readonly #rowsPerStatement: number;
  #batch: Batch = newBatch();
  #flushing: Promise<void> | undefined;
  #timer: NodeJS.Timeout | undefined;
  /** Compactions run one after the other. */
  #compactions: Promise<unknown> = Promise.resolve();

  constructor(database: Database, options: SignalStoreOptions = {}) {
    this.#database = database;
    this.#flushIntervalMs = options.flushIntervalMs ?? 5;
    this.#rowsPerStatement = options.rowsPerStatement ?? (database.kind === 'pglite' ? 1000 : 5000);
    this.#stagingInsert = `insert into signal_frames_pending (serial, channel, start_us, last_start_us, frame_count, seq, frame, domain_id, root_domain_id)
      select f.serial, f.channel, f.start_us, f.last_start_us, f.frame_count, f.seq, substring(b.bytes from f.at + 1 for f.length), f.domain_id, f.root_domain_id
      from (select $5::bytea as bytes) b,
           unnest($1::text[], $2::text[], $3::bigint[], $4::bigint[], $6::int[], $7::int[], $8::text[], $9::text[], $10::bigint[], $11::int[])
        as f(serial, channel, start_us, seq, at, length, domain_id, root_domain_id, last_start_us, frame_count)`;
  }

  /** Frames waiting for the next write. */
  get queued(): number {
    return this.#batch.frames.length;
  }

  /** Queues frames for the staging table; resolves when they are committed. */
  append(frames: readonly PendingFrame[]): Promise<void> {
    const batch = this.#batch;
    for (const frame of frames) batch.frames.push(frame);
    this.#schedule();
    return batch.done.promise;
  }

  #schedule(delayMs = this.#flushIntervalMs): void {
    if (this.#timer !== undefined || this.#flushing !== undefined) return;
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      this.flush().catch(() => undefined); // the appenders get the error through their promise
    }, delayMs);
  }

  /** Writes what is queued now (and waits for a write under way). */
  async flush(): Promise<void> {
    if (this.#timer !== undefined) {
      clearTimeout(this.#timer);
      this.#timer = undefined;
    }
    while (this.#flushing) await this.#flushing;
    const batch = this.#batch;
    if (batch.frames.length === 0) return;
    this.#batch = newBatch();
    const started = performance.now();
    this.#flushing = this.#write(batch.frames).then(
      () => {
        const ms = performance.now() - started;
        const stats = this.writeStats;
        stats.writes++;
        stats.frames += batch.frames.length;
        stats.writeMs += ms;
        if (ms > stats.maxWriteMs) stats.maxWriteMs = ms;
        batch.done.resolve();
      },
      (error: unknown) => batch.done.reject(error as Error),
    );
    try {
      await this.#flushing;
    } finally {
      this.#flushing = undefined;
      // What arrived during the write has waited for it already: it goes now, not after another interval.
      if (this.#batch.frames.length > 0) this.#schedule(0);
    }
    await batch.done.promise;
  }

  /**
   * One statement per `rowsPerStatement` frames, whatever their number: the columns go as arrays and
   * the rows' bytes as one value, sliced by offset and length in SQL, so the statement text is the
   * same every time (parsed and planned cheaply) and the driver sends nine parameters instead of
   * seven per row. The bytes go as one binary parameter on both databases: node-postgres sends a
   * Buffer so, and so does PGlite's bind message for the bytes its bytea serializer returns
   * (database/pgliteWorkerMain.ts). No text is built on the event loop and none parsed in the
   * database: on PostgreSQL bench:ingest's pipeline ceiling went from about 34,000 to 37,000–41,000
   * messages/s; on PGlite hex (98 µs of database time per frame), then base64 decoded in SQL (45 µs),
   * then binary.
   */
  async #write(frames: readonly PendingFrame[]): Promise<void> {
    for (let i = 0; i < frames.length; i += this.#rowsPerStatement) {
      const rows = rowsOf(frames, i, Math.min(frames.length, i + this.#rowsPerStatement));
      const n = rows.length;
      const serials = new Array<string>(n);
      const channels = new Array<string>(n);
      const starts = new Array<number>(n);
      const lastStarts = new Array<number>(n);
      const counts = new Array<number>(n);
      const sequences = new Array<number>(n);
      const offsets = new Array<number>(n);
      const lengths = new Array<number>(n);
      const domains = new Array<string | null>(n);
      const roots = new Array<string | null>(n);
      const parts: Uint8Array[] = [];
      let offset = 0;
      for (let j = 0; j < n; j++) {
        const row = rows[j]!;
        const first = row.frames[0]!;
        serials[j] = first.serial;
        channels[j] = first.channel;
        starts[j] = row.startUs;
        lastStarts[j] = row.lastStartUs;
        counts[j] = row.frames.length;
        sequences[j] = first.sequence;
        offsets[j] = offset;
        domains[j] = first.domainId;
        roots[j] = first.rootDomainId;
        for (const frame of row.frames) {
          parts.push(frame.bytes);
          offset += frame.bytes.byteLength;
        }
        lengths[j] = offset - offsets[j]!;
      }
      // A lost connection (one the server closed before the pool noticed) costs a second try, not the
      // devices' frames: a row written twice is a duplicate, removed on read.
      const bytes = Buffer.concat(parts, offset);
      const params = [serials, channels, starts, sequences, bytes, offsets, lengths, domains, roots, lastStarts, counts];
      await againOnConnectionLoss(() => this.#database.query(this.#stagingInsert, params));
    }
  }

  /**
   * Moves every pending frame that starts before `beforeUs` into chunks and returns how many it moved.
   * It works a few devices at a time (about `rowsPerPass` frames), so that each pass holds whole
   * minutes of those devices (one gzip member per chunk) and no query holds the database long:
   * on PGlite queries run on the server's own thread, and the live path must not wait seconds.
   * `pauseMs` between passes lets other work in. One compaction at a time. Once `signal` is aborted
   * (the server stopping) no further pass starts: each pass is a transaction of its own, so what is
   * left stays staged, readable, for the next compaction.
   */
  compactAll(
    beforeUs: number,
    { rowsPerPass = 5000, pauseMs = 0, signal }: { rowsPerPass?: number; pauseMs?: number; signal?: AbortSignal } = {},
  ): Promise<number> {
    const run = async (): Promise<number> => {
      const { rows } = await this.#database.query<{ serial: string; n: number }>(
        'select serial, sum(frame_count)::int as n from signal_frames_pending where start_us < $1 group by serial order by serial',
        [beforeUs],
      );
      let total = 0;
      let batch: string[] = [];
      let batchFrames = 0;
      const flushBatch = async (): Promise<void> => {
        if (batch.length === 0) return;
        const serials = batch;
        batch = [];
        batchFrames = 0;
        // A device with a long backlog takes several passes.
        for (let moved = rowsPerPass; moved >= rowsPerPass && signal?.aborted !== true;) {
          moved = await this.#compact(beforeUs, serials, rowsPerPass);
          total += moved;
          if (pauseMs > 0) await new Promise((resolve) => setTimeout(resolve, pauseMs));
        }
      };
      for (const row of rows) {
        if (signal?.aborted === true) return total;
        if (batchFrames > 0 && batchFrames + row.n > rowsPerPass) await flushBatch();
        batch.push(row.serial);
        batchFrames += row.n;
      }
      await flushBatch();
      return total;
    };
    const result = this.#compactions.then(run);
    this.#compactions = result.catch(() => undefined);
    return result;
  }

  /** One pass: rows of `serials` up to about `limit` frames (at least one row). Returns the frames moved. */
  async #compact(beforeUs: number, serials: readonly string[], limit: number): Promise<number> {
    const { rows } = await this.#database.query<PendingRow>(
      `select id, serial, channel, frame_count, frame, domain_id, root_domain_id from (
         select id, serial, channel, start_us, frame_count, frame, domain_id, root_domain_id,
                sum(frame_count) over (order by serial, channel, start_us, id) - frame_count as before_row
           from signal_frames_pending where serial = any($1::text[]) and start_us < $2
       ) p where before_row < $3 order by serial, channel, start_us, id`,
      [serials, beforeUs, limit],
    );
    if (rows.length === 0) return 0;
    const chunks = await chunksOf(rows);
    return this.#database.transaction(async (tx) => {
      // Another process compacting the same devices may have read these rows too: only the rows this
      // transaction deletes go into chunks, so no frame is appended to a chunk twice.
      const taken = await tx.query<{ id: string }>('delete from signal_frames_pending where id = any($1::bigint[]) returning id', [rows.map((row) => row.id)]);
      let moved = rows;
      if (taken.rows.length === rows.length) await upsertChunks(tx, chunks);
      else {
        const ids = new Set(taken.rows.map((row) => String(row.id)));
        moved = rows.filter((row) => ids.has(String(row.id)));
        await upsertChunks(tx, await chunksOf(moved));
      }
      return moved.reduce((sum, row) => sum + row.frame_count, 0);
    });
  }

  /**
   * Stores whole minutes at once (an imported recording, already validated and compressed): the same
   * rows compaction writes, so reading and retention treat them like the live stream.
   */
  async storeChunks(chunks: readonly StoredChunk[]): Promise<void> {
    if (chunks.length === 0) return;
    await this.#database.transaction((tx) => upsertChunks(tx, chunks));
  }

  /**
   * A channel's frames starting in [fromUs, toUs), in time order, duplicates removed, as one SMF stream.
   * Pending frames are read before chunks: a compaction committing in between then shows its frames
   * in the chunks (and duplicates are removed), never in neither.
   */
  async read(serial: string, channel: string, fromUs: number, toUs: number): Promise<Buffer> {
    const pending = await this.#database.query<{ frame: Uint8Array }>(
      `select frame from signal_frames_pending where serial = $1 and channel = $2 and ${pendingRowOverlaps(3, 4)}`,
      [serial, channel, fromUs, toUs],
    );
    const chunks = await this.#database.query<{ frames: Uint8Array }>(
      `select frames from signal_chunks where serial = $1 and channel = $2 and minute >= $3::timestamptz and minute < $4::timestamptz order by minute`,
      [serial, channel, new Date(Math.floor(fromUs / MINUTE_US) * 60_000).toISOString(), new Date(Math.ceil(toUs / 1000)).toISOString()],
    );
    const found = new Map<string, { startUs: number; seq: number; bytes: Uint8Array }>();
    const keep = (bytes: Uint8Array): void => {
      for (const frame of splitFrames(bytes)) {
        const { startTimeUs, sequence } = frame.header;
        if (startTimeUs < fromUs || startTimeUs >= toUs) continue;
        found.set(`${startTimeUs}:${sequence}`, { startUs: startTimeUs, seq: sequence, bytes: frame.bytes });
      }
    };
    for (const row of chunks.rows) keep(await gunzip(row.frames));
    for (const row of pending.rows) keep(row.frame);
    const frames = [...found.values()].sort((a, b) => a.startUs - b.startUs || a.seq - b.seq);
    return Buffer.concat(frames.map((frame) => frame.bytes));
  }

  /** Whether any frame of the device (any channel) starting in [fromUs, toUs) is stored. */
  async hasFrames(serial: string, fromUs: number, toUs: number): Promise<boolean> {
    const { rows } = await this.#database.query<{ found: boolean }>(
      `select exists (select 1 from signal_frames_pending where serial = $1 and ${pendingRowOverlaps(2, 3)})
           or exists (select 1 from signal_chunks where serial = $1 and minute >= $4::timestamptz and minute < $5::timestamptz) as found`,
      [serial, fromUs, toUs, new Date(Math.floor(fromUs / MINUTE_US) * 60_000).toISOString(), new Date(Math.ceil(toUs / 1000)).toISOString()],
    );
    return rows[0]?.found === true;
  }

  /**
   * Retention: deletes stored frames older than `days` (a staging row once its last frame is).
   * Returns the chunk and staging rows deleted. In batches, so that a backlog after a long stop
   * neither reaches the statement timeout nor holds the (on PGlite, only) connection for long.
   */
  async deleteOlderThan(days: number, nowMs = Date.now()): Promise<{ chunks: number; pending: number }> {
    const cutoffMs = nowMs - days * 86_400_000;
    const inBatches = async (table: string, condition: string, value: unknown): Promise<number> => {
      let deleted = 0;
      for (;;) {
        const { rowCount } = await this.#database.query(
          `delete from ${table} where ctid in (select ctid from ${table} where ${condition} limit ${RETENTION_BATCH_ROWS})`,
          [value],
        );
        deleted += rowCount ?? 0;
        if ((rowCount ?? 0) < RETENTION_BATCH_ROWS) return deleted;
      }
    };
    const chunks = await inBatches('signal_chunks', 'minute < $1::timestamptz', new Date(cutoffMs).toISOString());
    // start_us < cutoff follows from the last frame's, and lets the time index find the rows.
    const pending = await inBatches('signal_frames_pending', 'start_us < $1 and coalesce(last_start_us, start_us) < $1', cutoffMs * 1000);
    return { chunks, pending };
  }
}

/** One device, channel and minute of frames, gzip-compressed (a row of `signal_chunks`). */
export interface StoredChunk {
  serial: string;
  channel: string;
  minuteUs: number;
  /** The minute's frames concatenated in time order, gzip-compressed. */
  frames: Uint8Array;
  frameCount: number;
  firstSeq: number;
  lastSeq: number;
  domainId: string | null;
  rootDomainId: string | null;
}

/** A row of the staging table: a device's frames of one channel and minute from one write. */
interface PendingRow {
  id: string;
  serial: string;
  channel: string;
  frame_count: number;
  /** The row's frames, concatenated. */
  frame: Uint8Array;
  domain_id: string | null;
  root_domain_id: string | null;
}

interface StagingRow {
  frames: PendingFrame[];
  startUs: number;
  lastStartUs: number;
}

/** frames[from, to) as staging rows: one per device, channel, minute and domain, in order of first arrival. */
function rowsOf(frames: readonly PendingFrame[], from: number, to: number): StagingRow[] {
  const rows: StagingRow[] = [];
  const byKey = new Map<string, StagingRow>();
  for (let i = from; i < to; i++) {
    const frame = frames[i]!;
    // The domains too: a device moved to another facility between two of its messages keeps each frame's own.
    const key = `${frame.serial}\u0000${frame.channel}\u0000${Math.floor(frame.startTimeUs / MINUTE_US)}\u0000${frame.domainId}\u0000${frame.rootDomainId}`;
    const row = byKey.get(key);
    if (row === undefined) {
      const created = { frames: [frame], startUs: frame.startTimeUs, lastStartUs: frame.startTimeUs };
      byKey.set(key, created);
      rows.push(created);
    } else {
      row.frames.push(frame);
      if (frame.startTimeUs < row.startUs) row.startUs = frame.startTimeUs;
      if (frame.startTimeUs > row.lastStartUs) row.lastStartUs = frame.startTimeUs;
    }
  }
  return rows;
}

/** Pending rows as chunks: one gzip member per device, channel and minute, frames in time order. */
async function chunksOf(rows: readonly PendingRow[]): Promise<StoredChunk[]> {
  interface Group {
    serial: string;
    channel: string;
    minuteUs: number;
    frames: { startUs: number; seq: number; bytes: Uint8Array }[];
    domainId: string | null;
    rootDomainId: string | null;
  }
  const groups = new Map<string, Group>();
  for (const row of rows) {
    for (const { header, bytes } of splitFrames(row.frame)) {
      const startUs = header.startTimeUs;
      const minuteUs = Math.floor(startUs / MINUTE_US) * MINUTE_US;
      const key = `${row.serial}\u0000${row.channel}\u0000${minuteUs}`;
      let group = groups.get(key);
      if (group === undefined) {
        group = { serial: row.serial, channel: row.channel, minuteUs, frames: [], domainId: row.domain_id, rootDomainId: row.root_domain_id };
        groups.set(key, group);
      }
      group.frames.push({ startUs, seq: header.sequence, bytes });
    }
  }
  return Promise.all(
    [...groups.values()].map(async (group) => {
      group.frames.sort((a, b) => a.startUs - b.startUs || a.seq - b.seq);
      const seqs = group.frames.map((frame) => frame.seq);
      return {
        serial: group.serial,
        channel: group.channel,
        minuteUs: group.minuteUs,
        frames: await gzip(Buffer.concat(group.frames.map((frame) => frame.bytes))),
        frameCount: group.frames.length,
        firstSeq: Math.min(...seqs),
        lastSeq: Math.max(...seqs),
        domainId: group.domainId,
        rootDomainId: group.rootDomainId,
      };
    }),
  );
}

/** Inserts chunks; a chunk already there gets the frames appended as another gzip member. */
async function upsertChunks(tx: Queryable, chunks: readonly StoredChunk[]): Promise<void> {
  for (let i = 0; i < chunks.length; i += 500) {
    const params: unknown[] = [];
    const values: string[] = [];
    for (const chunk of chunks.slice(i, i + 500)) {
      const n = params.length;
      values.push(`($${n + 1}, $${n + 2}, $${n + 3}::timestamptz, $${n + 4}, $${n + 5}, $${n + 6}, $${n + 7}, $${n + 8}, $${n + 9})`);
      params.push(
        chunk.serial,
        chunk.channel,
        new Date(chunk.minuteUs / 1000).toISOString(),
        chunk.frames,
        chunk.frameCount,
        chunk.firstSeq,
        chunk.lastSeq,
        chunk.domainId,
        chunk.rootDomainId,
      );
    }
    await tx.query(
      `insert into signal_chunks (serial, channel, minute, frames, frame_count, first_seq, last_seq, domain_id, root_domain_id)
       values ${values.join(', ')}
       on conflict (serial, channel, minute) do update set
         frames = signal_chunks.frames || excluded.frames,
         frame_count = signal_chunks.frame_count + excluded.frame_count,
         first_seq = least(signal_chunks.first_seq, excluded.first_seq),
         last_seq = greatest(signal_chunks.last_seq, excluded.last_seq),
         domain_id = excluded.domain_id,
         root_domain_id = excluded.root_domain_id,
         updated_at = now()`,
      params,
    );
  }
}
