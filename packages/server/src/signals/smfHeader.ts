/**
 * Reading the few SMF header fields the server needs without decoding samples (docs/device-protocol.md,
 * "Frame layout"): stored chunks and live messages are walked with these, after the WebAssembly parser
 * has validated every frame once, at ingest.
 */
import { SMF_HEADER_OFFSETS as AT, SMF_MIN_FRAME_SIZE, smfChannelName, type SmfChannel } from '@nemuri/parser/smf';

export interface FrameHeader {
  channel: SmfChannel | undefined;
  sequence: number;
  startTimeUs: number;
  byteLength: number;
}

function view(bytes: Uint8Array): DataView {
  return new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/** The header of the frame at `offset`, or null when fewer than a whole frame's bytes remain. */
export function frameHeaderAt(bytes: Uint8Array, offset = 0): FrameHeader | null {
  if (bytes.byteLength - offset < SMF_MIN_FRAME_SIZE) return null;
  const data = view(bytes);
  const byteLength = SMF_MIN_FRAME_SIZE + data.getUint32(offset + AT.payloadLength, true);
  if (offset + byteLength > bytes.byteLength) return null;
  return {
    channel: smfChannelName(data.getUint8(offset + AT.channel)),
    sequence: data.getUint32(offset + AT.sequence, true),
    startTimeUs: Number(data.getBigInt64(offset + AT.startTimeUs, true)),
    byteLength,
  };
}

/** Splits a stream of already validated frames into one view per frame (no copies). */
export function splitFrames(bytes: Uint8Array): { header: FrameHeader; bytes: Uint8Array }[] {
  const frames: { header: FrameHeader; bytes: Uint8Array }[] = [];
  let offset = 0;
  for (let header = frameHeaderAt(bytes, offset); header !== null; header = frameHeaderAt(bytes, offset)) {
    frames.push({ header, bytes: bytes.subarray(offset, offset + header.byteLength) });
    offset += header.byteLength;
  }
  return frames;
}
