import { CoreKind } from '../../ir/definition';
import { OpNode, attrOf } from '../../syntax/ast';
import { Type } from '../../types/type';
import { DeclaredCheck } from '../define/declared';
import { frontendInitsWithId, intAttr, operandIn } from './pipe-model';

/**
 * The rules PTOAS's verifiers check of the frontend pipe ops (`tpush_to_aiv`, `tpop_from_aic`, ...): the core
 * each runs on, the initialization its `id` names and that pipe's direction, its split, and its entry against the
 * pipe's GM slot. Each check reports the first rule broken and says whether the op passed, as PTOAS stops at the
 * first failure of an op.
 */

/** A frontend data op: the core it runs on and the direction of the transfer it takes part in. */
export interface PipeDataRole {
  core: CoreKind;
  /** Cube -> vector (the cube pushes, the vector core pops). */
  c2v: boolean;
}

/** The op is in code for its kind of core: a function of that `pto.kernel_kind`, a section of it, or a tile-op helper. */
export function checkCoreContext(c: DeclaredCheck, core: CoreKind): boolean {
  const kind = c.v.coreKind();
  if (kind === 'any' || kind === core) return true;
  c.error(c.v.op.nameSpan, `${c.v.op.name} must be inside a ${core} kernel function or section`);
  return false;
}

const isOddSplit = (split: number | undefined): boolean => split === 3 || split === 4;

/** The one frontend initialization of the op's function with the op's `id`. */
export function initOf(c: DeclaredCheck, report = true): OpNode | undefined {
  const id = c.int('id') ?? 0;
  const inits = frontendInitsWithId(c.v.function, id);
  if (inits.length === 1) return inits[0];
  if (report) {
    const span = attrOf(c.v.op, 'id')?.span ?? c.v.op.span;
    const how = inits.length === 0 ? 'a' : 'exactly one';
    c.error(span, `${c.v.op.name} expects 'id' = ${id} to match ${how} frontend initialize_pipe op in the same function`);
  }
  return undefined;
}

/** The type of an operand of another op of the program, as written beside it. */
export function writtenOperandType(c: DeclaredCheck, op: OpNode, segment: string): Type | undefined {
  const ref = operandIn(op, segment)?.type;
  return ref ? c.v.type(ref) : undefined;
}

/**
 * The checks every frontend data op starts with (PTOAS's verifyFrontendSplitOp and the direction check): its
 * core, and an odd split (3 or 4, one sub-core gets the extra row or column) only on a one-way cube -> vector pipe
 * backed by a GM slot tensor (or, off A5, a GM slot buffer) with a consumer buffer.
 */
export function checkDataOp(c: DeclaredCheck, role: PipeDataRole): OpNode | undefined {
  const { op } = c.v;
  if (!checkCoreContext(c, role.core)) return undefined;
  const split = c.int('split');
  const splitSpan = attrOf(op, 'split')?.span ?? op.span;
  if (isOddSplit(split)) {
    if (!role.c2v) {
      c.error(splitSpan, `${op.name} supports odd split modes (split = 3 or 4) only for C2V GM-backed tile pipes`);
      return undefined;
    }
    const init = initOf(c);
    if (!init) return undefined;
    const gmBacked = operandIn(init, 'gm_slot_tensor') !== undefined || (c.v.target !== 'a5' && operandIn(init, 'gm_slot_buffer') !== undefined);
    if (intAttr(init, 'dir_mask') !== 1 || !gmBacked || operandIn(init, 'c2v_consumer_buf') === undefined) {
      c.error(
        splitSpan,
        `${op.name} supports odd split modes (split = 3 or 4) only for a unidirectional C2V GM-backed tile pipe with both GM slot and C2V consumer buffers`,
      );
      return undefined;
    }
  }
  const init = initOf(c);
  if (!init) return undefined;
  const dir = intAttr(init, 'dir_mask');
  const allowed = role.c2v ? [1, 3] : [2, 3];
  if (dir !== undefined && !allowed.includes(dir)) {
    c.error(
      attrOf(op, 'id')?.span ?? op.span,
      `${op.name} expects 'id' = ${c.int('id') ?? 0} to reference initialize_pipe with dir_mask = ${allowed.join(' or ')}`,
    );
    return undefined;
  }
  return init;
}

/** An odd split divides tiles only: pto-isa has no odd offsets into a GlobalTensor entry. */
export function checkOddSplitEntry(c: DeclaredCheck, entry: Type | undefined, span = c.v.op.span): boolean {
  if (isOddSplit(c.int('split')) && entry?.kind === 'tensor_view') {
    c.error(
      span,
      `${c.v.op.name} supports odd split modes (split = 3 or 4) only for tile entries; the pinned pto-isa does not implement odd GlobalTensor offsets`,
    );
    return false;
  }
  return true;
}

