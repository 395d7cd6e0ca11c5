// SMF encoding of a device's seconds: one frame per channel per second, sequence numbers per channel;
// sent either one message per frame (`single`) or the second's frames nested in one multi frame (`multi`).
import { crc32 } from 'node:zlib';
import type { Parser, SmfSampleChannel, SmfSampleFrameInit } from '@nemuri/parser/index';
import { SMF_HEADER_OFFSETS, SMF_HEADER_SIZE, SMF_MIN_FRAME_SIZE } from '@nemuri/parser/smf';
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

/**
 * How a device sends its second: `single`, one message per channel frame (3 to 7 messages a second);
 * `multi`, one message a second holding all its channel frames in one multi frame
 * (docs/device-protocol.md, "Multi frames"), which divides the per-message work of the broker and
 * server by the number of channels.
 */
export const MESSAGE_SHAPES = ['single', 'multi'] as const;
export type MessageShape = (typeof MESSAGE_SHAPES)[number];

/** One MQTT message of a device: its bytes and the channel frames it carries. */
export interface EncodedMessage {
  bytes: Uint8Array;
  /** The channel frames (for a multi frame: views of its nested frames). */
  frames: EncodedFrame[];
}

/** Per-channel sequence counters of one device (u32, wrapping); `multi` counts the device's multi frames. */
export class SequenceCounters {
  readonly #next = new Map<SimulatedChannel | 'multi', number>();

  take(channel: SimulatedChannel | 'multi'): number {
    const sequence = this.#next.get(channel) ?? 0;
    this.#next.set(channel, (sequence + 1) >>> 0);
    return sequence;
  }
}

function frameInit(second: DeviceSecond, channel: SimulatedChannel, sequence: number): SmfSampleFrameInit & { channel: SimulatedChannel } {
  const encoding = CHANNEL_ENCODING[channel];
  return {
    channel,
    format: encoding.format,
    sampleRate: channel === 'eit' ? second.eitRate : encoding.sampleRate,
    scale: encoding.scale,
    offset: encoding.offset,
    sequence,
    startTimeUs: second.startTimeMs * 1000,
    values: second[channel],
    ...(channel === 'eit' ? { width: second.eitWidth } : {}),
  };
}

/** Encodes the chosen channels of one second with the WebAssembly parser (which checks every value fits). */
export function encodeSecond(
  parser: Parser,
  second: DeviceSecond,
  sequences: SequenceCounters,
  channels: readonly SimulatedChannel[] = SIMULATED_CHANNELS,
): EncodedFrame[] {
  return channels.map((channel) => {
    const sequence = sequences.take(channel);
    return { channel, sequence, bytes: parser.encodeSmfFrame(frameInit(second, channel, sequence)) };
  });
}

/**
 * The chosen channels of one second as one multi frame (at most 16 channels: the protocol's limit),
 * each nested frame with its channel's own sequence number; the multi frame has the device's.
 */
export function encodeSecondMulti(
  parser: Parser,
  second: DeviceSecond,
  sequences: SequenceCounters,
  channels: readonly SimulatedChannel[] = SIMULATED_CHANNELS,
): EncodedMessage {
  const inits = channels.map((channel) => frameInit(second, channel, sequences.take(channel)));
  const bytes = parser.encodeSmfFrame({ channel: 'multi', sequence: sequences.take('multi'), startTimeUs: second.startTimeMs * 1000, frames: inits });
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const frames: EncodedFrame[] = [];
  let at = SMF_HEADER_SIZE;
  for (const init of inits) {
    const length = SMF_MIN_FRAME_SIZE + view.getUint32(at + SMF_HEADER_OFFSETS.payloadLength, true);
    frames.push({ channel: init.channel, sequence: init.sequence, bytes: bytes.subarray(at, at + length) });
    at += length;
  }
  return { bytes, frames };
}

/** One second as the messages a device of this shape sends. */
export function encodeMessages(
  parser: Parser,
  second: DeviceSecond,
  sequences: SequenceCounters,
  channels: readonly SimulatedChannel[] = SIMULATED_CHANNELS,
  shape: MessageShape = 'single',
): EncodedMessage[] {
  if (shape === 'multi' && channels.length > 0) return [encodeSecondMulti(parser, second, sequences, channels)];
  return encodeSecond(parser, second, sequences, channels).map((frame) => ({ bytes: frame.bytes, frames: [frame] }));
}

/** A message with bytes of its own (encoding may reuse its buffer), its frames views of them as before. */
export function copyMessage(message: EncodedMessage): EncodedMessage {
  const bytes = message.bytes.slice();
  const frames = message.frames.map((frame) => {
    const at = frame.bytes.byteOffset - message.bytes.byteOffset;
    return { channel: frame.channel, sequence: frame.sequence, bytes: bytes.subarray(at, at + frame.bytes.byteLength) };
  });
  return { bytes, frames };
}

/**
 * A message sent before, sent again as the second starting at `startTimeUs`: a copy with every
 * frame's start time set, new sequence numbers taken in the order encoding takes them (the nested
 * frames, then the multi frame), and every CRC computed again (nested frames first: the outer CRC
 * covers them). What the server receives is then exactly what a device sending those samples again
 * would send; a load generator replays seconds so instead of generating them (startSimulation's
 * `replaySeconds`).
 */
export function restampMessage(message: EncodedMessage, startTimeUs: number, sequences: SequenceCounters): EncodedMessage {
  const copy = copyMessage(message);
  const { bytes } = copy;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (const frame of copy.frames) {
    frame.sequence = sequences.take(frame.channel);
    stampFrame(bytes, view, frame.bytes.byteOffset - bytes.byteOffset, frame.bytes.byteLength, startTimeUs, frame.sequence);
  }
  const multi = copy.frames.length !== 1 || copy.frames[0]!.bytes.byteLength !== bytes.byteLength;
  if (multi) stampFrame(bytes, view, 0, bytes.byteLength, startTimeUs, sequences.take('multi'));
  return copy;
}

function stampFrame(bytes: Uint8Array, view: DataView, at: number, length: number, startTimeUs: number, sequence: number): void {
  view.setUint32(at + SMF_HEADER_OFFSETS.sequence, sequence, true);
  view.setBigInt64(at + SMF_HEADER_OFFSETS.startTimeUs, BigInt(startTimeUs), true);
  view.setUint32(at + length - 4, crc32(bytes.subarray(at, at + length - 4)), true);
}
