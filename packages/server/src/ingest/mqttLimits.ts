/**
 * What one MQTT connection may cost the embedded broker (docs/device-protocol.md, "MQTT";
 * docs/security.md, "MQTT"). Aedes and its packet parser (mqtt-packet) have no packet size limit of
 * their own and buffer whatever a socket sends, before and after authentication: a 64 MB PUBLISH was
 * taken whole, and an unauthenticated socket could make the broker hold ~235 MB. So the bytes of
 * every connection are looked at here, on their way from the socket to the parser, and the socket is
 * destroyed as soon as it announces a packet above the limit or sends too much before its device is
 * authenticated; sockets that never authenticate are closed after a timeout; and only so many
 * connections may be waiting for authentication, per address and in all.
 */
import type { Socket } from 'node:net';

export interface MqttLimits {
  /**
   * The largest MQTT packet, fixed header included. The largest legitimate frame is a multi frame
   * of 1 MiB payload + 48 bytes; a PUBLISH adds at most 88 bytes (header, topic of a 64-character
   * serial, packet id). 2 MiB fits that with room for a second large frame in the same message.
   */
  maxPacketBytes: number;
  /** Until the device is authenticated (CONNECT received and its secret checked). */
  connectTimeoutMs: number;
  /** Bytes read from a socket before its device is authenticated: a CONNECT is ~200 bytes. */
  preAuthBytes: number;
  /** Connections waiting for authentication from one address (a facility's NAT shares one). */
  preAuthPerAddress: number;
  /** Connections waiting for authentication in all. */
  preAuthTotal: number;
  /**
   * QoS 1 messages of one connection whose PUBACK waits for their commit, beyond which the
   * connection is read no further (deferredAcks.ts): about 5 s of a device sending one message per
   * channel and second.
   */
  unacknowledgedMessages: number;
  /** The same in bytes: two of the largest multi frames. */
  unacknowledgedBytes: number;
}

export const MQTT_LIMITS: MqttLimits = {
  maxPacketBytes: 2 * 1024 * 1024,
  connectTimeoutMs: 10_000,
  preAuthBytes: 64 * 1024,
  preAuthPerAddress: 32,
  preAuthTotal: 512,
  unacknowledgedMessages: 16,
  unacknowledgedBytes: 4 * 1024 * 1024,
};

export type RefusalReason = 'packet-too-large' | 'malformed-length' | 'too-much-before-authentication' | 'connect-timeout' | 'too-many-unauthenticated';

/**
 * Follows MQTT packet boundaries in a byte stream (MQTT 3.1.1 section 2.2: one type byte, then the
 * remaining length in 1 to 4 bytes of 7 bits, least significant first), without buffering anything.
 */
export class PacketSizeWatch {
  readonly #max: number;
  #state: 'type' | 'length' | 'body' = 'type';
  #remaining = 0;
  #multiplier = 1;
  #lengthBytes = 0;
  #bodyLeft = 0;

  constructor(maxPacketBytes: number) {
    this.#max = maxPacketBytes;
  }

