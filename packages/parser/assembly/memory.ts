// Linear memory: static data (tables, the result block) below __heap_base, then one bump arena that
// every top-level call resets. Nothing here is garbage-collected and the AssemblyScript runtime is
// never used, so the module carries no runtime code at all.

/** Must equal asc's --maximumMemory (pages of 64 KiB): 32768 pages = 2 GiB keeps every pointer a positive i32. */
export const MAX_PAGES: i32 = 32768;

const arenaStart: usize = (__heap_base + 15) & ~(<usize>15);
let arenaTop: usize = arenaStart;

/** Forgets every allocation: outputs of the previous call become garbage. */
export function arenaReset(): void {
  arenaTop = arenaStart;
}

/**
 * Allocates `size` bytes aligned to 16, plus 16 bytes of slack so SIMD loads may read past the end.
 * Returns 0 when the memory limit would be exceeded or the host refuses to grow memory.
 */
export function arenaAlloc(size: u64): usize {
  const start = <u64>arenaTop;
  const end = (start + size + 31) & ~(<u64>15);
  if (end > (<u64>MAX_PAGES) << 16) return 0;
  const have = (<u64>memory.size()) << 16;
  if (end > have) {
    const pages = <i32>((end - have + 0xffff) >> 16);
    if (memory.grow(pages) < 0) return 0;
  }
  arenaTop = <usize>end;
  return <usize>start;
}

/** Bytes the arena would need for a request: lets the caller report "needs N bytes". */
export function arenaUsed(): usize {
  return arenaTop - arenaStart;
}
