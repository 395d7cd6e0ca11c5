/**
 * Reading signals (docs/device-protocol.md, "Reading signals"), for users, scope-checked like the
 * device record (`devices/{serial}` read through the document store as `request.principal`):
 * - `GET /api/devices/:serial/signals?channel=ecg&from=ISO&to=ISO` → the stored frames of the range,
 *   one SMF stream (`application/octet-stream`);
 * - WebSocket `/api/signals/live`: `{type:'subscribe', serial, channels?}` / `{type:'unsubscribe', serial}`
 *   → the last few seconds from the ring buffer, then every new frame, each as a binary message
 *   (a one-byte serial length, the serial, then the SMF frame as received), and JSON
 *   `{type:'status', serial, online, lastSeenAt}` on status changes. A socket that does not keep up
 *   loses frames (counted, and reported as `{type:'dropped', frames}`) instead of buffering without end.
 *   Origin, heartbeat, session re-checks and limits are the socket runtime's (live/socketRuntime.ts).
 */
import fp from 'fastify-plugin';
import type { SmfSampleChannel } from '@nemuri/parser/smf';
import { isSignalChannel, SIGNAL_CHANNELS } from '@nemuri/shared/signalChannels';
import { readsWhole, type Claims } from '@nemuri/shared/documents/access';
import { DocumentError } from '@nemuri/shared/documents/errors';
import { isPlainObject } from '@nemuri/shared/documents/update';
import { z } from 'zod/v3';
import { errorResponses } from '@nemuri/shared/apiErrors';
import { signalReadQuery } from '@nemuri/shared/signalReads';
import { apiErrorOfDocument, sendApiError } from '../http/errors.ts';
import { sendBytes } from '../http/sendBytes.ts';
import type { ZodTypeProvider } from '../http/zodRouteSchemas.ts';
import { SERIAL_PATTERN } from '../devices/deviceRegistry.ts';
import type { DeviceStatusTracker } from '../devices/deviceStatus.ts';
import type { DocumentStore } from '../documents/store.ts';
import type { SocketConnection } from '../live/socketRuntime.ts';
import type { SignalServices } from './signalServices.ts';
import type { DeviceStatusEvent, LiveSubscriber } from './liveHub.ts';
import { parseGuardedJson } from '../http/jsonGuard.ts';

export interface SignalsPluginOptions {
  /** Unsent bytes above which a live socket's frames are dropped. Default 4 MiB. */
  maxBufferedBytes?: number;
}

export const LIVE_SIGNALS_PATH = '/api/signals/live';
/** What a new live subscriber gets from the ring buffer. */
export const LIVE_BACKFILL_SECONDS = 5;
export const MAX_DEVICES_PER_SOCKET = 64;
const MAX_MESSAGE_BYTES = 16 * 1024;

const isSampleChannel: (value: unknown) => value is SmfSampleChannel = isSignalChannel;

/**
 * Throws the store's DocumentError (unauthenticated, permission-denied) or not-found. An agency
 * sees its partners' devices for their status, but their signals are residents' vitals: only those
 * of devices in its own domain (its stock) are its to read (data minimisation, security issue 17).
 */
async function checkDeviceVisible(documents: DocumentStore, principal: Claims | null, serial: string): Promise<void> {
  if (!SERIAL_PATTERN.test(serial)) throw new DocumentError('not-found', `No device ${serial}`);
  const found = await documents.get(principal, `devices/${serial}`);
  if (found === null) throw new DocumentError('not-found', `No device ${serial}`);
  if (principal !== null && !readsWhole(principal, deviceDomainOf(found.document))) throw new DocumentError('not-found', `No device ${serial}`);
}

/** The domain a device belongs to, as the registry's tenancy reads it: the one it is lent to, else its agency's. */
function deviceDomainOf(device: Record<string, unknown>): string | null {
  for (const field of ['domainId', 'ownerAgencyDomainId']) {
    const value = device[field];
    if (typeof value === 'string' && value !== '') return value;
  }
  return null;
}

