/**
 * The live pipeline of device frames (PRODUCT.md section 8): a message (MQTT or HTTP) from an
 * authenticated device → decoded and validated by the WebAssembly parser → each frame kept in the
 * device channel's 60-second ring → pushed to live subscribers → appended to storage; the caller
 * acknowledges the message once `durable` resolves. The device's online status follows its frames.
 *
 * A message is accepted or rejected as a whole (the parser's rule): a rejected one is counted, logged
 * (at most every few seconds per device) and reported to the caller, and never stops the pipeline.
 * Everything up to `durable` happens synchronously, so frames keep the order in which messages arrive.
 */
import { createParserSync } from '@nemuri/parser/node';
import type { Parser } from '@nemuri/parser/parser';
import { ParseError } from '@nemuri/parser/errors';
import type { SmfSampleChannel, SmfSampleFrame } from '@nemuri/parser/smf';
import type { Database } from '../database/database.ts';
import { DocumentStore } from '../documents/store.ts';
import { LiveHub } from '../signals/liveHub.ts';
import { FrameRing } from '../signals/ringBuffer.ts';
import { SignalStore, type PendingFrame } from '../signals/signalStore.ts';
import { DeviceRegistry, type KnownDevice } from './deviceRegistry.ts';
import { DeviceStatusTracker } from './deviceStatus.ts';

export interface PipelineLogger {
  info(object: object, message: string): void;
  warn(object: object, message: string): void;
  error(object: object, message: string): void;
}

export interface IngestPipelineOptions {
  database: Database;
  log: PipelineLogger;
  /** SIGNAL_RETENTION_DAYS. Default 30. */
  retentionDays?: number;
  /** Compaction period. Default 10 s. */
  compactEveryMs?: number;
  /** Staging flush period (see SignalStore). Default 100 ms. */
  flushIntervalMs?: number;
}

export interface IngestStats {
  messages: number;
  frames: number;
  bytes: number;
  /** Messages the parser rejected (nothing of them was kept). */
  rejectedMessages: number;
  /** Messages whose staging write failed (they were not acknowledged). */
  storageErrors: number;
  /** Attempts again at a message whose device lookup or write had failed (external broker). */
  retriedMessages: number;
}

/**
 * Where a message's frames go; both by default. With a shared MQTT subscription (several server
 * processes) the frames a process receives for storage and those it receives for its live subscribers
 * come separately (broker.ts).
 */
export interface IngestRoutes {
  /** To the ring buffer and the device's live subscribers (browsers). */
  live?: boolean;
  /** To the subscribers of every device (the room-state estimator). */
  allDevices?: boolean;
  /** To storage (`durable` waits for it). */
  store?: boolean;
}

export interface IngestResult {
  /** Sample frames kept (a multi frame counts its nested frames). */
  frames: number;
  /** Resolves when the frames are committed to the database. */
  durable: Promise<void>;
}

const MINUTE_MS = 60_000;
const HOUR_MS = 3_600_000;
/** Often, so that the devices' spread-out lastSeenAt writes go a few at a time. */
const STATUS_EVERY_MS = 1_000;
/** Compact a minute once it has been over this long (frames of a second arrive after it ends). */
const COMPACT_GRACE_MS = 10_000;
const LOG_EVERY_MS = 10_000;

export class IngestPipeline {
  readonly database: Database;
  readonly registry: DeviceRegistry;
  readonly documents: DocumentStore;
  readonly hub = new LiveHub();
  readonly store: SignalStore;
  readonly status: DeviceStatusTracker;
  readonly stats: IngestStats = { messages: 0, frames: 0, bytes: 0, rejectedMessages: 0, storageErrors: 0, retriedMessages: 0 };
  readonly #log: PipelineLogger;
  readonly #retentionDays: number;
  readonly #compactEveryMs: number;
  readonly #rings = new Map<string, Map<SmfSampleChannel, FrameRing>>();
  readonly #loggedAt = new Map<string, number>();
  readonly #reportedWrites = new WeakSet<Promise<void>>();
  readonly #timers: NodeJS.Timeout[] = [];
  #parser: Parser | undefined;
  /** Channels whose frames are stored; null: all. */
  #storedChannels: ReadonlySet<string> | null = null;
  #stopped: Promise<void> | undefined;

