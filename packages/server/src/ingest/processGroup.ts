/**
 * The server processes of one MQTT_SHARED_GROUP on one broker (docs/scaling.md, "Room states with
 * several processes"). Storage divides the devices' messages through the shared subscription, one by
 * one; a room's state needs every second of its device in one place. So each device has an owner:
 * the live process with the highest hash of (process, serial) (rendezvous hashing: a process that
 * joins or leaves moves only the devices it takes or had), and the owner subscribes plainly to those
 * devices' frame topics.
 *
 * Storage follows ownership (ingest/deviceShares.ts): the owner takes its devices' messages through a
 * shared subscription of each device of its own, so each message reaches one process, which stores
 * it, computes the room and feeds its viewers. The group also says which process's broker session
 * holds which devices' shares (`nemuri/stores/<group>/<id>`, retained): while another session holds a
 * device's share too (a hand-over, a process that died with its session kept), the broker gives the
 * owner only part of its messages, so the owner then also takes a plain copy of every frame for the
 * room state and the viewers.
 *
 * Over the same broker connection (the plain one, which also carries the frames of watched devices):
 * - membership: each process keeps a retained message on `nemuri/processes/<group>/<id>`, cleared
 *   when it stops, and by the broker (its will) when its connection is lost: at once when the process
 *   dies (its socket closes), within 1.5 keepalives (7.5 s) when it hangs or its network goes;
 * - room states: each process publishes its rooms' states every second (QoS 0) on
 *   `nemuri/room-states/<group>/<id>`, and every process takes the others'.
 */
import type { IPublishPacket, IClientOptions, MqttClient } from 'mqtt';
import { z } from 'zod';
import { ROOM_STATE_NAMES, type LiveRoomState, type RoomStateName } from '@nemuri/shared/monitoring';
import type { RoomStateSharing } from '../monitoring/roomStateSharing.ts';
import type { PipelineLogger } from './pipeline.ts';

/** The plain connection's keepalive: the broker judges the process gone after 1.5 times this without a packet. */
export const GROUP_KEEPALIVE_SEC = 5;
/** Another process's room state is used this long after it came (it sends one every second). */
export const REMOTE_STATE_FRESH_MS = 5_000;
/**
 * An announced process not heard from (its states come every second) for this long is left out until
 * heard again: a retained announcement can outlive its process (a broker restarted with its retained
 * messages after the process died, so no will was sent), and must not leave its devices unowned.
 */
export const MEMBER_SILENT_MS = 10_000;

const framesTopic = (serial: string): string => `devices/${serial}/frames`;

/** Where a process's broker session says which devices' shares it holds (retained; ingest/deviceShares.ts). */
export const storesTopic = (group: string, member: string): string => `nemuri/stores/${group}/${member}`;
/** A stores message lists serials; more than this many is not a message of ours. */
const MAX_STORED_SERIALS = 200_000;
const storedSerials = z.array(z.string().min(1).max(200)).max(MAX_STORED_SERIALS);

/**
 * What another process sends of a room: its state and vitals. The room, domain and tenant are taken
 * from this process's own room list (roomStateService.ts), never from the message.
 */
type SharedState = Omit<LiveRoomState, 'roomId' | 'domainId' | 'rootDomainId'>;

/** What of a room's state is sent to the others. */
function sharedOf(state: LiveRoomState): SharedState {
  return {
    serial: state.serial,
    state: state.state,
    since: state.since,
    respirationRate: state.respirationRate,
    heartRate: state.heartRate,
    movement: state.movement,
    temperature: state.temperature,
    lastButtonAt: state.lastButtonAt,
    at: state.at,
    dataAt: state.dataAt ?? null,
  };
}
const STATE_NAMES: ReadonlySet<string> = new Set(ROOM_STATE_NAMES);
const VITALS = ['respirationRate', 'heartRate', 'movement', 'temperature', 'lastButtonAt'] as const;
const finite = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);
const vital = (value: unknown): value is number | null => value === null || finite(value);

/**
 * One state of another process's message, with only the fields taken. Checked by hand: every
 * process reads each other's rooms (1,500 states a second each at 3,000 devices on two), where a
 * schema library's parse was a visible share of a capped process's time (docs/scaling.md).
 */
