/**
 * A demo device streaming in real time from the test process: every second it generates the second
 * that just ended with the simulator and sends it through HTTP ingest with the device's own secret,
 * as a real device would. `script` says what the signals show over a calm night (out of bed,
 * apnoea, a pressed button…), so a test can drive a room through each state and alert.
 */
import { createParserSync } from '@nemuri/parser/node';
import type { SmfSampleChannel } from '@nemuri/parser/smf';
import { DeviceSimulator, demoSecret, encodeSecond, SequenceCounters, type ScenarioState } from '@nemuri/simulator/index';

export interface LiveDevice {
  /** Changes what the signals show from the next second on. */
  setScript(script: Partial<ScenarioState>): void;
  /** Seconds sent so far and the ingest failures (status and body) seen. */
  readonly sent: number;
  readonly failures: string[];
  stop(): Promise<void>;
}

/**
 * Driven by its script alone: the base is a calm night for this person (asleep, resting rates, normal
 * temperature, no episode), never the demo scenario of the hour, whose fever, tachycardia or flutter
 * would otherwise leak into whatever the script leaves out, and differ with the time the test runs.
 */
class ScriptedDevice extends DeviceSimulator {
  script: Partial<ScenarioState> = {};

  override stateAt(): ScenarioState {
    const { restingHeartRate, restingRespirationRate, bodyTemperature } = this.timeline;
    const calm: ScenarioState = {
      presence: 'asleep',
      offline: false,
      apnea: false,
      moving: false,
      heartRate: restingHeartRate,
      respirationRate: restingRespirationRate,
      bodyTemperature,
      buttonPressed: false,
      flutter: false,
      sittingUp: false,
    };
    return { ...calm, ...this.script };
  }
}

export interface LiveDeviceOptions {
  /** Channels to send (default: every channel but EIT). */
  channels?: readonly SmfSampleChannel[];
  script?: Partial<ScenarioState>;
  /** Seconds sent at once at the start, ending now (default 5). */
  backfillSeconds?: number;
  /** The device's secret (default: the demo devices' derived secret). */
  secret?: string;
}

const DEFAULT_CHANNELS: readonly SmfSampleChannel[] = ['ecg', 'respiAxl', 'impe', 'respiHr', 'button', 'temperature'];

export function startLiveDevice(baseURL: string, serial: string, options: LiveDeviceOptions = {}): LiveDevice {
  const parser = createParserSync();
  const device = new ScriptedDevice({ serial, seed: `e2e-live-${serial}` });
  device.script = options.script ?? {};
  const channels = new Set(options.channels ?? DEFAULT_CHANNELS);
  const sequences = new SequenceCounters();
  const failures: string[] = [];
  const secret = options.secret ?? demoSecret(serial);
  let sent = 0;
  let next = Math.floor(Date.now() / 1000) * 1000 - (options.backfillSeconds ?? 5) * 1000;
  let stopped = false;
  let inFlight: Promise<void> = Promise.resolve();

  const sendDue = async () => {
    const chunks: Uint8Array[] = [];
    // Every whole second that has ended and was not sent yet.
    while (next + 1000 <= Date.now()) {
      const second = device.generate(next);
      next += 1000;
      if (second === null) continue;
      for (const frame of encodeSecond(parser, second, sequences)) if (channels.has(frame.channel as SmfSampleChannel)) chunks.push(frame.bytes);
      sent++;
    }
    if (chunks.length === 0) return;
    const response = await fetch(`${baseURL}/api/devices/${serial}/frames`, {
      method: 'POST',
      headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/octet-stream' },
      body: Buffer.concat(chunks),
    });
    if (response.status !== 202) failures.push(`${response.status} ${await response.text()}`);
  };
  const tick = () => {
    if (stopped) return;
    inFlight = inFlight.then(sendDue).catch((error: unknown) => {
      failures.push(String(error));
    });
  };
  tick();
  const timer = setInterval(tick, 250);

  return {
    setScript(script) {
      device.script = script;
    },
    get sent() {
      return sent;
    },
    failures,
    async stop() {
      stopped = true;
      clearInterval(timer);
      await inFlight;
    },
  };
}
