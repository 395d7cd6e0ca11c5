/**
 * Uploaded files on disk (DATA_DIR/uploads): a body is streamed to a temporary file while its SHA-256
 * and size are counted, never held whole in memory, then kept under its upload id or thrown away.
 */
import { createHash, randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, open, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { IMPORT_SNIFF_BYTES } from '@nemuri/shared/imports';
import { ImportError } from './importError.ts';

export interface ReceivedFile {
  tempPath: string;
  size: number;
  sha256: string;
  /** The first bytes, to tell the format. */
  head: Uint8Array;
}

export class UploadFiles {
  readonly directory: string;

  constructor(directory: string) {
    this.directory = directory;
  }

  pathOf(uploadId: string): string {
    return join(this.directory, uploadId);
  }

  /** Streams a body to a temporary file; over `maxBytes` it stops and throws `too-large`. */
  async receive(body: Readable, maxBytes: number): Promise<ReceivedFile> {
    await mkdir(this.directory, { recursive: true });
    const tempPath = join(this.directory, `.incoming-${randomUUID()}`);
    const hash = createHash('sha256');
    let size = 0;
    const counter = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        size += chunk.length;
        if (size > maxBytes) return done(new ImportError('too-large', `The file is larger than ${Math.round(maxBytes / 1024 ** 2)} MB`));
        hash.update(chunk);
        done(null, chunk);
      },
    });
    try {
      await pipeline(body, counter, createWriteStream(tempPath));
    } catch (error) {
      await rm(tempPath, { force: true });
      throw error;
    }
    const head = new Uint8Array(Math.min(size, IMPORT_SNIFF_BYTES));
    const file = await open(tempPath, 'r');
    try {
      await file.read(head, 0, head.length, 0);
    } finally {
      await file.close();
    }
    return { tempPath, size, sha256: hash.digest('hex'), head };
  }

  async keep(tempPath: string, uploadId: string): Promise<void> {
    await rename(tempPath, this.pathOf(uploadId));
  }

  async discard(path: string): Promise<void> {
    await rm(path, { force: true });
  }

  async remove(uploadId: string): Promise<void> {
    await rm(this.pathOf(uploadId), { force: true });
  }
}
