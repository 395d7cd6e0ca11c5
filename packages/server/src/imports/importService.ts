/**
 * Uploads of recordings to a room (`rooms/{roomId}/uploads/{uploadId}`) and their processing: the file
 * is kept on disk, read in a worker thread into sleep days (importRunner.ts), and each day is written to
 * `rooms/{roomId}/sleeps/{day}` with the upload id as its source. The upload record carries the status
 * the history screen shows live: queued → parsing → analyzing → done, or failed with the reason.
 * One file is processed at a time (it is CPU work); uploads interrupted by a restart are picked up again.
 */
import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { SleepRecord } from '@nemuri/analysis/sleep';
import type { Claims } from '@nemuri/shared/documents/access';
import { DocumentError } from '@nemuri/shared/documents/errors';
import {
  detectImportFormat,
  IMPORT_MAX_BYTES,
  serialFromFileName,
  type ImportErrorCode,
  type ImportFormat,
  type UnknownColumnChoice,
} from '@nemuri/shared/imports';
import { ROLE_LEVELS } from '@nemuri/shared/roles';
import { readEveryPage } from '../documents/keysetPage.ts';
import type { DocumentStore } from '../documents/store.ts';
import type { SleepDayRule } from '../sleep/sleepDay.ts';
import { ImportError } from './importError.ts';
import type { ImportJob, ImportSink } from './importRecording.ts';
import type { ImportResult } from './importResult.ts';
import type { RecordingChunk } from './recordingChunks.ts';
import type { StoredChunk } from '../signals/signalStore.ts';
import { keepNights } from './nightRule.ts';
import { withStages, hypnogramField } from './stagedRecord.ts';
import type { UploadFiles } from './uploadFiles.ts';

/** The imports write as the server, for no user, once the caller's right to the room was checked. */
const IMPORTS: Claims = { uid: 'imports', accessLevel: ROLE_LEVELS.systemAdmin, domainId: null, rootDomainId: null };
const UNFINISHED = ['queued', 'parsing', 'analyzing'];

export interface ImportLog {
  info(object: object, message: string): void;
  warn(object: object, message: string): void;
  error(object: object, message: string): void;
}

export interface ImportServiceOptions {
  documents: DocumentStore;
  files: UploadFiles;
  /** The sleep-day rule of a room's domain. */
  sleepDayOf: (domainId: string) => SleepDayRule;
  log: ImportLog;
  /** Runs one import (a worker thread in the server; tests may run it in place). */
  run: (job: ImportJob, sink: ImportSink) => Promise<ImportResult>;
  /** Keeps a recording's raw signals (signals/signalStore.ts storeChunks). */
  storeChunks: (chunks: StoredChunk[]) => Promise<void>;
  maxBytes?: number;
}

export type UploadOutcome =
  { kind: 'created'; uploadId: string; upload: Record<string, unknown> } | { kind: 'duplicate'; uploadId: string; fileName: string; createdAt: string | null };

export class ImportService {
  readonly #documents: DocumentStore;
  readonly #files: UploadFiles;
  readonly #sleepDayOf: (domainId: string) => SleepDayRule;
  readonly #log: ImportLog;
  readonly #run: (job: ImportJob, sink: ImportSink) => Promise<ImportResult>;
  readonly #storeChunks: (chunks: StoredChunk[]) => Promise<void>;
  readonly #maxBytes: number;
  #queue: Promise<unknown> = Promise.resolve();
  #stopped = false;

  constructor(options: ImportServiceOptions) {
    this.#documents = options.documents;
    this.#files = options.files;
    this.#sleepDayOf = options.sleepDayOf;
    this.#log = options.log;
    this.#run = options.run;
    this.#storeChunks = options.storeChunks;
    this.#maxBytes = options.maxBytes ?? IMPORT_MAX_BYTES;
  }

