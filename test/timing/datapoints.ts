import * as fs from 'fs';
import * as path from 'path';
import type { ElemType } from '../../src/types/type';
import type { OpCost, TileOpInput } from '../../src/timing/cost';
import { tileOpCost } from '../../src/timing/estimate';
import { sliceInstructions, transferCost, TransferInput, ubCopyInstructions } from '../../src/timing/transfer';

/**
 * pto-isa's profiled single-op datapoints (test/fixtures/costmodel/single-op.json, from
 * scripts/costmodel-fixtures.py) read as inputs of our model. The fixtures keep each test's template arguments under
 * the names the C++ gives them; this file knows those names.
 */

export interface Datapoint {
  source: string;
  test: string;
  op: string;
  arch: 'a2a3' | 'a5';
  args: Record<string, string | number>;
  profiled: number;
  accuracy: number;
  check: string;
}

export const FIXTURES = path.join(__dirname, '..', 'fixtures', 'costmodel');

export function datapoints(): Datapoint[] {
  return JSON.parse(fs.readFileSync(path.join(FIXTURES, 'single-op.json'), 'utf8')).datapoints;
}

/** C++ element types and pto-isa's DType names, as our element types. */
const DTYPES: Record<string, ElemType> = {
  float: 'f32',
  half: 'f16',
  bfloat16_t: 'bf16',
  int8_t: 'i8',
  uint8_t: 'u8',
  int16_t: 'i16',
  uint16_t: 'u16',
  int32_t: 'i32',
  uint32_t: 'u32',
  Float: 'f32',
  Half: 'f16',
  BFloat16: 'bf16',
  Int8: 'i8',
  Uint8: 'u8',
  Int16: 'i16',
  Uint16: 'u16',
  Int32: 'i32',
  Uint32: 'u32',
  Float8E4M3: 'f8E4M3FN',
  Float8E5M2: 'f8E5M2',
  HFloat8: '!pto.hif8',
  Float4E1M2: '!pto.f4E1M2x2',
  Float4E2M1: '!pto.f4E2M1x2',
};

const dtype = (v: string | number | undefined): ElemType => {
  const t = DTYPES[String(v)];
  if (!t) throw new Error(`unknown element type ${v}`);
  return t;
};

const num = (a: Record<string, string | number>, ...names: string[]): number | undefined => {
  for (const n of names) if (typeof a[n] === 'number') return a[n] as number;
  return undefined;
};

/** The DMA instructions a transfer datapoint issues (undefined for a compute op). */
export function transferOf(p: Datapoint): TransferInput | undefined {
  const a = p.args;
  if (p.op === 'TLOAD') return tloadTransfer(a);
  if (p.op === 'TLOADCONV') {
    // GM -> L1 in 32-byte C0 blocks; NC1HWC0 issues one DMA per N (pto-isa's TLoad), the fractal forms one per C1.
    const blocks = num(a, 'N')! * num(a, 'C1')! * num(a, 'H')! * num(a, 'W')!;
    const n = a.L === 'NC1HWC0' ? num(a, 'N')! : num(a, 'C1')!;
    return { path: 'GM_TO_L1', instructions: Array(n).fill((blocks * 32) / n) };
  }
  if (p.op === 'TMOV' && a.srcLoc === 'Vec' && a.dstLoc === 'Vec') {
    // Both tiles have the test's shape and valid region.
    const tile = { rows: num(a, 'rows')!, cols: num(a, 'cols')!, validRows: num(a, 'validRow')!, validCols: num(a, 'validCol')! };
    return { path: 'UB_TO_UB', instructions: ubCopyInstructions(tile, tile, dtypeBytes(dtype(a.T)), 32) };
  }
  return undefined;
}

/** Our estimate for a datapoint. */
export function estimate(p: Datapoint): OpCost {
  const transfer = transferOf(p);
  return transfer ? transferCost(transfer) : tileOpCost(inputOf(p));
}

