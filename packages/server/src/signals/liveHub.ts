/**
 * Who watches which device live: frames and status changes fan out from the ingest pipeline to the
 * subscribers (WebSocket connections, later the room-state estimator) of that device only.
 */
import type { SmfSampleChannel } from '@nemuri/parser/smf';

export interface DeviceStatusEvent {
  serial: string;
  online: boolean;
  /** ISO time of the last frame received, or null when none since the server started. */
  lastSeenAt: string | null;
}

export interface LiveSubscriber {
  /** One validated SMF frame of a sample channel (never a multi frame: those arrive split). */
  frame(serial: string, channel: SmfSampleChannel, bytes: Uint8Array): void;
  status(event: DeviceStatusEvent): void;
}

export class LiveHub {
  readonly #bySerial = new Map<string, Set<LiveSubscriber>>();
  /**
   * Told when a device gets its first subscriber (true) and loses its last (false): with a shared MQTT
   * subscription this process receives only some devices' frames, and subscribes to the watched ones.
   */
  onWatch: ((serial: string, watched: boolean) => void) | undefined;
  /** Subscribers to every device (e.g. the room-state estimator). */
  readonly #all = new Set<LiveSubscriber>();

  subscribe(serial: string, subscriber: LiveSubscriber): () => void {
    let set = this.#bySerial.get(serial);
    if (set === undefined) {
      this.#bySerial.set(serial, (set = new Set()));
      this.onWatch?.(serial, true);
    }
    set.add(subscriber);
    return () => {
      set.delete(subscriber);
      if (set.size === 0 && this.#bySerial.get(serial) === set) {
        this.#bySerial.delete(serial);
        this.onWatch?.(serial, false);
      }
    };
  }

  subscribeAll(subscriber: LiveSubscriber): () => void {
    this.#all.add(subscriber);
    return () => this.#all.delete(subscriber);
  }

  hasSubscribers(serial: string): boolean {
    return this.#all.size > 0 || this.#bySerial.has(serial);
  }

  /** The devices someone watches. */
  watched(): string[] {
    return [...this.#bySerial.keys()];
  }

  /** A frame for everyone: the device's subscribers and those of every device. */
  frame(serial: string, channel: SmfSampleChannel, bytes: Uint8Array): void {
    this.frameToWatchers(serial, channel, bytes);
    this.frameToAll(serial, channel, bytes);
  }

  /** A frame for the device's own subscribers only (live views). */
  frameToWatchers(serial: string, channel: SmfSampleChannel, bytes: Uint8Array): void {
    const set = this.#bySerial.get(serial);
    if (set) for (const subscriber of set) subscriber.frame(serial, channel, bytes);
  }

  /** A frame for the subscribers of every device only (e.g. the room-state estimator). */
  frameToAll(serial: string, channel: SmfSampleChannel, bytes: Uint8Array): void {
    for (const subscriber of this.#all) subscriber.frame(serial, channel, bytes);
  }

  status(event: DeviceStatusEvent): void {
    const set = this.#bySerial.get(event.serial);
    if (set) for (const subscriber of set) subscriber.status(event);
    for (const subscriber of this.#all) subscriber.status(event);
  }
}
