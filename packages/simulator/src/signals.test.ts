import { describe, expect, it } from 'vitest';
import { loadParser } from '@nemuri/parser/node';
import { DeviceSimulator, ECG_RATE, IMPE_RATE, RESPI_AXL_RATE } from './device.ts';
import { SequenceCounters, encodeSecond } from './frames.ts';
import { stateAt } from './scenario.ts';
import { TEST_ORIGIN_MS, axis, findWindow, heartRateFromEcg, mean, record, respirationRateFrom, std, timeOf } from './testing.ts';

const SEED = 'signals-test';
const device = (serial = 'NM-0001', seed: string | number = SEED): DeviceSimulator => new DeviceSimulator({ serial, seed });

describe('reproducibility', () => {
  it('gives identical bytes for the same seed and different bytes for another seed', async () => {
    const parser = await loadParser();
    const run = (seed: string): Uint8Array[] => {
      const simulator = device('NM-0007', seed);
      const sequences = new SequenceCounters();
      const frames: Uint8Array[] = [];
      for (let t = 0; t < 30; t++) {
        const second = simulator.generate(TEST_ORIGIN_MS + (3 * 3600 + t) * 1000);
        if (second) frames.push(...encodeSecond(parser, second, sequences).map((frame) => frame.bytes));
      }
      return frames;
    };
    const a = run('a');
    expect(a.length).toBeGreaterThan(100);
    expect(run('a')).toEqual(a);
    expect(run('b')).not.toEqual(a);
  });

  it('gives the same other channels whether EIT is generated or not, and skips the EIT work when not', () => {
    const withEit = device('NM-0005');
    const withoutEit = device('NM-0005');
    for (let t = 0; t < 30; t++) {
      const time = TEST_ORIGIN_MS + (3 * 3600 + t) * 1000;
      const full = withEit.generate(time);
      const expected = full && {
        ecg: [...full.ecg],
        respiAxl: [...full.respiAxl],
        impe: [...full.impe],
        respiHr: [...full.respiHr],
        temperature: [...full.temperature],
        button: [...full.button],
      };
      const lean = withoutEit.generate(time, { eit: false });
      const got = lean && {
        ecg: [...lean.ecg],
        respiAxl: [...lean.respiAxl],
        impe: [...lean.impe],
        respiHr: [...lean.respiHr],
        temperature: [...lean.temperature],
        button: [...lean.button],
      };
      expect(got).toEqual(expected);
      // Never generated: the EIT array is still as allocated.
      if (lean) expect(lean.eit.every((value) => value === 0)).toBe(true);
      if (full) expect(full.eit.some((value) => value !== 0)).toBe(true);
    }
  });
});

