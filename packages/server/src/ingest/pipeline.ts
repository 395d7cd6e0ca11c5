/**
 * The live pipeline of device frames (PRODUCT.md section 8): a message (MQTT or HTTP) from an
 * authenticated device → decoded and validated by the WebAssembly parser → each frame kept in the
 * device channel's 60-second ring → pushed to live subscribers → appended to storage; the caller
 * acknowledges the message once `durable` resolves. The device's online status follows its frames.
 * The pipeline decodes and routes only: the rings, the live hub and the storage are the `signals`
 * service's (signals/signalServices.ts); the device records, secrets and online status the
 * `devices` service's (devices/deviceServices.ts), which the broker and HTTP ingest authenticate with.
 *
 * A message is accepted or rejected as a whole (the parser's rule): a rejected one is counted, logged
 * (at most every few seconds per device) and reported to the caller, and never stops the pipeline.
 * Everything up to `durable` happens synchronously, so frames keep the order in which messages arrive.
 */
import { createParserSync } from '@nemuri/parser/node';
import type { Parser } from '@nemuri/parser/parser';
import { ParseError } from '@nemuri/parser/errors';
import type { SmfSampleChannel, SmfSampleFrame } from '@nemuri/parser/smf';
import type { KnownDevice } from '../devices/deviceRegistry.ts';
import type { DeviceStatusTracker } from '../devices/deviceStatus.ts';
import type { FrameRings } from '../signals/frameRings.ts';
import type { LiveHub } from '../signals/liveHub.ts';
import type { FrameRing } from '../signals/ringBuffer.ts';
import type { SignalServices } from '../signals/signalServices.ts';
import type { PendingFrame, SignalStore } from '../signals/signalStore.ts';
import { StorageBacklog, type StorageBounds } from './storageBacklog.ts';
import { withDeadline } from '../support/withDeadline.ts';

export interface PipelineLogger {
  info(object: object, message: string): void;
  warn(object: object, message: string): void;
  error(object: object, message: string): void;
}

export interface IngestPipelineOptions {
  /** Told of every device whose frames arrive: the `devices` service's online status. */
  status: DeviceStatusTracker;
  /** Where frames go: storage, rings and live subscribers. */
  signals: SignalServices;
  log: PipelineLogger;
  /** When storage counts as stalled (readiness); STORAGE_BOUNDS unless given (tests). */
  storageBounds?: Partial<StorageBounds>;
  /** IN_FLIGHT_LIMIT_MS unless given (tests). */
  inFlightLimitMs?: number;
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
  /** Messages dropped because the retry backlog was full on a clean session (external broker). */
  droppedMessages: number;
  /**
   * Frames not handed to storage again because a staging write carrying them was queued or under way
   * (a retry or a redelivery of a message whose first write had not settled): they wait for that write.
   */
  joinedFrames: number;
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
  /** Resolves when the frames are committed to the database; fails past the in-flight limit. */
  durable: Promise<void>;
  /**
   * The writes themselves, without the in-flight limit: settles when every write carrying the
   * message's frames has. A caller that retries on its own (the external broker) waits for this
   * rather than handing the message to storage again while its first write is under way.
   */
  stored: Promise<void>;
}

/** Often, so that the devices' spread-out lastSeenAt writes go a few at a time. */
const STATUS_EVERY_MS = 1_000;
const LOG_EVERY_MS = 10_000;
/** The longest a message waits for its frames' commit before the caller is told it failed. */
export const IN_FLIGHT_LIMIT_MS = 30_000;

/** One staging write as the messages in it see it. */
interface Commit {
  /** Its commit, or the in-flight limit's failure. */
  durable: Promise<void>;
  /** Messages whose frames it carries. */
  messages: number;
  /** The keys of its frames in the in-flight set, removed when the write settles. */
  keys: string[];
}

const SETTLED = Promise.resolve();

/** What identifies a frame (the read removes duplicates by the same fields: signalStore.ts). */
function frameKey(serial: string, channel: string, startTimeUs: number, sequence: number): string {
  return `${serial}/${channel}/${startTimeUs}/${sequence}`;
}

