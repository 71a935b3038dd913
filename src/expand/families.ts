/**
 * The sweep's other op families (issue 38, step 3): ops whose kernels take tiles of other element types or shapes
 * than their destination, scalars, or attributes: conversions, compares and selects, arg-reductions, transposes,
 * index generation, gathers, fills, loads and stores. Each case is a one-op kernel (genericKernel) over the
 * deterministic inputs of src/expand/sweep.ts, run tile-level and expanded (checkLowering), counted as the
 * elementwise sweep counts its cases.
 */
import { ElemType, elemSize } from '../types/type';
import { BufferInput, checkLowering } from './check';
import { KernelOperand, OperandTile, genericKernel } from './kernels';
import { Outcome, SWEEP_SHAPES } from './sweep';

/** A loaded tile and what it holds: values spread over the type's range, a mask of bytes, or indices below `index`. */
type Source = OperandTile & { fill?: 'mask' | { index: number } | { bits: number } | { blocks: number } };

export interface FamilyCase {
  op: string;
  /** The case's element types and shape, for the table (`f32 -> i8 4x64 valid 4x63`). */
  label: string;
  ins: (Source | { scalar: string; type: string })[];
  outs: OperandTile[];
  attrs?: string;
  /** Expand these ops (default: `op` alone). */
  only?: string[];
}

export interface FamilyRow {
  case: FamilyCase;
  outcome: Outcome;
  detail: string;
  template?: string;
}

/** Deterministic elements of any type: spread over its range (floats in [-27, 27]), a divisor never zero. */
export function values(dtype: ElemType, n: number, seed: number, fill?: Source['fill']): BufferInput {
  const size = elemSize(dtype);
  const bytes = new Uint8Array(n * size);
  const view = new DataView(bytes.buffer);
  for (let i = 0; i < n; i++) {
    const raw = ((i * 7919 + seed * 104729) % 2001) - 1000 || 37;
    const at = i * size;
    if (fill === 'mask') view.setUint8(at, (i * 37 + seed * 11) & 0xff);
    else if (fill && 'index' in fill) writeInt(view, at, dtype, (i * 7 + seed * 3) % fill.index);
    else if (fill && 'bits' in fill) writeInt(view, at, dtype, (i * 5 + seed) % fill.bits);
    else if (fill && 'blocks' in fill) writeInt(view, at, dtype, ((i * 7 + seed * 3) % fill.blocks) * 32);
    else if (dtype === 'f32') view.setFloat32(at, raw / 37, true);
    else if (dtype === 'f16') view.setUint16(at, f16Of(raw / 37), true);
    else writeInt(view, at, dtype, raw * (size === 1 ? 1 : size === 2 ? 31 : 1234567));
  }
  return { elem: dtype, bytes };
}

function writeInt(view: DataView, at: number, dtype: ElemType, v: number): void {
  const size = elemSize(dtype);
  if (size === 1) view.setUint8(at, v & 0xff);
  else if (size === 2) view.setUint16(at, v & 0xffff, true);
  else if (size === 4) view.setUint32(at, v >>> 0, true);
  else view.setBigInt64(at, BigInt(v), true);
}

/** f16 bits of a value exact in f16 or rounded to nearest even through f32 (normal range only). */
function f16Of(x: number): number {
  const u = new Uint32Array(new Float32Array([x]).buffer)[0];
  const sign = (u >>> 16) & 0x8000;
  const exp = ((u >>> 23) & 0xff) - 112;
  if (x === 0 || exp <= 0) return sign;
  const mant = u & 0x7fffff;
  let h = sign | (exp << 10) | (mant >>> 13);
  const rest = mant & 0x1fff;
  if (rest > 0x1000 || (rest === 0x1000 && h & 1)) h++;
  return h;
}

/** The VM's name of an element type the text spells `ui8` / `ui16` / `ui32`. */
const elem = (dtype: string): ElemType => dtype.replace(/^ui/, 'u') as ElemType;

