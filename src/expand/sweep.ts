/**
 * A sweep of tile ops against their expansions (issue 38, step 3, first version): each case is a one-op kernel
 * (src/expand/kernels.ts) of an element type and a shape (full tiles, valid regions smaller than the tile, tails
 * of a vector register), run tile-level and expanded on the same deterministic inputs (checkLowering). Cases whose
 * kernel the tile level rejects (an element type the op does not take on A5) are counted apart, not as differences.
 */
import { ElemType } from '../types/type';
import { BufferInput, checkLowering } from './check';
import { OperandTile, binaryKernel, opKernel, scalarKernel, unaryKernel } from './kernels';

/**
 * How a case's kernel is shaped. `shift`: a binary op whose second operand is a shift count (0 to 7, non-negative
 * as the shifts require). The others take tiles of other shapes than the destination's (B = one 32-byte block of
 * the element type): `rowreduce` src R x C and a scratch tile -> R x B (valid R x 1); `colreduce` R x C -> 1 x C;
 * `rowexpand` R x B (valid R x 1) -> R x C; `colexpand` 1 x C -> R x C; `rowexpandop` R x C and R x B -> R x C;
 * `colexpandop` R x C and 1 x C -> R x C.
 */
export type OpKind = 'binary' | 'shift' | 'unary' | 'scalar' | 'rowreduce' | 'colreduce' | 'rowexpand' | 'colexpand' | 'rowexpandop' | 'colexpandop';

export interface SweepCase {
  op: string;
  kind: OpKind;
  dtype: 'f32' | 'f16' | 'i32' | 'i16';
  rows: number;
  cols: number;
  vRow: number;
  vCol: number;
}

export type Outcome = 'agree' | 'differ' | 'not expanded' | 'rejected' | 'error';

export interface SweepRow {
  case: SweepCase;
  outcome: Outcome;
  /** The first difference, the reason it was not expanded, or the error. */
  detail: string;
  template?: string;
}

const SIZE = { f32: 4, f16: 2, i32: 4, i16: 2 } as const;

/** Shapes: a full tile, a valid region one column short (no 1-D traversal), a small valid corner of a wide tile. */
export const SWEEP_SHAPES: [number, number, number, number][] = [
  [8, 64, 8, 64],
  [4, 64, 4, 63],
  [16, 128, 5, 100],
];

/** Every op x dtype x shape whose rows are whole 32-byte blocks (a tile's row alignment). */
export function sweepCases(ops: [string, OpKind][], dtypes: SweepCase['dtype'][], shapes = SWEEP_SHAPES): SweepCase[] {
  const cases: SweepCase[] = [];
  for (const [op, kind] of ops)
    for (const dtype of dtypes)
      for (const [rows, cols, vRow, vCol] of shapes) if ((cols * SIZE[dtype]) % 32 === 0) cases.push({ op, kind, dtype, rows, cols, vRow, vCol });
  return cases;
}

/** A float's f16 bits (round to nearest even through f32: the sweep's inputs are exact in f16 or nearly). */
function f16Bits(x: number): number {
  const f = new Float32Array([x]);
  const u = new Uint32Array(f.buffer)[0];
  const sign = (u >>> 16) & 0x8000;
  const exp = ((u >>> 23) & 0xff) - 127 + 15;
  if (x === 0) return sign;
  if (exp <= 0 || exp >= 31) throw new Error(`sweep input ${x} is outside f16's normal range`);
  const mant = u & 0x7fffff;
  let h = sign | (exp << 10) | (mant >>> 13);
  const rest = mant & 0x1fff;
  if (rest > 0x1000 || (rest === 0x1000 && h & 1)) h++;
  return h;
}

/**
 * Deterministic inputs: values spread over [-27, 27] (floats) or wide integers, none zero in the second operand
 * (a divisor), some exact multiples of others (remainders of zero).
 */
export function sweepInput(dtype: SweepCase['dtype'], n: number, second: boolean): BufferInput {
  const seed = second ? 2 : 1;
  const raw = Array.from({ length: n }, (_, i) => ((i * 7919 + seed * 104729) % 2001) - 1000).map((v) => (second && v === 0 ? 37 : v));
  switch (dtype) {
    case 'f32':
      return { elem: 'f32', bytes: new Uint8Array(Float32Array.from(raw.map((v) => v / 37)).buffer) };
    case 'f16':
      return { elem: 'f16', bytes: new Uint8Array(Uint16Array.from(raw.map((v) => f16Bits(v / 37))).buffer) };
    case 'i32':
      return { elem: 'i32', bytes: new Uint8Array(Int32Array.from(raw.map((v) => v * 1234567)).buffer) };
    case 'i16':
      return { elem: 'i16', bytes: new Uint8Array(Int16Array.from(raw.map((v) => v * 31)).buffer) };
  }
}

