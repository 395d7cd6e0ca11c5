// SMF (device frame format) constants and types shared by the wrapper, tests and the simulator.
// The byte layout is documented in docs/device-protocol.md.

export const SMF_VERSION = 1;
/** Bytes 0..3 of every frame: 0x89 'S' 'M' 'F'. */
export const SMF_MAGIC = Uint8Array.of(0x89, 0x53, 0x4d, 0x46);
export const SMF_HEADER_SIZE = 44;
/**
 * Byte offsets of the header fields, little-endian (docs/device-protocol.md, "Frame layout"). Code that
 * reads a header without decoding (stored chunks, live messages, file pieces) reads it through these;
 * a test checks them against frames the WebAssembly encoder writes and against the protocol document.
 */
export const SMF_HEADER_OFFSETS = {
  magic: 0,
  version: 4,
  channel: 5,
  sampleFormat: 6,
  flags: 7,
  width: 8,
  sequence: 12,
  startTimeUs: 16,
  sampleRate: 24,
  sampleCount: 28,
  scale: 32,
  offset: 36,
  payloadLength: 40,
} as const;
/** Header plus CRC: the size of a frame with an empty payload. */
export const SMF_MIN_FRAME_SIZE = 48;
/** Most values (sample count × width) one frame may carry. */
export const SMF_MAX_VALUES = 65536;
/** Most nested frames in one multi frame. */
export const SMF_MAX_MULTI_FRAMES = 16;
/** Largest payload of any frame (a multi frame's nested frames included). */
export const SMF_MAX_PAYLOAD = 1 << 20;

export const SMF_CHANNELS = ['ecg', 'respiAxl', 'impe', 'eit', 'respiHr', 'button', 'temperature', 'multi'] as const;
export type SmfChannel = (typeof SMF_CHANNELS)[number];
export type SmfSampleChannel = Exclude<SmfChannel, 'multi'>;

/** Wire codes of the channels (byte 5). */
export const SMF_CHANNEL_CODES: Readonly<Record<SmfChannel, number>> = {
  ecg: 1,
  respiAxl: 2,
  impe: 3,
  eit: 4,
  respiHr: 5,
  button: 6,
  temperature: 7,
  multi: 8,
};

export const SMF_SAMPLE_FORMATS = ['int16', 'int24', 'float32'] as const;
export type SmfSampleFormat = (typeof SMF_SAMPLE_FORMATS)[number];

/** Wire codes of the sample formats (byte 6); 0 is "none", used only by multi frames. */
export const SMF_FORMAT_CODES: Readonly<Record<SmfSampleFormat, number>> = { int16: 1, int24: 2, float32: 3 };
export const SMF_BYTES_PER_SAMPLE: Readonly<Record<SmfSampleFormat, number>> = { int16: 2, int24: 3, float32: 4 };

/** Values per sample point each channel allows (respiAxl: x, y, z; respiHr: respiration, heart rate). */
export const SMF_WIDTHS: Readonly<Record<SmfSampleChannel, readonly number[]>> = {
  ecg: [1],
  respiAxl: [3],
  impe: [1],
  eit: [208, 256],
  respiHr: [2],
  button: [1],
  temperature: [1],
};

export function smfChannelName(code: number): SmfChannel | undefined {
  return SMF_CHANNELS[code - 1];
}

export function smfFormatName(code: number): SmfSampleFormat | undefined {
  return SMF_SAMPLE_FORMATS[code - 1];
}

interface SmfFrameBase {
  version: number;
  sequence: number;
  /** Start of the frame's first sample, microseconds since 1970-01-01T00:00:00Z. */
  startTimeUs: number;
  /** Where the frame starts in the decoded input. */
  byteOffset: number;
  byteLength: number;
  /** The frame's CRC-32 as sent (it matched). */
  crc: number;
}

export interface SmfSampleFrame extends SmfFrameBase {
  channel: SmfSampleChannel;
  format: SmfSampleFormat;
  /** Values per sample point: 1, 3 for respiAxl (x y z interleaved), 2 for respiHr, 208 or 256 for eit. */
  width: number;
  /** Sample points per second (eit: frames per second). */
  sampleRate: number;
  /** Sample points in this frame; `values.length === sampleCount * width`. */
  sampleCount: number;
  scale: number;
  offset: number;
  /** Physical values, raw × scale + offset, interleaved when width > 1. */
  values: Float32Array;
  /** The samples as sent (only with `{ raw: true }`): Int32Array for int16/int24, Float32Array for float32. */
  raw?: Int32Array | Float32Array;
}

export interface SmfMultiFrame extends SmfFrameBase {
  channel: 'multi';
  frames: SmfSampleFrame[];
}

export type SmfFrame = SmfSampleFrame | SmfMultiFrame;

interface SmfFrameInitBase {
  sequence: number;
  startTimeUs: number;
}

/** What {@link Parser.encodeSmfFrame} needs for one channel's frame. Give exactly one of raw or values. */
export interface SmfSampleFrameInit extends SmfFrameInitBase {
  channel: SmfSampleChannel;
  format: SmfSampleFormat;
  /** Defaults to the channel's only width; required for eit (208 or 256). */
  width?: number;
  sampleRate: number;
  /** Defaults to 1. Stored as float32. */
  scale?: number;
  /** Defaults to 0. Stored as float32. */
  offset?: number;
  /** Samples as they go on the wire (integers for int16/int24). */
  raw?: ArrayLike<number>;
  /** Physical values, quantised to round-half-even((value - offset) / scale). */
  values?: ArrayLike<number>;
}

export interface SmfMultiFrameInit extends SmfFrameInitBase {
  channel: 'multi';
  frames: SmfSampleFrameInit[];
}

export type SmfFrameInit = SmfSampleFrameInit | SmfMultiFrameInit;
