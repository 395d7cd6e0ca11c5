import { describe, expect, it } from 'vitest';
import { loadParser } from '@nemuri/parser/node';
import type { SmfSampleFrame } from '@nemuri/parser/index';
import { EIT_MODEL_RATE, EIT_MODEL_WIDTH, EIT_REPLAY_FILE, EIT_REPLAY_RATE, EIT_REPLAY_WIDTH, loadEitRecording } from './eit.ts';
import {
  CHANNEL_ENCODING,
  SIMULATED_CHANNELS,
  SequenceCounters,
  encodeMessages,
  encodeSecond,
  encodeSecondMulti,
  restampMessage,
  type EncodedFrame,
  type SimulatedChannel,
} from './frames.ts';
import { scenarioSecond } from './scenario.ts';
import { DeviceSimulator } from './device.ts';
import { demoSecret } from './secrets.ts';
import { startSimulation } from './simulation.ts';
import { timeOf } from './testing.ts';

const WIDTHS: Record<SimulatedChannel, number> = { ecg: 1, respiAxl: 3, impe: 1, respiHr: 2, temperature: 1, button: 1, eit: EIT_MODEL_WIDTH };

async function collect(options: Parameters<typeof startSimulation>[0]): Promise<Map<string, EncodedFrame[]>> {
  const frames = new Map<string, EncodedFrame[]>();
  const simulation = await startSimulation({
    ...options,
    speed: Infinity,
    onFrame: (serial, frame) => frames.set(serial, [...(frames.get(serial) ?? []), frame]),
  });
  await simulation.done;
  return frames;
}

