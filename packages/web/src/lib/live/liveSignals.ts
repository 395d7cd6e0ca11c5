/**
 * Live device signals (WebSocket `/api/signals/live`, docs/api.md "Reading signals"): one socket per
 * page, shared by every view that watches a device. Binary messages (a one-byte serial length, the
 * serial, one SMF frame) are decoded by the WebAssembly parser straight out of the socket's buffer and
 * handed to the device's sinks at once, so no per-frame objects outlive the message. The socket keeps
 * the page's socket rules (liveSocket.ts: back within 2 s of the server, a new socket whenever the
 * signed-in identity changes) and closes when nobody watches.
 */
import type { Parser } from '@nemuri/parser/parser';
import type { SmfSampleFrame } from '@nemuri/parser/smf';
import { useCallback, useSyncExternalStore } from 'react';
import { loadDeviceParser } from '../deviceParser.ts';
import { onIdentityChange } from '../session.ts';
import { browserLiveSocket } from './browserLiveSocket.ts';
import type { LiveSocket } from './liveSocket.ts';

export const LIVE_SIGNALS_PATH = '/api/signals/live';

/** Receives a device's frames. `frame.values` is only valid during the call: copy what you keep. */
export interface SignalSink {
  frame(frame: SmfSampleFrame): void;
}

export interface DeviceLinkStatus {
  /** The socket is open and the server accepted the subscription. */
  connected: boolean;
  /** The device's own state as the server last reported it. */
  online: boolean | null;
  lastSeenAt: string | null;
  /** The server's refusal (`not-found`, `permission-denied`, …) or a decoding failure. */
  error: string | null;
  /** Frames the server dropped because this page did not keep up, and frames that failed to decode. */
  dropped: number;
  /** Frames decoded since the page subscribed. */
  frames: number;
}

const latin1 = new TextDecoder('latin1');

interface Watch {
  sinks: Set<SignalSink>;
  status: DeviceLinkStatus;
  listeners: Set<() => void>;
}

const INITIAL: DeviceLinkStatus = { connected: false, online: null, lastSeenAt: null, error: null, dropped: 0, frames: 0 };

type ServerMessage =
  | { type: 'status'; serial: string; online: boolean; lastSeenAt: string | null }
  | { type: 'error'; serial: string | null; code: string; message: string }
  | { type: 'dropped'; frames: number };

class LiveSignalsConnection {
  readonly #watches = new Map<string, Watch>();
  readonly #socket: LiveSocket;
  #parser: Parser | null = null;
  #parserRequested = false;
  /** Frames that came before the parser finished loading (the server's backfill, at most a few seconds). */
  #pending: Uint8Array[] = [];

  constructor() {
    this.#socket = browserLiveSocket(LIVE_SIGNALS_PATH, {
      binaryType: 'arraybuffer',
      wanted: () => this.#watches.size > 0,
      onOpen: () => {
        for (const serial of this.#watches.keys()) this.#socket.send({ type: 'subscribe', serial });
      },
      onMessage: (data) => {
        if (typeof data === 'string') this.#onText(data);
        else if (data instanceof ArrayBuffer) this.#onFrame(new Uint8Array(data));
      },
      onDown: () => {
        for (const watch of this.#watches.values()) this.#update(watch, { ...watch.status, connected: false });
      },
    });
    // The socket reopens for the new session (browserLiveSocket.ts); what the old one reported is not this user's.
    onIdentityChange(() => {
      for (const watch of this.#watches.values()) this.#update(watch, { ...INITIAL });
    });
  }

  /**
   * Starts watching every channel of `serial` (a view shows what the device sends; the busiest
   * device, EIT at 20 frames/s, is about 20 kB/s); returns the stop function.
   */
  watch(serial: string, sink: SignalSink): () => void {
    let watch = this.#watches.get(serial);
    if (watch === undefined) {
      watch = { sinks: new Set(), status: { ...INITIAL }, listeners: new Set() };
      this.#watches.set(serial, watch);
      this.#socket.send({ type: 'subscribe', serial });
    }
    watch.sinks.add(sink);
    this.#loadParser();
    this.#socket.connect();
    return () => {
      const current = this.#watches.get(serial);
      if (current === undefined) return;
      current.sinks.delete(sink);
      if (current.sinks.size === 0 && current.listeners.size === 0) this.#forget(serial);
    };
  }

  status(serial: string): DeviceLinkStatus {
    return this.#watches.get(serial)?.status ?? INITIAL;
  }

  listen(serial: string, listener: () => void): () => void {
    const watch = this.#watches.get(serial);
    if (watch === undefined) return () => undefined;
    watch.listeners.add(listener);
    return () => {
      watch.listeners.delete(listener);
      if (watch.sinks.size === 0 && watch.listeners.size === 0) this.#forget(serial);
    };
  }

  #forget(serial: string): void {
    this.#watches.delete(serial);
    this.#socket.send({ type: 'unsubscribe', serial });
    if (this.#watches.size === 0) this.#socket.close();
  }

  #update(watch: Watch, status: DeviceLinkStatus): void {
    watch.status = status;
    for (const listener of watch.listeners) listener();
  }