/** A compute datapoint as the input of our single-op model. */
export function inputOf(p: Datapoint): TileOpInput {
  const a = p.args;
  if (p.op === 'TMATMUL') {
    return { op: p.op, arch: p.arch, dtype: dtype(a.AType), rows: num(a, 'validM', 'M')!, cols: num(a, 'validN', 'N')!, k: num(a, 'validK', 'K') };
  }
  const input: TileOpInput = {
    op: p.op,
    arch: p.arch,
    dtype: dtype(a.T ?? a.T0 ?? a.SrcT ?? a.dtype ?? a.src_dtype),
    dstDtype: a.DstT !== undefined || a.dst_dtype !== undefined ? dtype(a.DstT ?? a.dst_dtype) : undefined,
    rows: num(a, 'rows', 'Rows', 'row')!,
    cols: num(a, 'cols', 'Cols', 'col')!,
    validRows: num(a, 'valid_rows', 'ValidRows', 'validRow'),
    validCols: num(a, 'valid_cols', 'ValidCols', 'validCol'),
    opParams: typeof a.op_params === 'string' ? a.op_params : undefined,
    roundMode: typeof a.round_mode === 'string' ? a.round_mode : undefined,
    saturation: a.saturation_mode === 'OFF' ? 'OFF' : a.saturation_mode === 'ON' ? 'ON' : undefined,
    binary: a.isBinary === undefined ? undefined : a.isBinary === 'true',
  };
  const kind = String(a.VfImplKindValue ?? a.vf_impl_kind ?? 'VFIMPL_DEFAULT').replace(/^VFIMPL_/, '');
  if (kind !== 'DEFAULT') input.vfImpl = kind as TileOpInput['vfImpl'];
  if (input.rows === undefined || input.cols === undefined) throw new Error(`${p.test}: no shape in ${JSON.stringify(a)}`);
  return input;
}

/**
 * TLOAD of a 5-D global tensor into a UB tile on A2/A3: pto-isa's TLoad issues one DMA per slice of the three
 * outer dimensions, each moving the slice's rows (ND) or columns (DN) of the valid extent.
 */
function tloadTransfer(a: Record<string, string | number>): TransferInput {
  const bytes = dtypeBytes(dtype(a.T));
  const slices = num(a, 'gShape0')! * num(a, 'gShape1')! * num(a, 'gShape2')!;
  const outer = num(a, 'shape0')! * num(a, 'shape1')! * num(a, 'shape2')!;
  const perSlice = a.gRows === undefined ? (num(a, 'kTRows')! / outer) * num(a, 'gCols')! * bytes : num(a, 'shape3')! * (num(a, 'kTCols')! / outer) * bytes;
  const view = [num(a, 'gShape0')!, num(a, 'gShape1')!, num(a, 'gShape2')!, num(a, 'shape3')!, num(a, 'shape4')!];
  return { path: 'GM_TO_UB', instructions: sliceInstructions(view, slices * perSlice) };
}

function dtypeBytes(t: ElemType): number {
  return t === 'f32' || t === 'i32' || t === 'u32' ? 4 : t === 'f16' || t === 'i16' || t === 'u16' || t === 'bf16' ? 2 : 1;
}

/** pto-isa's precision measure: 1 - |profiled - estimate| / profiled, at least 0. */
export const precision = (profiled: number, estimate: number): number => Math.max(0, 1 - Math.abs(profiled - estimate) / profiled);

/** The precision as pto-isa's EXPECT_CYCLE_NEAR computes it, in float (1 - 22/40 reaches 0.45 there, not in double). */
function precisionF32(profiled: number, estimate: number): number {
  const f = Math.fround;
  return Math.max(0, f(1 - f(f(Math.abs(profiled - estimate)) / f(profiled))));
}

/** One datapoint against our estimate. */
export interface Compared {
  point: Datapoint;
  cost: OpCost;
  /** Our precision in pto-isa's measure (0 without a number). */
  ours: number;
  /** At least as accurate as pto-isa's own model is required to be on this datapoint. */
  asGood: boolean;
  /** Within 10% of the profiled cycles. */
  within10: boolean;
}

export function compareAll(): Compared[] {
  return datapoints()
    .filter((p) => p.profiled > 0)
    .map((point) => {
      const cost = estimate(point);
      const ours = cost.kind === 'cycles' ? precision(point.profiled, cost.cycles) : 0;
      const within10 = cost.kind === 'cycles' && Math.abs(cost.cycles - point.profiled) <= 0.1 * point.profiled;
      return { point, cost, ours, asGood: (cost.kind === 'cycles' ? precisionF32(point.profiled, cost.cycles) : 0) >= Math.fround(point.accuracy), within10 };
    });
}

