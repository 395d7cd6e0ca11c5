// The result block: a fixed static area the host reads after each call (little-endian).
//   0  i32 reason (0 = success)     4  i32 index     8  i32 offset     12 i32 index2
//   16 f64 a                        24 f64 b
//   32 + 4k  u32 out slot k (k < 16)
//   96 + 8k  f64 number slot k (k < 8)
export const RESULT: usize = memory.data(160, 16);

export function fail(reason: i32, index: i32, offset: i32, a: f64, b: f64): i32 {
  store<i32>(RESULT, reason, 0);
  store<i32>(RESULT, index, 4);
  store<i32>(RESULT, offset, 8);
  store<f64>(RESULT, a, 16);
  store<f64>(RESULT, b, 24);
  return reason;
}

export function setIndex2(index2: i32): void {
  store<i32>(RESULT, index2, 12);
}

export function clearResult(): void {
  memory.fill(RESULT, 0, 160);
  store<i32>(RESULT, -1, 4);
  store<i32>(RESULT, -1, 8);
  store<i32>(RESULT, -1, 12);
}

export function setOut(slot: i32, value: u32): void {
  store<u32>(RESULT + 32 + (<usize>slot << 2), value);
}

export function setNum(slot: i32, value: f64): void {
  store<f64>(RESULT + 96 + (<usize>slot << 3), value);
}