  /** The room, when the caller may upload to it (general staff 2+ with the room in scope); else a DocumentError. */
  async roomFor(claims: Claims, roomId: string, minLevel: number = ROLE_LEVELS.generalStaff): Promise<Record<string, unknown>> {
    if (claims.accessLevel < minLevel) throw new DocumentError('permission-denied', 'Missing or insufficient permissions.');
    // A room of another tenant reads as missing: the answer does not tell which rooms exist.
    const room = await this.#documents.get(claims, `rooms/${roomId}`).catch((error: unknown) => {
      if (error instanceof DocumentError && error.code === 'permission-denied') return null;
      throw error;
    });
    if (room === null) throw new DocumentError('not-found', `No room ${roomId}`);
    return room.document;
  }

  /**
   * Stores a body as an upload of the room and queues it; the same file twice gives the first upload.
   * `unknownColumns` is the uploader's choice for columns the import cannot read (kept with the upload).
   */
  async upload(claims: Claims, roomId: string, fileName: string, body: Readable, unknownColumns: UnknownColumnChoice = 'refuse'): Promise<UploadOutcome> {
    await this.roomFor(claims, roomId);
    const received = await this.#files.receive(body, this.#maxBytes);
    try {
      if (received.size === 0) throw new ImportError('empty-file', 'The file is empty');
      const format = detectImportFormat(received.head, fileName);
      if (format === null)
        throw new ImportError('unsupported-format', 'Not a file that can be imported: SMF recordings, EDF/EDF+/BDF files and per-minute CSV are');
      const [same] = await this.#documents.query(IMPORTS, { collection: `rooms/${roomId}/uploads`, where: [['sha256', '==', received.sha256]], limit: 1 });
      if (same !== undefined) {
        await this.#files.discard(received.tempPath);
        return {
          kind: 'duplicate',
          uploadId: String(same.documentReferenceId),
          fileName: String(same.fileName),
          createdAt: typeof same.createdAt === 'string' ? same.createdAt : null,
        };
      }
      const uploadId = randomUUID();
      const serial = format === 'edf' || format === 'bdf' ? null : serialFromFileName(fileName);
      const upload = await this.#documents.set(
        IMPORTS,
        `rooms/${roomId}/uploads/${uploadId}`,
        {
          fileName,
          size: received.size,
          sha256: received.sha256,
          format,
          uploadedBy: claims.uid,
          status: 'queued',
          unknownColumns,
          ...(serial === null ? {} : { deviceSerial: serial }),
        },
        false,
      );
      await this.#files.keep(received.tempPath, uploadId);
      this.#enqueue(roomId, uploadId);
      return { kind: 'created', uploadId, upload };
    } catch (error) {
      await this.#files.discard(received.tempPath);
      throw error;
    }
  }

  /** Processes an upload again from its stored file (after a fix, a change of the sleep-day boundary, or a new choice for unreadable columns). */
  async reprocess(claims: Claims, roomId: string, uploadId: string, unknownColumns?: UnknownColumnChoice): Promise<void> {
    await this.roomFor(claims, roomId);
    const upload = await this.#documents.get(claims, `rooms/${roomId}/uploads/${uploadId}`);
    if (upload === null) throw new DocumentError('not-found', `No upload ${uploadId}`);
    if (UNFINISHED.includes(String(upload.document.status))) throw new DocumentError('failed-precondition', 'The upload is being processed');
    await this.#documents.update(IMPORTS, `rooms/${roomId}/uploads/${uploadId}`, {
      status: 'queued',
      errorCode: null,
      error: null,
      ...(unknownColumns === undefined ? {} : { unknownColumns }),
    });
    this.#enqueue(roomId, uploadId);
  }

  /** Deletes an upload, its file and the sleep days it made (the caller's level must reach the collection's delete rule). */
  async remove(claims: Claims, roomId: string, uploadId: string): Promise<{ deletedDays: string[] }> {
    await this.roomFor(claims, roomId);
    const path = `rooms/${roomId}/uploads/${uploadId}`;
    const upload = await this.#documents.get(claims, path);
    if (upload === null) throw new DocumentError('not-found', `No upload ${uploadId}`);
    if (['parsing', 'analyzing'].includes(String(upload.document.status))) throw new DocumentError('failed-precondition', 'The upload is being processed');
    // The caller's own rights decide (administrators delete uploads).
    await this.#documents.delete(claims, path);
    const deletedDays = await this.#deleteDaysOf(roomId, uploadId, new Set());
    await this.#files.remove(uploadId);
    return { deletedDays };
  }

  /** Queues the uploads a restart interrupted. */
  async resume(): Promise<number> {
    const unfinished = await readEveryPage(this.#documents, IMPORTS, { collection: 'uploads', collectionGroup: true, where: [['status', 'in', UNFINISHED]] });
    for (const upload of unfinished) {
      const [, roomId] = String(upload.documentPath).split('/');
      if (roomId !== undefined) this.#enqueue(roomId, String(upload.documentReferenceId));
    }
    return unfinished.length;
  }

  /** Waits for the queue to be empty (tests, shutdown). */
  async idle(): Promise<void> {
    for (let queue = this.#queue; ; queue = this.#queue) {
      await queue.catch(() => undefined);
      if (queue === this.#queue) return;
    }
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    await this.idle();
  }

  #enqueue(roomId: string, uploadId: string): void {
    this.#queue = this.#queue
      .then(() => (this.#stopped ? undefined : this.#process(roomId, uploadId)))
      .catch((error: unknown) => this.#log.error({ err: error, roomId, uploadId }, 'import failed unexpectedly'));
  }

  async #process(roomId: string, uploadId: string): Promise<void> {
    const path = `rooms/${roomId}/uploads/${uploadId}`;
    const upload = await this.#documents.get(IMPORTS, path);
    const room = await this.#documents.get(IMPORTS, `rooms/${roomId}`);
    if (upload === null) return;
    const started = Date.now();
    try {
      if (room === null) throw new ImportError('internal', 'The room no longer exists');
      await this.#documents.update(IMPORTS, path, { status: 'parsing' });
      // An SMF recording's raw signals are kept under the room's device (once: reprocessing does not store them again).
      const serial = typeof room.document.deviceSerial === 'string' && room.document.deviceSerial !== '' ? room.document.deviceSerial : null;
      const storeSignals = serial !== null && upload.document.format === 'smf' && upload.document.storedSerial !== serial;
      const chunks: RecordingChunk[] = [];
      const rule = this.#sleepDayOf(String(room.document.domainId));
      const result = await this.#run(
        {
          path: this.#files.pathOf(uploadId),
          format: upload.document.format as ImportFormat,
          rule,
          source: uploadId,
          storeSignals,
          unknownColumns: upload.document.unknownColumns === 'skip' ? 'skip' : 'refuse',
        },
        { chunk: (chunk) => chunks.push(chunk) },
      );
      await this.#documents.update(IMPORTS, path, { status: 'analyzing' });
      if (storeSignals && chunks.length > 0) {
        const domainId = String(room.document.domainId);
        const rootDomainId = typeof room.document.rootDomainId === 'string' ? room.document.rootDomainId : null;
        await this.#storeChunks(chunks.map((chunk) => ({ ...chunk, serial, domainId, rootDomainId })));
      }
      // Too short or outside the night: no sleep day, a warning instead (nightRule.ts).
      const nights = keepNights(result.days, rule.timeZone);
      const days = await this.#writeDays(roomId, uploadId, { ...result, days: nights.days });
      await this.#deleteDaysOf(roomId, uploadId, new Set(days));
      await this.#documents.update(IMPORTS, path, {
        status: 'done',
        errorCode: null,
        error: null,
        recordStart: result.recordStartMs === null ? null : new Date(result.recordStartMs).toISOString(),
        recordEnd: result.recordEndMs === null ? null : new Date(result.recordEndMs).toISOString(),
        channels: result.channels,
        columns: result.columns,
        warnings: nights.warnings,
        sampleCount: result.sampleCount,
        sleepDays: days,
        hasStages: nights.days.some((day) => day.stages.length > 0),
        processedAt: new Date().toISOString(),
        ...(storeSignals && chunks.length > 0 ? { storedSerial: serial } : {}),
        ...(result.deviceSerial === null ? {} : { deviceSerial: result.deviceSerial }),
      });
      this.#log.info({ roomId, uploadId, days: days.length, ms: Date.now() - started }, 'upload imported');
    } catch (error) {
      const code: ImportErrorCode = error instanceof ImportError ? error.code : 'internal';
      const message = error instanceof Error ? error.message : String(error);
      if (code === 'internal') this.#log.error({ err: error, roomId, uploadId }, 'import failed');
      else this.#log.warn({ roomId, uploadId, code, message }, 'upload could not be imported');
      // A refusal lists what each column held, so the history says which column stopped the import.
      const columns = error instanceof ImportError && error.columns !== undefined ? error.columns : null;
      await this.#documents.update(IMPORTS, path, {
        status: 'failed',
        errorCode: code,
        error: message.slice(0, 2000),
        columns,
        warnings: null,
        processedAt: new Date().toISOString(),
      });
    }
  }

  /** Writes the days; a stages-only day on top of a day scored from signals re-scores that record with the stages. */
  async #writeDays(roomId: string, uploadId: string, result: ImportResult): Promise<string[]> {
    const written: string[] = [];
    for (const day of result.days) {
      if (day.record === null) continue;
      const path = `rooms/${roomId}/sleeps/${day.day}`;
      let record: SleepRecord = day.record;
      if (day.stagesOnly === true) {
        const existing = await this.#documents.get(IMPORTS, path);
        const epochs = existing?.document.epochs;
        if (
          existing !== null &&
          existing.document.source !== uploadId &&
          Array.isArray(epochs) &&
          epochs.length > 0 &&
          typeof existing.document.epochStart === 'string'
        ) {
          record = withStages(existing.document as unknown as SleepRecord, day.stages, uploadId);
        }
      }
      const data: Record<string, unknown> = { ...record };
      if (day.stages.length > 0) data.hypnogram = hypnogramField(day.stages);
      await this.#documents.set(IMPORTS, path, data, false);
      written.push(day.day);
    }
    return written;
  }

  /** Deletes the sleep days this upload made that are not in `keep`. */
  async #deleteDaysOf(roomId: string, uploadId: string, keep: ReadonlySet<string>): Promise<string[]> {
    // Every day the upload made, however long the recording: a capped read would leave days behind.
    const made = await readEveryPage(this.#documents, IMPORTS, { collection: `rooms/${roomId}/sleeps`, where: [['source', '==', uploadId]] });
    const deleted: string[] = [];
    for (const record of made) {
      const day = String(record.documentReferenceId);
      if (keep.has(day)) continue;
      await this.#documents.delete(IMPORTS, `rooms/${roomId}/sleeps/${day}`);
      deleted.push(day);
    }
    return deleted;
  }
}
