/**
 * The embedded broker's QoS 1 acknowledgements, sent once a message's frames are committed, without
 * holding up the device's next messages.
 *
 * Aedes hands a connection's next read to its parser only once the packets of the reads before are
 * handled (each new read arriving counts for one of them), and a PUBLISH is handled when its PUBACK
 * is written. With the PUBACK waiting for the commit, the next seconds of a device whose messages
 * waited for a slow commit waited too, unparsed, in the socket: its live viewers saw them late by the
 * commit's time, and the devices, let go together when a commit answered, came in bursts that made
 * the next commit bigger (bench:ingest, 3,000 devices on PGlite: 44 commits of 4,091 frames, up to
 * 1.3 s, publish → viewer p99 1.9 s; with this: 441 commits of 408 frames, p99 116 ms).
 *
 * Here a PUBLISH counts as handled once its frames are in the pipeline (live at once, on their way
 * to storage); its PUBACK is written when the commit answers, in the order the PUBLISHes came (MQTT
 * 3.1.1 section 4.6.0-2). A connection with a window of messages unacknowledged is read no further
 * until some are (GuardedConnection.hold): its bytes wait in the socket, then in TCP. A failed write
 * closes the connection, as Aedes did, and nothing after it is acknowledged: the device sends those
 * messages again (a copy already stored is removed on read).
 *
 * A commit answers for the messages of hundreds of connections at once, and each connection's PUBACK
 * is a socket write of its own (a system call: on loopback, 100–200 µs each on the bench machine).
 * Written all in the turn the commit answered, they held the event loop 80–100 ms at 3,000 devices
 * (bench:ingest --profile), and every frame arriving meanwhile reached its viewers that much later.
 * So the connections due go out `ACK_CONNECTIONS_PER_TURN` at a time, one event-loop turn each, with
 * the sockets read in between.
 */
import type { Client } from 'aedes';
import mqttPacket from 'mqtt-packet';

/** Unacknowledged messages of one connection beyond which it is read no further (MqttLimits). */
export interface AckWindow {
  messages: number;
  bytes: number;
}

/** Connections whose PUBACKs are written in one event-loop turn (see above). */
export const ACK_CONNECTIONS_PER_TURN = 64;

interface Unacknowledged {
  messageId: number;
  bytes: number;
  committed: boolean;
}

interface Connection {
  queue: Unacknowledged[];
  bytes: number;
  held: boolean;
  failed: boolean;
}

export interface DeferredAcksOptions {
  window: AckWindow;
  /** Stops or resumes reading the client's connection (mqttLimits.ts, GuardedConnection.hold). */
  hold(client: Client, held: boolean): void;
}

export class DeferredAcks {
  readonly #window: AckWindow;
  readonly #hold: (client: Client, held: boolean) => void;
  readonly #connections = new WeakMap<Client, Connection>();
  /** Connections with committed messages not yet acknowledged, in the order their commits answered. */
  readonly #due = new Map<Client, Connection>();
  #draining: NodeJS.Immediate | undefined;

  constructor({ window, hold }: DeferredAcksOptions) {
    this.#window = window;
    this.#hold = hold;
  }

  /**
   * Takes a QoS 1 message whose frames are on their way to storage (`committed`): its PUBACK is sent
   * when they are and every earlier message's was. Reading the connection stops while its window is full.
   */
  take(client: Client, messageId: number, bytes: number, committed: Promise<void>): void {
    const connection = this.#connection(client);
    if (connection.failed) return;
    const message: Unacknowledged = { messageId, bytes, committed: false };
    connection.queue.push(message);
    connection.bytes += bytes;
    committed.then(
      () => {
        message.committed = true;
        this.#due.set(client, connection);
        if (this.#draining === undefined) this.#draining = setImmediate(() => this.#drain());
      },
      () => this.#fail(client, connection),
    );
    if (!connection.held && !this.#hasRoom(connection)) {
      connection.held = true;
      this.#hold(client, true);
    }
  }

  #connection(client: Client): Connection {
    let connection = this.#connections.get(client);
    if (connection === undefined) {
      connection = { queue: [], bytes: 0, held: false, failed: false };
      this.#connections.set(client, connection);
    }
    return connection;
  }

  #hasRoom(connection: Connection): boolean {
    return connection.queue.length < this.#window.messages && connection.bytes < this.#window.bytes;
  }

  #drain(): void {
    this.#draining = undefined;
    let left = ACK_CONNECTIONS_PER_TURN;
    for (const [client, connection] of this.#due) {
      if (left-- === 0) break;
      this.#due.delete(client);
      this.#acknowledge(client, connection);
    }
    if (this.#due.size > 0) this.#draining = setImmediate(() => this.#drain());
  }

  #acknowledge(client: Client, connection: Connection): void {
    if (connection.failed) return;
    while (connection.queue[0]?.committed === true) {
      const message = connection.queue.shift()!;
      connection.bytes -= message.bytes;
      // A closed connection's messages are not acknowledged: the device sends them again.
      if (client.connected) mqttPacket.writeToStream({ cmd: 'puback', messageId: message.messageId }, client.conn);
    }
    if (connection.held && this.#hasRoom(connection)) {
      connection.held = false;
      this.#hold(client, false);
    }
  }

  /** As Aedes does when a handler fails: the connection is closed, and nothing after it acknowledged. */
  #fail(client: Client, connection: Connection): void {
    if (connection.failed) return;
    connection.failed = true;
    this.#due.delete(client);
    connection.queue.length = 0;
    connection.bytes = 0;
    client.close();
  }
}
