/**
 * The types of PTO-AS values: element types, scalars, pointers, views and tiles, and their canonical spelling.
 * Parsing type text is syntax's job (syntax/type-table.ts); this module only describes and prints types.
 */

/**
 * Element types of tiles, views and scalars. Signless MLIR integers (`i8`) are the signed types. The 8-bit and
 * packed formats (see STORED_FORMATS) are held as their bits: data moves, arithmetic on them is not defined here.
 */
export type ElemType = 'i1' | 'i8' | 'u8' | 'i16' | 'u16' | 'i32' | 'u32' | 'i64' | 'u64' | 'f16' | 'bf16' | 'f32' | 'f64' | 'index' | StoredFormat;

/**
 * Formats of A5's low-precision paths, by their MLIR spelling, with their size in bytes (packed pairs count as one
 * element): MLIR's own f8 types and the dialect's `!pto.` ones.
 */
export const STORED_FORMATS = {
  f8E4M3FN: 1,
  f8E5M2: 1,
  '!pto.hif8': 1,
  '!pto.f8E8M0': 1,
  '!pto.hif8x2': 2,
  '!pto.f4E1M2x2': 1,
  '!pto.f4E2M1x2': 1,
  '!pto.bf16x2': 4,
} as const;
export type StoredFormat = keyof typeof STORED_FORMATS;

export function isStoredFormat(e: ElemType): e is StoredFormat {
  return Object.prototype.hasOwnProperty.call(STORED_FORMATS, e);
}

export const TILE_LOCS = ['vec', 'mat', 'left', 'right', 'acc', 'bias', 'scaling'] as const;
export type TileLoc = (typeof TILE_LOCS)[number];
export type BLayout = 'row_major' | 'col_major';
export type SLayout = 'none_box' | 'row_major' | 'col_major';

export interface TileType {
  kind: 'tile';
  /** `!pto.tile_buf` (a Level 2 buffer) or `!pto.tile` (a Level 1 value). */
  level: 'buf' | 'value';
  loc: TileLoc;
  dtype: ElemType;
  rows: number;
  cols: number;
  /** Valid rows/cols; null = dynamic (`?`), given at run time. */
  vRow: number | null;
  vCol: number | null;
  blayout: BLayout;
  slayout: SLayout;
  fractal: number;
  pad: number;
  /** CompactMode: 0 none, 1 normal, 2 row_plus_one (every row, or column when col-major, one element longer). */
  compact: number;
  /** Written as a memref (the form after PTOAS's memory planning): the buffer's own shape and layout. */
  memref?: MemrefSpelling;
}

/** `memref<16x16x16xf16, strided<[256, 16, 1]>, #pto.address_space<vec>>`: what the memref form says beyond a tile or view. */
export interface MemrefSpelling {
  shape: (number | null)[];
  /** The layout as written (`strided<[1024, 1], offset: ?>`), if any. */
  layout?: string;
  space: 'gm' | TileLoc;
  /** No address space was written: a global memref (`memref<4xf32>`, as PTOAS lowers one), printed without one. */
  spaceless?: boolean;
}

export type Type =
  | { kind: 'scalar'; elem: ElemType }
  /**
   * A pointer; `memref`: written as an on-chip memref of a dynamic shape (`memref<?xf16, #pto.address_space<mat>>`,
   * the buffer-like operands of PTOAS's micro-level ops), which names a place and an element type but no tile.
   */
  | { kind: 'ptr'; elem: ElemType; space: PointerSpace; memref?: MemrefSpelling }
  | { kind: 'tensor_view'; shape: (number | null)[]; elem: ElemType }
  | { kind: 'partition_view'; shape: (number | null)[]; elem: ElemType; memref?: MemrefSpelling }
  | TileType
  | MultiTileType
  | { kind: 'handle'; handle: HandleKind }
  | { kind: 'eventid_array'; size: number }
  | { kind: 'local_array'; shape: number[]; elem: ElemType }
  | { kind: 'struct'; fields: Type[] }
  | VregType
  | { kind: 'mask'; granularity: MaskGranularity }
  | VmiVregType
  | VmiMaskType
  | { kind: 'align' }
  | { kind: 'opaque'; text: string };

/** `!pto.vreg<64xf32>`: a 256-byte vector register of PTOAS's micro-op level (VPTO), as lanes of one element type. */
export interface VregType {
  kind: 'vreg';
  lanes: number;
  elem: ElemType;
}

/**
 * `!pto.vmi.vreg<256xf32>`: a logical vector of PTOAS's VMI level (VMITypeDefs.td), any number of lanes of an 8-, 16-
 * or 32-bit element; `spelled` keeps the element as written (`si32` and `i32` are distinct VMI types: signless
 * converts as unsigned), `layout` the optional `#pto.vmi.layout<...>` as written (it places lanes in physical
 * registers, which the logical value does not observe).
 */
