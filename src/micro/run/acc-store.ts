import { DIAGNOSTICS as D } from '../../diag/catalog';
import { decided } from '../../ir/bound';
import { OpDefinition } from '../../ir/definition';
import { vmTrap } from '../../machine/trap';
import type { MicroOpRowData } from '../../spec/micro-schema';
import { POINTER_SPACE_NAMES, TileType, printType } from '../../types/type';
import { globalAddress, localAddress, MicroRun } from './operands';

/**
 * The FIXPIPE stores pto.mte_l0c_gm, pto.mte_l0c_ub and pto.mte_l0c_l1 (VPTOOps.td; VPTO.cpp's parser
 * parseStructuredAccStoreClauses and verifyStructuredAccStoreLike), written in the grammar rule `AccStoreBody`
 * (src/syntax/cube-parse.ts). What is read today: the operands, `dst_mode(...)` of mte_l0c_ub, and the clauses
 * unit_flag(check_only|check_and_clear), nz2nd, sat and nosat in PTOAS's canonical order; pre_quant, pre_relu,
 * nz2dn, nz2nz, loop3, sat(preserve_nan) and atomic are reported as not supported yet. mte_l0c_gm runs nz2nd
 * without conversion (the accumulator's element type written to GM); the rest traps as not implemented yet.
 */

/** PTOAS's clause kinds in canonical order (StructuredAccStoreClauseKind). */
const CLAUSE_ORDER: Record<string, number> = {
  unit_flag: 0,
  pre_quant: 1,
  pre_relu: 2,
  nz2nd: 3,
  nz2dn: 3,
  nz2nz: 3,
  loop3: 4,
  sat: 5,
  nosat: 5,
  atomic: 6,
};
const SUPPORTED = new Set(['unit_flag', 'nz2nd', 'sat', 'nosat']);

/** The leading operands of each op (after them come its clauses). */
const LEADING: Record<string, { names: string[]; destination: string }> = {
  'pto.mte_l0c_gm': { names: ['source', 'destination', 'm', 'n', 'src_stride', 'dst_stride', 'sid', 'l2_cache_ctrl'], destination: 'gm' },
  'pto.mte_l0c_ub': { names: ['source', 'destination', 'm', 'n', 'src_stride', 'dst_stride'], destination: 'ub' },
  'pto.mte_l0c_l1': { names: ['source', 'destination', 'm', 'n', 'src_stride', 'dst_stride'], destination: 'l1' },
};

interface AccStoreDecision {
  operands: Record<string, number[]>;
  layout?: string;
}

export function accStoreDefinition(row: MicroOpRowData): OpDefinition {
  const name = row.name;
  const leading = LEADING[name];
  return {
    name,
    syntax: 'AccStoreBody',
    diagnostic: D.microOperand,
    properties: { notInTileOpHelper: 'MTE data movement' },
    verify(v) {
      const { op } = v;
      const layout = op.micro!;
      const formatError = (span: typeof op.span, message: string) => v.error(span, `${name} ${message}`, undefined, D.microFormat);
      const err = (span: typeof op.span, message: string) => v.error(span, `${name}: ${message}`, undefined, D.microOperand);
      v.expectResults(0);
      v.define([]);
      if (layout.items.length !== leading.names.length)
        return formatError(layout.items.at(-1)?.span ?? op.nameSpan, `takes ${leading.names.length} operands before its clauses, got ${layout.items.length}`);
      const operands: Record<string, number[]> = Object.fromEntries(leading.names.map((n, i) => [n, [i]])); // the items are the first operands
      let clauses = layout.clauses;
      if (name === 'pto.mte_l0c_ub') {
        const mode = clauses[0];
        if (mode?.keyword !== 'dst_mode' || mode.bare)
          return formatError(mode?.span ?? op.nameSpan, 'expects dst_mode(%sub_blockid), dst_mode(split_m), or dst_mode(split_n)');
        if (mode.operands.length === 1 && !mode.word) operands.sub_blockid = mode.operands;
        else if (mode.operands.length > 0 || (mode.word !== 'split_m' && mode.word !== 'split_n'))
          return formatError(mode.span, 'expects dst_mode(%sub_blockid), dst_mode(split_m), or dst_mode(split_n)');
        clauses = clauses.slice(1);
      }
      let last = -1;
      const seen = new Set<number>();
      let mode: string | undefined;
      for (const c of clauses) {
        const kind = CLAUSE_ORDER[c.keyword];
        if (kind === undefined) return formatError(c.span, 'has an unknown mte_l0c clause');
        if (kind < last) return formatError(c.span, 'clauses must follow canonical order');
        if (seen.has(kind)) return formatError(c.span, `has a duplicate ${c.keyword} clause`);
        seen.add(kind);
        last = kind;
        if (kind === 3) mode = c.keyword;
        if (c.keyword === 'unit_flag' && (c.bare || c.operands.length > 0 || (c.word !== 'check_only' && c.word !== 'check_and_clear')))
          return formatError(c.span, "expects unit_flag('check_only' or 'check_and_clear')");
        if ((c.keyword === 'nz2nd' || c.keyword === 'nosat') && !c.bare) return formatError(c.span, `takes no arguments after ${c.keyword}`);
        if (!SUPPORTED.has(c.keyword) || (c.keyword === 'sat' && !c.bare)) err(c.span, `the ${c.keyword}${c.bare ? '' : '(...)'} clause is not supported yet`);
      }
      // Types: one per operand, in written order.
      if (layout.types.length !== op.operands.length)
        return formatError(layout.types[0]?.type.span ?? op.span, `writes ${layout.types.length} types for ${op.operands.length} operands`);
      const [src, dst] = [v.operands[0], v.operands[1]];
      const space = (i: number) => {
        const t = v.operands[i];
        return t?.kind === 'ptr' ? POINTER_SPACE_NAMES[t.space][0] : undefined;
      };
      if (src && space(0) !== 'l0c') err(op.operands[0].span, `'source' must point to l0c, got ${printType(src)}`);
      if (dst && space(1) !== leading.destination) err(op.operands[1].span, `'destination' must point to ${leading.destination}, got ${printType(dst)}`);
      for (const [n, [i]] of Object.entries(operands)) {
        const t = v.operands[i];
        if (i >= 2 && t && printType(t) !== 'i64') err(op.operands[i].span, `'${n}' must be i64, got ${printType(t)}`);
      }
      // Without pre_quant the accumulator's elements are stored as they are: PTOAS's quantization families relate the
      // two element types only through a pre_quant mode, which is not read yet.
      if (src?.kind === 'ptr' && dst?.kind === 'ptr' && src.elem !== dst.elem)
        err(op.operands[1].span, `storing ${printType(src)} elements as ${printType(dst)} needs a pre_quant conversion, which is not supported yet`);
      v.decide({ operands, layout: mode } satisfies AccStoreDecision);
    },
    execute(x, op) {
      const fail = (message: string): never => {
        throw vmTrap(`${name}: ${message}`, op.node.span);
      };
      const d = decided<AccStoreDecision>(op);
      if (name !== 'pto.mte_l0c_gm') return fail('is not implemented yet');
      if (d.layout !== 'nz2nd') return fail(`the ${d.layout ?? 'default'} layout is not implemented yet`);
      const r: MicroRun = { x, op, b: { operands: d.operands, attrs: {}, operandTypes: new Map(), resultTypes: [] }, mnemonic: name.slice(4), fail };
      storeNz2nd(r);
    },
  };
}

