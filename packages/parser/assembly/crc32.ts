// CRC-32 (IEEE 802.3, reflected polynomial 0xEDB88320, init and final XOR 0xFFFFFFFF), the one of
// zlib, PNG and Ethernet. Slicing-by-16: sixteen 256-entry tables (16 KiB, fits L1), 16 bytes a step.

const TABLES: usize = memory.data(16 * 256 * 4, 64);

function buildTables(): void {
  for (let i: u32 = 0; i < 256; i++) {
    let c = i;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    store<u32>(TABLES + (<usize>i << 2), c);
  }
  for (let i: u32 = 0; i < 256; i++) {
    let c = load<u32>(TABLES + (<usize>i << 2));
    for (let t: u32 = 1; t < 16; t++) {
      c = load<u32>(TABLES + (<usize>(c & 0xff) << 2)) ^ (c >>> 8);
      store<u32>(TABLES + (<usize>t << 10) + (<usize>i << 2), c);
    }
  }
}
buildTables();

// @ts-ignore: decorator
@inline function T(table: u32, byte: u32): u32 {
  return load<u32>(TABLES + (<usize>table << 10) + (<usize>(byte & 0xff) << 2));
}

// Entry of table `table` at a byte offset already scaled by 4 (saves a shift per lookup).
// @ts-ignore: decorator
@inline function S(table: u32, offset: u32): u32 {
  return load<u32>(TABLES + (<usize>table << 10) + <usize>offset);
}

/** One slicing-by-16 step on the raw (non-inverted) state `c` over the 16 bytes at `p`. */
// @ts-ignore: decorator
@inline export function crcStep16(c: u32, p: usize): u32 {
  const a = load<u32>(p) ^ c;
  const b = load<u32>(p, 4);
  const d = load<u32>(p, 8);
  const e = load<u32>(p, 12);
  return (
    S(15, (a << 2) & 0x3fc) ^ S(14, (a >>> 6) & 0x3fc) ^ S(13, (a >>> 14) & 0x3fc) ^ S(12, (a >>> 22) & 0x3fc) ^
    S(11, (b << 2) & 0x3fc) ^ S(10, (b >>> 6) & 0x3fc) ^ S(9, (b >>> 14) & 0x3fc) ^ S(8, (b >>> 22) & 0x3fc) ^
    S(7, (d << 2) & 0x3fc) ^ S(6, (d >>> 6) & 0x3fc) ^ S(5, (d >>> 14) & 0x3fc) ^ S(4, (d >>> 22) & 0x3fc) ^
    S(3, (e << 2) & 0x3fc) ^ S(2, (e >>> 6) & 0x3fc) ^ S(1, (e >>> 14) & 0x3fc) ^ S(0, (e >>> 22) & 0x3fc)
  );
}

/** CRC-32 of `n` bytes at `p`, continuing from `crc` (pass 0 to start). */
export function crc32Update(crc: u32, p: usize, n: usize): u32 {
  let c = ~crc;
  while (n >= 16) {
    c = crcStep16(c, p);
    p += 16;
    n -= 16;
  }
  while (n > 0) {
    c = T(0, c ^ load<u8>(p)) ^ (c >>> 8);
    p++;
    n--;
  }
  return ~c;
}
