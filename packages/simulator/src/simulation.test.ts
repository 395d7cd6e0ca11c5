// A live run keeps to the wall clock however late it starts: seconds a little behind are caught up at
// once, a run far behind skips ahead (the server takes data more than a few seconds old as late).
import { describe, expect, it } from 'vitest';
import { startSimulation } from './simulation.ts';

const waitFor = async (condition: () => boolean, timeoutMs: number): Promise<void> => {
  const deadline = Date.now() + timeoutMs;
  while (!condition() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
};

describe('a live simulation', () => {
  it('catches up a few seconds behind at once, without skipping', async () => {
    const simulation = await startSimulation({ devices: 2, live: true, startTime: Date.now() - 3_000, channels: ['respiHr', 'button'] });
    try {
      await waitFor(() => simulation.stats.simulatedTimeMs >= Date.now() - 1_000, 1_500);
      expect(Date.now() - simulation.stats.simulatedTimeMs).toBeLessThan(2_000);
      expect(simulation.stats.simulatedSeconds).toBeGreaterThanOrEqual(2);
      expect(simulation.stats.skippedSeconds).toBe(0);
    } finally {
      await simulation.stop();
    }
  });

  it('skips ahead from a start far behind the clock instead of drifting behind it', async () => {
    const simulation = await startSimulation({ devices: 2, live: true, startTime: Date.now() - 600_000, channels: ['respiHr', 'button'] });
    try {
      await waitFor(() => simulation.stats.simulatedSeconds >= 2, 3_000);
      expect(simulation.stats.skippedSeconds).toBeGreaterThan(590);
      expect(Date.now() - simulation.stats.simulatedTimeMs).toBeLessThan(2_000);
      // And stays there: every second sent within the allowed lag of its end.
      await new Promise((resolve) => setTimeout(resolve, 2_500));
      expect(Date.now() - simulation.stats.simulatedTimeMs).toBeLessThan(2_000);
      expect(simulation.stats.lagMs).toBeLessThan(5_000);
    } finally {
      await simulation.stop();
    }
  });

  it('is the default at speed 1 from now, and off for a replay from a given time', async () => {
    const now = await startSimulation({ devices: 1, channels: ['button'] });
    const replay = await startSimulation({ devices: 1, channels: ['button'], startTime: Date.now() - 600_000, durationSeconds: 1 });
    try {
      await waitFor(() => now.stats.simulatedSeconds >= 1, 2_500);
      expect(Date.now() - now.stats.simulatedTimeMs).toBeLessThan(2_000);
      await replay.done;
      expect(replay.stats.skippedSeconds).toBe(0);
    } finally {
      await now.stop();
      await replay.stop();
    }
  });
});

describe('a warm-up', () => {
  it('sends the minutes before now at once, without EIT, then goes on live', async () => {
    const frames: { channel: string; at: number }[] = [];
    const started = Date.now();
    const simulation = await startSimulation({
      devices: 2,
      live: true,
      warmUpSeconds: 120,
      channels: ['respiHr', 'button', 'eit'],
      onFrame: (_, frame) => frames.push({ channel: frame.channel, at: Date.now() }),
    });
    try {
      await waitFor(() => simulation.stats.simulatedTimeMs >= Date.now() - 1_000, 5_000);
      expect(simulation.stats.simulatedSeconds).toBeGreaterThanOrEqual(120);
      expect(simulation.stats.skippedSeconds).toBe(0);
      const warmUp = frames.slice(0, 120 * 2 * 2);
      expect(new Set(warmUp.map((frame) => frame.channel))).toEqual(new Set(['respiHr', 'button']));
      expect(warmUp.at(-1)!.at - started).toBeLessThan(5_000);
      await waitFor(() => frames.some((frame) => frame.channel === 'eit'), 2_500);
      expect(frames.some((frame) => frame.channel === 'eit')).toBe(true);
    } finally {
      await simulation.stop();
    }
  });
});
