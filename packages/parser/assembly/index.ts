// Entry point of the Nemuri parser WebAssembly module. Every export takes and returns numbers only:
// the host copies input into the arena (or writes it there directly), calls a decoder, and reads the
// result block and the output tables from linear memory. See src/wasm.ts for the host side.
import { arenaAlloc, arenaReset } from './memory';
import { clearResult, RESULT } from './result';
import { crc32Update } from './crc32';
import { smfDecode as decodeSmf, smfEncodeSamples as encodeSamples, smfFinishFrame as finishFrame } from './smf';
import { edfDecode as decodeEdf, edfForget, edfSamples as samplesEdf } from './edf';
import { base64Decode as decodeBase64 } from './base64';

/** Address of the result block. */
export function result(): usize {
  return RESULT;
}

/** Starts a new call: forgets every previous output and clears the result block. */
export function reset(): void {
  arenaReset();
  edfForget();
  clearResult();
}

/** Allocates `size` bytes in the arena (16-aligned, 16 bytes of slack). 0 when out of memory. */
export function alloc(size: u32): usize {
  return arenaAlloc(<u64>size);
}

export function crc32(p: usize, n: u32): u32 {
  return crc32Update(0, p, n);
}

export function smfDecode(p: usize, n: u32, flags: u32): i32 {
  clearResult();
  return decodeSmf(p, n, flags);
}

export function smfEncodeSamples(dst: usize, src: usize, count: u32, format: i32, kind: i32, scale: f64, offset: f64): i32 {
  clearResult();
  return encodeSamples(dst, src, count, format, kind, scale, offset);
}

export function smfFinishFrame(
  p: usize, channel: i32, format: i32, width: u32, sequence: u32, startTimeUs: f64,
  sampleRate: f32, sampleCount: u32, scale: f32, offset: f32, payload: u32,
): i32 {
  clearResult();
  return finishFrame(p, channel, format, width, sequence, startTimeUs, sampleRate, sampleCount, scale, offset, payload);
}

export function edfDecode(p: usize, n: u32, flags: u32): i32 {
  clearResult();
  return decodeEdf(p, n, flags);
}

/** Converts a batch of records after a batched edfDecode() (see assembly/edf.ts). */
export function edfSamples(first: u32, count: u32): void {
  samplesEdf(first, count);
}

export function base64Decode(p: usize, n: u32): i32 {
  clearResult();
  return decodeBase64(p, n);
}
