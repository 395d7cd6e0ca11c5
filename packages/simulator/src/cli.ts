// npm run simulate -- --devices N --broker mqtt://127.0.0.1:1883 [--seed S] [--speed X|max] [--duration SECONDS] …
import { parseArgs } from 'node:util';
import { DEFAULT_UTC_OFFSET_MINUTES } from './scenario.ts';
import { MESSAGE_SHAPES, SIMULATED_CHANNELS, type MessageShape, type SimulatedChannel } from './frames.ts';
import { demoSecret, readSecretsFile } from './secrets.ts';
import { startSimulation } from './simulation.ts';

const USAGE = `Usage: npm run simulate -- --devices N --broker mqtt://127.0.0.1:1883 [options]

  --devices N            number of devices (default 1)
  --broker URL           MQTT broker (MQTT 3.1.1); required unless --dry-run
  --dry-run              generate and encode only, publish nothing (measures generation speed)
  --seed S               seed of the signals and scenarios (default 1)
  --speed X|max          simulated seconds per real second (default 1)
  --duration SECONDS     simulated seconds to run (default: until Ctrl-C)
  --start HH:MM|ISO      simulated start time; HH:MM is today on the scenario clock (default: now)
  --utc-offset MINUTES   the scenario clock's offset from UTC (default ${DEFAULT_UTC_OFFSET_MINUTES}, Japan)
  --serial-prefix P      serials P0001, P0002, … (default NM-)
  --secret-for S=SECRET  the secret of device S (repeatable)
  --secrets FILE         JSON map of serial to secret
                         (otherwise the demo secret: HMAC-SHA256("nemuri-demo-device-secret", serial), 32 hex digits)
  --channels a,b,…       channels to send (default ${SIMULATED_CHANNELS.join(',')})
  --shape single|multi   single (default): one MQTT message per channel frame; multi: one multi frame per
                         device and second carrying all its channels (fewer, larger messages)
  --eit-replay           replay ../shared/data/eit/P04P-1016.get instead of the EIT model
`;

function fail(message: string): never {
  console.error(`simulate: ${message}\n\n${USAGE}`);
  process.exit(2);
}

function number(name: string, text: string | undefined, fallback: number): number {
  if (text === undefined) return fallback;
  const value = Number(text);
  if (!Number.isFinite(value)) fail(`--${name} ${text} is not a number`);
  return value;
}

export function parseStart(text: string, utcOffsetMinutes: number, now = Date.now()): number {
  const clock = /^(\d{1,2}):(\d{2})$/.exec(text);
  if (clock) {
    const local = new Date(now + utcOffsetMinutes * 60_000);
    const ms = Date.UTC(local.getUTCFullYear(), local.getUTCMonth(), local.getUTCDate(), Number(clock[1]), Number(clock[2]));
    return ms - utcOffsetMinutes * 60_000;
  }
  const ms = Date.parse(text);
  if (Number.isNaN(ms)) throw new RangeError(`--start ${text} is neither HH:MM nor an ISO date-time`);
  return ms;
}

