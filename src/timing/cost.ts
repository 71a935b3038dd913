import { ElemType, elemSize, TileLoc } from '../types/type';

/** The targets the cost model knows. */
export type CostArch = 'a2a3' | 'a5';

/** The pipes of a core an op is issued to (perf_sim's PipeStage, latency.hpp). */
export type Pipe = 'scalar' | 'vector' | 'cube' | 'mte1' | 'mte2' | 'mte3' | 'fixpipe';

/** The cost of one op: cycles and where the number comes from, or why there is none. */
export type OpCost = { kind: 'cycles'; cycles: number; pipe: Pipe; basis: string } | { kind: 'no-data'; pipe: Pipe | undefined; reason: string };

export const noData = (reason: string, pipe?: Pipe): OpCost => ({ kind: 'no-data', pipe, reason });

/** One tile op as the model sees it: its name as the ISA spells it (TADD), its element types and its tile. */
export interface TileOpInput {
  op: string;
  arch: CostArch;
  dtype: ElemType;
  /** The destination's element type where it differs (TCVT). */
  dstDtype?: ElemType;
  /** The tile's static shape. */
  rows: number;
  cols: number;
  /** The valid region (absent: the whole tile). */
  validRows?: number;
  validCols?: number;
  /** A5's vector-function form, when the program asks for one (pto-isa's VFImplKind); absent: the default. */
  vfImpl?: '1D_POST_UPDATE' | '1D_NO_POST_UPDATE' | '2D_POST_UPDATE' | '2D_NO_POST_UPDATE';
  /** A5 curve variant (op_params: TRECIP's "default"/"high_precision", TSEL's even/odd, TCVT's rounding). */
  opParams?: string;
  /** TCVT's rounding and saturation (pto-isa's RoundMode, SaturationMode). */
  roundMode?: 'CAST_NONE' | 'CAST_RINT' | 'CAST_TRUNC' | string;
  saturation?: 'ON' | 'OFF';
  /** TMATMUL: the contracted extent (rows = M, cols = N). */
  k?: number;
  /** TCOLSUM's isBinary (pairwise sums through a scratch tile); absent: not known. */
  binary?: boolean;
  /** The tile sources' valid regions, in operand order (TMRGSORT: one source is format 1, several are lists). */
  /** The destination is a column: column-major, not boxed, one valid column (a row reduction's grouped form). */
  columnDestination?: boolean;
  /** The destination's on-chip location (a vector function writes only vector tiles). */
  loc?: TileLoc;
  sources?: readonly { validRows: number; validCols: number; /** Row-major (else column-major). */ rowMajor?: boolean }[];
  /** TMRGSORT format 1: the length of each of the 4 merged blocks, in elements. */
  blockLen?: number;
  /** TGATHER: the mask form's pattern (absent: the index or compare form). */
  maskPattern?: string;
}

/** The dtypes the cost tables name (8-, 16- and 32-bit): their sizes; another dtype has no data. */
const COSTED_DTYPES: ReadonlySet<ElemType> = new Set<ElemType>([
  'i8',
  'u8',
  'f8E4M3FN',
  'f8E5M2',
  '!pto.hif8',
  'i16',
  'u16',
  'f16',
  'bf16',
  'i32',
  'u32',
  'f32',
]);

export function elemBytes(t: ElemType): number | undefined {
  return COSTED_DTYPES.has(t) ? elemSize(t) : undefined;
}