export interface VmiVregType {
  kind: 'vmi_vreg';
  lanes: number;
  elem: ElemType;
  spelled: string;
  layout?: string;
}

/** `!pto.vmi.mask<64xpred>`: a logical predicate of VMI, one bit per logical lane, at a granularity (`pred`: none). */
export interface VmiMaskType {
  kind: 'vmi_mask';
  lanes: number;
  granularity: 'pred' | MaskGranularity;
  layout?: string;
}

/** The bytes of a vector register (VPTOTypeDefs.td: "A 256-byte PTO low-level vector"). */
export const VREG_BYTES = 256;

/** `!pto.mask<b32>`: a predicate register read at the granularity of 8-, 16- or 32-bit lanes. */
export const MASK_GRANULARITIES = ['b8', 'b16', 'b32'] as const;
export type MaskGranularity = (typeof MASK_GRANULARITIES)[number];

/** The bits of one element of a type in a vector register (i1 is one bit; a packed pair counts as one element). */
export function elemBits(e: ElemType): number {
  return e === 'i1' ? 1 : elemSize(e) * 8;
}

/** `!pto.multi_tile_buf<vec, 16x16xf16, count=2>`: `count` tiles of one type, one of which an op selects at run time. */
export interface MultiTileType {
  kind: 'multi_tile';
  slot: TileType;
  count: number;
}

/**
 * Values that stand for machine state rather than data, with no parameters: a pipe between cores, an asynchronous
 * communication session and one of its events, a prefetch context.
 */
export const HANDLE_KINDS = ['pipe', 'async_session', 'async_event', 'prefetch_async_context'] as const;
export type HandleKind = (typeof HANDLE_KINDS)[number];

const SCALARS: Record<string, ElemType> = {
  i1: 'i1',
  i8: 'i8',
  si8: 'i8',
  ui8: 'u8',
  u8: 'u8',
  i16: 'i16',
  si16: 'i16',
  ui16: 'u16',
  u16: 'u16',
  i32: 'i32',
  si32: 'i32',
  ui32: 'u32',
  u32: 'u32',
  i64: 'i64',
  si64: 'i64',
  ui64: 'u64',
  u64: 'u64',
  f16: 'f16',
  bf16: 'bf16',
  f32: 'f32',
  f64: 'f64',
  index: 'index',
  // C spellings used by the ISA manual's positional tile types.
  int8: 'i8',
  uint8: 'u8',
  int16: 'i16',
  uint16: 'u16',
  int32: 'i32',
  uint32: 'u32',
  int64: 'i64',
  uint64: 'u64',
  half: 'f16',
  float: 'f32',
  bfloat16: 'bf16',
  float16: 'f16',
  float32: 'f32',
};

export function scalarFromName(name: string): ElemType | undefined {
  if (Object.prototype.hasOwnProperty.call(SCALARS, name)) return SCALARS[name];
  return Object.prototype.hasOwnProperty.call(STORED_FORMATS, name) ? (name as StoredFormat) : undefined;
}

/** Canonical MLIR spelling of an element type (unsigned as `ui8`, as PTOAS prints them). */
export function elemTypeName(e: ElemType): string {
  return e.startsWith('u') ? 'ui' + e.slice(1) : e;
}

export function elemSize(e: ElemType): number {
  if (isStoredFormat(e)) return STORED_FORMATS[e];
  switch (e) {
    case 'i1':
    case 'i8':
    case 'u8':
      return 1;
    case 'i16':
    case 'u16':
    case 'f16':
    case 'bf16':
      return 2;
    case 'i32':
    case 'u32':
    case 'f32':
      return 4;
    default:
      return 8;
  }
}

export const isFloat = (e: ElemType): boolean => e === 'f16' || e === 'bf16' || e === 'f32' || e === 'f64';
export const isInteger = (e: ElemType): boolean => !isFloat(e) && !isStoredFormat(e);

/** pto-isa's PadValue::CustomBase: pad values from here on carry the element's bits in their low 32 bits. */
export const CUSTOM_PAD_BASE = 2 ** 32;

/** Where a `!pto.ptr` points: global memory (the default) or an on-chip buffer. */
export type PointerSpace = 'gm' | TileLoc;

/** The keywords of pointer spaces as PTOAS reads them (several per space) and prints them (the first). */
export const POINTER_SPACE_NAMES: Record<PointerSpace, string[]> = {
  gm: ['gm'],
  mat: ['l1', 'mat'],
  left: ['l0a', 'left'],
  right: ['l0b', 'right'],
  acc: ['l0c', 'acc'],
  vec: ['ub', 'vec'],
  bias: ['bt', 'bias'],
  scaling: ['fb', 'scaling'],
};

/** The tile_buf configuration PTOAS assumes where the compact form leaves a key out. */
export const TILE_DEFAULTS = { blayout: 'row_major', slayout: 'none_box', fractal: 512, pad: 0, compact: 0 } as const;

