/**
 * What PTOAS's ExpandTileOp tells the template library about a tile op's operands (buildOperandSpecsJson in
 * lib/PTO/Transforms/ExpandTileOp.cpp), made from our types, and the name it gives the instance
 * (buildUniqueFunctionName). The template is selected and specialized from these specs alone.
 */
import { ElemType, TileType, Type } from '../types/type';

export interface TileSpec {
  kind: 'tile';
  dtype: string;
  shape: number[];
  /** null: dynamic (`?`), as PTOAS writes a dynamic dimension. */
  valid_shape: (number | null)[];
  memory_space: string;
  config: { b_layout: string; s_layout: string; s_fractal_size: number; pad_value: string; compact_mode: number };
}

export interface ScalarSpec {
  kind: 'scalar';
  dtype: string;
  /** The value when the operand is an integer constant (getStaticIntFromValue). */
  value?: number;
}

/** A view operand (tload's source, tstore's destination): PTOAS's memref after lowering, its shape and strides. */
export interface ViewSpec {
  kind: 'view';
  dtype: string;
  shape: (number | null)[];
  strides: (number | null)[];
  memory_space: string;
}

export type OperandSpec = TileSpec | ScalarSpec | ViewSpec;

/** PTOAS's getDtypeString: the element type's name in the template's vocabulary; undefined where it has none. */
const DTYPE_NAMES: Partial<Record<ElemType, string>> = {
  index: 'i32',
  i1: 'i1',
  f32: 'f32',
  f16: 'f16',
  bf16: 'bf16',
  f8E4M3FN: 'f8e4m3',
  f8E5M2: 'f8e5m2',
  '!pto.hif8': 'hif8',
  '!pto.f4E1M2x2': 'f4e1m2x2',
  '!pto.f4E2M1x2': 'f4e2m1x2',
  u64: 'ui64',
  u32: 'ui32',
  u16: 'ui16',
  u8: 'ui8',
  i64: 'i64',
  i32: 'i32',
  i16: 'i16',
  i8: 'i8',
};

/** PTOAS's stringifyMemorySpace: VEC (and an unset space) is `ub`. */
const memorySpace = (t: TileType): string => (t.loc === 'vec' ? 'ub' : t.loc);

/**
 * The operand's spec, or why PTOAS would not make one (an error there too). A partition view needs its strides
 * (`strides`, found by the caller from the view's make_tensor_view; null where not a constant).
 */
export function operandSpec(t: Type, constant?: number, strides?: (number | null)[]): OperandSpec | { unsupported: string } {
  if (t.kind === 'partition_view') {
    if (t.memref) return { unsupported: 'a view written as a memref' };
    const dtype = DTYPE_NAMES[t.elem];
    if (!dtype) return { unsupported: `a view of ${t.elem}` };
    if (!strides || strides.length !== t.shape.length) return { unsupported: 'a view whose strides are not known (no make_tensor_view found)' };
    return { kind: 'view', dtype, shape: t.shape, strides, memory_space: 'gm' };
  }
  if (t.kind === 'tile') {
    if (t.level !== 'buf') return { unsupported: 'a tile value (!pto.tile, Level 1): the templates take tile buffers' };
    if (t.memref) return { unsupported: 'a tile written as a memref' };
    const dtype = DTYPE_NAMES[t.dtype];
    if (!dtype) return { unsupported: `a tile of ${t.dtype}, which PTOAS names no template dtype for` };
    return {
      kind: 'tile',
      dtype,
      shape: [t.rows, t.cols],
      valid_shape: [t.vRow, t.vCol],
      memory_space: memorySpace(t),
      config: {
        b_layout: t.blayout,
        s_layout: t.slayout,
        s_fractal_size: t.fractal,
        pad_value: `0x${t.pad.toString(16).toUpperCase()}`,
        compact_mode: t.compact,
      },
    };
  }
  if (t.kind === 'scalar') {
    const dtype = DTYPE_NAMES[t.elem];
    if (!dtype) return { unsupported: `a scalar of ${t.elem}` };
    return constant === undefined ? { kind: 'scalar', dtype } : { kind: 'scalar', dtype, value: constant };
  }
  return { unsupported: `a ${t.kind} operand (only tiles and scalars are passed to templates yet)` };
}

/** PTOAS's BLayout/SLayout enum values, which the instance name carries as numbers. */
const BLAYOUT = { row_major: 0, col_major: 1 } as const;
const SLAYOUT = { none_box: 0, row_major: 1, col_major: 2 } as const;

/** `__pto_tilelang_a5_tadd_tile_f32_8_64_v8_v64_bl0_sl0_fr512_pd0_cm0..._<candidate>`: one name per specialization. */
export function instanceName(op: string, specs: OperandSpec[], candidate: string, context: Record<string, string> = {}): string {
  let name = `__pto_tilelang_a5_${op.replace(/^pto\./, '')}`;
  for (const s of specs) {
    name += `_${s.kind}_${s.dtype}`;
    if (s.kind === 'tile') {
      name += s.shape.map((d) => `_${d}`).join('');
      // A dynamic valid dimension is ShapedType's dynamic marker in PTOAS's key; any one spelling keeps names apart.
      name += s.valid_shape.map((d) => `_v${d ?? 'd'}`).join('');
      const c = s.config;
      name += `_bl${BLAYOUT[c.b_layout as keyof typeof BLAYOUT]}_sl${SLAYOUT[c.s_layout as keyof typeof SLAYOUT]}`;
      name += `_fr${c.s_fractal_size}_pd${c.pad_value.slice(2)}_cm${c.compact_mode}`;
    } else if (s.kind === 'view') {
      name += `_ms_${s.memory_space}_shape${s.shape.map((d) => `_${d ?? 'd'}`).join('')}_strides${s.strides.map((d) => `_${d ?? 'd'}`).join('')}`;
    } else if (s.value !== undefined) {
      name += `_sv${s.value}`;
    }
  }
  for (const [k, v] of Object.entries(context)) name += `_ctx_${k}_${v}`;
  return `${name}__${candidate}`;
}
