import { x86Nan } from '../../../numerics/arithmetic';
import { NumericsProfile } from './context';

/**
 * The f32 binary operations as loops with their arithmetic inline (a loop calling an element function boxes every
 * double it passes; these do not): the fast path of TADD, TSUB, TMUL, TDIV, TMAX, TMIN, their tile-scalar and
 * row-expand forms. Each computes exactly numerics/arithmetic.ts's floatOperation for f32 (tested against it bit for
 * bit): one IEEE operation in double, rounded to f32 by the store; a NaN result is the x86 one (npu max/min give
 * the first NaN operand, as vmax/vmin do). They run over runs of `n` contiguous elements.
 */
export interface F32BinaryLoops {
  /** D[d + k] = A[a + k] op B[b + k] for k < n. */
  tiles(D: Float32Array, d: number, A: Float32Array, a: number, B: Float32Array, b: number, n: number): void;
  /** D[d + k] = A[a + k] op y for k < n (or y op A[a + k] with `scalarFirst`). */
  scalar(D: Float32Array, d: number, A: Float32Array, a: number, y: number, n: number, scalarFirst: boolean): void;
}

const nanOf = x86Nan as (a: number, b: number) => number;

const LOOPS = { 'cpu-sim': new Map<string, F32BinaryLoops | undefined>(), npu: new Map<string, F32BinaryLoops | undefined>() };

/** The loops of an f32 binary operation, or undefined for the operations that have none (made once per profile). */
export function f32BinaryLoops(name: string, numerics: NumericsProfile): F32BinaryLoops | undefined {
  const made = LOOPS[numerics];
  if (!made.has(name)) made.set(name, makeLoops(name, numerics === 'cpu-sim'));
  return made.get(name);
}

function makeLoops(name: string, cpuSim: boolean): F32BinaryLoops | undefined {
  switch (name) {
    case 'add':
      return {
        tiles(D, d, A, a, B, b, n) {
          for (let k = 0; k < n; k++) {
            const x = A[a + k];
            const y = B[b + k];
            const v = x + y;
            D[d + k] = v === v ? v : nanOf(x, y);
          }
        },
        scalar(D, d, A, a, y, n, scalarFirst) {
          for (let k = 0; k < n; k++) {
            const x = A[a + k];
            const v = x + y;
            D[d + k] = v === v ? v : scalarFirst ? nanOf(y, x) : nanOf(x, y);
          }
        },
      };
    case 'sub':
      return {
        tiles(D, d, A, a, B, b, n) {
          for (let k = 0; k < n; k++) {
            const x = A[a + k];
            const y = B[b + k];
            const v = x - y;
            D[d + k] = v === v ? v : nanOf(x, y);
          }
        },
        scalar(D, d, A, a, y, n, scalarFirst) {
          for (let k = 0; k < n; k++) {
            const x = A[a + k];
            const v = scalarFirst ? y - x : x - y;
            D[d + k] = v === v ? v : scalarFirst ? nanOf(y, x) : nanOf(x, y);
          }
        },
      };
    case 'mul':
      return {
        tiles(D, d, A, a, B, b, n) {
          for (let k = 0; k < n; k++) {
            const x = A[a + k];
            const y = B[b + k];
            const v = x * y;
            D[d + k] = v === v ? v : nanOf(x, y);
          }
        },
        scalar(D, d, A, a, y, n, scalarFirst) {
          for (let k = 0; k < n; k++) {
            const x = A[a + k];
            const v = x * y;
            D[d + k] = v === v ? v : scalarFirst ? nanOf(y, x) : nanOf(x, y);
          }
        },
      };
    case 'div':
      return {
        tiles(D, d, A, a, B, b, n) {
          for (let k = 0; k < n; k++) {
            const x = A[a + k];
            const y = B[b + k];
            const v = x / y;
            D[d + k] = v === v ? v : nanOf(x, y);
          }
        },
        scalar(D, d, A, a, y, n, scalarFirst) {
          for (let k = 0; k < n; k++) {
            const x = A[a + k];
            const v = scalarFirst ? y / x : x / y;
            D[d + k] = v === v ? v : scalarFirst ? nanOf(y, x) : nanOf(x, y);
          }
        },
      };
    case 'max':
      // cpu-sim: the simulator's `a < b ? b : a`; npu: the first NaN operand wins.
      return {
        tiles(D, d, A, a, B, b, n) {
          for (let k = 0; k < n; k++) {
            const x = A[a + k];
            const y = B[b + k];
            D[d + k] = !cpuSim && x !== x ? x : !cpuSim && y !== y ? y : x < y ? y : x;
          }
        },
        scalar(D, d, A, a, s, n, scalarFirst) {
          for (let k = 0; k < n; k++) {
            const x = scalarFirst ? s : A[a + k];
            const y = scalarFirst ? A[a + k] : s;
            D[d + k] = !cpuSim && x !== x ? x : !cpuSim && y !== y ? y : x < y ? y : x;
          }
        },
      };
    case 'min':
      return {
        tiles(D, d, A, a, B, b, n) {
          for (let k = 0; k < n; k++) {
            const x = A[a + k];
            const y = B[b + k];
            D[d + k] = !cpuSim && x !== x ? x : !cpuSim && y !== y ? y : y < x ? y : x;
          }
        },
        scalar(D, d, A, a, s, n, scalarFirst) {
          for (let k = 0; k < n; k++) {
            const x = scalarFirst ? s : A[a + k];
            const y = scalarFirst ? A[a + k] : s;
            D[d + k] = !cpuSim && x !== x ? x : !cpuSim && y !== y ? y : y < x ? y : x;
          }
        },
      };
  }
  return undefined;
}
