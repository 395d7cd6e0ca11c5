/**
 * A bench's view into another Node process's V8 through the inspector protocol (the process started
 * with `--inspect=127.0.0.1:0`): a full garbage collection followed by the heap in use — the heap
 * that survives, which is what grows when something leaks; a reading between collections says as
 * much about the collector's timing as about the program — and heap snapshots written to a file.
 * Only benches use it: the server is never started with the inspector open.
 */
import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import WebSocket from 'ws';

/** The `ws://…` address a process started with --inspect prints on its standard error. */
export function inspectorUrlIn(stderrText: string): string | undefined {
  return /Debugger listening on (ws:\/\/\S+)/.exec(stderrText)?.[1];
}

interface Reply {
  id?: number;
  method?: string;
  params?: Record<string, unknown>;
  result?: Record<string, unknown>;
  error?: { message: string };
}

export class InspectorSession {
  readonly #socket: WebSocket;
  #nextId = 1;
  readonly #waiting = new Map<number, { resolve(result: Record<string, unknown>): void; reject(error: Error): void }>();
  #onEvent: ((method: string, params: Record<string, unknown>) => void) | null = null;

  private constructor(socket: WebSocket) {
    this.#socket = socket;
    socket.on('message', (data: Buffer) => {
      const message = JSON.parse(data.toString('utf8')) as Reply;
      if (message.id !== undefined) {
        const waiting = this.#waiting.get(message.id);
        this.#waiting.delete(message.id);
        if (message.error !== undefined) waiting?.reject(new Error(`inspector: ${message.error.message}`));
        else waiting?.resolve(message.result ?? {});
      } else if (message.method !== undefined) this.#onEvent?.(message.method, message.params ?? {});
    });
    socket.on('close', () => {
      for (const waiting of this.#waiting.values()) waiting.reject(new Error('inspector: the connection closed'));
      this.#waiting.clear();
    });
  }

  static async connect(url: string): Promise<InspectorSession> {
    // Snapshot chunks of a large heap come as large messages.
    const socket = new WebSocket(url, { maxPayload: 1024 * 1024 * 1024 });
    await once(socket, 'open');
    return new InspectorSession(socket);
  }

  send(method: string, params: Record<string, unknown> = {}): Promise<Record<string, unknown>> {
    const id = this.#nextId++;
    return new Promise((resolve, reject) => {
      this.#waiting.set(id, { resolve, reject });
      this.#socket.send(JSON.stringify({ id, method, params }));
    });
  }

  /** Bytes of the main thread's JavaScript heap in use right after a full collection. */
  async heapAfterGc(): Promise<number> {
    await this.send('HeapProfiler.collectGarbage');
    const usage = await this.send('Runtime.getHeapUsage');
    return Number(usage.usedSize);
  }

  /** Writes a heap snapshot (taken after a full collection, as V8 always does) to `path`. */
  async heapSnapshot(path: string): Promise<void> {
    const file = createWriteStream(path);
    this.#onEvent = (method, params) => {
      if (method === 'HeapProfiler.addHeapSnapshotChunk') file.write(String(params.chunk));
    };
    try {
      await this.send('HeapProfiler.takeHeapSnapshot', { reportProgress: false });
    } finally {
      this.#onEvent = null;
      file.end();
      await once(file, 'close');
    }
  }

  close(): void {
    this.#socket.close();
  }
}