/** The binary live message: serial length (1 byte), serial (ASCII), SMF frame. */
export function liveFrameMessage(prefix: Buffer, frame: Uint8Array): Buffer {
  return Buffer.concat([prefix, frame]);
}

export function liveFramePrefix(serial: string): Buffer {
  const serialBytes = Buffer.from(serial, 'latin1');
  return Buffer.concat([Buffer.of(serialBytes.length), serialBytes]);
}

/** What a live signal socket reads: device records for the scope check, the devices' states, their frames. */
interface SignalSources {
  documents: DocumentStore;
  status: DeviceStatusTracker;
  signals: SignalServices;
}

/** One socket's device subscriptions. */
class SignalSocket {
  readonly #connection: SocketConnection;
  readonly #claims: Claims | null;
  readonly #sources: SignalSources;
  readonly #subscriptions = new Map<string, { channels: ReadonlySet<SmfSampleChannel> | null; unsubscribe: () => void }>();
  /** Per serial: subscribe requests in flight, so that a later unsubscribe or subscribe wins. */
  readonly #generation = new Map<string, number>();
  dropped = 0;
  #droppedUnreported = 0;

  constructor(connection: SocketConnection, sources: SignalSources) {
    this.#connection = connection;
    this.#claims = connection.principal;
    this.#sources = sources;
  }

