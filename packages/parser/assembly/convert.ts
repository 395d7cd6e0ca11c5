// Sample conversion kernels: digital → physical as f32(f64(d) * gain + offset), SIMD 8 samples a step.
// The scaling runs in f64 so the result is bit-identical to the obvious scalar formula (and to a
// plain JavaScript decoder doing the same arithmetic); only the final store rounds to f32.

export const FORMAT_INT16: i32 = 1;
export const FORMAT_INT24: i32 = 2;
export const FORMAT_FLOAT32: i32 = 3;

// @ts-ignore: decorator
@inline function scale4(v: v128, g: v128, o: v128): v128 {
  const lo = f64x2.convert_low_i32x4_s(v);
  const hi = f64x2.convert_low_i32x4_s(v128.shuffle<i32>(v, v, 2, 3, 2, 3));
  const a = f32x4.demote_f64x2_zero(f64x2.add(f64x2.mul(lo, g), o));
  const b = f32x4.demote_f64x2_zero(f64x2.add(f64x2.mul(hi, g), o));
  return v128.shuffle<i32>(a, b, 0, 1, 4, 5);
}

// @ts-ignore: decorator
@inline export function scaleF4(v: v128, g: v128, o: v128): v128 {
  const lo = f64x2.promote_low_f32x4(v);
  const hi = f64x2.promote_low_f32x4(v128.shuffle<i32>(v, v, 2, 3, 2, 3));
  const a = f32x4.demote_f64x2_zero(f64x2.add(f64x2.mul(lo, g), o));
  const b = f32x4.demote_f64x2_zero(f64x2.add(f64x2.mul(hi, g), o));
  return v128.shuffle<i32>(a, b, 0, 1, 4, 5);
}

/**
 * True when single-precision arithmetic gives bit-identical results to the f64 formula: offset ±0
 * and a gain that is a float32 (SMF scales are). Then d × gain is exact in f64 for |d| < 2^24 and
 * for float32 d, so rounding it once to f32 is exactly what f32x4.mul does; adding ±0 is exact.
 */
// @ts-ignore: decorator
@inline export function singlePrecisionIsExact(gain: f64, offset: f64): bool {
  return offset == 0 && <f64><f32>gain == gain;
}

// Four i32 lanes to physical f32 lanes, single or double precision (loop-invariant choice).
// @ts-ignore: decorator
@inline export function physical4(v: v128, fast: bool, s: v128, z: v128, g: v128, o: v128): v128 {
  return fast ? f32x4.add(f32x4.mul(f32x4.convert_i32x4_s(v), s), z) : scale4(v, g, o);
}

/** 16-bit little-endian two's complement samples. `raw` (Int32) may be 0 to skip raw output. */
export function convertInt16(src: usize, n: u32, dst: usize, raw: usize, gain: f64, offset: f64): void {
  const g = f64x2.splat(gain);
  const o = f64x2.splat(offset);
  const fast = singlePrecisionIsExact(gain, offset);
  const s = f32x4.splat(<f32>gain);
  const z = f32x4.splat(<f32>offset);
  let i: u32 = 0;
  for (; i + 8 <= n; i += 8) {
    const v = v128.load(src + (<usize>i << 1));
    const lo = i32x4.extend_low_i16x8_s(v);
    const hi = i32x4.extend_high_i16x8_s(v);
    const q = <usize>i << 2;
    if (raw != 0) {
      v128.store(raw + q, lo);
      v128.store(raw + q, hi, 16);
    }
    v128.store(dst + q, physical4(lo, fast, s, z, g, o));
    v128.store(dst + q, physical4(hi, fast, s, z, g, o), 16);
  }
  for (; i < n; i++) {
    const d = <i32>load<i16>(src + (<usize>i << 1));
    if (raw != 0) store<i32>(raw + (<usize>i << 2), d);
    store<f32>(dst + (<usize>i << 2), <f32>(<f64>d * gain + offset));
  }
}

// Moves the 3 bytes of each 24-bit sample into the top 3 bytes of a 32-bit lane (index 0xFF → 0).
export const SPREAD24: v128 = v128(-1, 0, 1, 2, -1, 3, 4, 5, -1, 6, 7, 8, -1, 9, 10, 11);

/** 24-bit little-endian two's complement samples. Reads up to 4 bytes past the last sample. */
export function convertInt24(src: usize, n: u32, dst: usize, raw: usize, gain: f64, offset: f64): void {
  const g = f64x2.splat(gain);
  const o = f64x2.splat(offset);
  const fast = singlePrecisionIsExact(gain, offset);
  const s = f32x4.splat(<f32>gain);
  const z = f32x4.splat(<f32>offset);
  let i: u32 = 0;
  for (; i + 8 <= n; i += 8) {
    const p = src + <usize>i * 3;
    const lo = i32x4.shr_s(i8x16.swizzle(v128.load(p), SPREAD24), 8);
    const hi = i32x4.shr_s(i8x16.swizzle(v128.load(p, 12), SPREAD24), 8);
    const q = <usize>i << 2;
    if (raw != 0) {
      v128.store(raw + q, lo);
      v128.store(raw + q, hi, 16);
    }
    v128.store(dst + q, physical4(lo, fast, s, z, g, o));
    v128.store(dst + q, physical4(hi, fast, s, z, g, o), 16);
  }
  for (; i < n; i++) {
    const p = src + <usize>i * 3;
    const d = <i32>load<u8>(p) | (<i32>load<u8>(p, 1) << 8) | (<i32>load<i8>(p, 2) << 16);
    if (raw != 0) store<i32>(raw + (<usize>i << 2), d);
    store<f32>(dst + (<usize>i << 2), <f32>(<f64>d * gain + offset));
  }
}

/** 32-bit little-endian IEEE floats. `raw` (Float32) receives the values as sent. */
export function convertFloat32(src: usize, n: u32, dst: usize, raw: usize, gain: f64, offset: f64): void {
  const g = f64x2.splat(gain);
  const o = f64x2.splat(offset);
  const fast = singlePrecisionIsExact(gain, offset);
  const s = f32x4.splat(<f32>gain);
  const z = f32x4.splat(<f32>offset);
  let i: u32 = 0;
  for (; i + 4 <= n; i += 4) {
    const q = <usize>i << 2;
    const v = v128.load(src + q);
    if (raw != 0) v128.store(raw + q, v);
    v128.store(dst + q, fast ? f32x4.add(f32x4.mul(v, s), z) : scaleF4(v, g, o));
  }
  for (; i < n; i++) {
    const q = <usize>i << 2;
    const d = load<f32>(src + q);
    if (raw != 0) store<f32>(raw + q, d);
    store<f32>(dst + q, <f32>(<f64>d * gain + offset));
  }
}

export function convert(format: i32, src: usize, n: u32, dst: usize, raw: usize, gain: f64, offset: f64): void {
  if (format == FORMAT_INT16) convertInt16(src, n, dst, raw, gain, offset);
  else if (format == FORMAT_INT24) convertInt24(src, n, dst, raw, gain, offset);
  else convertFloat32(src, n, dst, raw, gain, offset);
}
