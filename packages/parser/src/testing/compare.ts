/** Describes the first element where two numeric arrays differ (exactly: -0 ≠ 0, NaN = NaN), or null. */
export function firstMismatch(actual: ArrayLike<number>, expected: ArrayLike<number>, tolerance = 0): string | null {
  if (actual.length !== expected.length) return `length ${actual.length}, expected ${expected.length}`;
  for (let i = 0; i < actual.length; i++) {
    const a = actual[i] as number;
    const e = expected[i] as number;
    if (Number.isNaN(a) && Number.isNaN(e)) continue;
    if (tolerance === 0 ? !Object.is(a, e) : !(Math.abs(a - e) <= tolerance)) return `[${i}] = ${a}, expected ${e}`;
  }
  return null;
}