/** Runs one case: the kernel's loaded sources get values(), its destinations zeros. */
export function runFamilyCase(c: FamilyCase, upstreamDir: string): FamilyRow {
  const names = 'abcdefgh';
  const inputs: Record<string, BufferInput> = {};
  c.ins.forEach((o, i) => {
    if ('scalar' in o || o.scratch) return;
    inputs[names[i]] = values(elem(o.dtype), o.vRow * o.vCol, i + 1, o.fill);
  });
  c.outs.forEach((t, i) => (inputs[i === 0 ? 'out' : `out${i}`] = { elem: elem(t.dtype), bytes: new Uint8Array(t.vRow * t.vCol * elemSize(elem(t.dtype))) }));
  const text = genericKernel(kernelOp(c), c.ins as KernelOperand[], c.outs, c.attrs);
  const only = c.only ?? [c.op];
  const r = checkLowering(text, 'kernel', inputs, { upstreamDir, only: (op) => only.includes(op) });
  if ('error' in r) return { case: c, outcome: / does not assemble: /.test(r.error) ? 'rejected' : 'error', detail: r.error };
  if (r.notExpanded.length > 0) return { case: c, outcome: 'not expanded', detail: r.notExpanded[0].reason };
  const template = r.expanded.map((e) => e.template).join(', ');
  if (r.agree) return { case: c, outcome: 'agree', detail: '', template };
  const d = r.difference;
  return { case: c, outcome: 'differ', detail: `${d.buffer}[${d.element}]: tile ${d.tileLevel}, expanded ${d.expanded}`, template };
}

const tile = (dtype: string, rows: number, cols: number, vRow = rows, vCol = cols): OperandTile => ({ dtype, rows, cols, vRow, vCol });
/** Columns of a row of `dtype` that fill whole 32-byte blocks, at least `cols`. */
const aligned = (dtype: string, cols: number): number => {
  const per = 32 / elemSize(elem(dtype));
  return Math.ceil(cols / per) * per;
};

/** The sweep's shapes with their columns aligned for `dtype` (of a pair `f32/i32`, the first) (rows, cols, valid rows, valid cols). */
function shapes(dtype: string): [number, number, number, number][] {
  return SWEEP_SHAPES.map(([r, c, vr, vc]) => [r, aligned(dtype.split('/')[0], c), vr, vc]);
}

const label = (types: string, [r, c, vr, vc]: number[]): string => `${types} ${r}x${c} valid ${vr}x${vc}`;