/**
 * nz2nd: element (i, j) of the accumulator, i < m, j < n, to GM element i * dst_stride + j after the destination.
 * The accumulator is L0C's NZ layout of 16 x 16 fractals with src_stride rows (the tile model's acc tile, fractal
 * 1024 for 32-bit elements, col_major boxes of row_major elements), read through src/machine's Tile.
 */
function storeNz2nd(r: MicroRun): void {
  const value = (n: string) => Number(r.x.int(r.op, r.b.operands[n][0]));
  const [m, n, rows, stride] = [value('m'), value('n'), value('src_stride'), value('dst_stride')];
  const t = r.op.operandTypes[r.b.operands.source[0]];
  if (t?.kind !== 'ptr') return r.fail('the source is not a pointer');
  const size = t.elem === 'f32' || t.elem === 'i32' ? 4 : 0;
  if (size !== 4) return r.fail(`an accumulator of ${t.elem} elements is not implemented yet`);
  if (rows % 16 !== 0 || rows < m) r.fail(`src_stride ${rows} is not a multiple of 16 rows holding m = ${m}`);
  const cols = Math.ceil(n / 16) * 16;
  const { buffer, address } = localAddress(r, 'source', 0);
  const type: TileType = {
    kind: 'tile',
    level: 'buf',
    loc: 'acc',
    dtype: t.elem,
    rows,
    cols,
    vRow: rows,
    vCol: cols,
    blayout: 'col_major',
    slayout: 'row_major',
    fractal: 1024,
    pad: 0,
    compact: 0,
  };
  if (r.x.memory.bufferOf('acc') !== buffer) r.fail(`the source is not in ${r.x.memory.bufferOf('acc')}`);
  const acc = r.x.memory.place(type, address, r.op.def.name, r.op.node.span);
  const gm = globalAddress(r, 'destination');
  if (gm.buffer.codec.size !== size) r.fail(`a ${gm.buffer.elem} destination is not implemented yet`);
  const first = gm.byte / size;
  for (let i = 0; i < m; i++) {
    for (let j = 0; j < n; j++) {
      const index = first + i * stride + j;
      if (index < 0 || index >= gm.buffer.length) r.fail(`element ${index} of %${gm.buffer.name} is out of bounds (the buffer has ${gm.buffer.length})`);
      gm.buffer.copyElementFrom(index, acc.bytes, acc.elementIndex(i, j) * size);
    }
  }
}

export const ACC_STORE_DEFINITIONS: Record<string, (row: MicroOpRowData) => OpDefinition> = { 'acc-store': accStoreDefinition };