  /** null while every packet announced so far is within the limit. */
  take(chunk: Uint8Array): RefusalReason | null {
    let i = 0;
    while (i < chunk.length) {
      if (this.#state === 'body') {
        const n = Math.min(this.#bodyLeft, chunk.length - i);
        this.#bodyLeft -= n;
        i += n;
        if (this.#bodyLeft === 0) this.#state = 'type';
        continue;
      }
      const byte = chunk[i++]!;
      if (this.#state === 'type') {
        this.#state = 'length';
        this.#remaining = 0;
        this.#multiplier = 1;
        this.#lengthBytes = 0;
        continue;
      }
      this.#remaining += (byte & 0x7f) * this.#multiplier;
      this.#multiplier *= 128;
      this.#lengthBytes++;
      // Checked on every length byte: later bytes only add, so a large announcement is refused
      // before its body arrives.
      if (1 + this.#lengthBytes + this.#remaining > this.#max) return 'packet-too-large';
      if ((byte & 0x80) !== 0) {
        if (this.#lengthBytes === 4) return 'malformed-length';
        continue;
      }
      if (this.#remaining === 0) this.#state = 'type';
      else {
        this.#bodyLeft = this.#remaining;
        this.#state = 'body';
      }
    }
    return null;
  }
}

export interface GuardedConnection {
  /** The device was authenticated: the pre-authentication limits no longer apply. */
  authenticated(): void;
  /**
   * While held, the broker is handed nothing more of the socket (its bytes wait in it, and then in
   * the kernel: TCP flow control); let go, it reads on (deferredAcks.ts).
   */
  hold(held: boolean): void;
}

export interface ConnectionGuardLog {
  warn(details: object, message: string): void;
}

/** Applies MqttLimits to the sockets of one broker. */
export class MqttConnectionGuard {
  readonly limits: MqttLimits;
  readonly #log: ConnectionGuardLog;
  /** Unauthenticated connections per remote address. */
  readonly #pending = new Map<string, number>();
  #pendingTotal = 0;
  /** Refusals by reason, for tests and logs. */
  readonly refused: Record<RefusalReason, number> = {
    'packet-too-large': 0,
    'malformed-length': 0,
    'too-much-before-authentication': 0,
    'connect-timeout': 0,
    'too-many-unauthenticated': 0,
  };
  /** Warnings are logged at most once a second per reason: a flood must not flood the log. */
  readonly #loggedAt = new Map<RefusalReason, number>();

  constructor(limits: MqttLimits, log: ConnectionGuardLog) {
    this.limits = limits;
    this.#log = log;
  }

  /** Connections waiting for authentication now. */
  get pendingConnections(): number {
    return this.#pendingTotal;
  }

  /**
   * Watches a new socket before the broker reads from it. null when the socket was refused at once
   * (too many connections waiting for authentication); it is destroyed then.
   */
  admit(socket: Socket): GuardedConnection | null {
    const address = socket.remoteAddress ?? 'unknown';
    const fromAddress = this.#pending.get(address) ?? 0;
    if (fromAddress >= this.limits.preAuthPerAddress || this.#pendingTotal >= this.limits.preAuthTotal) {
      this.#refuse(socket, address, 'too-many-unauthenticated');
      return null;
    }
    this.#pending.set(address, fromAddress + 1);
    this.#pendingTotal++;

    let waiting = true;
    const settle = (): void => {
      if (!waiting) return;
      waiting = false;
      clearTimeout(timer);
      this.#pendingTotal--;
      const left = (this.#pending.get(address) ?? 1) - 1;
      if (left === 0) this.#pending.delete(address);
      else this.#pending.set(address, left);
    };
    const timer = setTimeout(() => {
      if (waiting) this.#refuse(socket, address, 'connect-timeout');
    }, this.limits.connectTimeoutMs);
    socket.once('close', settle);

    const sizes = new PacketSizeWatch(this.limits.maxPacketBytes);
    let readBeforeAuthentication = 0;
    // Aedes takes the socket's bytes with read() when it is readable (paused mode), so every byte
    // on its way to the parser passes through read(): watch them there, on this socket only, and
    // hand nothing more to the parser once the socket is refused.
    const read = socket.read.bind(socket);
    let held = false;
    socket.read = (size?: number): ReturnType<Socket['read']> => {
      if (socket.destroyed || held) return null;
      const chunk: unknown = read(size);
      if (chunk === null || !(chunk instanceof Uint8Array)) return chunk as ReturnType<Socket['read']>;
      let reason = sizes.take(chunk);
      if (reason === null && waiting) {
        readBeforeAuthentication += chunk.length;
        if (readBeforeAuthentication > this.limits.preAuthBytes) reason = 'too-much-before-authentication';
      }
      if (reason === null) return chunk;
      this.#refuse(socket, address, reason);
      return null;
    };
    return {
      authenticated: settle,
      hold: (hold) => {
        if (held === hold) return;
        held = hold;
        // Aedes reads when the socket says it is readable: told again, it takes what waited meanwhile.
        if (!hold && !socket.destroyed) socket.emit('readable');
      },
    };
  }

  #refuse(socket: Socket, address: string, reason: RefusalReason): void {
    this.refused[reason]++;
    const now = Date.now();
    if (now - (this.#loggedAt.get(reason) ?? 0) >= 1000) {
      this.#loggedAt.set(reason, now);
      this.#log.warn({ address, reason, limits: this.limits }, 'MQTT connection closed: over a limit');
    }
    socket.destroy();
  }
}
