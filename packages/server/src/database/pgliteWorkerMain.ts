/**
 * The embedded database's thread: PGlite runs here, so that its work (it runs synchronously, as
 * WebAssembly) never holds up the server's event loop. One request at a time comes from pglite.ts,
 * which already decides whose turn the one connection is.
 */
import { rename, writeFile } from 'node:fs/promises';
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite, types } from '@electric-sql/pglite';
import { tableSums } from '../backup/tableSums.ts';
import { errorFields, type PgliteReply, type PgliteRequest, type PgliteWorkerData } from './pgliteProtocol.ts';

/**
 * A bytea parameter goes to PostgreSQL in binary: PGlite's bind message sends a parameter its
 * serializer returns as bytes in the binary format, which PostgreSQL takes as it is. Its own
 * serializer makes hex text instead, byte by byte in JavaScript (about 0.5 µs a byte: 300 ms for the
 * 550 kB of one staging write of 1,000 ECG frames), which PostgreSQL then parses back; base64 text
 * decoded in SQL, the staging write's way until 2026-12-07, still cost 8 µs a frame of UTF-8
 * length counting and copying on this thread (bench:ingest).
 */
function byteaParameter(value: Uint8Array): Uint8Array {
  if (!(value instanceof Uint8Array)) throw new Error('Invalid input for bytea type');
  return value;
}

/** Results still come as text, where bytea's form is hex: Node's hex codec reads it in native code. */
function hexToBytea(value: string): Uint8Array {
  // Its own ArrayBuffer (not a slice of Node's shared pool): the reply to the server's thread copies the whole buffer.
  const bytes = new Uint8Array((value.length - 2) / 2);
  Buffer.from(bytes.buffer).write(value.slice(2), 'hex');
  return bytes;
}

/** Parsers that make PGlite return what node-postgres returns (see database.ts). */
const PARSERS = {
  [types.INT8]: (value: string) => value,
  [types.DATE]: (value: string) => value,
  [types.BYTEA]: hexToBytea,
};
// PGlite's type says a serializer returns a string; its bind message takes bytes too (above), and
// database.test.ts checks every byte value round-trips.
const SERIALIZERS = { [types.BYTEA]: byteaParameter as unknown as (value: unknown) => string };

const port = parentPort;
if (port === null) throw new Error('pgliteWorkerMain.ts runs as a worker thread');
const { dataDir } = workerData as PgliteWorkerData;

const reply = (message: PgliteReply): void => port.postMessage(message);
const unlisteners = new Map<number, () => Promise<void>>();

let pglite: PGlite;
try {
  pglite = await PGlite.create(dataDir ?? 'memory://', { parsers: PARSERS, serializers: SERIALIZERS });
  reply({ id: 0, ok: true, value: null });
} catch (error) {
  reply({ id: 0, ok: false, error: errorFields(error) });
  process.exit(1);
}

async function answer(request: PgliteRequest): Promise<unknown> {
  switch (request.op) {
    case 'query': {
      const { rows, rowCount } = await pglite.query(request.sql, request.params);
      return { rows, rowCount: rowCount ?? null };
    }
    case 'exec':
      await pglite.exec(request.sql);
      return null;
    case 'checkpoint': {
      const started = performance.now();
      await pglite.exec('checkpoint');
      return performance.now() - started;
    }
    case 'inTransaction':
      return !pglite.closed && pglite.isInTransaction();
    case 'listen': {
      const unlisten = await pglite.listen(request.channel, (payload) => reply({ notify: request.listener, payload }));
      unlisteners.set(request.listener, unlisten);
      return null;
    }
    case 'unlisten':
      await unlisteners.get(request.listener)?.();
      unlisteners.delete(request.listener);
      return null;
    case 'close':
      if (!pglite.closed) await pglite.close();
      return null;
    case 'dump': {
      // Summed and copied in one request: nothing else runs on this thread in between, so the sums
      // describe exactly the copy. Written beside its place and renamed: never half a file under its name.
      const tables = await tableSums((sql) => pglite.query<Record<string, unknown>>(sql), { checksums: request.checksums });
      const dump = await pglite.dumpDataDir('gzip');
      const partial = `${request.path}.partial`;
      await writeFile(partial, new Uint8Array(await dump.arrayBuffer()));
      await rename(partial, request.path);
      return { bytes: dump.size, tables };
    }
  }
}

port.on('message', (request: PgliteRequest) => {
  answer(request).then(
    (value) => reply({ id: request.id, ok: true, value }),
    (error: unknown) => reply({ id: request.id, ok: false, error: errorFields(error) }),
  );
});