function readSharedState(value: unknown): SharedState {
  if (typeof value !== 'object' || value === null) throw new Error('a state is not an object');
  const fields = value as Record<string, unknown>;
  const { serial, state, since, at, dataAt } = fields;
  if (typeof serial !== 'string' || serial.length < 1 || serial.length > 200) throw new Error('serial: a string of 1 to 200 characters expected');
  if (typeof state !== 'string' || !STATE_NAMES.has(state)) throw new Error(`state: one of ${ROOM_STATE_NAMES.join(', ')} expected`);
  if (!finite(since) || !finite(at)) throw new Error('since, at: finite numbers expected');
  for (const key of VITALS) if (!vital(fields[key])) throw new Error(`${key}: a finite number or null expected`);
  if (dataAt !== undefined && !vital(dataAt)) throw new Error('dataAt: a finite number or null expected');
  return {
    serial,
    state: state as RoomStateName,
    since,
    respirationRate: fields.respirationRate as number | null,
    heartRate: fields.heartRate as number | null,
    movement: fields.movement as number | null,
    temperature: fields.temperature as number | null,
    lastButtonAt: fields.lastButtonAt as number | null,
    at,
    ...(dataAt === undefined ? {} : { dataAt }),
  };
}

function readSharedStates(value: unknown): SharedState[] {
  if (!Array.isArray(value)) throw new Error('an array of states expected');
  return value.map(readSharedState);
}

/** FNV-1a (32 bits) of the pair: the same number in every process, so they agree on the owners. */
function weight(member: string, serial: string): number {
  let hash = 0x811c9dc5;
  const mix = (text: string): void => {
    for (let i = 0; i < text.length; i++) {
      hash ^= text.charCodeAt(i);
      hash = Math.imul(hash, 0x01000193);
    }
  };
  mix(member);
  mix('\u0000');
  mix(serial);
  // A final avalanche, so that serials differing in their last characters spread over the members.
  hash ^= hash >>> 16;
  hash = Math.imul(hash, 0x85ebca6b);
  hash ^= hash >>> 13;
  return hash >>> 0;
}

/** The owner of `serial` among `members` (rendezvous hashing); ties go to the smaller id. */
export function ownerOf(serial: string, members: Iterable<string>): string | undefined {
  let best: string | undefined;
  let bestWeight = -1;
  for (const member of members) {
    const w = weight(member, serial);
    if (w > bestWeight || (w === bestWeight && best !== undefined && member < best)) {
      best = member;
      bestWeight = w;
    }
  }
  return best;
}

export class ProcessGroup implements RoomStateSharing {
  readonly processId: string;
  readonly #group: string;
  readonly #log: PipelineLogger;
  readonly #members = new Set<string>();
  /** Processes whose announcement stands, and when each was last heard from. */
  readonly #announced = new Set<string>();
  readonly #heardAt = new Map<string, number>();
  #silenceCheck: NodeJS.Timeout | undefined;
  /** When this process's own connection last came up: the others' silence counts from then at the earliest. */
  #connectedAt = 0;
  /** Announced with its first states, once its room-state service runs: the others hand it devices only then. */
  #announcedSelf = false;
  readonly #owners = new Map<string, string | undefined>();
  /** Why this process subscribes to a device's frames: its browsers watch it, it owns it, or both. */
  readonly #watched = new Set<string>();
  readonly #followed = new Set<string>();
  readonly #remote = new Map<string, { state: SharedState; receivedAt: number }>();
  /** Devices subscribed to plainly on the group's connection now. */
  readonly #plain = new Set<string>();
  /** Which devices' shares each other process's broker session holds (their stores messages). */
  readonly #storesOf = new Map<string, ReadonlySet<string>>();
  /** This process's own stores message as an earlier run with the same id left it, if any. */
  #storedBefore: ReadonlySet<string> | null = null;
  #client: MqttClient | undefined;
  #stopped = false;
  /** Whether this process's session holds the device's share (set by ingest/deviceShares.ts). */
  storesHere: (serial: string) => boolean = () => false;
  /** Called when the owners may have moved (a member came or went) or another session's shares changed. */
  onChange: (() => void) | undefined;

  constructor({ group, processId, log }: { group: string; processId: string; log: PipelineLogger }) {
    this.#group = group;
    this.processId = processId;
    this.#log = log;
    this.#members.add(processId);
  }

