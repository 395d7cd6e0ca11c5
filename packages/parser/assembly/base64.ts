// Forgiving base64 (WHATWG Infra, what atob() accepts): ASCII whitespace is ignored, padding is
// optional, a length of 4n+1 data characters is an error, leftover bits are discarded. Decoded in
// place: the output never overtakes the input.
import { fail, setOut } from './result';
import * as R from './reasons';

const INVALID: u8 = 0xff;
const SPACE: u8 = 0xfe;
const PAD: u8 = 0xfd;
const TABLE: usize = memory.data(256);

function buildTable(): void {
  memory.fill(TABLE, INVALID, 256);
  for (let i: u32 = 0; i < 26; i++) {
    store<u8>(TABLE + 0x41 + i, <u8>i);
    store<u8>(TABLE + 0x61 + i, <u8>(26 + i));
  }
  for (let i: u32 = 0; i < 10; i++) store<u8>(TABLE + 0x30 + i, <u8>(52 + i));
  store<u8>(TABLE + 0x2b, 62);
  store<u8>(TABLE + 0x2f, 63);
  store<u8>(TABLE + 0x3d, PAD);
  store<u8>(TABLE + 0x09, SPACE);
  store<u8>(TABLE + 0x0a, SPACE);
  store<u8>(TABLE + 0x0c, SPACE);
  store<u8>(TABLE + 0x0d, SPACE);
  store<u8>(TABLE + 0x20, SPACE);
}
buildTable();

// @ts-ignore: decorator
@inline function lookup(p: usize): u32 {
  return <u32>load<u8>(TABLE + <usize>load<u8>(p));
}

/** Decodes `n` characters at `p` in place. Output length in slot 0. */
export function base64Decode(p: usize, n: u32): i32 {
  const end = p + <usize>n;
  let r = p;
  let w = p;
  // Fast path: whole quanta of four data characters.
  while (r + 8 <= end) {
    const a = lookup(r);
    const b = lookup(r + 1);
    const c = lookup(r + 2);
    const d = lookup(r + 3);
    const e = lookup(r + 4);
    const f = lookup(r + 5);
    const g = lookup(r + 6);
    const h = lookup(r + 7);
    if ((a | b | c | d | e | f | g | h) & 0xc0) break;
    const v = (a << 18) | (b << 12) | (c << 6) | d;
    const u = (e << 18) | (f << 12) | (g << 6) | h;
    store<u8>(w, <u8>(v >> 16));
    store<u8>(w, <u8>(v >> 8), 1);
    store<u8>(w, <u8>v, 2);
    store<u8>(w, <u8>(u >> 16), 3);
    store<u8>(w, <u8>(u >> 8), 4);
    store<u8>(w, <u8>u, 5);
    w += 6;
    r += 8;
  }
  // General path: whitespace, padding and the tail.
  let data: u32 = <u32>(r - p);
  let acc: u32 = 0;
  let held: u32 = 0;
  let pads: u32 = 0;
  while (r < end) {
    const t = lookup(r);
    r++;
    if (t < 64) {
      if (pads != 0) return fail(R.BASE64_INVALID, -1, <i32>(r - p - 1), 0, 0);
      acc = (acc << 6) | t;
      held++;
      data++;
      if (held == 4) {
        store<u8>(w, <u8>(acc >> 16));
        store<u8>(w, <u8>(acc >> 8), 1);
        store<u8>(w, <u8>acc, 2);
        w += 3;
        acc = 0;
        held = 0;
      }
    } else if (t == SPACE) {
      continue;
    } else if (t == PAD) {
      pads++;
      if (pads > 2) return fail(R.BASE64_INVALID, -1, <i32>(r - p - 1), 0, 0);
    } else return fail(R.BASE64_INVALID, -1, <i32>(r - p - 1), 0, 0);
  }
  if (pads != 0 && (data + pads) % 4 != 0) return fail(R.BASE64_INVALID, -1, <i32>n, 0, 0);
  if (held == 1) return fail(R.BASE64_INVALID, -1, <i32>n, 0, 0);
  if (held == 2) {
    store<u8>(w, <u8>(acc >> 4));
    w += 1;
  } else if (held == 3) {
    store<u8>(w, <u8>(acc >> 10));
    store<u8>(w, <u8>(acc >> 2), 1);
    w += 2;
  }
  setOut(0, <u32>(w - p));
  return 0;
}