const shapeOf = (a: Record<string, string | number>): string => {
  const pick = (...n: string[]): number | undefined => n.map((k) => a[k]).find((v): v is number => typeof v === 'number');
  if (a.validM !== undefined || a.M !== undefined) return `${pick('validM', 'M')}x${pick('validK', 'K')}x${pick('validN', 'N')}`;
  if (a.gShape0 !== undefined) return `${a.gShape0}x${a.gShape1}x${a.gShape2} of ${a.kTRows}x${a.kTCols}`;
  if (a.C1 !== undefined) return `N${a.N} C1 ${a.C1} H${a.H} W${a.W}`;
  const rows = pick('rows', 'Rows', 'row');
  const cols = pick('cols', 'Cols', 'col');
  const vr = pick('valid_rows', 'ValidRows', 'validRow');
  const vc = pick('valid_cols', 'ValidCols', 'validCol');
  return vr && vc && (vr !== rows || vc !== cols) ? `${rows}x${cols} valid ${vr}x${vc}` : `${rows}x${cols}`;
};

const dtypeOf = (a: Record<string, string | number>): string => {
  const d = (v: string | number | undefined): string => (v === undefined ? '' : (DTYPES[String(v)] ?? String(v)));
  if (a.AType !== undefined) return d(a.AType);
  if (a.SrcT !== undefined || a.src_dtype !== undefined) return `${d(a.SrcT ?? a.src_dtype)}->${d(a.DstT ?? a.dst_dtype)}`;
  return d(a.T ?? a.T0 ?? a.dtype);
};

/** The markdown table of docs/performance.md: one row per profiled datapoint. */
export function accuracyTable(rows: Compared[]): string {
  const lines = [
    '| arch | op | dtype | shape | form | profiled | ours | error | our precision | pto-isa accuracy | test |',
    '|---|---|---|---|---|--:|--:|--:|--:|--:|---|',
  ];
  for (const r of rows) {
    const a = r.point.args;
    const form = [a.vf_impl_kind ?? a.VfImplKindValue, a.op_params, a.round_mode].filter((v) => v !== undefined && v !== '' && v !== 'VFIMPL_DEFAULT');
    const ours = r.cost.kind === 'cycles' ? String(r.cost.cycles) : 'no data';
    const err = r.cost.kind === 'cycles' ? `${(((r.cost.cycles - r.point.profiled) / r.point.profiled) * 100).toFixed(1)}%` : '';
    lines.push(
      `| ${r.point.arch} | ${r.point.op} | ${dtypeOf(a)} | ${shapeOf(a)} | ${form.join(' ').replace(/VFIMPL_/g, '')} | ${r.point.profiled} | ${ours} | ${err} | ${r.ours.toFixed(3)} | ${r.point.accuracy} | ${r.point.test} |`,
    );
  }
  return lines.join('\n');
}

/** Per arch and op: datapoints, as accurate as pto-isa's model, within 10%, without data. */
export function accuracySummary(rows: Compared[]): string {
  const groups = new Map<string, Compared[]>();
  for (const r of rows) {
    const key = `${r.point.arch} | ${r.point.op}`;
    groups.set(key, [...(groups.get(key) ?? []), r]);
  }
  const line = (name: string, g: Compared[]): string => {
    const pct = (n: number): string => `${n} (${((n / g.length) * 100).toFixed(1)}%)`;
    const unclaimed = g.filter((r) => r.point.accuracy === 0).length;
    return `| ${name} | ${g.length} | ${pct(g.filter((r) => r.asGood).length)} | ${unclaimed} | ${pct(g.filter((r) => r.within10).length)} | ${g.filter((r) => r.cost.kind !== 'cycles').length} |`;
  };
  return [
    '| arch | op | datapoints | as accurate as pto-isa | of which pto-isa claims nothing (accuracy 0) | within 10% | no data |',
    '|---|---|--:|--:|--:|--:|--:|',
    ...[...groups.keys()].sort().map((k) => line(k, groups.get(k)!)),
    line(
      'a2a3 | all',
      rows.filter((r) => r.point.arch === 'a2a3'),
    ),
    line(
      'a5 | all',
      rows.filter((r) => r.point.arch === 'a5'),
    ),
    line('**all** |', rows),
  ].join('\n');
}