  #json(message: object): void {
    this.#connection.send(JSON.stringify(message));
  }

  #frame(prefix: Buffer, bytes: Uint8Array): void {
    const socket = this.#connection.socket;
    if (socket.readyState !== socket.OPEN) return;
    if (this.#droppedUnreported > 0 && this.#connection.send(JSON.stringify({ type: 'dropped', frames: this.#droppedUnreported }))) this.#droppedUnreported = 0;
    if (!this.#connection.send(liveFrameMessage(prefix, bytes), true)) {
      this.dropped++;
      this.#droppedUnreported++;
    }
  }

  async handle(text: string): Promise<void> {
    let message: unknown;
    try {
      message = parseGuardedJson(text);
    } catch {
      this.#json({ type: 'error', serial: null, code: 'invalid-argument', message: 'messages must be JSON' });
      return;
    }
    if (!isPlainObject(message) || typeof message.serial !== 'string') {
      this.#json({ type: 'error', serial: null, code: 'invalid-argument', message: 'expected {type: "subscribe" | "unsubscribe", serial, channels?}' });
      return;
    }
    const serial = message.serial;
    const generation = (this.#generation.get(serial) ?? 0) + 1;
    this.#generation.set(serial, generation);
    if (message.type === 'unsubscribe') {
      this.#drop(serial);
      return;
    }
    if (message.type !== 'subscribe') {
      this.#json({ type: 'error', serial, code: 'invalid-argument', message: `unknown message type ${JSON.stringify(message.type)}` });
      return;
    }
    let channels: Set<SmfSampleChannel> | null = null;
    if (message.channels !== undefined) {
      if (!Array.isArray(message.channels) || !message.channels.every(isSampleChannel)) {
        this.#json({ type: 'error', serial, code: 'invalid-argument', message: `channels must be a list of ${SIGNAL_CHANNELS.join(', ')}` });
        return;
      }
      channels = new Set(message.channels);
    }
    if (!this.#subscriptions.has(serial) && this.#subscriptions.size >= MAX_DEVICES_PER_SOCKET) {
      this.#json({ type: 'error', serial, code: 'invalid-argument', message: `at most ${MAX_DEVICES_PER_SOCKET} devices per socket` });
      return;
    }
    try {
      await checkDeviceVisible(this.#sources.documents, this.#claims, serial);
    } catch (error) {
      if (!(error instanceof DocumentError)) throw error;
      if (this.#generation.get(serial) === generation) this.#json({ type: 'error', serial, code: error.code, message: error.message });
      return;
    }
    // A later subscribe or unsubscribe of this serial came in meanwhile: it decides.
    const socket = this.#connection.socket;
    if (this.#generation.get(serial) !== generation || socket.readyState !== socket.OPEN) return;
    // A new device takes one of the user's live subscriptions; new channels of one already watched do not.
    if (this.#subscriptions.has(serial)) this.#drop(serial, false);
    else {
      const refusal = this.#connection.reserve();
      if (refusal !== null) {
        this.#json({ type: 'error', serial, code: 'resource-exhausted', message: refusal });
        return;
      }
    }
    const prefix = liveFramePrefix(serial);
    const subscriber: LiveSubscriber = {
      frame: (_serial, channel, bytes) => {
        if (channels === null || channels.has(channel)) this.#frame(prefix, bytes);
      },
      status: (event: DeviceStatusEvent) => this.#json({ type: 'status', ...event }),
    };
    // Backfill and subscription together, synchronously: no frame is missed or sent twice.
    this.#json({ type: 'status', ...this.#sources.status.statusOf(serial) });
    for (const bytes of this.#sources.signals.rings.recent(serial, channels && [...channels], LIVE_BACKFILL_SECONDS)) this.#frame(prefix, bytes);
    this.#subscriptions.set(serial, { channels, unsubscribe: this.#sources.signals.hub.subscribe(serial, subscriber) });
  }

  #drop(serial: string, release = true): void {
    const subscription = this.#subscriptions.get(serial);
    if (subscription === undefined) return;
    subscription.unsubscribe();
    this.#subscriptions.delete(serial);
    if (release) this.#connection.release();
  }

  /** The socket closed: the runtime has given its subscriptions back to the limits already. */
  close(): void {
    for (const serial of [...this.#subscriptions.keys()]) this.#drop(serial, false);
  }
}

export const signalsPlugin = fp<SignalsPluginOptions>(
  async (app, { maxBufferedBytes = 4 * 1024 * 1024 }) => {
    const sources: SignalSources = { documents: app.documents, status: app.devices.status, signals: app.signals };
    const api = app.withTypeProvider<ZodTypeProvider>();
    api.get(
      '/api/devices/:serial/signals',
      {
        schema: {
          summary: "A device's stored signal frames of one channel (SMF, at most 24 hours)",
          params: z.object({ serial: z.string() }),
          querystring: signalReadQuery,
          // The frames as stored, one after another (docs/device-protocol.md "Frame layout"); an unknown or unreadable device answers 404.
          produces: ['application/octet-stream'],
          response: errorResponses(400, 401, 403, 404),
        },
      },
      async (request, reply) => {
        reply.header('cache-control', 'no-store');
        const { serial } = request.params;
        const { channel, from, to } = request.query;
        try {
          await checkDeviceVisible(app.documents, request.principal, serial);
        } catch (error) {
          if (!(error instanceof DocumentError)) throw error;
          return sendApiError(reply, apiErrorOfDocument(error));
        }
        const frames = await app.signals.store.read(serial, channel, from * 1000, to * 1000);
        return sendBytes(reply.type('application/octet-stream'), frames);
      },
    );

    app.live.serve(app, LIVE_SIGNALS_PATH, {
      name: 'signals',
      summary: 'Live signal frames of devices (WebSocket)',
      description:
        'Upgrades to a WebSocket: `{"type":"subscribe", serial, channels?}` / `{"type":"unsubscribe", serial}`, answered with the devices’ frames as they arrive. Messages: docs/device-protocol.md "Reading signals" (see docs/api.md "Devices and signals").',
      maxMessageBytes: MAX_MESSAGE_BYTES,
      maxBufferedBytes,
      // Live signals are worth having late only if complete: frames are dropped (and counted) instead.
      whenBehind: 'skip',
      open: (connection, request) => {
        const signals = new SignalSocket(connection, sources);
        return {
          message: (text) => {
            signals.handle(text).catch((error: unknown) => {
              request.log.error({ err: error }, 'live signal subscription failed');
              connection.close(1011, 'internal error');
            });
          },
          close: () => {
            signals.close();
            if (signals.dropped > 0) request.log.info({ dropped: signals.dropped }, 'live signal socket closed after dropping frames it could not take');
          },
        };
      },
    });
  },
  { name: 'signalsApi', dependencies: ['documents', 'signals', 'devices', 'live'], encapsulate: true },
);