/** Every case of the families, by op. */
export function familyCases(): FamilyCase[] {
  const cases: FamilyCase[] = [];
  const each = (
    op: string,
    dtypes: string[],
    make: (d: string, s: [number, number, number, number]) => Omit<FamilyCase, 'op' | 'label'>,
    name = (d: string) => d,
  ): void => {
    for (const d of dtypes) for (const s of shapes(d)) cases.push({ op, label: label(name(d), s), ...make(d, s) });
  };
  const full = (d: string, [r, c, vr, vc]: number[]): OperandTile => tile(d, r, c, vr, vc);

  // Binary and tile-scalar ops whose A5 templates take the scratch tile too (the tile level's optional tmp).
  for (const [op, dtypes] of [
    ['pto.txor', ['i32', 'i16']],
    ['pto.trem', ['f32', 'f16', 'i32', 'i16']],
    ['pto.tprelu', ['f32', 'f16']],
  ] as const)
    each(op, [...dtypes], (d, s) => ({ ins: [full(d, s), full(d, s), { ...full(d, s), scratch: true }], outs: [full(d, s)] }));
  for (const [op, dtypes] of [
    ['pto.txors', ['i32', 'i16']],
    ['pto.trems', ['f32', 'f16', 'i32', 'i16']],
  ] as const)
    each(op, [...dtypes], (d, s) => ({
      ins: [full(d, s), { scalar: d.startsWith('f') ? '2.5' : '3', type: d }, { ...full(d, s), scratch: true }],
      outs: [full(d, s)],
    }));

  // Shifts by a scalar of ui16 (with the elementwise sweep's i16 cases, the only legal ones: no i32 or 8-bit template).
  for (const op of ['pto.tshls', 'pto.tshrs']) each(op, ['ui16'], (d, s) => ({ ins: [full(d, s), { scalar: '3', type: 'i16' }], outs: [full(d, s)] }));

  // A tile and an f32 slope (tlrelu), a fill of a scalar (texpands), indices from a start (tci).
  each('pto.tlrelu', ['f32', 'f16'], (d, s) => ({ ins: [full(d, s), { scalar: '0.25', type: 'f32' }], outs: [full(d, s)] }));
  each('pto.texpands', ['f32', 'f16', 'i32', 'i16'], (d, s) => ({ ins: [{ scalar: d.startsWith('f') ? '2.5' : '7', type: d }], outs: [full(d, s)] }));
  // tci writes one row (the tile-level verifier: dst rows must be 1).
  each('pto.tci', ['i32', 'i16'], (d, [, c, , vc]) => ({ ins: [{ scalar: '5', type: d }], outs: [tile(d, 1, c, 1, vc)] }));

  // Compares into an i8 / ui8 mask tile of the same shape; selects by such a mask.
  each('pto.tcmp', ['f32', 'f16', 'i32'], (d, s) => ({ ins: [full(d, s), full(d, s)], outs: [full('i8', s)], attrs: '{cmpMode = #pto<cmp lt>}' }));
  each('pto.tcmps', ['f32', 'f16', 'i32'], (d, s) => ({
    ins: [full(d, s), { scalar: d.startsWith('f') ? '0.5' : '3', type: d }],
    outs: [full('ui8', s)],
    attrs: '{cmpMode = #pto<cmp ge>}',
  }));
  each('pto.tsel', ['f32', 'f16'], (d, s) => ({
    ins: [{ ...full('i8', s), fill: 'mask' }, full(d, s), full(d, s), { ...full(d, s), scratch: true }],
    outs: [full(d, s)],
  }));
  each('pto.tsels', ['i16', 'i8'], (d, s) => ({
    ins: [{ ...full('i8', s), fill: 'mask' }, full(d, s), { ...full(d, s), scratch: true }, { scalar: '9', type: d }],
    outs: [full(d, s)],
  }));

  // Arg-reductions: a row's (a column's) index of its largest/smallest element.
  for (const op of ['pto.trowargmax', 'pto.trowargmin'])
    each(op, ['f32', 'f16'], (d, [r, c, vr, vc]) => ({
      ins: [tile(d, r, c, vr, vc), { ...tile(d, r, c, vr, vc), scratch: true }],
      outs: [tile('i32', r, 8, vr, 1)],
    }));
  for (const op of ['pto.tcolargmax', 'pto.tcolargmin'])
    each(op, ['f32', 'f16'], (d, [r, c, vr, vc]) => ({
      ins: [tile(d, r, c, vr, vc), { ...tile(d, r, c, vr, vc), scratch: true }],
      outs: [tile('i32', 1, aligned('i32', c), 1, vc)],
    }));

  // Transpose: rows x cols -> cols x rows (valid regions too), with its scratch tile.
  each('pto.ttrans', ['f32', 'i32', 'f16'], (d, [r, c, vr, vc]) => ({
    ins: [tile(d, r, c, vr, vc), { ...tile(d, r, c, vr, vc), scratch: true }],
    outs: [tile(d, c, aligned(d, r), vc, vr)],
  }));
  // Its A5 templates take whole tiles only: more full shapes.
  for (const d of ['f32', 'i32'])
    for (const [r, c] of [
      [16, 32],
      [32, 64],
    ])
      cases.push({
        op: 'pto.ttrans',
        label: label(d, [r, c, r, c]),
        ins: [tile(d, r, c), { ...tile(d, r, c), scratch: true }],
        outs: [tile(d, c, aligned(d, r))],
      });

  // Conversions (tcvt's default rounding).
  for (const [from, to] of [
    ['f32', 'f16'],
    ['f16', 'f32'],
    ['f32', 'i32'],
    ['i32', 'f32'],
    ['f16', 'i16'],
    ['i16', 'f16'],
  ])
    for (const [r, c, vr, vc] of SWEEP_SHAPES)
      cases.push({ op: 'pto.tcvt', label: label(`${from} -> ${to}`, [r, c, vr, vc]), ins: [tile(from, r, c, vr, vc)], outs: [tile(to, r, c, vr, vc)] });

  // Movement: concatenation along the rows (src0's valid columns then src1's), a window of a larger tile (textract
  // at row 1, column 8 of UB to UB), a gather of 32-byte blocks by byte offsets (tgatherb).
  each('pto.tconcat', ['f32', 'f16', 'i32'], (d, [r, c, vr, vc]) => {
    const left = Math.max(1, Math.floor(vc / 3));
    return { ins: [tile(d, r, c, vr, left), tile(d, r, c, vr, vc - left)], outs: [tile(d, r, c, vr, vc)] };
  });
  each('pto.textract', ['f32', 'f16', 'i32'], (d, [r, c, vr, vc]) => ({
    ins: [tile(d, r + 2, c + aligned(d, 8), r + 2, c + 8), { scalar: '1', type: 'index' }, { scalar: '8', type: 'index' }],
    outs: [tile(d, r, c, vr, vc)],
  }));
  each('pto.tgatherb', ['f32', 'f16', 'i32'], (d, [r, c, vr]) => {
    const perBlock = 32 / elemSize(elem(d));
    const blocks = c / perBlock;
    return {
      ins: [tile(d, r, c, r, c), { ...tile('ui32', vr, aligned('ui32', blocks), vr, blocks), fill: { blocks: r * blocks } }],
      outs: [tile(d, vr, c, vr, c)],
    };
  });
  // Gathers and scatters by element indices (index form; the pair is data/index types). A gather's destination and
  // indices are contiguous (vCol == cols) and its indices point anywhere in the source tile; a scatter's indices
  // (i * 7 + 3 * seed mod rows x cols, 7 prime to it) are distinct, so no element is written twice; its label's shape
  // is the destination's, its source and indices the valid rows x all columns.
  each('pto.tgather', ['f32/i32', 'f32/ui32', 'i32/i32', 'f16/i16', 'f16/i32', 'i8/i16'], (p, [r, c, vr, vc]) => {
    const [d, ix] = p.split('/');
    return { ins: [tile(d, r, c, vr, vc), { ...tile(ix, vr, c), fill: { index: r * c } }], outs: [tile(d, vr, c)] };
  });
  each('pto.tscatter', ['f32/i32', 'f32/ui32', 'i32/i32', 'f16/i16', 'i16/ui16', 'i8/i16'], (p, [r, c, vr]) => {
    const [d, ix] = p.split('/');
    return { ins: [tile(d, vr, c), { ...tile(ix, vr, c), fill: { index: r * c } }], outs: [tile(d, r, c)] };
  });

  // Generators: triangular masks (lower, and upper with upperOrLower = 1), Philox random numbers (default and 7
  // rounds), from scalars only.
  for (const upper of [false, true])
    each(
      'pto.ttri',
      ['i32'],
      (d, s) => ({ ins: [{ scalar: '1', type: 'i32' }], outs: [full(d, s)], attrs: upper ? '{upperOrLower = 1 : i32}' : '' }),
      (d) => (upper ? `${d} upper` : `${d} lower`),
    );
  for (const rounds of [undefined, 7])
    each(
      'pto.trandom',
      ['ui32'],
      (d, s) => ({
        ins: ['11', '22', '0', '1', '2', '3'].map((v) => ({ scalar: v, type: 'i32' })),
        outs: [full(d, s)],
        attrs: rounds ? `{rounds = ${rounds} : i32}` : '',
      }),
      (d) => (rounds ? `${d} ${rounds} rounds` : d),
    );

  // Sorting 32-element blocks (values with their indices into (value, index) pairs), dequantization by a per-row
  // scale and offset.
  for (const [r, c] of [
    [1, 32],
    [4, 64],
    [2, 128],
    [8, 32],
    [1, 256],
  ])
    for (const d of ['f32', 'f16'])
      cases.push({
        op: 'pto.tsort32',
        label: label(d, [r, c, r, c]),
        ins: [tile(d, r, c), { ...tile('ui32', r, c), fill: { index: 1 << 20 } }],
        // A record is 8 bytes: 2 f32 or 4 f16 columns.
        outs: [tile(d, r, (c * 8) / elemSize(elem(d)))],
      });
  // Merging sorted lists of (value, index) records in one row (tmrgsort's single-list form, lists of blockLen).
  // Four lists of blockLen elements per row: one repeat of vmrgsort4 (the micro-op VM runs one repeat only yet).
  for (const [c, block] of [
    [256, 64],
    [512, 128],
    [1024, 256],
    [2048, 512],
    [4096, 1024],
  ])
    cases.push({
      op: 'pto.tmrgsort',
      label: `f32 1x${c} blockLen ${block}`,
      ins: [tile('f32', 1, c), { scalar: String(block), type: 'i32' }],
      outs: [tile('f32', 1, c)],
    });
  // Padding: the source's valid region copied, the rest of the destination (the same shape: "normal") filled.
  for (const pad of [1, 3])
    each(
      'pto.tfillpad',
      ['f32', 'f16', 'i32'],
      (d, [r, c, vr, vc]) => ({ ins: [tile(d, r, c, vr, vc)], outs: [{ ...tile(d, r, c, r, c), pad }] }),
      (d) => `${d} pad=${pad}`,
    );
  each('pto.tdequant', ['i16', 'i8'], (d, [r, c, vr, vc]) => ({
    ins: [tile(d, r, c, vr, vc), tile('f32', r, 8, vr, 1), tile('f32', r, 8, vr, 1)],
    outs: [tile('f32', r, c, vr, vc)],
  }));

  // Loads and stores alone (the op between them, tmov, runs tile-level).
  for (const op of ['pto.tload', 'pto.tstore'])
    each(
      op,
      ['f32', 'f16', 'i8'],
      (d, s) => ({ ins: [full(d, s)], outs: [full(d, s)], only: [op] }),
      (d) => d,
    );
  return cases;
}

