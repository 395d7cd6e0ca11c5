import { describe, expect, it } from 'vitest';
import { collectionByName } from '@nemuri/shared/documents/collections';
import { ALERT_SEVERITY } from '@nemuri/shared/monitoring';
import { AlertTracker, DEFAULT_ALERT_NUMBERS, alertDocument, evaluateAlerts, resolveAlertNumbers, type AlertType } from './alerts.ts';
import type { TimedRoomState } from './roomState.ts';

const T0 = Date.UTC(2026, 10, 22, 15);
const base: Omit<TimedRoomState, 'at' | 'since'> = {
  state: 'asleep',
  respirationRate: 14,
  heartRate: 60,
  movement: 0,
  temperature: 36.5,
  lastButtonAt: null,
  postureChanges: 0,
};

/** Per-second history from [seconds, state overrides] segments; `since` follows state changes. */
function history(...segments: [number, Partial<TimedRoomState>][]): TimedRoomState[] {
  const out: TimedRoomState[] = [];
  let at = T0;
  let since = T0;
  for (const [seconds, overrides] of segments) {
    for (let s = 0; s < seconds; s++) {
      const state = { ...base, ...overrides };
      const previous = out.at(-1);
      if (previous && previous.state !== state.state) since = at;
      out.push({ ...state, since: overrides.since ?? since, at });
      at += 1000;
    }
  }
  return out;
}

const types = (states: TimedRoomState[], numbers = DEFAULT_ALERT_NUMBERS): AlertType[] => evaluateAlerts(states, numbers).map((a) => a.type);

describe('evaluateAlerts', () => {
  it.each<[string, TimedRoomState[], AlertType[]]>([
    ['quiet sleep', history([600, {}]), []],
    ['no breathing for 19 s', history([60, {}], [19, { state: 'noBreathing', respirationRate: 0 }]), []],
    ['no breathing for 21 s', history([60, {}], [21, { state: 'noBreathing', respirationRate: 0 }]), ['noBreathing']],
    ['heart rate 120 for 50 s', history([60, {}], [50, { heartRate: 120 }]), []],
    ['heart rate 120 for 61 s', history([60, {}], [61, { heartRate: 120 }]), ['heartRateHigh']],
    ['heart rate 40 for 61 s', history([60, {}], [61, { heartRate: 40 }]), ['heartRateLow']],
    ['heart rate high broken by a normal second', history([60, { heartRate: 120 }], [1, {}], [30, { heartRate: 120 }]), []],
    ['respiration 30 for 61 s', history([60, {}], [61, { respirationRate: 30 }]), ['respirationHigh']],
    ['respiration 6 for 61 s', history([60, {}], [61, { respirationRate: 6 }]), ['respirationLow']],
    ['respiration unknown (movement) is not low', history([120, { respirationRate: null }]), []],
    ['out of bed 1 min', history([60, {}], [60, { state: 'outOfBed', heartRate: null, respirationRate: null }]), ['outOfBed']],
    ['out of bed 10 min', history([60, {}], [601, { state: 'outOfBed', heartRate: null, respirationRate: null }]), ['longOutOfBed', 'outOfBed']],
    ['no normal heart rhythm for 3 s', history([60, {}], [3, { heartRate: null, heartRhythmLostSince: T0 + 60_000 }]), []],
    [
      'no normal heart rhythm for 5 s: 心拍異常 at once, whatever the heart-rate numbers',
      history([60, {}], [5, { heartRate: null, heartRhythmLostSince: T0 + 60_000 }]),
      ['heartRhythm'],
    ],
    [
      'no normal heart rhythm in no breathing',
      history([60, {}], [25, { state: 'noBreathing', respirationRate: 0, heartRate: null, heartRhythmLostSince: T0 + 60_000 }]),
      ['noBreathing', 'heartRhythm'],
    ],
    ['sitting up for a minute: off by default', history([60, {}], [60, { state: 'sittingUp' }]), []],
    ['fever 37.8 °C for 61 s', history([61, { temperature: 37.8 }]), ['temperatureHigh']],
    ['button pressed 30 s ago', history([60, {}], [30, { lastButtonAt: T0 + 60_000 }]), ['button']],
    ['button pressed 3 min ago', history([60, {}], [180, { lastButtonAt: T0 + 60_000 }]), []],
    ['offline 4 min', history([60, {}], [240, { state: 'offline', heartRate: null, respirationRate: null }]), []],
    ['offline 5 min', history([60, {}], [301, { state: 'offline', heartRate: null, respirationRate: null }]), ['deviceOffline']],
  ])('%s', (_, states, expected) => {
    expect(types(states)).toEqual(expected);
  });

  it("uses the domain's numbers, defaults for the missing ones", () => {
    const numbers = resolveAlertNumbers({ heartRateHigh: 130, noBreathingAlertSec: 10, respirationRateLow: null });
    expect(numbers).toEqual({ ...DEFAULT_ALERT_NUMBERS, heartRateHigh: 130, noBreathingAlertSec: 10 });
    expect(types(history([60, {}], [61, { heartRate: 120 }]), numbers)).toEqual([]);
    expect(types(history([60, {}], [11, { state: 'noBreathing' }]), numbers)).toEqual(['noBreathing']);
  });

  it("raises 起きあがり after the domain's seconds of sitting up when it is turned on", () => {
    const numbers = resolveAlertNumbers({ sittingUpAlertSec: 10 });
    expect(types(history([60, {}], [9, { state: 'sittingUp' }]), numbers)).toEqual([]);
    expect(evaluateAlerts(history([60, {}], [12, { state: 'sittingUp' }]), numbers)).toEqual([{ type: 'sittingUp', since: T0 + 70_000 }]);
  });

  it('the defaults are valid domain numbers', () => {
    const domains = collectionByName('domains')!;
    expect(domains.schema.safeParse({ name: 'Test', kind: 'facility', numbers: DEFAULT_ALERT_NUMBERS }).success).toBe(true);
  });

  it('dates an alert from when its condition was met', () => {
    const [alert] = evaluateAlerts(history([60, {}], [30, { state: 'noBreathing' }]));
    expect(alert).toEqual({ type: 'noBreathing', since: T0 + 80_000 });
    const [rhythm] = evaluateAlerts(history([60, {}], [10, { heartRate: null, heartRhythmLostSince: T0 + 60_000 }]));
    expect(rhythm).toEqual({ type: 'heartRhythm', since: T0 + 64_000 });
  });

  it('names the heart rhythm alert critical in the shared table, with the other types', () => {
    expect(ALERT_SEVERITY.heartRhythm).toBe('critical');
    expect(collectionByName('alerts')!.schema.safeParse(alertDocument({ domainId: 'd1' }, { type: 'heartRhythm', startedAt: T0 })).success).toBe(true);
  });
});