function shiftCounts(dtype: SweepCase['dtype'], n: number): BufferInput {
  const counts = Array.from({ length: n }, (_, i) => i % 8);
  if (dtype === 'i32') return { elem: 'i32', bytes: new Uint8Array(Int32Array.from(counts).buffer) };
  if (dtype === 'i16') return { elem: 'i16', bytes: new Uint8Array(Int16Array.from(counts).buffer) };
  throw new Error(`shift counts of ${dtype}`);
}

/** One case; `inline`: the expansion inlined and folded (src/expand/inline.ts) rather than called. */
/** The source and destination tiles of a case of a shaped family (OpKind). */
function shapedTiles(c: SweepCase): { srcs: OperandTile[]; dst: OperandTile } | undefined {
  const d = c.dtype;
  const B = 32 / SIZE[d];
  const full: OperandTile = { dtype: d, rows: c.rows, cols: c.cols, vRow: c.vRow, vCol: c.vCol };
  const perRow: OperandTile = { dtype: d, rows: c.rows, cols: B, vRow: c.vRow, vCol: 1 };
  const perCol: OperandTile = { dtype: d, rows: 1, cols: c.cols, vRow: 1, vCol: c.vCol };
  switch (c.kind) {
    case 'rowreduce':
      return { srcs: [full, { ...full, scratch: true }], dst: perRow };
    case 'colreduce':
      return { srcs: [full], dst: perCol };
    case 'rowexpand':
      return { srcs: [perRow], dst: full };
    case 'colexpand':
      return { srcs: [perCol], dst: full };
    case 'rowexpandop':
      return { srcs: [full, { ...perRow, vCol: B }], dst: full };
    case 'colexpandop':
      return { srcs: [full, perCol], dst: full };
    default:
      return undefined;
  }
}

export function runCase(c: SweepCase, upstreamDir: string, inline = false): SweepRow {
  const k = { op: c.op, dtype: c.dtype, rows: c.rows, cols: c.cols, vRow: c.vRow, vCol: c.vCol };
  const shaped = shapedTiles(c);
  const n = shaped ? shaped.dst.vRow * shaped.dst.vCol : c.vRow * c.vCol;
  const inputs: Record<string, BufferInput> = {};
  let text: string;
  if (shaped) {
    text = opKernel(c.op, shaped.srcs, shaped.dst);
    shaped.srcs.forEach((t, i) => {
      if (!t.scratch) inputs['abcdefgh'[i]] = sweepInput(c.dtype, t.vRow * t.vCol, i === 1);
    });
  } else {
    text =
      c.kind === 'binary' || c.kind === 'shift'
        ? binaryKernel(k)
        : c.kind === 'unary'
          ? unaryKernel(k)
          : scalarKernel(k, c.dtype.startsWith('f') ? '2.5' : '3');
    inputs.a = sweepInput(c.dtype, n, false);
    if (c.kind === 'binary') inputs.b = sweepInput(c.dtype, n, true);
    if (c.kind === 'shift') inputs.b = shiftCounts(c.dtype, n);
  }
  inputs.out = { elem: c.dtype as ElemType, bytes: new Uint8Array(n * SIZE[c.dtype]) };
  const r = checkLowering(text, 'kernel', inputs, { upstreamDir, only: (op) => op === c.op, inline });
  if ('error' in r) return { case: c, outcome: / does not assemble: /.test(r.error) ? 'rejected' : 'error', detail: r.error };
  if (r.notExpanded.length > 0) return { case: c, outcome: 'not expanded', detail: r.notExpanded[0].reason };
  const template = r.expanded[0].template;
  if (r.agree) return { case: c, outcome: 'agree', detail: '', template };
  const d = r.difference;
  return { case: c, outcome: 'differ', detail: `${d.buffer}[${d.element}]: tile ${d.tileLevel}, expanded ${d.expanded}`, template };
}

export function runSweep(cases: SweepCase[], upstreamDir: string, inline = false): SweepRow[] {
  return cases.map((c) => runCase(c, upstreamDir, inline));
}

/** The table of docs/lowering.md: per op, its cases by outcome and its first difference. */
export function sweepTable(rows: SweepRow[]): string {
  const ops = [...new Set(rows.map((r) => r.case.op))];
  const lines = ['| op | cases | agree | differ | not expanded | rejected (tile level) | first difference |', '|---|---|---|---|---|---|---|'];
  for (const op of ops) {
    const mine = rows.filter((r) => r.case.op === op);
    const count = (o: Outcome): number => mine.filter((r) => r.outcome === o).length;
    const first = mine.find((r) => r.outcome === 'differ' || r.outcome === 'error');
    const where = first ? `${first.case.dtype} ${first.case.rows}x${first.case.cols} valid ${first.case.vRow}x${first.case.vCol}: ${first.detail}` : '';
    lines.push(
      `| ${op} | ${mine.length} | ${count('agree')} | ${count('differ')} | ${count('not expanded')} | ${count('rejected')} | ${where.replace(/\|/g, '/')} |`,
    );
  }
  return lines.join('\n');
}
