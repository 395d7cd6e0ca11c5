// ASCII number parsing for EDF header fields and annotation onsets. Results are exact (equal to
// JavaScript's Number()) whenever `numberExact` is true: at most 15 significant digits and a decimal
// exponent within ±22, so mantissa and power of ten are both exact doubles and one correctly rounded
// multiply or divide gives the nearest double (Clinger's fast path). Otherwise the host re-parses.

const POW10: usize = memory.data<f64>([
  1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
  1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
]);

/** Set by parseDecimal: the text had the required syntax. */
export let numberOk: bool = false;
/** Set by parseDecimal: the returned value is exactly what Number(text) gives. */
export let numberExact: bool = false;

// @ts-ignore: decorator
@inline function isDigit(c: u32): bool {
  return c - 0x30 < 10;
}

/**
 * Parses [sign] digits [. digits] [e [sign] digits] in [p, end). `sign`: 0 no sign allowed, 1 optional,
 * 2 required. `exponent`: whether an exponent part is allowed. At least one digit is required.
 */
export function parseDecimal(p: usize, end: usize, sign: i32, exponent: bool): f64 {
  numberOk = false;
  numberExact = true;
  let negative = false;
  if (p < end) {
    const c = <u32>load<u8>(p);
    if (c == 0x2b || c == 0x2d) {
      if (sign == 0) return NaN;
      negative = c == 0x2d;
      p++;
    } else if (sign == 2) return NaN;
  } else return NaN;
  let mantissa: u64 = 0;
  let significant: i32 = 0;
  let digits: i32 = 0;
  let exp: i32 = 0;
  while (p < end && isDigit(<u32>load<u8>(p))) {
    const d = <u64>(load<u8>(p) - 0x30);
    if (significant < 19) {
      if (mantissa != 0 || d != 0) {
        mantissa = mantissa * 10 + d;
        significant++;
      }
    } else exp++;
    digits++;
    p++;
  }
  if (p < end && load<u8>(p) == 0x2e) {
    p++;
    while (p < end && isDigit(<u32>load<u8>(p))) {
      const d = <u64>(load<u8>(p) - 0x30);
      if (significant < 19) {
        if (mantissa != 0 || d != 0) {
          mantissa = mantissa * 10 + d;
          significant++;
        }
        exp--;
      }
      digits++;
      p++;
    }
  }
  if (digits == 0) return NaN;
  if (exponent && p < end && (load<u8>(p) | 0x20) == 0x65) {
    p++;
    let expNegative = false;
    if (p < end && (load<u8>(p) == 0x2b || load<u8>(p) == 0x2d)) {
      expNegative = load<u8>(p) == 0x2d;
      p++;
    }
    let e: i32 = 0;
    let expDigits = 0;
    while (p < end && isDigit(<u32>load<u8>(p))) {
      if (e < 100000) e = e * 10 + <i32>(load<u8>(p) - 0x30);
      expDigits++;
      p++;
    }
    if (expDigits == 0) return NaN;
    exp += expNegative ? -e : e;
  }
  if (p != end) return NaN;
  numberOk = true;
  let value: f64;
  if (mantissa == 0) value = 0;
  else if (significant <= 15 && exp >= -22 && exp <= 22) {
    const m = <f64>mantissa;
    value = exp >= 0 ? m * load<f64>(POW10 + (<usize>exp << 3)) : m / load<f64>(POW10 + (<usize>-exp << 3));
  } else {
    numberExact = false;
    value = <f64>mantissa * Math.pow(10, <f64>exp);
  }
  return negative ? -value : value;
}

/** Trims ASCII spaces around a fixed-width field and parses a decimal number. */
export function parseField(p: usize, width: usize, allowExponent: bool): f64 {
  let s = p;
  let e = p + width;
  while (s < e && load<u8>(s) == 0x20) s++;
  while (e > s && load<u8>(e - 1) == 0x20) e--;
  return parseDecimal(s, e, 1, allowExponent);
}

/** Parses an integer field; sets numberOk only for an integral value within ±2^31. */
export function parseIntField(p: usize, width: usize): i64 {
  const v = parseField(p, width, false);
  if (!numberOk || v != Math.trunc(v) || v < -2147483648 || v > 2147483647) {
    numberOk = false;
    return 0;
  }
  return <i64>v;
}