  #loadParser(): void {
    if (this.#parserRequested) return;
    this.#parserRequested = true;
    loadDeviceParser().then(
      (parser) => {
        this.#parser = parser;
        const pending = this.#pending;
        this.#pending = [];
        for (const bytes of pending) this.#onFrame(bytes);
      },
      () => {
        // Asked again with the next socket.
        this.#parserRequested = false;
        for (const watch of this.#watches.values()) this.#update(watch, { ...watch.status, error: 'parser-unavailable' });
      },
    );
  }

  #onText(text: string): void {
    let message: ServerMessage;
    try {
      message = JSON.parse(text) as ServerMessage;
    } catch {
      return;
    }
    if (message.type === 'status') {
      const watch = this.#watches.get(message.serial);
      if (watch) this.#update(watch, { ...watch.status, connected: true, error: null, online: message.online, lastSeenAt: message.lastSeenAt });
    } else if (message.type === 'error') {
      const watch = message.serial === null ? undefined : this.#watches.get(message.serial);
      if (watch) this.#update(watch, { ...watch.status, connected: false, error: message.code });
    } else if (message.type === 'dropped') {
      for (const watch of this.#watches.values()) this.#update(watch, { ...watch.status, dropped: watch.status.dropped + message.frames });
    }
  }

  #onFrame(bytes: Uint8Array): void {
    const serialLength = bytes[0] ?? 0;
    const serial = latin1.decode(bytes.subarray(1, 1 + serialLength));
    const watch = this.#watches.get(serial);
    if (watch === undefined) return;
    if (this.#parser === null) {
      if (this.#pending.length < 2000) this.#pending.push(bytes);
      return;
    }
    let frame: SmfSampleFrame;
    try {
      const decoded = this.#parser.decodeSmfFrame(bytes.subarray(1 + serialLength), { copy: false });
      if (decoded.channel === 'multi') return;
      frame = decoded;
    } catch {
      watch.status = { ...watch.status, dropped: watch.status.dropped + 1 };
      return;
    }
    for (const sink of watch.sinks) sink.frame(frame);
    // Counted without telling listeners: the screens read it when they redraw, not on every frame.
    watch.status.frames += 1;
  }
}

let connection: LiveSignalsConnection | null = null;

/** The page's one live-signal connection. */
export function liveSignals(): LiveSignalsConnection {
  connection ??= new LiveSignalsConnection();
  return connection;
}

/**
 * Watches a device's live signals while the component is mounted: `sink` (keep it stable, e.g. from
 * useState) gets every frame; the returned status re-renders on connection and device changes only.
 */
export function useDeviceSignals(serial: string | null, sink: SignalSink): DeviceLinkStatus {
  const subscribe = useCallback(
    (listener: () => void) => {
      if (serial === null) return () => undefined;
      const live = liveSignals();
      const stop = live.watch(serial, sink);
      const unlisten = live.listen(serial, listener);
      return () => {
        unlisten();
        stop();
      };
    },
    [serial, sink],
  );
  return useSyncExternalStore(
    subscribe,
    () => (serial === null ? INITIAL : liveSignals().status(serial)),
    () => INITIAL,
  );
}