/** Default layouts per location, as PTOAS and the corpus use them. */
export function defaultLayout(loc: TileLoc): { blayout: BLayout; slayout: SLayout } {
  switch (loc) {
    case 'mat':
      return { blayout: 'col_major', slayout: 'row_major' };
    case 'left':
      return { blayout: 'row_major', slayout: 'row_major' };
    case 'right':
      return { blayout: 'row_major', slayout: 'col_major' };
    case 'acc':
      return { blayout: 'col_major', slayout: 'row_major' };
    default:
      return { blayout: 'row_major', slayout: 'none_box' };
  }
}

/** The canonical PTOAS spelling of a type. */
export function printType(t: Type): string {
  switch (t.kind) {
    case 'scalar':
      return elemTypeName(t.elem);
    case 'ptr':
      if (t.memref) return printMemref(t.memref, t.elem);
      return `!pto.ptr<${elemTypeName(t.elem)}, ${POINTER_SPACE_NAMES[t.space][0]}>`;
    case 'tensor_view':
    case 'partition_view': {
      if (t.kind === 'partition_view' && t.memref) return printMemref(t.memref, t.elem);
      const dims = t.shape.map((d) => (d === null ? '?' : String(d))).join('x');
      return `!pto.${t.kind === 'tensor_view' ? 'tensor_view' : 'partition_tensor_view'}<${dims}x${elemTypeName(t.elem)}>`;
    }
    case 'tile':
      if (t.memref) return printMemref(t.memref, t.dtype);
      return `!pto.${t.level === 'buf' ? 'tile_buf' : 'tile'}<${tileParameters(t)}>`;
    case 'multi_tile':
      return `!pto.multi_tile_buf<${tileParameters(t.slot)}, count=${t.count}>`;
    case 'handle':
      return `!pto.${t.handle}`;
    case 'eventid_array':
      return `!pto.eventid_array<${t.size}>`;
    case 'local_array':
      return `!pto.local_array<${t.shape.join('x')}x${elemTypeName(t.elem)}>`;
    case 'struct':
      return `!pto.struct<${t.fields.map(printType).join(', ')}>`;
    case 'vreg':
      return `!pto.vreg<${t.lanes}x${elemTypeName(t.elem)}>`;
    case 'mask':
      return `!pto.mask<${t.granularity}>`;
    case 'align':
      return '!pto.align';
    case 'vmi_vreg':
      return `!pto.vmi.vreg<${t.lanes}x${t.spelled}${t.layout ? `, ${t.layout}` : ''}>`;
    case 'vmi_mask':
      return `!pto.vmi.mask<${t.lanes}x${t.granularity}${t.layout ? `, ${t.layout}` : ''}>`;
    case 'opaque':
      return t.text;
  }
}

/** PTOAS's compact form: location, shape and element type, then only the keys that differ from TILE_DEFAULTS. */
function tileParameters(t: TileType): string {
  const parts = [t.loc, `${t.rows}x${t.cols}x${elemTypeName(t.dtype)}`];
  if (t.vRow !== t.rows || t.vCol !== t.cols) parts.push(`valid=${t.vRow ?? '?'}x${t.vCol ?? '?'}`);
  if (t.blayout !== TILE_DEFAULTS.blayout) parts.push(`blayout=${t.blayout}`);
  if (t.slayout !== TILE_DEFAULTS.slayout) parts.push(`slayout=${t.slayout}`);
  if (t.fractal !== TILE_DEFAULTS.fractal) parts.push(`fractal=${t.fractal}`);
  if (t.pad !== TILE_DEFAULTS.pad) parts.push(`pad=${t.pad}`);
  if (t.compact !== TILE_DEFAULTS.compact) parts.push(`compact=${t.compact}`);
  return parts.join(', ');
}

function printMemref(m: MemrefSpelling, elem: ElemType): string {
  const dims = m.shape.map((d) => (d === null ? '?' : String(d))).join('x');
  return `memref<${dims}x${elemTypeName(elem)}${m.layout ? ', ' + m.layout : ''}${m.spaceless ? '' : `, #pto.address_space<${m.space}>`}>`;
}

/** A floating-point scalar. */
export function isFloatScalar(t: Type): boolean {
  return t.kind === 'scalar' && isFloat(t.elem);
}

/** An integer or index scalar; an unknown type (already reported) passes. */
export function isIntegerLike(t: Type | undefined): boolean {
  return t === undefined || (t.kind === 'scalar' && !isFloat(t.elem));
}

/** A scalar of one of these element types; an unknown type (already reported) passes. */
export function isScalarOf(t: Type | undefined, elems: ElemType[]): boolean {
  return t === undefined || (t.kind === 'scalar' && elems.includes(t.elem));
}