describe('AlertTracker', () => {
  it('opens, re-sounds an acknowledged alert that persists, and closes', () => {
    const tracker = new AlertTracker(DEFAULT_ALERT_NUMBERS, { resoundAfterSec: 60 });
    const states = history([30, {}], [200, { state: 'noBreathing', respirationRate: 0 }], [10, {}]);
    const events: string[] = [];
    for (const state of states) {
      if (state.at === T0 + 100_000) tracker.acknowledge('noBreathing', state.at, 'nurse');
      for (const event of tracker.update(state)) events.push(`${event.kind} ${event.type} ${(event.at - T0) / 1000}`);
    }
    // Acknowledged at 100: sounds again 60 s later; nobody acknowledges that, so again 60 s after it.
    expect(events).toEqual(['open noBreathing 50', 'resound noBreathing 160', 'resound noBreathing 220', 'close noBreathing 230']);
    expect(tracker.open).toEqual([]);
  });

  it('keeps one alert per type and re-sounds an acknowledged button alert on a new press', () => {
    const tracker = new AlertTracker();
    const states = history([10, { lastButtonAt: T0 }], [10, { lastButtonAt: T0 + 10_000 }]);
    const events: string[] = [];
    for (const state of states) {
      if (state.at === T0 + 5000) tracker.acknowledge('button', state.at);
      for (const event of tracker.update(state)) events.push(`${event.kind} ${event.type} ${(event.at - T0) / 1000}`);
    }
    expect(events).toEqual(['open button 0', 'resound button 10']);
    expect(tracker.open.map((a) => a.type)).toEqual(['button']);
  });

  it('gives alerts documents that validate against the registry', () => {
    const alerts = collectionByName('alerts')!;
    const open = alertDocument({ domainId: 'd1', roomId: 'r1', deviceSerial: 'NM-1' }, { type: 'noBreathing', startedAt: T0 });
    expect(alerts.schema.safeParse(open).success).toBe(true);
    const closed = alertDocument(
      { domainId: 'd1' },
      { type: 'button', startedAt: T0, endedAt: T0 + 60_000, acknowledgedAt: T0 + 5000, acknowledgedBy: 'uid-1' },
    );
    expect(alerts.schema.safeParse(closed).success).toBe(true);
    expect(closed.endedAt).toBe(new Date(T0 + 60_000).toISOString());
  });

  it('re-sounds an unacknowledged alert every interval while it is active, and never after it ended', () => {
    const tracker = new AlertTracker(DEFAULT_ALERT_NUMBERS, { resoundAfterSec: 60 });
    const events = history([150, { state: 'outOfBed' }], [100, {}]).flatMap((state) =>
      tracker.update(state).map((e) => `${e.kind} ${e.type} ${(e.at - T0) / 1000}`),
    );
    expect(events).toEqual(['open outOfBed 0', 'resound outOfBed 60', 'resound outOfBed 120', 'close outOfBed 150']);
  });

  it('keeps a long rate episode one alert that sounds again only every interval, acknowledged or not', () => {
    const tracker = new AlertTracker(DEFAULT_ALERT_NUMBERS, { resoundAfterSec: 120 });
    const events: string[] = [];
    // Longer than the tracker's history, with the rate unknown for 15 s now and then (the person moves).
    for (const state of history([400, { heartRate: 130 }]).map((state, i) => (i % 90 >= 75 ? { ...state, heartRate: null } : state))) {
      if (state.at === T0 + 100_000) tracker.acknowledge('heartRateHigh', state.at, 'nurse');
      for (const event of tracker.update(state)) events.push(`${event.kind} ${event.type} ${(event.at - T0) / 1000}`);
    }
    expect(events).toEqual(['open heartRateHigh 60', 'resound heartRateHigh 220', 'resound heartRateHigh 340']);
  });

  it('does not start a sustained rate over for a second of unknown rate', () => {
    const high = { heartRate: 130 };
    const withGaps = history([30, high], [2, { heartRate: null }], [40, high]);
    expect(evaluateAlerts(withGaps).map((alert) => alert.type)).toContain('heartRateHigh');
    const interrupted = history([30, high], [2, { heartRate: 70 }], [40, high]);
    expect(evaluateAlerts(interrupted).map((alert) => alert.type)).not.toContain('heartRateHigh');
  });
});