/** A !pto.tensor_view entry is a slot of the pipe's GM slot tensor: same element type, rank and static sizes. */
export function checkTensorEntry(c: DeclaredCheck, init: OpNode, entry: Type | undefined, span = c.v.op.span): boolean {
  if (entry?.kind !== 'tensor_view') return true;
  const { op } = c.v;
  const id = c.int('id') ?? 0;
  if (!operandIn(init, 'gm_slot_tensor')) {
    c.error(span, `${op.name} expects 'id' = ${id} to reference initialize_pipe with 'gm_slot_tensor' when the pipe entry is !pto.tensor_view`);
    return false;
  }
  const slot = writtenOperandType(c, init, 'gm_slot_tensor');
  if (slot?.kind !== 'tensor_view') return true;
  let problem: string | undefined;
  if (slot.elem !== entry.elem) problem = 'expects pipe entry element type to match gm_slot_tensor element type';
  else if (slot.shape.length !== entry.shape.length) problem = 'expects pipe entry rank to match gm_slot_tensor rank';
  else {
    const i = entry.shape.findIndex((d, k) => d !== null && slot.shape[k] !== null && d !== slot.shape[k]);
    if (i >= 0) problem = `expects pipe entry dimension ${i} to match gm_slot_tensor dimension ${slot.shape[i]}`;
  }
  if (problem) c.error(span, `${op.name} ${problem}`);
  return problem === undefined;
}

/**
 * The producer's split halves an axis of the entry (rows for split 1 and 3, columns for 2 and 4): an even split
 * needs an even static count, an odd split an odd one.
 */
export function checkSplitParity(c: DeclaredCheck, entry: Type | undefined): boolean {
  const split = c.int('split') ?? 0;
  if (split === 0 || !entry) return true;
  const shape = entry.kind === 'tile' ? [entry.vRow, entry.vCol] : entry.kind === 'tensor_view' ? entry.shape : undefined;
  if (!shape || shape.length !== 2) return true;
  const rows = split === 1 || split === 3;
  const size = shape[rows ? 0 : 1];
  if (size === null) return true;
  const odd = isOddSplit(split);
  if ((size % 2 !== 0) !== odd) {
    c.error(c.span('tile'), `${c.v.op.name} expects a statically ${odd ? 'odd' : 'even'} valid-${rows ? 'row' : 'column'} count for split = ${split}`);
    return false;
  }
  return true;
}

/** A pop's valid_row/valid_col operands: both or neither, required by an odd split, and only for a tile of dynamic valid shape. */
export function checkPopValidShape(c: DeclaredCheck, result: Type | undefined): boolean {
  const { op } = c.v;
  const rows = c.binding.operands.valid_row !== undefined;
  const cols = c.binding.operands.valid_col !== undefined;
  const resultSpan = op.resultTypes[0]?.span ?? op.span;
  if (rows !== cols) {
    c.error(op.span, `${op.name} expects valid_row and valid_col operands to be provided together`);
    return false;
  }
  if (isOddSplit(c.int('split')) && !rows && result?.kind !== 'tensor_view') {
    c.error(op.span, `${op.name} expects odd C2V split tpop to provide per-sub-core valid_row and valid_col operands`);
    return false;
  }
  if (!rows || !result) return true;
  if (result.kind === 'tensor_view') {
    c.error(c.span('valid_row'), `${op.name} does not accept valid_row/valid_col when result is !pto.tensor_view`);
    return false;
  }
  if (result.kind !== 'tile' || result.vRow !== null || result.vCol !== null) {
    c.error(resultSpan, `${op.name} expects tile result to have dynamic validShape (?, ?) when valid_row/valid_col operands are provided`);
    return false;
  }
  return true;
}

/** `aiv_subblockid(%sb)` names one vector sub-block of a split transfer of a vector tile. */
export function checkSubblock(c: DeclaredCheck, entry: Type | undefined): boolean {
  const { op } = c.v;
  if (!c.binding.operands.aiv_subblockid) return true;
  const span = c.span('aiv_subblockid');
  let problem: string | undefined;
  if ((c.int('split') ?? 0) === 0) problem = "expects 'aiv_subblockid' only when 'split' is 1, 2, 3 or 4";
  else if (entry?.kind === 'tensor_view') problem = "does not support 'aiv_subblockid' for !pto.tensor_view pipe entries";
  else if (entry?.kind === 'tile' && entry.loc !== 'vec') problem = "expects 'aiv_subblockid' only on AIV-side vector tile pipe entries";
  if (problem) c.error(span, `${op.name} ${problem}`);
  return problem === undefined;
}