async function main(): Promise<void> {
  let values;
  try {
    ({ values } = parseArgs({
      options: {
        devices: { type: 'string' },
        broker: { type: 'string' },
        'dry-run': { type: 'boolean' },
        seed: { type: 'string' },
        speed: { type: 'string' },
        duration: { type: 'string' },
        start: { type: 'string' },
        'utc-offset': { type: 'string' },
        'serial-prefix': { type: 'string' },
        'secret-for': { type: 'string', multiple: true },
        secrets: { type: 'string' },
        channels: { type: 'string' },
        shape: { type: 'string' },
        'eit-replay': { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (error) {
    fail((error as Error).message);
  }
  if (values.help) {
    console.log(USAGE);
    return;
  }
  if (!values.broker && !values['dry-run']) fail('give --broker mqtt://host:port (or --dry-run)');
  const devices = number('devices', values.devices, 1);
  if (!Number.isInteger(devices) || devices < 1) fail(`--devices must be a positive integer`);
  const speed = values.speed === 'max' ? Infinity : number('speed', values.speed, 1);
  if (!(speed > 0)) fail('--speed must be positive');
  const utcOffsetMinutes = number('utc-offset', values['utc-offset'], DEFAULT_UTC_OFFSET_MINUTES);
  let startTime: number | undefined;
  try {
    startTime = values.start === undefined ? undefined : parseStart(values.start, utcOffsetMinutes);
  } catch (error) {
    fail((error as Error).message);
  }
  const secrets: Record<string, string> = values.secrets ? readSecretsFile(values.secrets) : {};
  for (const pair of values['secret-for'] ?? []) {
    const at = pair.indexOf('=');
    if (at <= 0) fail(`--secret-for ${pair}: expected SERIAL=SECRET`);
    secrets[pair.slice(0, at)] = pair.slice(at + 1);
  }
  const channels = values.channels?.split(',').map((name) => name.trim()) ?? [...SIMULATED_CHANNELS];
  for (const channel of channels) if (!(SIMULATED_CHANNELS as readonly string[]).includes(channel)) fail(`unknown channel ${channel}`);
  const shape = values.shape ?? 'single';
  if (!(MESSAGE_SHAPES as readonly string[]).includes(shape)) fail(`--shape must be one of ${MESSAGE_SHAPES.join(', ')}`);

  const simulation = await startSimulation({
    devices,
    broker: values['dry-run'] ? undefined : values.broker,
    seed: values.seed ?? 1,
    speed,
    durationSeconds: values.duration === undefined ? undefined : number('duration', values.duration, 0),
    startTime,
    utcOffsetMinutes,
    serialPrefix: values['serial-prefix'] ?? 'NM-',
    secretFor: (serial) => secrets[serial] ?? demoSecret(serial),
    channels: channels as SimulatedChannel[],
    shape: shape as MessageShape,
    eitReplay: values['eit-replay'] ?? false,
  });
  const { stats, serials } = simulation;
  const clock = (ms: number): string => new Date(ms + utcOffsetMinutes * 60_000).toISOString().slice(0, 19).replace('T', ' ');
  console.log(
    `simulating ${serials.length} device${serials.length === 1 ? '' : 's'} (${serials[0]}${serials.length > 1 ? ` … ${serials.at(-1)}` : ''}) → ${values['dry-run'] ? 'dry run, nothing published' : values.broker}; ` +
      `seed ${values.seed ?? 1}, speed ${speed === Infinity ? 'max' : `${speed}×`}, from ${clock(stats.simulatedTimeMs)} (UTC${utcOffsetMinutes >= 0 ? '+' : ''}${utcOffsetMinutes / 60})`,
  );

  let lastFrames = 0;
  let lastTime = performance.now();
  const report = (): void => {
    const now = performance.now();
    const rate = ((stats.framesGenerated - lastFrames) * 1000) / (now - lastTime);
    lastFrames = stats.framesGenerated;
    lastTime = now;
    console.log(
      `${clock(stats.simulatedTimeMs)}  ${Math.round(rate)} frames/s, ${stats.framesGenerated} generated (${stats.messagesGenerated} messages), ${stats.framesPublished} acknowledged, ` +
        `${stats.inFlight} in flight, ${stats.offlineDevices} offline, ${stats.publishErrors} errors`,
    );
  };
  const timer = setInterval(report, 5000);
  let finishing: Promise<void> | undefined;
  const finish = (): Promise<void> => (finishing ??= summarise());
  const summarise = async (): Promise<void> => {
    clearInterval(timer);
    await simulation.stop();
    const seconds = (Date.now() - stats.startedAtMs) / 1000;
    console.log(
      `stopped after ${stats.simulatedSeconds} simulated s in ${seconds.toFixed(1)} s: ${stats.framesGenerated} frames (${Math.round(stats.framesGenerated / seconds)} frames/s, ` +
        `${(stats.bytesGenerated / 1e6).toFixed(1)} MB), ${stats.framesPublished} acknowledged, ${stats.publishErrors} errors`,
    );
  };
  process.once('SIGINT', () => {
    console.log('\nSIGINT: stopping');
    void finish().then(() => process.exit(0));
  });
  await simulation.done;
  await finish();
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().catch((error: unknown) => {
    console.error(`simulate: ${(error as Error).message}`);
    process.exit(1);
  });
}
