// Seeded pseudo-random numbers: every run with the same seed produces the same signals.

/** A 32-bit hash of any text (xmur3 finaliser over FNV-1a), used to derive independent streams from one seed. */
export function hashSeed(...parts: (string | number)[]): number {
  let h = 0x811c9dc5;
  const text = parts.join('\u0000');
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** sfc32: a small, fast generator with a 128-bit state; good enough for synthetic signals. */
export class Random {
  #a: number;
  #b: number;
  #c: number;
  #d: number;
  #spare = Number.NaN;

  constructor(seed: number) {
    this.#a = 0x9e3779b9;
    this.#b = 0x243f6a88;
    this.#c = 0xb7e15162;
    this.#d = seed >>> 0;
    for (let i = 0; i < 12; i++) this.next();
  }

  /** Uniform in [0, 1). */
  next(): number {
    const a = this.#a;
    const b = this.#b;
    const c = this.#c;
    const d = this.#d;
    const t = (((a + b) | 0) + d) | 0;
    this.#d = (d + 1) | 0;
    this.#a = b ^ (b >>> 9);
    this.#b = (c + (c << 3)) | 0;
    const r = (c << 21) | (c >>> 11);
    this.#c = (r + t) | 0;
    return (t >>> 0) / 4294967296;
  }

  uniform(low: number, high: number): number {
    return low + (high - low) * this.next();
  }

  /** Standard normal (Box–Muller, the second value kept for the next call). */
  gaussian(): number {
    if (!Number.isNaN(this.#spare)) {
      const spare = this.#spare;
      this.#spare = Number.NaN;
      return spare;
    }
    let u = this.next();
    while (u <= Number.EPSILON) u = this.next();
    const v = this.next();
    const radius = Math.sqrt(-2 * Math.log(u));
    this.#spare = radius * Math.sin(2 * Math.PI * v);
    return radius * Math.cos(2 * Math.PI * v);
  }

  /** Exponentially distributed waiting time with the given mean. */
  exponential(mean: number): number {
    return -mean * Math.log(1 - this.next());
  }
}