/** Cases of the families whose load-and-store ops are `pto.tmov`'s kernel (tload/tstore rows). */
export function kernelOp(c: FamilyCase): string {
  return c.op === 'pto.tload' || c.op === 'pto.tstore' ? 'pto.tmov' : c.op;
}

/** The rows of docs/lowering.md's table for the families: per op, cases by outcome and the first difference. */
export function familyTable(rows: FamilyRow[]): string {
  const ops = [...new Set(rows.map((r) => r.case.op))];
  const lines = ['| op | cases | agree | differ | not expanded | rejected (tile level) | first difference |', '|---|---|---|---|---|---|---|'];
  for (const op of ops) {
    const mine = rows.filter((r) => r.case.op === op);
    const count = (o: Outcome): number => mine.filter((r) => r.outcome === o).length;
    const first = mine.find((r) => r.outcome === 'differ' || r.outcome === 'error') ?? mine.find((r) => r.outcome !== 'agree');
    const where = first ? `${first.case.label}: ${first.outcome === 'differ' ? '' : `${first.outcome}: `}${first.detail}` : '';
    lines.push(
      `| ${op} | ${mine.length} | ${count('agree')} | ${count('differ')} | ${count('not expanded')} | ${count('rejected')} | ${where.replace(/\|/g, '/').slice(0, 300)} |`,
    );
  }
  return lines.join('\n');
}