describe('published frames', () => {
  it('decode with the parser: channel, rate, counts, start times and consecutive sequence numbers', async () => {
    const parser = await loadParser();
    const startTime = timeOf(3600 * 2); // 22:00
    const frames = await collect({ devices: 4, seed: 3, durationSeconds: 20, startTime });
    expect([...frames.keys()]).toEqual(['NM-0001', 'NM-0002', 'NM-0003', 'NM-0004']);
    for (const list of frames.values()) {
      expect(list).toHaveLength(20 * SIMULATED_CHANNELS.length);
      const next = new Map<SimulatedChannel, number>();
      for (const frame of list) {
        const decoded = parser.decodeSmfFrame(frame.bytes) as SmfSampleFrame;
        const sequence = next.get(frame.channel) ?? 0;
        next.set(frame.channel, sequence + 1);
        expect(decoded.channel).toBe(frame.channel);
        expect(decoded.sequence).toBe(sequence);
        expect(decoded.startTimeUs).toBe((startTime + sequence * 1000) * 1000);
        const rate = frame.channel === 'eit' ? EIT_MODEL_RATE : CHANNEL_ENCODING[frame.channel].sampleRate;
        expect(decoded.sampleRate).toBe(rate);
        expect(decoded.sampleCount).toBe(rate);
        expect(decoded.width).toBe(WIDTHS[frame.channel]);
        expect(decoded.values).toHaveLength(rate * WIDTHS[frame.channel]);
        expect(decoded.format).toBe(CHANNEL_ENCODING[frame.channel].format);
      }
    }
  });

  it("multi shape: one message per device and second whose nested frames are the single shape's frames", async () => {
    const parser = await loadParser();
    const startTime = timeOf(3600 * 2);
    const device = new DeviceSimulator({ serial: 'NM-0001', seed: 3 });
    const single = new SequenceCounters();
    const multi = new SequenceCounters();
    for (let s = 0; s < 3; s++) {
      const second = device.generate(startTime + s * 1000)!;
      const expected = encodeSecond(parser, second, single);
      const message = encodeSecondMulti(parser, second, multi);
      const decoded = parser.decodeSmfFrame(message.bytes);
      expect(decoded.channel).toBe('multi');
      expect(decoded.sequence).toBe(s);
      if (decoded.channel !== 'multi') return;
      expect(decoded.frames.map((frame) => [frame.channel, frame.sequence])).toEqual(expected.map((frame) => [frame.channel, frame.sequence]));
      // The views the bench and onFrame get are exactly the nested frames, byte for byte.
      expect(message.frames.map((frame) => Buffer.from(frame.bytes).toString('hex'))).toEqual(
        expected.map((frame) => Buffer.from(frame.bytes).toString('hex')),
      );
      expect(message.frames.map((frame) => [frame.channel, frame.sequence])).toEqual(expected.map((frame) => [frame.channel, frame.sequence]));
    }
  });

  it('a replayed second is the same samples with the start time, sequence numbers and CRCs of the second now due', async () => {
    const parser = await loadParser();
    const startTime = timeOf(3600 * 2);
    const device = new DeviceSimulator({ serial: 'NM-0001', seed: 3 });
    const channels: SimulatedChannel[] = ['ecg', 'respiAxl', 'respiHr'];
    for (const shape of ['single', 'multi'] as const) {
      const sequences = new SequenceCounters();
      const original = encodeMessages(parser, device.generate(startTime)!, sequences, channels, shape);
      const kept = original.map((message) => ({ ...message, bytes: message.bytes.slice() }));
      const again = original.map((message) => restampMessage(message, (startTime + 7000) * 1000, sequences));
      // The original is left as it was (it may be replayed again).
      expect(original.map((message) => Buffer.from(message.bytes).toString('hex'))).toEqual(kept.map((message) => Buffer.from(message.bytes).toString('hex')));
      for (const [i, message] of again.entries()) {
        // The parser checks every CRC (nested and outer) and rejects the frame otherwise.
        const decoded = parser.decodeSmfFrame(message.bytes);
        const before = parser.decodeSmfFrame(original[i]!.bytes);
        expect(decoded.startTimeUs).toBe((startTime + 7000) * 1000);
        if (shape === 'multi') {
          expect(decoded.channel).toBe('multi');
          expect(decoded.sequence).toBe(1);
          if (decoded.channel !== 'multi' || before.channel !== 'multi') return;
          expect(decoded.frames.map((frame) => [frame.channel, frame.sequence, frame.startTimeUs])).toEqual(
            channels.map((channel) => [channel, 1, (startTime + 7000) * 1000]),
          );
          expect(decoded.frames.map((frame) => [...(frame as SmfSampleFrame).values])).toEqual(
            before.frames.map((frame) => [...(frame as SmfSampleFrame).values]),
          );
        } else {
          expect(decoded.sequence).toBe(1);
          expect([...(decoded as SmfSampleFrame).values]).toEqual([...(before as SmfSampleFrame).values]);
        }
        expect(message.frames.map((frame) => frame.sequence)).toEqual(message.frames.map(() => 1));
        for (const frame of message.frames) expect(parser.decodeSmfFrame(frame.bytes).startTimeUs).toBe((startTime + 7000) * 1000);
      }
    }
  });

  it('replaySeconds: the first seconds are generated, then sent again in turn as the seconds now due', async () => {
    const parser = await loadParser();
    const startTime = timeOf(3600 * 2);
    const channels: SimulatedChannel[] = ['ecg', 'respiHr'];
    const frames = await collect({ devices: 2, seed: 3, durationSeconds: 7, startTime, channels, replaySeconds: 3 });
    for (const list of frames.values()) {
      expect(list).toHaveLength(7 * channels.length);
      const ecg = list.filter((frame) => frame.channel === 'ecg').map((frame) => parser.decodeSmfFrame(frame.bytes) as SmfSampleFrame);
      expect(ecg.map((frame) => frame.sequence)).toEqual([0, 1, 2, 3, 4, 5, 6]);
      expect(ecg.map((frame) => frame.startTimeUs)).toEqual([0, 1, 2, 3, 4, 5, 6].map((s) => (startTime + s * 1000) * 1000));
      for (let s = 3; s < 7; s++) expect([...ecg[s]!.values]).toEqual([...ecg[s % 3]!.values]);
      expect([...ecg[1]!.values]).not.toEqual([...ecg[0]!.values]);
    }
  });

  it('a multi-shape dry run counts channel frames and one message per device and second', async () => {
    const simulation = await startSimulation({
      devices: 2,
      seed: 3,
      durationSeconds: 5,
      startTime: timeOf(3600 * 2),
      speed: Infinity,
      shape: 'multi',
      channels: ['ecg', 'respiAxl', 'respiHr'],
    });
    await simulation.done;
    expect(simulation.stats.framesGenerated).toBe(2 * 5 * 3);
    expect(simulation.stats.messagesGenerated).toBe(2 * 5);
  });

  it('sends nothing while a device is offline and resumes with the next sequence number', async () => {
    const parser = await loadParser();
    const serial = 'NM-0001';
    const { offline } = new DeviceSimulator({ serial, seed: 5 }).timeline;
    const startTime = timeOf(offline.start - 5);
    const seconds = offline.end - offline.start + 10;
    const frames = (await collect({ devices: 1, seed: 5, durationSeconds: seconds, startTime, channels: ['respiHr'] })).get(serial)!;
    expect(frames).toHaveLength(10);
    const decoded = frames.map((frame) => parser.decodeSmfFrame(frame.bytes));
    expect(decoded.map((frame) => frame.sequence)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    const times = decoded.map((frame) => scenarioSecond(frame.startTimeUs / 1000));
    expect(times.slice(0, 5)).toEqual([0, 1, 2, 3, 4].map((i) => offline.start - 5 + i));
    expect(times.slice(5)).toEqual([0, 1, 2, 3, 4].map((i) => offline.end + i));
  });

  it('replays the EIT recording: 13 frames/s of 256 values, the file in order', async () => {
    const parser = await loadParser();
    const recording = loadEitRecording();
    expect(recording.frames).toBe(220);
    const frames = (await collect({ devices: 1, seed: 1, durationSeconds: 20, startTime: timeOf(3 * 3600 + 1800), channels: ['eit'], eitReplay: true })).get(
      'NM-0001',
    )!;
    const values = frames.map((frame) => parser.decodeSmfFrame(frame.bytes) as SmfSampleFrame);
    expect(values[0]!.sampleRate).toBe(EIT_REPLAY_RATE);
    expect(values[0]!.width).toBe(EIT_REPLAY_WIDTH);
    const all = new Float32Array(values.reduce((n, frame) => n + frame.values.length, 0));
    let at = 0;
    for (const frame of values) {
      all.set(frame.values, at);
      at += frame.values.length;
    }
    for (let f = 0; f < 20 * EIT_REPLAY_RATE; f++) {
      const source = (f % recording.frames) * EIT_REPLAY_WIDTH;
      expect(all.subarray(f * EIT_REPLAY_WIDTH, (f + 1) * EIT_REPLAY_WIDTH)).toEqual(recording.values.subarray(source, source + EIT_REPLAY_WIDTH));
    }
    expect(() => loadEitRecording(`${EIT_REPLAY_FILE}.missing`)).toThrow(/cannot read .*P04P-1016\.get\.missing.*\.\.\/shared\/data/);
  });

  it('models EIT whose global sum oscillates with breathing', async () => {
    const parser = await loadParser();
    const frames = (await collect({ devices: 1, seed: 2, durationSeconds: 30, startTime: timeOf(5 * 3600 + 600), channels: ['eit'] })).get('NM-0001')!;
    const sums: number[] = [];
    for (const frame of frames) {
      const decoded = parser.decodeSmfFrame(frame.bytes) as SmfSampleFrame;
      for (let f = 0; f < decoded.sampleCount; f++)
        sums.push(decoded.values.subarray(f * EIT_MODEL_WIDTH, (f + 1) * EIT_MODEL_WIDTH).reduce((a, b) => a + b, 0));
    }
    const low = Math.min(...sums);
    const high = Math.max(...sums);
    expect((high - low) / low).toBeGreaterThan(0.01);
  });

  it('derives a stable demo secret per serial', () => {
    expect(demoSecret('NM-0001')).toMatch(/^[0-9a-f]{32}$/);
    expect(demoSecret('NM-0001')).toBe(demoSecret('NM-0001'));
    expect(demoSecret('NM-0002')).not.toBe(demoSecret('NM-0001'));
  });
});