  get #presenceTopic(): string {
    return `nemuri/processes/${this.#group}/${this.processId}`;
  }

  /** The plain connection's options: its will clears this process's membership when the broker loses it. */
  get connectOptions(): Pick<IClientOptions, 'keepalive' | 'will'> {
    return { keepalive: GROUP_KEEPALIVE_SEC, will: { topic: this.#presenceTopic, payload: Buffer.alloc(0), qos: 1, retain: true } };
  }

  /** The live processes, this one included. */
  get members(): readonly string[] {
    return [...this.#members].sort();
  }

  /** Joins over a connected client: takes the members' and states' topics (this process announces itself with its first states). */
  async join(client: MqttClient): Promise<void> {
    this.#client = client;
    await client.subscribeAsync([`nemuri/processes/${this.#group}/+`, `nemuri/room-states/${this.#group}/+`, storesTopic(this.#group, '+')], { qos: 1 });
    // The broker sends the retained messages of a subscription before it answers the next one on the
    // same connection: once this answer is in, the members and their shares of before are known.
    const sync = `nemuri/sync/${this.#group}/${this.processId}`;
    await client.subscribeAsync(sync, { qos: 0 });
    await client.unsubscribeAsync(sync);
    // After a lost connection the will has cleared the membership: announced again. mqtt.js subscribes
    // again by itself.
    this.#connectedAt = Date.now();
    client.on('connect', () => {
      this.#connectedAt = Date.now();
      if (this.#announcedSelf && !this.#stopped) this.#announce(client);
    });
    this.#silenceCheck = setInterval(() => this.#dropSilent(Date.now()), MEMBER_SILENT_MS / 5);
    this.#silenceCheck.unref();
  }

  #announce(client: MqttClient): void {
    client.publish(this.#presenceTopic, this.processId, { qos: 1, retain: true }, (error) => {
      if (error) this.#log.warn({ err: error.message }, 'this server process could not announce itself on the broker');
    });
  }

  #dropSilent(now: number): void {
    // Cut off from the broker, this process hears nobody: that says nothing of the others, and
    // re-dividing would have every process own every device once the broker is back (each device
    // computed afresh twice, then handed back). The division stays as it was until the connection is.
    if (this.#client?.connected !== true) return;
    for (const member of this.#members) {
      if (member === this.processId || now - Math.max(this.#heardAt.get(member) ?? 0, this.#connectedAt) <= MEMBER_SILENT_MS) continue;
      this.#members.delete(member);
      this.#changed();
      this.#log.warn({ process: this.processId, silent: member, members: this.members }, 'server process silent: its devices re-divided');
    }
  }

  /** The owners may have moved: computed again on demand, and the device shares told. */
  #changed(): void {
    this.#owners.clear();
    this.refreshPlain();
    this.onChange?.();
  }

  #heard(member: string): void {
    this.#heardAt.set(member, Date.now());
    if (!this.#announced.has(member) || this.#members.has(member)) return;
    this.#members.add(member);
    this.#changed();
    this.#log.info({ process: this.processId, members: this.members }, 'server process joined: devices re-divided');
  }

  /** Leaves at once (the others take this process's devices now), before the connection closes. */
  async leave(): Promise<void> {
    this.#stopped = true;
    clearInterval(this.#silenceCheck);
    // From now on the others own every device, in this process's view too (its shares hand over).
    this.#members.delete(this.processId);
    this.#changed();
    const client = this.#client;
    if (client?.connected) await client.publishAsync(this.#presenceTopic, Buffer.alloc(0), { qos: 1, retain: true }).catch(() => undefined);
  }

  /** A message of the group's own topics (not a device frame); false when it is none of them. */
  message(packet: IPublishPacket): boolean {
    const parts = packet.topic.split('/');
    if (parts.length !== 4 || parts[0] !== 'nemuri' || parts[2] !== this.#group) return false;
    const [, kind, , member] = parts as [string, string, string, string];
    const payload = typeof packet.payload === 'string' ? Buffer.from(packet.payload) : packet.payload;
    if (kind === 'processes') {
      const present = payload.byteLength > 0;
      // This process is a member while it runs, whatever a stale retained message of an earlier run says.
      if (member === this.processId) return true;
      if (present) {
        this.#announced.add(member);
        this.#heard(member);
      } else {
        this.#announced.delete(member);
        this.#heardAt.delete(member);
        if (this.#members.delete(member)) {
          this.#changed();
          this.#log.info({ process: this.processId, members: this.members }, 'server process left: devices re-divided');
        }
      }
      return true;
    }
    if (kind === 'stores') {
      this.#stores(member, payload);
      return true;
    }
    if (kind === 'room-states') {
      if (member === this.processId) return true;
      this.#heard(member);
      let states: SharedState[];
      try {
        states = readSharedStates(JSON.parse(payload.toString('utf8')));
      } catch (error) {
        this.#log.warn(
          { from: member, err: error instanceof Error ? error.message : String(error) },
          'room states of another server process could not be read',
        );
        return true;
      }
      const receivedAt = Date.now();
      // Only the owner's word counts: a process that has just handed a device over may still send its last state.
      for (const state of states) if (this.#ownerOf(state.serial) === member) this.#remote.set(state.serial, { state, receivedAt });
      return true;
    }
    return false;
  }

  #stores(member: string, payload: Buffer): void {
    let serials: ReadonlySet<string>;
    try {
      serials = new Set(payload.byteLength === 0 ? [] : storedSerials.parse(JSON.parse(payload.toString('utf8'))));
    } catch (error) {
      this.#log.warn(
        { from: member, err: error instanceof Error ? error.message : String(error) },
        'device shares of another server process could not be read',
      );
      return;
    }
    if (member === this.processId) {
      // This process's own message comes back as it publishes; only an earlier run's counts here.
      if (this.#storedBefore === null) this.#storedBefore = serials;
      return;
    }
    if (serials.size === 0) this.#storesOf.delete(member);
    else this.#storesOf.set(member, serials);
    this.refreshPlain();
    this.onChange?.();
  }

  /** The shares this process's broker session held when an earlier run with the same id stopped (empty when unknown). */
  get storedBefore(): ReadonlySet<string> {
    return this.#storedBefore ?? new Set();
  }

  /** Whether another process's broker session says it holds the device's share (live or not: a persistent session outlives its process). */
  heldElsewhere(serial: string): boolean {
    for (const serials of this.#storesOf.values()) if (serials.has(serial)) return true;
    return false;
  }

  /** Whether `member`'s session says it holds the device's share. */
  holds(member: string, serial: string): boolean {
    return this.#storesOf.get(member)?.has(serial) ?? false;
  }

  /** Whether every message of the device reaches this process through its share (nobody else's session holds it). */
  alone(serial: string): boolean {
    return this.storesHere(serial) && !this.heldElsewhere(serial);
  }

  owns(serial: string): boolean {
    return this.#ownerOf(serial) === this.processId;
  }

  /** The device's owner among the live processes (this one, while it runs). */
  ownerOf(serial: string): string | undefined {
    return this.#ownerOf(serial);
  }

  #ownerOf(serial: string): string | undefined {
    let owner = this.#owners.get(serial);
    if (owner === undefined) {
      owner = ownerOf(serial, this.#members);
      this.#owners.set(serial, owner);
    }
    return owner;
  }

  /** Whether this process's room state of the device takes its frames. */
  follows(serial: string): boolean {
    return this.#followed.has(serial);
  }

  /** Whether this process's browsers watch the device live. */
  watches(serial: string): boolean {
    return this.#watched.has(serial);
  }

  follow(serials: ReadonlySet<string>): void {
    for (const serial of this.#followed) {
      if (serials.has(serial)) continue;
      this.#followed.delete(serial);
      this.#refresh(serial);
    }
    for (const serial of serials) {
      if (this.#followed.has(serial)) continue;
      this.#followed.add(serial);
      this.#refresh(serial);
    }
    this.onChange?.();
  }

  /** The live fan-out's watch changes (LiveHub.onWatch). */
  watch(serial: string, watched: boolean): void {
    if (watched === this.#watched.has(serial)) return;
    if (watched) this.#watched.add(serial);
    else this.#watched.delete(serial);
    this.#refresh(serial);
  }

  /**
   * A plain subscription to a device is needed while this process's viewers or room state want its
   * frames and its share does not bring them all here.
   */
  #refresh(serial: string): void {
    const wanted = (this.#watched.has(serial) || this.#followed.has(serial)) && !this.alone(serial);
    if (wanted === this.#plain.has(serial)) return;
    if (wanted) {
      this.#plain.add(serial);
      this.#subscribe(serial);
    } else {
      this.#plain.delete(serial);
      this.#unsubscribe(serial);
    }
  }

  /** Checks every plain subscription again (the shares held here or elsewhere changed). */
  refreshPlain(): void {
    for (const serial of [...this.#plain, ...this.#watched, ...this.#followed]) this.#refresh(serial);
  }

  publish(states: readonly LiveRoomState[]): void {
    const client = this.#client;
    if (client === undefined || this.#stopped || !client.connected) return;
    if (!this.#announcedSelf) {
      this.#announcedSelf = true;
      this.#announce(client);
    }
    // Only what the others take (their own room list says where a room belongs): a smaller message to
    // write and read each second. Plain objects rather than a key list for JSON.stringify, which
    // would leave its fast path.
    client.publish(`nemuri/room-states/${this.#group}/${this.processId}`, JSON.stringify(states.map(sharedOf)), { qos: 0 });
  }

  remote(serial: string): Omit<LiveRoomState, 'roomId' | 'domainId' | 'rootDomainId'> | undefined {
    const found = this.#remote.get(serial);
    if (found === undefined) return undefined;
    if (Date.now() - found.receivedAt > REMOTE_STATE_FRESH_MS) {
      this.#remote.delete(serial);
      return undefined;
    }
    return found.state;
  }

  #subscribe(serial: string): void {
    this.#client?.subscribe(framesTopic(serial), { qos: 0 }, (error) => {
      if (error) this.#log.warn({ serial, err: error.message }, 'MQTT subscription to a device failed');
    });
  }

  #unsubscribe(serial: string): void {
    this.#client?.unsubscribe(framesTopic(serial), {}, (error) => {
      if (error) this.#log.warn({ serial, err: error.message }, 'MQTT unsubscription from a device failed');
    });
  }
}
