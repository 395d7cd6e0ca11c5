/** Recordings for the import tests and the import benchmark: simulated devices written as SMF files. */
import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import type { Parser } from '@nemuri/parser/node';
import { DeviceSimulator, encodeSecond, SequenceCounters, type SimulatedChannel } from '@nemuri/simulator/index';

export const NIGHT_RECORDING_CHANNELS: readonly SimulatedChannel[] = ['ecg', 'respiAxl', 'temperature'];

/** Writes `minutes` of a simulated device from `fromMs` as an SMF recording; answers its size in bytes. */
export async function writeSmfRecording(
  parser: Parser,
  path: string,
  options: { serial: string; fromMs: number; minutes: number; channels?: readonly SimulatedChannel[]; seed?: string },
): Promise<number> {
  const device = new DeviceSimulator({ serial: options.serial, seed: options.seed ?? 'imports' });
  const sequences = new SequenceCounters();
  const out = createWriteStream(path);
  let size = 0;
  for (let s = 0; s < options.minutes * 60; s++) {
    const second = device.generate(options.fromMs + s * 1000);
    if (second === null) continue;
    for (const frame of encodeSecond(parser, second, sequences, options.channels ?? NIGHT_RECORDING_CHANNELS)) {
      size += frame.bytes.length;
      if (!out.write(frame.bytes)) await once(out, 'drain');
    }
  }
  out.end();
  await once(out, 'finish');
  return size;
}
