/**
 * Who owns a device's room state among the server processes (processGroup.ts): every process computes
 * the same owner from the same members, the devices spread over them, and a process that joins or
 * leaves moves only the devices it takes or had.
 */
import { describe, expect, it } from 'vitest';
import { ownerOf } from './processGroup.ts';

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
