// SMF encoding of a device's seconds: one frame per channel per second, sequence numbers per channel.
import type { Parser, SmfSampleChannel, SmfSampleFrameInit } from '@nemuri/parser/index';
import { BUTTON_RATE, ECG_RATE, IMPE_RATE, RESPI_AXL_RATE, type DeviceSecond } from './device.ts';

export const SIMULATED_CHANNELS = ['ecg', 'respiAxl', 'impe', 'respiHr', 'temperature', 'button', 'eit'] as const satisfies readonly SmfSampleChannel[];
export type SimulatedChannel = (typeof SIMULATED_CHANNELS)[number];

/** Wire format of each channel: sample format, scale and offset (physical = raw × scale + offset). */
export const CHANNEL_ENCODING = {
  ecg: { format: 'int16', sampleRate: ECG_RATE, scale: 0.005, offset: 0 },
  respiAxl: { format: 'int16', sampleRate: RESPI_AXL_RATE, scale: 0.0001, offset: 0 },
  impe: { format: 'int24', sampleRate: IMPE_RATE, scale: 0.001, offset: 0 },
  respiHr: { format: 'float32', sampleRate: 1, scale: 1, offset: 0 },
  temperature: { format: 'float32', sampleRate: 1, scale: 1, offset: 0 },
  button: { format: 'int16', sampleRate: BUTTON_RATE, scale: 1, offset: 0 },
  eit: { format: 'float32', sampleRate: 0, scale: 1, offset: 0 },
} as const satisfies Record<SimulatedChannel, Pick<SmfSampleFrameInit, 'format' | 'sampleRate' | 'scale' | 'offset'>>;

export interface EncodedFrame {
  channel: SimulatedChannel;
  sequence: number;
  bytes: Uint8Array;
}

/** Per-channel sequence counters of one device (u32, wrapping). */
export class SequenceCounters {
  readonly #next = new Map<SimulatedChannel, number>();

  take(channel: SimulatedChannel): number {
    const sequence = this.#next.get(channel) ?? 0;
    this.#next.set(channel, (sequence + 1) >>> 0);
    return sequence;
  }
}

/** Encodes the chosen channels of one second with the WebAssembly parser (which checks every value fits). */
export function encodeSecond(
  parser: Parser,
  second: DeviceSecond,
  sequences: SequenceCounters,
  channels: readonly SimulatedChannel[] = SIMULATED_CHANNELS,
): EncodedFrame[] {
  const startTimeUs = second.startTimeMs * 1000;
  const frames: EncodedFrame[] = [];
  for (const channel of channels) {
    const encoding = CHANNEL_ENCODING[channel];
    const sequence = sequences.take(channel);
    const bytes = parser.encodeSmfFrame({
      channel,
      format: encoding.format,
      sampleRate: channel === 'eit' ? second.eitRate : encoding.sampleRate,
      scale: encoding.scale,
      offset: encoding.offset,
      sequence,
      startTimeUs,
      values: second[channel],
      ...(channel === 'eit' ? { width: second.eitWidth } : {}),
    });
    frames.push({ channel, sequence, bytes });
  }
  return frames;
}
