import { DIAGNOSTICS as D } from '../../diag/catalog';
import { decided } from '../../ir/bound';
import { OpDefinition } from '../../ir/definition';
import { vmTrap } from '../../machine/trap';
import type { MicroOpRowData } from '../../spec/micro-schema';
import { attrOf } from '../../syntax/ast';
import { POINTER_SPACE_NAMES, printType } from '../../types/type';
import { MicroBinding } from '../format';
import { coreConfig } from './config';
import { fracLoad } from './cube';
import { microReporters } from '../report';

/**
 * pto.mte_gm_l1_frac (VPTOOps.td's MteGmL1FracOp, its parser and verifier in VPTO.cpp): written in its own grammar
 * rule `CubeFracBody`, whose groups the parse keeps in `op.micro` (src/syntax/cube-parse.ts). It runs as PTOAS's
 * expansion (VPTOExpandWrapperOps.cpp): the MTE2 NZ register set from dst_group, then the raw ND -> NZ or DN -> NZ
 * load (./cube.ts).
 */

/** The groups in PTOAS's order: keyword, operand names, and whether the types are written in parentheses. */
const GROUPS: { keyword: string; names: string[]; optionalLast?: boolean; paren?: boolean }[] = [
  { keyword: 'shape', names: ['n_value', 'd_value'] },
  { keyword: 'src_layout', names: ['src_inner_stride', 'src_outer_stride'], optionalLast: true, paren: true },
  { keyword: 'dst_group', names: ['group_count', 'dst_loop2_stride', 'dst_loop3_stride', 'dst_loop4_stride'] },
  { keyword: 'ctrl', names: ['l2_cache_ctrl', 'smallc0_en'] },
];

const MODES = ['nd2nz', 'dn2nz'];