  constructor(options: IngestPipelineOptions) {
    this.database = options.database;
    this.#log = options.log;
    this.#retentionDays = options.retentionDays ?? 30;
    this.#compactEveryMs = options.compactEveryMs ?? 10_000;
    this.registry = new DeviceRegistry(options.database);
    this.documents = new DocumentStore(options.database, options.log);
    this.store = new SignalStore(options.database, options.flushIntervalMs === undefined ? {} : { flushIntervalMs: options.flushIntervalMs });
    this.status = new DeviceStatusTracker(this.documents, (event) => this.hub.status(event), options.log);
  }

  get #decoder(): Parser {
    // Loaded on first use: building the app (tests, tools) must not need the .wasm file.
    this.#parser ??= createParserSync();
    return this.#parser;
  }

  /** Stores only these channels' frames from now on (the others stay live only); null: all. */
  storeChannels(channels: readonly string[] | null): void {
    this.#storedChannels = channels === null ? null : new Set(channels);
  }

  /** Loads the parser now, so that a missing WebAssembly module is reported at start (and logged, not thrown). */
  warmUp(): void {
    try {
      void this.#decoder;
    } catch (error) {
      this.#log.error({ err: error }, `device frames cannot be decoded: ${(error as Error).message}`);
    }
  }

  /** Base64 text (HTTP ingest as text/plain) to bytes; a ParseError (`invalid-base64`) when invalid. */
  decodeBase64(text: string): Uint8Array {
    try {
      return this.#decoder.decodeBase64(text);
    } catch (error) {
      this.stats.rejectedMessages++;
      throw error;
    }
  }

  /**
   * Takes one message of a device: an SMF stream. Throws the parser's ParseError when the message is
   * rejected (nothing of it is kept).
   */
  ingest(device: KnownDevice, message: Uint8Array, nowMs = Date.now(), { live = true, allDevices = true, store = true }: IngestRoutes = {}): IngestResult {
    this.stats.messages++;
    let decoded;
    try {
      // copy: false: only headers are read here, and before the next call on this parser.
      decoded = this.#decoder.decodeSmfStream(message, { copy: false });
    } catch (error) {
      this.stats.rejectedMessages++;
      if (error instanceof ParseError) {
        this.#logRejected(device.serial, error, nowMs);
        throw error;
      }
      this.#log.error({ serial: device.serial, err: error }, 'frame decoding failed unexpectedly');
      throw error;
    }
    const pending: PendingFrame[] = [];
    let kept = 0;
    const keep = (frame: SmfSampleFrame): void => {
      const bytes = message.subarray(frame.byteOffset, frame.byteOffset + frame.byteLength);
      if (live) {
        this.#ring(device.serial, frame.channel).push(bytes, frame.startTimeUs);
        this.hub.frameToWatchers(device.serial, frame.channel, bytes);
      }
      if (allDevices) this.hub.frameToAll(device.serial, frame.channel, bytes);
      kept++;
      if (this.#storedChannels !== null && !this.#storedChannels.has(frame.channel)) return;
      pending.push({
        serial: device.serial,
        channel: frame.channel,
        startTimeUs: frame.startTimeUs,
        sequence: frame.sequence,
        bytes,
        domainId: device.domainId,
        rootDomainId: device.rootDomainId,
      });
    };
    for (const frame of decoded) {
      if (frame.channel === 'multi') for (const nested of frame.frames) keep(nested);
      else keep(frame);
    }
    this.stats.frames += kept;
    this.stats.bytes += message.byteLength;
    this.status.seen(device.serial, nowMs);
    if (pending.length === 0 || !store) return { frames: kept, durable: Promise.resolve() };
    const durable = this.store.append(pending);
    durable.catch((error: unknown) => {
      this.stats.storageErrors++;
      // One write carries many messages: one log line for it.
      if (this.#reportedWrites.has(durable)) return;
      this.#reportedWrites.add(durable);
      this.#log.error({ serial: device.serial, err: error }, 'frames could not be stored: not acknowledged');
    });
    return { frames: kept, durable };
  }

  #ring(serial: string, channel: SmfSampleChannel): FrameRing {
    let channels = this.#rings.get(serial);
    if (channels === undefined) this.#rings.set(serial, (channels = new Map()));
    let ring = channels.get(channel);
    if (ring === undefined) channels.set(channel, (ring = new FrameRing()));
    return ring;
  }

  /**
   * The device's frames of the last `seconds` (by the newest frame's time) of the given channels,
   * oldest first: what a new live subscriber gets first.
   */
  recent(serial: string, channels: readonly SmfSampleChannel[] | null, seconds: number): Uint8Array[] {
    const rings = this.#rings.get(serial);
    if (rings === undefined) return [];
    const picked = [...rings].filter(([channel]) => channels === null || channels.includes(channel));
    const newest = Math.max(...picked.map(([, ring]) => ring.newestStartUs).filter((value) => !Number.isNaN(value)));
    if (!Number.isFinite(newest)) return [];
    const frames: { startUs: number; bytes: Uint8Array }[] = [];
    for (const [, ring] of picked) {
      for (const bytes of ring.since(newest - seconds * 1_000_000)) {
        frames.push({ startUs: Number(new DataView(bytes.buffer, bytes.byteOffset + 16, 8).getBigInt64(0, true)), bytes });
      }
    }
    return frames.sort((a, b) => a.startUs - b.startUs).map((frame) => frame.bytes);
  }

  #logRejected(serial: string, error: ParseError, nowMs: number): void {
    const last = this.#loggedAt.get(serial) ?? 0;
    if (nowMs - last < LOG_EVERY_MS) return;
    this.#loggedAt.set(serial, nowMs);
    this.#log.warn({ serial, code: error.code, frame: error.frame, offset: error.offset, rejectedMessages: this.stats.rejectedMessages }, `device message rejected: ${error.message}`);
  }

  /** Starts the periodic work: device status, compaction of complete minutes, retention. */
  start(): void {
    const every = (ms: number, work: () => Promise<unknown>, what: string): void => {
      const timer = setInterval(() => {
        work().catch((error: unknown) => this.#log.error({ err: error }, `${what} failed`));
      }, ms);
      timer.unref();
      this.#timers.push(timer);
    };
    every(STATUS_EVERY_MS, () => this.status.tick(), 'device status update');
    let compacting = false;
    every(
      this.#compactEveryMs,
      async () => {
        // A compaction longer than the period is not joined by another.
        if (compacting) return;
        compacting = true;
        try {
          const moved = await this.store.compactAll(this.#compactBefore(), { rowsPerPass: 500, pauseMs: 10 });
          await this.#vacuum('signal_frames_pending', moved);
        } finally {
          compacting = false;
        }
      },
      'signal compaction',
    );
    every(HOUR_MS, () => this.#retention(), 'signal retention');
    const first = setTimeout(() => {
      this.#retention().catch((error: unknown) => this.#log.error({ err: error }, 'signal retention failed'));
    }, MINUTE_MS);
    first.unref();
    this.#timers.push(first);
  }

  #compactBefore(nowMs = Date.now()): number {
    return Math.floor((nowMs - COMPACT_GRACE_MS) / MINUTE_MS) * MINUTE_MS * 1000;
  }

  /**
   * PGlite runs no autovacuum (PostgreSQL does): without it every staged and deleted frame would stay
   * in the file. A plain VACUUM makes the space reusable without locking writers out (milliseconds).
   */
  async #vacuum(table: 'signal_frames_pending' | 'signal_chunks', deletedRows: number): Promise<void> {
    if (this.database.kind !== 'pglite' || deletedRows === 0) return;
    await this.database.query(`vacuum ${table}`);
  }

  async #retention(): Promise<void> {
    const deleted = await this.store.deleteOlderThan(this.#retentionDays);
    await this.#vacuum('signal_chunks', deleted.chunks);
    await this.#vacuum('signal_frames_pending', deleted.pending);
    if (deleted.chunks + deleted.pending > 0) this.#log.info({ ...deleted, retentionDays: this.#retentionDays }, 'old signals deleted');
  }

  /** Stops the periodic work only (a start that failed). */
  stopTimers(): void {
    for (const timer of this.#timers) clearInterval(timer);
    this.#timers.length = 0;
  }

  /**
   * Stops the periodic work and writes what is held: queued frames, then every pending frame into
   * chunks, then the devices' lastSeenAt. Call after the broker and HTTP ingest have stopped.
   */
  stop(): Promise<void> {
    this.#stopped ??= (async () => {
      this.stopTimers();
      // Failures are logged, not thrown: the server must still stop, and nothing acknowledged is lost
      // (staged frames are compacted at the next start; unstaged ones were never acknowledged).
      try {
        await this.store.flush();
        await this.store.compactAll(Number.MAX_SAFE_INTEGER);
        await this.status.flush();
      } catch (error) {
        this.#log.error({ err: error }, 'signals could not be compacted at shutdown: the staged frames are compacted after the next start');
      }
    })();
    return this.#stopped;
  }
}
