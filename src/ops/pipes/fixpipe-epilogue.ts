import { ElemType, TileType } from '../../types/type';

/**
 * The fixpipe contract of a cube -> vector pipe (PTOAS's docs/designs/fixpipe-tpipe-design.md): an
 * `acc_push_epilogue = #pto.acc_push_epilogue<layout = L, quant = Q, relu = R>` on both ends' initializations says
 * how the cube's acc tile is converted on its way into the vector core's slot. These are the values the frontend
 * publishes (v1) and the element types and layouts each implies.
 */

export const FIXPIPE_LAYOUTS = ['nz2nd', 'nz2dn', 'nz2nz'] as const;
export const FIXPIPE_RELUS = ['no_relu', 'normal_relu'] as const;

/** Each published quant mode: the acc element it converts from, the consumer element it gives, its runtime state. */
const QUANTS = {
  no_convert: { from: 'f32|i32', to: 'same' },
  f32_f16: { from: 'f32', to: 'f16' },
  f32_bf16: { from: 'f32', to: 'bf16' },
  req8_scalar: { from: 'i32', to: 'si8|ui8', state: 'scalar' },
  req8_vec: { from: 'i32', to: 'si8', state: 'vector' },
  deqf16_scalar: { from: 'i32', to: 'f16', state: 'scalar' },
  deqf16_vec: { from: 'i32', to: 'f16', state: 'vector' },
  qf322b8_pre_scalar: { from: 'f32', to: 'si8|ui8', state: 'scalar' },
  qf322b8_pre_vec: { from: 'f32', to: 'si8', state: 'vector' },
  qf322f16_pre_scalar: { from: 'f32', to: 'f16', state: 'scalar' },
  qf322bf16_pre_scalar: { from: 'f32', to: 'bf16', state: 'scalar' },
  qs322bf16_pre_scalar: { from: 'i32', to: 'bf16', state: 'scalar', a5Only: "'qs322bf16_pre_*' quantization modes" },
  qs322bf16_pre_vec: { from: 'i32', to: 'bf16', state: 'vector', a5Only: "'qs322bf16_pre_*' quantization modes" },
  qf322hif8_pre_scalar: { from: 'f32', to: 'hif8', state: 'scalar', a5Only: "'qf322hif8_pre_scalar'/'qf322fp8_pre_scalar'" },
  qf322fp8_pre_scalar: { from: 'f32', to: 'fp8', state: 'scalar', a5Only: "'qf322hif8_pre_scalar'/'qf322fp8_pre_scalar'" },
} as const satisfies Record<string, QuantRule>;

interface QuantRule {
  from: 'f32' | 'i32' | 'f32|i32';
  to: 'same' | 'f16' | 'bf16' | 'si8' | 'si8|ui8' | 'hif8' | 'fp8';
  /** The quantization parameters a push reads: set by pto.set_quant_scalar / pto.set_quant_vector. */
  state?: 'scalar' | 'vector';
  /** Only A5's fixpipe has this path: what PTOAS's message calls the modes. */
  a5Only?: string;
}

export type FixpipeQuant = keyof typeof QUANTS;
export const FIXPIPE_QUANTS = Object.keys(QUANTS) as FixpipeQuant[];

export interface AccPushEpilogue {
  layout: (typeof FIXPIPE_LAYOUTS)[number];
  quant: FixpipeQuant;
  relu: (typeof FIXPIPE_RELUS)[number];
}

/** Decodes `#pto.acc_push_epilogue<layout = nz2nd, quant = no_convert, relu = no_relu>`, or says what is wrong. */
export function decodeEpilogue(text: string): { epilogue: AccPushEpilogue } | { problem: string } {
  const body = /^#pto\.acc_push_epilogue\s*<([^>]*)>$/.exec(text.trim())?.[1];
  const fields = body?.split(',').map((f) => /^\s*(\w+)\s*=\s*(\w+)\s*$/.exec(f));
  const expected = ['layout', 'quant', 'relu'];
  if (!fields || fields.length !== 3 || fields.some((f, i) => f?.[1] !== expected[i])) {
    return { problem: 'must be written #pto.acc_push_epilogue<layout = L, quant = Q, relu = R>' };
  }
  const [layout, quant, relu] = fields.map((f) => f![2]);
  const oneOf = (what: string, value: string, values: readonly string[]) =>
    values.includes(value) ? undefined : `${what} must be one of ${values.join(', ')} (the values PTOAS publishes), got ${value}`;
  const problem = oneOf('layout', layout, FIXPIPE_LAYOUTS) ?? oneOf('quant', quant, FIXPIPE_QUANTS) ?? oneOf('relu', relu, FIXPIPE_RELUS);
  if (problem) return { problem };
  return { epilogue: { layout, quant, relu } as AccPushEpilogue };
}

/** Which quantization state a push of this mode reads (undefined: none). */
export const quantState = (quant: FixpipeQuant): 'scalar' | 'vector' | undefined => (QUANTS[quant] as QuantRule).state;

/** What PTOAS calls a mode only A5 has, in its message; undefined when every target has it. */
export const a5OnlyModes = (quant: FixpipeQuant): string | undefined => (QUANTS[quant] as QuantRule).a5Only;

const isInt32 = (e: ElemType) => e === 'i32' || e === 'u32';

/** The acc tile's element type fits the mode. */
export function accElementFits(quant: FixpipeQuant, elem: ElemType): boolean {
  const from = QUANTS[quant].from;
  return (from.includes('f32') && elem === 'f32') || (from.includes('i32') && isInt32(elem));
}

/**
 * The element type of the consumer's tile, as written: the 8-bit modes need the signedness spelled (`si8`, `ui8`),
 * which the type model does not keep apart from a signless `i8`.
 */
export interface WrittenElement {
  elem: ElemType;
  /** For 8-bit integers: `signed` (si8), `unsigned` (ui8) or `signless` (i8). */
  signedness?: 'signed' | 'unsigned' | 'signless';
}

/** The consumer's element type is the one the mode gives (from an acc of `accElem`, when known). */
export function consumerElementFits(quant: FixpipeQuant, consumer: WrittenElement, accElem?: ElemType): boolean {
  const { elem, signedness } = consumer;
  switch (QUANTS[quant].to) {
    case 'same':
      return (elem === 'f32' || isInt32(elem)) && (accElem === undefined || accElem === elem);
    case 'f16':
      return elem === 'f16';
    case 'bf16':
      return elem === 'bf16';
    case 'si8':
      return elem === 'i8' && signedness === 'signed';
    case 'si8|ui8':
      return (elem === 'i8' && signedness === 'signed') || (elem === 'u8' && signedness !== 'signless');
    case 'hif8':
      return elem === '!pto.hif8';
    case 'fp8':
      return elem === 'f8E4M3FN';
  }
}

/** The consumer's tile has the layout the mode writes: nz2nd row-major, nz2dn column-major, nz2nz boxed Nz. */
export function consumerLayoutFits(layout: AccPushEpilogue['layout'], tile: TileType): boolean {
  if (tile.loc !== 'vec') return false;
  switch (layout) {
    case 'nz2nd':
      return tile.blayout === 'row_major' && tile.slayout === 'none_box';
    case 'nz2dn':
      return tile.blayout === 'col_major' && tile.slayout === 'none_box';
    case 'nz2nz':
      return tile.blayout === 'col_major' && tile.slayout === 'row_major';
  }
}