export function cubeFracDefinition(row: MicroOpRowData): OpDefinition {
  const name = row.name;
  return {
    name,
    syntax: 'CubeFracBody',
    diagnostic: D.microOperand,
    properties: { notInTileOpHelper: 'MTE data movement' },
    verify(v) {
      const { op } = v;
      const layout = op.micro!;
      const { formatError, err } = microReporters(v, name);
      v.expectResults(0);
      v.define([]);
      const mode = attrOf(op, 'mode');
      const modeType = attrOf(op, 'mode_type');
      for (const m of [mode, modeType]) {
        if (m?.kind === 'string' && !MODES.includes(m.value)) return formatError(m.span, `expects one of 'nd2nz' or 'dn2nz', got '${m.value}'`);
      }
      if (mode?.kind === 'string' && modeType?.kind === 'string' && mode.value !== modeType.value)
        return formatError(modeType.span, `writes the mode '${mode.value}' and its type '${modeType.value}'`);
      // The groups: names, order and operand counts (PTOAS's parser).
      const binding: MicroBinding = { operands: { source: [0], destination: [1] }, attrs: {}, operandTypes: new Map(), resultTypes: [] };
      if (layout.clauses.length !== GROUPS.length) return formatError(op.nameSpan, `takes the groups shape, src_layout, dst_group, ctrl`);
      for (const [k, g] of GROUPS.entries()) {
        const got = layout.clauses[k];
        const counts = g.optionalLast ? [g.names.length - 1, g.names.length] : [g.names.length];
        if (got.keyword !== g.keyword) return formatError(got.span, `expects '${g.keyword}(...)' as its group ${k + 1}, got '${got.keyword}'`);
        if (!counts.includes(got.operands.length))
          return formatError(got.span, `${g.keyword} requires ${counts.join(' or ')} operands, got ${got.operands.length}`);
        got.operands.forEach((o, j) => (binding.operands[g.names[j]] = [o]));
      }
      // The types: the two pointers, then each group's keyword on its first type, src_layout's in parentheses.
      const written = layout.types.slice(2);
      if (written.length !== op.operands.length - 2)
        return formatError(layout.types[0]?.type.span ?? op.span, `writes ${written.length} group types for ${op.operands.length - 2} operands`);
      let at = 0;
      for (const [k, g] of GROUPS.entries()) {
        const want = g.paren ? `${g.keyword}()` : g.keyword;
        const first = written[at];
        if (first.keyword !== want)
          return formatError(first.type.span, `expects the types of its group ${k + 1} written '${g.paren ? `${g.keyword}(T, ...)` : `${g.keyword} T, ...`}'`);
        const n = layout.clauses[k].operands.length;
        if (written.slice(at + 1, at + n).some((t) => t.keyword !== undefined)) return formatError(first.type.span, `${g.keyword} has ${n} types`);
        at += n;
      }
      // Kinds: GM source, L1 destination of one element type; i64 scalars, ctrl's second an i1.
      const [src, dst] = [v.operands[0], v.operands[1]];
      const space = (i: number) => {
        const t = v.operands[i];
        return t?.kind === 'ptr' ? POINTER_SPACE_NAMES[t.space][0] : undefined;
      };
      if (src && space(0) !== 'gm') err(op.operands[0].span, `'source' must point to gm, got ${printType(src)}`);
      if (dst && space(1) !== 'l1') err(op.operands[1].span, `'destination' must point to l1, got ${printType(dst)}`);
      if (src?.kind === 'ptr' && dst?.kind === 'ptr' && src.elem !== dst.elem)
        err(op.operands[1].span, `'destination' has element type ${printType(dst)}, the source ${printType(src)}`);
      for (const [n, [i]] of Object.entries(binding.operands)) {
        if (i < 2) continue;
        const t = v.operands[i];
        const want = n === 'smallc0_en' ? 'i1' : 'i64';
        if (t && printType(t) !== want) err(op.operands[i].span, `'${n}' must be ${want}, got ${printType(t)}`);
      }
      // VPTO.cpp's MteGmL1FracOp::verify on constant operands.
      const constant = (n: string) => (binding.operands[n] ? v.constant(binding.operands[n][0]) : undefined);
      for (const n of ['group_count', 'src_inner_stride', 'dst_loop2_stride', 'dst_loop3_stride', 'dst_loop4_stride', 'src_outer_stride']) {
        const c = constant(n);
        if (c !== undefined && c < 0n) err(op.operands[binding.operands[n][0]].span, `${n} must be non-negative`);
      }
      if (constant('group_count') === 0n) err(op.operands[binding.operands.group_count[0]].span, 'group_count must be greater than zero');
      const small = constant('smallc0_en');
      const d = constant('d_value');
      if (small !== undefined && small !== 0n && d !== undefined && d > 4n) err(op.nameSpan, 'smallc0_en requires d_value <= 4');
      v.decide(binding);
    },
    execute(x, op) {
      const fail = (message: string): never => {
        throw vmTrap(`${name}: ${message}`, op.node.span);
      };
      const b = decided<MicroBinding>(op);
      const r = { x, op, b, mnemonic: name.slice('pto.'.length), fail };
      const value = (n: string) => (b.operands[n] ? x.int(op, b.operands[n][0]) : 0n);
      // packMte2NzPara: group count | loop2 << 16 | loop3 << 32 | loop4 << 48.
      const para = value('group_count') | (value('dst_loop2_stride') << 16n) | (value('dst_loop3_stride') << 32n) | (value('dst_loop4_stride') << 48n);
      coreConfig(x.memory).values.set('mte2_nz_para', para);
      const mode = attrOf(op.node, 'mode');
      fracLoad(r, mode?.kind === 'string' && mode.value === 'dn2nz' ? 'dn2nz' : 'nd2nz', {
        inner: 'src_inner_stride',
        outer: b.operands.src_outer_stride ? 'src_outer_stride' : undefined,
      });
    },
  };
}

export const CUBE_DEFINITIONS: Record<string, (row: MicroOpRowData) => OpDefinition> = { 'cube-frac': cubeFracDefinition };