export class IngestPipeline {
  /** Frames on their way to storage and when writes last succeeded: readiness and /metrics. */
  readonly backlog: StorageBacklog;
  readonly stats: IngestStats = {
    messages: 0,
    frames: 0,
    bytes: 0,
    rejectedMessages: 0,
    storageErrors: 0,
    retriedMessages: 0,
    droppedMessages: 0,
    joinedFrames: 0,
  };
  readonly #status: DeviceStatusTracker;
  readonly #hub: LiveHub;
  readonly #store: SignalStore;
  readonly #log: PipelineLogger;
  readonly #inFlightLimitMs: number;
  readonly #rings: FrameRings;
  readonly #loggedAt = new Map<string, number>();
  /** The staging write each message's frames went to (SignalStore batches them). */
  readonly #commits = new WeakMap<Promise<void>, Commit>();
  /**
   * The frames queued for or in a staging write, by key, and that write: a copy of one of them (a
   * message tried again after the in-flight limit, a QoS 1 message the broker delivers again, an HTTP
   * request repeated) joins that write instead of being written again. Without it, a slow database
   * is sent every message again each time the limit passes, and slows further (issue 24: 1.06 M rows
   * for 90,000 frames). At most the storage backlog's bound of frames; past it, frames are written
   * without an entry (a copy is then a duplicate, removed on read).
   */
  readonly #inFlight = new Map<string, Promise<void>>();
  readonly #timers: NodeJS.Timeout[] = [];
  #parser: Parser | undefined;
  /** Channels whose frames are stored; null: all. */
  #storedChannels: ReadonlySet<string> | null = null;
  #stopped: Promise<void> | undefined;

