/**
 * Who owns a device's room state among the server processes (processGroup.ts): every process computes
 * the same owner from the same members, the devices spread over them, and a process that joins or
 * leaves moves only the devices it takes or had.
 */
import type { IPublishPacket } from 'mqtt';
import { describe, expect, it } from 'vitest';
import { ownerOf, ProcessGroup } from './processGroup.ts';

const serials = Array.from({ length: 3000 }, (_, i) => `NM-${String(i).padStart(5, '0')}`);

describe('room-state ownership (rendezvous hashing)', () => {
  it('gives every device one owner, the same whatever the order of the members, spread evenly', () => {
    const members = ['a1b2c3', 'd4e5f6', '0a0b0c'];
    const counts = new Map<string, number>();
    for (const serial of serials) {
      const owner = ownerOf(serial, members)!;
      expect(ownerOf(serial, [...members].reverse())).toBe(owner);
      counts.set(owner, (counts.get(owner) ?? 0) + 1);
    }
    for (const member of members) expect(counts.get(member)).toBeGreaterThan(serials.length / members.length / 1.25);
  });

  it('moves only the devices of the process that leaves, and to a process that joins only what it takes', () => {
    const before = ['p1', 'p2', 'p3'];
    const after = ['p1', 'p3'];
    for (const serial of serials) {
      const owner = ownerOf(serial, before);
      if (owner !== 'p2') expect(ownerOf(serial, after)).toBe(owner);
    }
    const joined = [...before, 'p4'];
    let moved = 0;
    for (const serial of serials) {
      const owner = ownerOf(serial, joined);
      if (owner !== ownerOf(serial, before)) {
        expect(owner).toBe('p4');
        moved++;
      }
    }
    expect(moved).toBeGreaterThan(serials.length / 4 / 1.25);
    expect(moved).toBeLessThan((serials.length / 4) * 1.25);
  });
});

describe('room states from the other processes', () => {
  const packet = (topic: string, payload: string) => ({ topic, payload: Buffer.from(payload) }) as unknown as IPublishPacket;
  const state = (serial: string) => ({
    serial,
    state: 'asleep',
    since: 1,
    respirationRate: 14,
    heartRate: 60,
    movement: 0,
    temperature: null,
    lastButtonAt: null,
    at: 2,
    // A sender cannot place a room in another tenant: these are not taken.
    roomId: 'their-room',
    domainId: 'their-facility',
    rootDomainId: 'their-corp',
  });
  const warnings: string[] = [];
  const log = { info: () => undefined, warn: (_: object, message: string) => warnings.push(message), error: () => undefined };

  it('takes only well-formed states of the devices the sender owns, without their room or tenant', () => {
    const group = new ProcessGroup({ group: 'g', processId: 'p1', log });
    expect(group.message(packet('nemuri/processes/g/p2', 'p2'))).toBe(true);
    const few = serials.slice(0, 40);
    const ofP2 = few.filter((serial) => ownerOf(serial, ['p1', 'p2']) === 'p2');
    const ofP1 = few.filter((serial) => ownerOf(serial, ['p1', 'p2']) === 'p1');
    expect(ofP2.length).toBeGreaterThan(0);
    expect(ofP1.length).toBeGreaterThan(0);
    group.message(packet('nemuri/room-states/g/p2', JSON.stringify(few.map(state))));
    for (const serial of ofP2) {
      expect(group.remote(serial)).toMatchObject({ serial, state: 'asleep', heartRate: 60 });
      expect(group.remote(serial)).not.toHaveProperty('domainId');
    }
    // p1's own devices: p2's word does not count.
    for (const serial of ofP1) expect(group.remote(serial)).toBeUndefined();
  });

  it('reads malformed messages as nothing, and says so', () => {
    const group = new ProcessGroup({ group: 'g', processId: 'p1', log });
    group.message(packet('nemuri/processes/g/p2', 'p2'));
    const serial = serials.find((candidate) => ownerOf(candidate, ['p1', 'p2']) === 'p2')!;
    warnings.length = 0;
    for (const payload of [
      'not json',
      '{}',
      'null',
      JSON.stringify([{ ...state(serial), state: 'dancing' }]),
      JSON.stringify([{ ...state(serial), heartRate: '60' }]),
      JSON.stringify([null]),
    ]) {
      expect(group.message(packet('nemuri/room-states/g/p2', payload))).toBe(true);
      expect(group.remote(serial)).toBeUndefined();
    }
    expect(warnings).toHaveLength(6);
  });
});

describe("which process's session holds which devices' shares (storage by owner)", () => {
  const packet = (topic: string, payload: string) => ({ topic, payload: Buffer.from(payload) }) as unknown as IPublishPacket;
  const warnings: string[] = [];
  const log = { info: () => undefined, warn: (_: object, message: string) => warnings.push(message), error: () => undefined };

  it("takes the others' stores messages, and a device is this process's alone only while nobody else's session holds its share", () => {
    const group = new ProcessGroup({ group: 'g', processId: 'p1', log });
    const here = new Set(['a', 'b']);
    group.storesHere = (serial) => here.has(serial);
    let changes = 0;
    group.onChange = () => changes++;
    expect(group.message(packet('nemuri/stores/g/p2', JSON.stringify(['b', 'c'])))).toBe(true);
    expect(changes).toBe(1);
    expect(group.holds('p2', 'b')).toBe(true);
    expect(group.heldElsewhere('c')).toBe(true);
    expect(group.alone('a')).toBe(true);
    // Held here and by p2 (a hand-over, or p2 died with its session kept): the broker splits its messages.
    expect(group.alone('b')).toBe(false);
    // Not held here at all.
    expect(group.alone('c')).toBe(false);
    // An empty message: p2's session holds nothing any more.
    group.message(packet('nemuri/stores/g/p2', ''));
    expect(group.alone('b')).toBe(true);
    expect(group.holds('p2', 'b')).toBe(false);
  });

  it("reads its own earlier run's message as what its session may still hold, and malformed messages as nothing", () => {
    const group = new ProcessGroup({ group: 'g', processId: 'p1', log });
    group.message(packet('nemuri/stores/g/p1', JSON.stringify(['x'])));
    // Its own message coming back as it publishes does not count.
    group.message(packet('nemuri/stores/g/p1', JSON.stringify(['y'])));
    expect([...group.storedBefore]).toEqual(['x']);
    group.message(packet('nemuri/stores/g/p2', JSON.stringify(['d'])));
    warnings.length = 0;
    for (const payload of ['not json', '{}', JSON.stringify([1]), JSON.stringify(['']), JSON.stringify(['a'.repeat(201)])]) {
      expect(group.message(packet('nemuri/stores/g/p2', payload))).toBe(true);
      expect(group.holds('p2', 'd')).toBe(true);
    }
    expect(warnings).toHaveLength(5);
  });

  it('gives every device to the others once it leaves, in its own view too', async () => {
    const group = new ProcessGroup({ group: 'g', processId: 'p1', log });
    group.message(packet('nemuri/processes/g/p2', 'p2'));
    const mine = serials.filter((serial) => group.owns(serial));
    expect(mine.length).toBeGreaterThan(0);
    await group.leave();
    expect(serials.some((serial) => group.owns(serial))).toBe(false);
    for (const serial of mine) expect(group.ownerOf(serial)).toBe('p2');
  });
});
