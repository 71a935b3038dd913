import type { ElemType } from '../types/type';
import { costModelTables } from '../spec/costmodel';
import type { A5FormulaRow } from '../spec/costmodel-schema';
import { noData, OpCost, TileOpInput } from './cost';
import { roundCycles } from './a2a3-formula';

/**
 * A5 vector tile ops from pto-isa's fitted curves (spec/costmodel/a5-formula.json). A curve is chosen by op, dtypes,
 * path (1-D: the valid region read as one run; 2-D: row by row), vector-function form (post-update addressing or
 * not) and whether the last repeat is partial (tail); it is evaluated in the loop counts of that path. How the key is
 * chosen follows pto-isa's loader (include/pto/costmodel/a5/vf_costmodel.hpp at 3186c381).
 */

/** Ops whose scalar operand makes the path depend on the valid width alone (a one-row tile may still be 2-D). */
const SCALAR_OPS = new Set(['TADDS', 'TSUBS', 'TMULS', 'TDIVS', 'TMINS', 'TMAXS', 'TNEG']);

/** The dtype keys of the table, by our element type. */
const DTYPE_KEYS: Partial<Record<ElemType, string>> = {
  f32: 'fp32',
  f16: 'fp16',
  bf16: 'bf16',
  i8: 'int8',
  u8: 'uint8',
  i16: 'int16',
  u16: 'uint16',
  i32: 'int32',
  u32: 'uint32',
  f8E4M3FN: 'fp8_e4m3',
  f8E5M2: 'fp8_e5m2',
  '!pto.hif8': 'hif8',
  '!pto.f4E1M2x2': 'fp4_e1m2',
  '!pto.f4E2M1x2': 'fp4_e2m1',
};

/** Elements one 256-byte vector repeat covers, by dtype key (fp8 forms are read as 32-bit lanes, fp4 as 8-bit). */
function lanes(key: string): number | undefined {
  if (['fp16', 'bf16', 'int16', 'uint16'].includes(key)) return 128;
  if (['fp32', 'int32', 'uint32', 'fp8_e4m3', 'fp8_e5m2', 'hif8'].includes(key)) return 64;
  if (['int8', 'uint8', 'fp4_e1m2', 'fp4_e2m1'].includes(key)) return 256;
  return undefined;
}

/** TCVT's repeat is set by the wider side on the paths that widen or narrow through 32-bit lanes. */
function cvtLanes(src: string, dst: string, path: '1D' | '2D'): number | undefined {
  const half = src === 'fp16' || src === 'bf16';
  if (half && dst === 'fp32') return 64;
  if (path === '1D') return lanes(src);
  if (src === 'fp32' && ['fp16', 'bf16', 'fp8_e4m3', 'fp8_e5m2', 'hif8'].includes(dst)) return 128;
  if (half && ['fp16', 'fp4_e1m2', 'fp4_e2m1', 'hif8'].includes(dst)) return 128;
  return lanes(src);
}

function cvtParams(round: string, saturation: string): string | undefined {
  // pto-isa reads an unspecified rounding (CAST_NONE, saturating) as round-to-nearest.
  if ((round === 'CAST_NONE' || round === 'CAST_RINT') && saturation === 'ON') return 'CAST_RINT_SAT_ON_normal';
  if (round === 'CAST_TRUNC' && saturation === 'OFF') return 'CAST_TRUNC_SAT_OFF_normal';
  return undefined;
}

function defaultForm(op: string, path: '1D' | '2D'): A5FormulaRow['vfImplKind'] {
  if (op === 'TCVT') return path === '1D' ? 'NO_POST_UPDATE' : 'POST_UPDATE';
  if (op === 'TSEL') return path === '1D' ? 'NO_POST_UPDATE' : 'DEFAULT';
  return path === '1D' ? 'POST_UPDATE' : 'NO_POST_UPDATE';
}

export function a5FormulaCost(input: TileOpInput): OpCost {
  const { a5 } = costModelTables();
  const { op } = input;
  if (!a5.rows.some((r) => r.op === op)) return noData(`pto-isa has no A5 curve for ${op}`, 'vector');
  const vRows = input.validRows || input.rows;
  const vCols = input.validCols || input.cols;
  if (vRows <= 0 || vCols <= 0) return noData(`${op}: an empty valid region`, 'vector');
  const path: '1D' | '2D' = SCALAR_OPS.has(op) ? (vCols === input.cols ? '1D' : '2D') : input.rows === 1 || vCols === input.cols ? '1D' : '2D';
  const src = DTYPE_KEYS[input.dtype];
  if (!src) return noData(`pto-isa's A5 curves do not name ${input.dtype}`, 'vector');
  let dst = 'none';
  let params = input.opParams ?? '';
  if (op === 'TCVT') {
    const d = input.dstDtype && DTYPE_KEYS[input.dstDtype];
    if (!d) return noData(`pto-isa's A5 curves do not name ${input.dstDtype ?? 'a missing destination type'}`, 'vector');
    dst = d;
    if (!params) params = cvtParams(input.roundMode ?? 'CAST_NONE', input.saturation ?? 'ON') ?? '';
  } else if (!params && op === 'TRECIP') params = 'default';
  const perRepeat = op === 'TCVT' ? cvtLanes(src, dst, path) : lanes(src);
  if (!perRepeat) return noData(`no vector repeat width for ${input.dtype}`, 'vector');
  const count = path === '1D' ? vRows * vCols : vCols;
  const inner = Math.ceil(count / perRepeat);
  const outer = path === '1D' ? 1 : vRows;
  const tail = count % perRepeat;
  if (op === 'TSEL' && !params) {
    if (input.dtype === 'f32') params = path === '1D' ? (inner % 2 === 0 ? 'TSel_b32_even' : 'TSel_b32_odd') : 'TSel_b32';
    else if (input.dtype === 'f16' || input.dtype === 'i8') params = 'TSel_b16_8';
    else return noData(`pto-isa's A5 TSEL curves cover f32, f16 and i8, not ${input.dtype}`, 'vector');
  }
  const form = input.vfImpl ? (input.vfImpl.endsWith('NO_POST_UPDATE') ? 'NO_POST_UPDATE' : 'POST_UPDATE') : defaultForm(op, path);
  const tailKind = tail === 0 ? 'full' : 'tail';
  const row = a5.rows.find(
    (r) =>
      r.op === op &&
      r.srcDtype === src &&
      r.dstDtype === dst &&
      r.shapePath === path &&
      r.vfImplKind === form &&
      r.tailKind === tailKind &&
      r.opParams === params,
  );
  const key = `${op} ${src}${dst === 'none' ? '' : `->${dst}`} ${path} ${form} ${tailKind}${params ? ` ${params}` : ''}`;
  if (!row) return noData(`pto-isa has no A5 curve ${key}`, 'vector');
  const [p0, p1, p2] = row.params;
  const loops = outer * inner;
  const value =
    row.formula === 'linear'
      ? p0 * loops + p1
      : row.formula === 'linear_rows'
        ? p0 * loops + p1 * outer + p2
        : row.formula === 'linear_tail'
          ? p0 * loops + p1 * tail + p2
          : (p0 * inner + p1) * outer + p2;
  return { kind: 'cycles', cycles: roundCycles(value), pipe: 'vector', basis: `A5 curve ${key}` };
}