describe('signals follow the scenario', () => {
  const serials = ['NM-0001', 'NM-0002', 'NM-0003'];

  it.each(serials)('%s: ECG R-peak intervals give the scenario heart rate within ±3 bpm (asleep and in tachycardia)', (serial) => {
    const simulator = device(serial);
    const quiet = (s: ReturnType<typeof stateAt>): boolean => s.presence === 'asleep' && !s.moving && !s.apnea && !s.offline;
    const asleep = findWindow(simulator.timeline, simulator.timeline.sleepOnset, 70, quiet);
    const tachycardia = findWindow(
      simulator.timeline,
      simulator.timeline.tachycardia.start + 40,
      60,
      (s) => !s.moving && s.presence !== 'out-of-bed' && s.heartRate > 120,
    );
    for (const start of [asleep, tachycardia]) {
      const recorded = record(simulator, start, start + 60);
      const expected = mean(recorded.states.map((s) => s.heartRate));
      expect(Math.abs(heartRateFromEcg(recorded.ecg, ECG_RATE) - expected)).toBeLessThanOrEqual(3);
    }
  });

  it.each(serials)('%s: respiration rate from the impedance and the acceleration within ±2 breaths/min', (serial) => {
    const simulator = device(serial);
    const start = findWindow(
      simulator.timeline,
      simulator.timeline.sleepOnset + 1800,
      100,
      (s) => s.presence === 'asleep' && !s.moving && !s.apnea && !s.offline,
    );
    record(simulator, start, start + 10); // let the breathing settle
    const recorded = record(simulator, start + 10, start + 100);
    const expected = mean(recorded.states.map((s) => s.respirationRate));
    expect(Math.abs(respirationRateFrom(recorded.impe, IMPE_RATE) - expected)).toBeLessThanOrEqual(2);
    expect(Math.abs(respirationRateFrom(axis(recorded.respiAxl, 3, 2), RESPI_AXL_RATE) - expected)).toBeLessThanOrEqual(2);
  });

  it.each(serials)('%s: no breathing during the apnea window', (serial) => {
    const simulator = device(serial);
    const { apnea } = simulator.timeline;
    expect(apnea.end - apnea.start).toBeGreaterThanOrEqual(20);
    expect(apnea.end - apnea.start).toBeLessThanOrEqual(40);
    const before = record(simulator, apnea.start - 40, apnea.start);
    const during = record(simulator, apnea.start, apnea.end);
    expect(during.states.every((s) => s.apnea)).toBe(true);
    expect(std(before.impe)).toBeGreaterThan(0.4);
    // After the first two seconds (the last breath fading out) the impedance holds still.
    expect(std(during.impe.subarray(2 * IMPE_RATE))).toBeLessThan(0.05);
    expect(std(axis(during.respiAxl, 3, 2).subarray(2 * RESPI_AXL_RATE))).toBeLessThan(0.001);
    expect([...during.respiHr.filter((_, i) => i % 2 === 0)].every((rate) => rate === 0)).toBe(true);
  });

  it.each(serials)('%s: out-of-bed periods are flat and report no rates', (serial) => {
    const simulator = device(serial);
    const out = simulator.timeline.outOfBed[0]!;
    const recorded = record(simulator, out.start, out.end);
    expect(recorded.states.every((s) => s.presence === 'out-of-bed')).toBe(true);
    const settled = recorded.impe.subarray(IMPE_RATE);
    expect(std(settled)).toBeLessThan(0.02);
    for (let a = 0; a < 3; a++) expect(std(axis(recorded.respiAxl, 3, a).subarray(RESPI_AXL_RATE))).toBeLessThan(0.001);
    expect(recorded.respiHr.every((value) => Number.isNaN(value))).toBe(true);
    // Leads off: the front end's flat line.
    expect(recorded.ecg.every((value) => value === 0)).toBe(true);
  });

  it('gives about one device in ten a ventricular flutter episode: a sine-like ECG at ~270/min and no device heart rate', () => {
    const withFlutter = Array.from({ length: 60 }, (_, i) => device(`NM-${String(i + 1).padStart(4, '0')}`).timeline).filter(
      (timeline) => timeline.flutter !== null,
    );
    expect(withFlutter.length).toBeGreaterThanOrEqual(2);
    expect(withFlutter.length).toBeLessThanOrEqual(12);
    const serial = Array.from({ length: 60 }, (_, i) => `NM-${String(i + 1).padStart(4, '0')}`).find(
      (candidate) => device(candidate).timeline.flutter !== null,
    )!;
    const simulator = device(serial);
    const flutter = simulator.timeline.flutter!;
    expect(flutter.end - flutter.start).toBeGreaterThanOrEqual(45);
    expect(flutter.end - flutter.start).toBeLessThanOrEqual(90);
    const during = record(simulator, flutter.start + 5, flutter.start + 25);
    expect(during.states.every((state) => state.flutter && state.presence !== 'out-of-bed')).toBe(true);
    expect(during.respiHr.filter((_, i) => i % 2 === 1).every((rate) => Number.isNaN(rate))).toBe(true);
    // Zero crossings upwards: 4.5 a second.
    let crossings = 0;
    for (let i = 1; i < during.ecg.length; i++) if (during.ecg[i - 1]! < 0 && during.ecg[i]! >= 0) crossings++;
    expect(crossings / 20).toBeGreaterThan(4);
    expect(crossings / 20).toBeLessThan(5);
    expect(record(simulator, flutter.end + 5, flutter.end + 25).states.every((state) => !state.flutter)).toBe(true);
  });

  it('has every episode of the night, staggered between devices', () => {
    const timelines = serials.map((serial) => device(serial).timeline);
    for (const timeline of timelines) {
      expect(timeline.movements.length).toBeGreaterThan(10);
      expect(timeline.outOfBed.length).toBe(2);
      expect(timeline.offline.end - timeline.offline.start).toBeGreaterThanOrEqual(120);
      expect(timeline.tachycardiaRate).toBeGreaterThan(120);
      const peak = stateAt(timeline, timeline.fever.peakStart + 60);
      expect(peak.bodyTemperature - timeline.bodyTemperature).toBeGreaterThan(1.3);
      expect(stateAt(timeline, timeline.button.start).buttonPressed).toBe(true);
      expect(stateAt(timeline, timeline.offline.start + 1).offline).toBe(true);
    }
    expect(new Set(timelines.map((t) => t.bedTime)).size).toBe(timelines.length);
    expect(new Set(timelines.map((t) => t.apnea.start)).size).toBe(timelines.length);
    expect(timeOf(0)).toBe(TEST_ORIGIN_MS);
  });

  it('raises the temperature during the fever', () => {
    const simulator = device('NM-0002');
    const { fever, bodyTemperature } = simulator.timeline;
    let last = Number.NaN;
    for (let t = fever.peakStart - 1200; t < fever.peakStart + 600; t++) last = simulator.generate(timeOf(t))?.temperature[0] ?? last;
    expect(last - bodyTemperature).toBeGreaterThan(1);
  });
});
