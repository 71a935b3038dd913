/**
 * What the report line says about an output: the first differing element and the error figures, computed as
 * validation_runtime.py's compare does (np.allclose with rtol = atol; integers exactly when atol is 0), for the
 * dtype and atol the compare script gives, else the buffer's own type, exactly.
 */
import { ElemType, isFloat } from '../types/type';
import { codec } from '../numerics/elements';

export interface Tolerance {
  /** How the compare reads the files. */
  elem: ElemType;
  atol: number;
  /** Allowed distance in units in the last place (bf16 outputs of the harness's own compare). */
  ulp?: number;
}

export interface Difference {
  /** Elements compared (the shorter file's count). */
  count: number;
  mismatches: number;
  first?: { index: number; got: number; want: number };
  maxAbs: number;
  maxRel: number;
  /** The files differ in length. */
  sizes?: { got: number; want: number };
}

const NUMPY_TYPES: Record<string, ElemType> = {
  float32: 'f32',
  float16: 'f16',
  float64: 'f64',
  int8: 'i8',
  uint8: 'u8',
  int16: 'i16',
  uint16: 'u16',
  int32: 'i32',
  uint32: 'u32',
  int64: 'i64',
  uint64: 'u64',
  bool_: 'u8',
};

/** `compare_outputs(np.float32, atol=0.0001)` in a compare script: its dtype and atol; undefined for other forms. */
export function compareCallOf(script: string): { elem: ElemType; atol: number } | undefined {
  const m = /compare_outputs\(\s*np\.(\w+)\s*,\s*atol\s*=\s*([0-9.eE+-]+)\s*\)/.exec(script);
  const elem = m && NUMPY_TYPES[m[1]];
  return elem ? { elem, atol: Number(m[2]) } : undefined;
}

/** The tolerance PTOAS's generated compare uses for an output of this type: f32 1e-4, f16 1e-2, bf16 1 ulp, else exact. */
export function harnessTolerance(elem: ElemType): Tolerance {
  if (elem === 'f32') return { elem, atol: 1e-4 };
  if (elem === 'f16') return { elem, atol: 1e-2 };
  if (elem === 'bf16') return { elem, atol: 0, ulp: 1 };
  return { elem, atol: 0 };
}

export function compareBuffers(got: Uint8Array, want: Uint8Array, tolerance: Tolerance): Difference {
  const c = codec(tolerance.elem);
  const n = Math.min(Math.floor(got.length / c.size), Math.floor(want.length / c.size));
  const gv = new DataView(got.buffer, got.byteOffset, got.byteLength);
  const wv = new DataView(want.buffer, want.byteOffset, want.byteLength);
  const float = isFloat(tolerance.elem);
  const diff: Difference = { count: n, mismatches: 0, maxAbs: 0, maxRel: 0 };
  if (got.length !== want.length) diff.sizes = { got: got.length / c.size, want: want.length / c.size };
  for (let i = 0; i < n; i++) {
    const g = Number(c.read(gv, i * c.size));
    const w = Number(c.read(wv, i * c.size));
    if (Object.is(g, w) || g === w || (Number.isNaN(g) && Number.isNaN(w))) continue;
    const abs = Math.abs(g - w);
    const ok =
      tolerance.ulp !== undefined
        ? ulpDistance(got, want, i, c.size) <= tolerance.ulp
        : float || tolerance.atol > 0
          ? abs <= tolerance.atol + tolerance.atol * Math.abs(w)
          : false;
    if (Number.isFinite(abs)) {
      diff.maxAbs = Math.max(diff.maxAbs, abs);
      if (w !== 0) diff.maxRel = Math.max(diff.maxRel, abs / Math.abs(w));
    } else diff.maxAbs = Infinity;
    if (!ok) {
      diff.mismatches++;
      diff.first ??= { index: i, got: g, want: w };
    }
  }
  return diff;
}

/** Distance of two 16-bit floats (bf16) in the order of their values. */
function ulpDistance(got: Uint8Array, want: Uint8Array, i: number, size: number): number {
  const bits = (b: Uint8Array) => b[i * size] | (b[i * size + 1] << 8);
  const ordered = (x: number) => (x & 0x8000 ? 0x8000 - (x & 0x7fff) : 0x8000 + x);
  return Math.abs(ordered(bits(got)) - ordered(bits(want)));
}