  constructor(options: IngestPipelineOptions) {
    this.#log = options.log;
    this.#inFlightLimitMs = options.inFlightLimitMs ?? IN_FLIGHT_LIMIT_MS;
    this.backlog = new StorageBacklog(options.storageBounds);
    this.#store = options.signals.store;
    this.#hub = options.signals.hub;
    this.#rings = options.signals.rings;
    this.#status = options.status;
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
    const keys: string[] = [];
    /** Writes under way that already carry some of these frames. */
    const joined = new Set<Promise<void>>();
    let pendingBytes = 0;
    let kept = 0;
    const keep = (frame: SmfSampleFrame): void => {
      const bytes = message.subarray(frame.byteOffset, frame.byteOffset + frame.byteLength);
      if (live) {
        this.#ring(device.serial, frame.channel).push(bytes, frame.startTimeUs);
        this.#hub.frameToWatchers(device.serial, frame.channel, bytes);
      }
      if (allDevices) this.#hub.frameToAll(device.serial, frame.channel, bytes);
      kept++;
      if (!store || (this.#storedChannels !== null && !this.#storedChannels.has(frame.channel))) return;
      const key = frameKey(device.serial, frame.channel, frame.startTimeUs, frame.sequence);
      const carrying = this.#inFlight.get(key);
      if (carrying !== undefined) {
        joined.add(carrying);
        this.stats.joinedFrames++;
        return;
      }
      keys.push(key);
      pendingBytes += bytes.byteLength;
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
    this.#status.seen(device.serial, nowMs);
    let commit: Commit | undefined;
    if (pending.length > 0) {
      const stored = this.#store.append(pending);
      this.backlog.track(pending.length, pendingBytes, stored);
      // Every message of one staging write shares its commit, and so its watchdog and failure report:
      // one timer and one log line per write instead of per message (9,000 messages/s at 3,000 devices).
      commit = this.#commits.get(stored) ?? this.#watch(stored, device.serial);
      this.#remember(commit, stored, keys);
      joined.add(stored);
    }
    if (joined.size === 0) return { frames: kept, durable: SETTLED, stored: SETTLED };
    if (joined.size === 1 && commit !== undefined) {
      commit.messages++;
      return { frames: kept, durable: commit.durable, stored: [...joined][0]! };
    }
    return { frames: kept, ...this.#join(joined) };
  }

  /** Enters a write's new frames in the in-flight set, as far as its bound allows. */
  #remember(commit: Commit, stored: Promise<void>, keys: readonly string[]): void {
    const room = Math.max(0, this.backlog.bounds.maxBacklogFrames - this.#inFlight.size);
    const entered = keys.length <= room ? keys : keys.slice(0, room);
    for (const key of entered) {
      this.#inFlight.set(key, stored);
      commit.keys.push(key);
    }
  }

  /**
   * A message some of whose frames are in writes already under way: it is stored when all of them
   * are. Its own in-flight limit counts from now (the write it joined may have passed its own), and
   * its failure is counted here but logged by the writes' watchdogs, once per write.
   */
  #join(writes: ReadonlySet<Promise<void>>): { durable: Promise<void>; stored: Promise<void> } {
    const stored = Promise.all(writes).then(() => undefined);
    const durable = withDeadline(stored, this.#inFlightLimitMs, `the frames were not stored within ${this.#inFlightLimitMs / 1000} s`);
    durable.catch(() => {
      this.stats.storageErrors++;
    });
    return { durable, stored };
  }

  /**
   * The in-flight watchdog of one staging write: a write that hangs (a database that stopped answering
   * without closing the connection) must not keep the devices waiting for their acknowledgement
   * forever. Past the limit the callers are told it failed, so the devices send again; what they send
   * again joins the write still under way (the in-flight set) rather than being written a second time,
   * and the write's settling, success or failure, frees its frames' entries. It counts from the
   * write's first message: a message that joined the write later (while the previous write was under
   * way) is given up that much sooner, which only makes its device send it again sooner.
   */
  #watch(stored: Promise<void>, serial: string): Commit {
    const commit: Commit = {
      durable: withDeadline(stored, this.#inFlightLimitMs, `the frames were not stored within ${this.#inFlightLimitMs / 1000} s`),
      messages: 0,
      keys: [],
    };
    this.#commits.set(stored, commit);
    commit.durable.catch((error: unknown) => {
      this.stats.storageErrors += commit.messages;
      this.#log.error({ serial, messages: commit.messages, err: error }, 'frames could not be stored: not acknowledged');
    });
    const forget = (): void => {
      for (const key of commit.keys) if (this.#inFlight.get(key) === stored) this.#inFlight.delete(key);
    };
    stored.then(forget, forget);
    return commit;
  }

  /** Frames in the in-flight set (tests, /metrics). */
  get inFlightFrames(): number {
    return this.#inFlight.size;
  }

  #ring(serial: string, channel: SmfSampleChannel): FrameRing {
    return this.#rings.ring(serial, channel);
  }

  #logRejected(serial: string, error: ParseError, nowMs: number): void {
    const last = this.#loggedAt.get(serial) ?? 0;
    if (nowMs - last < LOG_EVERY_MS) return;
    this.#loggedAt.set(serial, nowMs);
    this.#log.warn(
      { serial, code: error.code, frame: error.frame, offset: error.offset, rejectedMessages: this.stats.rejectedMessages },
      `device message rejected: ${error.message}`,
    );
  }

  /**
   * Starts the periodic work: device status. (Compaction and retention are the `signals` service's:
   * signals/signalUpkeep.ts.)
   */
  start(): void {
    const timer = setInterval(() => {
      this.#status.tick().catch((error: unknown) => this.#log.error({ err: error }, 'device status update failed'));
    }, STATUS_EVERY_MS);
    timer.unref();
    this.#timers.push(timer);
  }

  /** Stops the periodic work only (a start that failed). */
  stopTimers(): void {
    for (const timer of this.#timers) clearInterval(timer);
    this.#timers.length = 0;
  }

  /**
   * Stops the periodic work and writes what is held: queued frames, then the devices' lastSeenAt.
   * Call after the broker and HTTP ingest have stopped.
   */
  stop(): Promise<void> {
    this.#stopped ??= (async () => {
      this.stopTimers();
      // Failures are logged, not thrown: the server must still stop, and nothing acknowledged is lost
      // (unstaged frames were never acknowledged).
      try {
        await this.#store.flush();
        await this.#status.flush();
      } catch (error) {
        this.#log.error({ err: error }, 'frames or device states could not be written at shutdown (the frames were not acknowledged: devices send them again)');
      }
    })();
    return this.#stopped;
  }
}
