/**
 * What the room-state service needs when several server processes share one broker and one database
 * (docs/scaling.md, "Room states with several processes"): each device has one owner process, which
 * alone receives all its frames, computes its room's state and opens its alerts; the owners send each
 * other their rooms' states, so that every process's monitoring viewers see every room. Made by the
 * external broker with MQTT_SHARED_GROUP (ingest/processGroup.ts); absent with one process.
 */
import type { LiveRoomState } from '@nemuri/shared/monitoring';

export interface RoomStateSharing {
  /** Whether this process computes the room state of this device now (it moves when processes join or leave). */
  owns(serial: string): boolean;
  /** The devices this process computes the room states of: their frames are to reach it, all of them. */
  follow(serials: ReadonlySet<string>): void;
  /** This process's rooms' states of this second, for the other processes. */
  publish(states: readonly LiveRoomState[]): void;
  /**
   * The latest state another process computed for this device, while fresh; undefined otherwise.
   * Without its room and tenant: those come from this process's own room list.
   */
  remote(serial: string): Omit<LiveRoomState, 'roomId' | 'domainId' | 'rootDomainId'> | undefined;
}
