// Dense symmetric positive-definite solves for the forward model (~640 unknowns, banded by the ring
// numbering of the mesh) and the data-space Gauss–Newton system (208 unknowns). Row-major Float64Array,
// in place. A Cholesky factor keeps the band of its matrix, so with a half-bandwidth b the work drops from
// n³/6 to n·b²/2.

/**
 * Overwrites the lower triangle of the n×n row-major SPD matrix `a` with its Cholesky factor L (a = L Lᵀ).
 * `band`: entries with |i − j| > band are zero (default n − 1, a full matrix); they are never read.
 * Throws when the matrix is not positive definite.
 */
export function choleskyInPlace(a: Float64Array, n: number, band = n - 1): void {
  for (let j = 0; j < n; j++) {
    const rowJ = j * n;
    let diagonal = a[rowJ + j]!;
    for (let k = Math.max(0, j - band); k < j; k++) diagonal -= a[rowJ + k]! * a[rowJ + k]!;
    if (!(diagonal > 0)) throw new Error(`Cholesky: matrix not positive definite at row ${j}`);
    const pivot = Math.sqrt(diagonal);
    a[rowJ + j] = pivot;
    const last = Math.min(n - 1, j + band);
    for (let i = j + 1; i <= last; i++) {
      const rowI = i * n;
      let sum = a[rowI + j]!;
      // Rows i and j of L are contiguous: this dot product runs along memory.
      for (let k = Math.max(0, i - band); k < j; k++) sum -= a[rowI + k]! * a[rowJ + k]!;
      a[rowI + j] = sum / pivot;
    }
  }
}

/** Solves L Lᵀ x = b in place (b becomes x) with the factor (and band) from `choleskyInPlace`. */
export function choleskySolveInPlace(l: Float64Array, n: number, b: Float64Array, band = n - 1): void {
  for (let i = 0; i < n; i++) {
    const row = i * n;
    let sum = b[i]!;
    for (let k = Math.max(0, i - band); k < i; k++) sum -= l[row + k]! * b[k]!;
    b[i] = sum / l[row + i]!;
  }
  for (let i = n - 1; i >= 0; i--) {
    let sum = b[i]!;
    const last = Math.min(n - 1, i + band);
    for (let k = i + 1; k <= last; k++) sum -= l[k * n + i]! * b[k]!;
    b[i] = sum / l[i * n + i]!;
  }
}
