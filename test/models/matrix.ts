/** Flat row-major data as rows, and back. */
export type Matrix = number[][];

export const rowsOf = (flat: number[], rows: number, cols: number): Matrix => Array.from({ length: rows }, (_, r) => flat.slice(r * cols, r * cols + cols));

export const transpose = (m: Matrix): Matrix => m[0].map((_, c) => m.map((row) => row[c]));

/** The rows x cols block of `m` at (r0, c0). */
export const block = (m: Matrix, r0: number, c0: number, rows: number, cols: number): Matrix => m.slice(r0, r0 + rows).map((row) => row.slice(c0, c0 + cols));

/** Element-wise combination of equally shaped matrices. */
export const zipWith = (a: Matrix, b: Matrix, fn: (x: number, y: number) => number): Matrix => a.map((row, r) => row.map((x, c) => fn(x, b[r][c])));
export const mapEach = (a: Matrix, fn: (x: number, r: number, c: number) => number): Matrix => a.map((row, r) => row.map((x, c) => fn(x, r, c)));
