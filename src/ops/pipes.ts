import { OpDefinition } from '../ir/definition';
import { OpNode, attrOf } from '../syntax/ast';
import { DeclaredCheck, DeclaredOp, DeclaredOperand, declaredDefinition, ptoEnum } from './declared';

/**
 * Pipes between the cube core and the vector cores of a launch (PTOAS's docs/designs/ptoas-tpush-tpop-design.md):
 * a pipe is initialized on each side with a direction (dir_mask 1 cube -> vector, 2 vector -> cube, 3 both), a
 * slot size and a slot count; the producer allocates a slot (talloc), fills it and pushes it (tpush); the consumer
 * pops it (tpop) and frees it (tfree). The frontend forms name the pipe by `id` (`tpush_to_aiv`, `tpop_from_aic`);
 * the lowered forms pass a `!pto.pipe` value. Slots live in buffers reserved by name (reserve_buffer) and imported
 * by the peer function (import_reserved_buffer). The VM does not run cores that talk to each other yet.
 */

const ID = { name: 'id', type: { kind: 'int' as const, range: [0, 2147483647] as [number, number] } };
const SPLIT = { name: 'split', type: { kind: 'int' as const, range: [0, 4] as [number, number] }, required: true };
const SUBBLOCK: DeclaredOperand = { name: 'aiv_subblockid', is: ['i64'], optional: true, keyword: true };
const ENTRY_CLASSES = ['tile', 'tensor_view'] as const;

/** `aiv_subblockid(%sb)` names one vector sub-block: only split transfers (split 1..4) go to one. */
function checkSubblock(c: DeclaredCheck): void {
  const split = c.int('split');
  if (c.binding.operands.aiv_subblockid && split === 0)
    c.error(c.span('aiv_subblockid'), `${c.v.op.name} expects 'aiv_subblockid' only when 'split' is 1, 2, 3 or 4`);
}

/** The pipe configuration every initialization takes. */
const PIPE_CONFIG = [
  { name: 'dir_mask', type: { kind: 'int' as const }, required: true },
  { name: 'slot_size', type: { kind: 'int' as const }, required: true },
  { name: 'nosplit', type: { kind: 'bool' as const } },
  { name: 'acc_push_epilogue', type: { kind: 'dialect' as const, prefix: '#pto.acc_push_epilogue' } },
];

/** The rules PTOAS checks of every pipe initialization's configuration. */
function checkPipeConfig(c: DeclaredCheck): void {
  const dir = c.int('dir_mask');
  if (dir !== undefined && ![1, 2, 3].includes(dir)) c.error(c.v.op.span, `${c.v.op.name} expects 'dir_mask' to be 1, 2 or 3, got ${dir}`);
  const size = c.int('slot_size');
  if (size !== undefined && size <= 0) c.error(c.v.op.span, `${c.v.op.name} expects 'slot_size' to be greater than 0, got ${size}`);
  const slots = c.int('slot_num');
  if (slots !== undefined && slots <= 0) c.error(c.v.op.span, `${c.v.op.name} expects 'slot_num' to be greater than 0, got ${slots}`);
  if (c.binding.attrs.acc_push_epilogue) {
    if (dir !== 1) c.error(c.v.op.span, `${c.v.op.name}: a fixpipe pipe (with 'acc_push_epilogue') goes cube -> vector only (dir_mask = 1)`);
    const nosplit = c.binding.attrs.nosplit;
    if (!(nosplit?.kind === 'bool' && nosplit.value)) c.error(c.v.op.span, `${c.v.op.name}: a fixpipe pipe (with 'acc_push_epilogue') needs nosplit = true`);
  }
}

/** `pto.aic_initialize_pipe {id, dir_mask, slot_size, ...} (c2v_consumer_buf = %a : i32, ...)`. */
function frontendInit(name: string): DeclaredOp {
  return {
    name,
    operands: [
      { name: 'gm_slot_buffer', is: ['ptr'], optional: true, keyword: true },
      { name: 'gm_slot_tensor', is: ['tensor_view'], optional: true, keyword: true },
      { name: 'c2v_consumer_buf', is: ['i32'], optional: true, keyword: true },
      { name: 'v2c_consumer_buf', is: ['i32'], optional: true, keyword: true },
    ],
    attrs: [ID, ...PIPE_CONFIG, { name: 'slot_num', type: { kind: 'int' } }, { name: 'local_slot_num', type: { kind: 'int' } }],
    check(c) {
      checkPipeConfig(c);
      const { op } = c.v;
      const has = (k: string) => c.binding.operands[k] !== undefined;
      const dir = c.int('dir_mask');
      if (has('gm_slot_tensor') && has('gm_slot_buffer')) c.error(op.span, `${name}: 'gm_slot_tensor' cannot be combined with 'gm_slot_buffer'`);
      if (!has('gm_slot_tensor')) {
        if (!has('c2v_consumer_buf') && !has('v2c_consumer_buf'))
          c.error(op.span, `${name} needs a consumer buffer operand (c2v_consumer_buf or v2c_consumer_buf), or 'gm_slot_tensor'`);
        else if (dir === 1 && !has('c2v_consumer_buf')) c.error(op.span, `${name} needs 'c2v_consumer_buf' when dir_mask is 1`);
        else if (dir === 2 && !has('v2c_consumer_buf')) c.error(op.span, `${name} needs 'v2c_consumer_buf' when dir_mask is 2`);
        else if (dir === 3 && !(has('c2v_consumer_buf') && has('v2c_consumer_buf')))
          c.error(op.span, `${name} needs both 'c2v_consumer_buf' and 'v2c_consumer_buf' when dir_mask is 3`);
      }
      uniqueInFunction(
        c,
        (other) => (other.name.endsWith('_initialize_pipe') ? String(attrIntOf(other, 'id') ?? 0) : undefined),
        (key) => `requires 'id' (${key}) to be unique across the function's initialize_pipe ops`,
      );
      const local = c.int('local_slot_num');
      if (local !== undefined) {
        const slots = c.int('slot_num') ?? (dir === 3 ? 4 : 8);
        if (c.v.target === 'a5') c.error(op.span, `${name}: 'local_slot_num' is only supported on a2a3`);
        else if (local <= 0) c.error(op.span, `${name} expects 'local_slot_num' to be greater than 0`);
        else if (local > slots) c.error(op.span, `${name} expects 'local_slot_num' (${local}) to be at most slot_num (${slots}) for dir_mask = ${dir}`);
      }
    },
  };
}

/** `%pipe = pto.initialize_l2g2l_pipe {dir_mask, slot_size, slot_num, ...} (%gm : T[, %local : T[, %peer : T]]) -> !pto.pipe`. */
function loweredInit(name: string, operands: DeclaredOperand[], extra: string[]): DeclaredOp {
  return {
    name,
    operands,
    attrs: [...PIPE_CONFIG, { name: 'slot_num', type: { kind: 'int' }, required: true }, ...extra.map((n) => ({ name: n, type: { kind: 'int' as const } }))],
    results: [{ name: 'pipe', is: ['pipe'] }],
    check: checkPipeConfig,
  };
}

/** `tpush_to_aiv(%t : T) {id, split}`: the producer hands a filled slot to the consumer. */
function pushTo(name: string, subblock: boolean): DeclaredOp {
  return {
    name,
    operands: [{ name: 'tile', is: [...ENTRY_CLASSES] }, ...(subblock ? [SUBBLOCK] : [])],
    attrs: [ID, SPLIT],
    check: checkSubblock,
  };
}

/** `%t = tpop_from_aic[(%rows, %cols)] {id, split} -> T`: the consumer takes the oldest filled slot. */
function popFrom(name: string, subblock: boolean): DeclaredOp {
  return {
    name,
    operands: [{ name: 'valid_row', is: ['index'], optional: true }, { name: 'valid_col', is: ['index'], optional: true }, ...(subblock ? [SUBBLOCK] : [])],
    attrs: [ID, SPLIT],
    results: [{ name: 'tile', is: [...ENTRY_CLASSES] }],
    check(c) {
      const rows = c.binding.operands.valid_row !== undefined;
      const cols = c.binding.operands.valid_col !== undefined;
      if (rows !== cols) c.error(c.v.op.span, `${name} takes both valid rows and valid cols, or neither`);
      checkSubblock(c);
    },
  };
}

/** `tfree_from_aic[(%t : T)] {id, split}`: the consumer gives the slot back. */
function freeFrom(name: string): DeclaredOp {
  return { name, operands: [{ name: 'entry', is: [...ENTRY_CLASSES], optional: true }], attrs: [ID, SPLIT] };
}

/** `%e = talloc_to_aiv {id, split} -> !pto.tensor_view<...>`: the producer takes a free GM slot to fill. */
function allocTo(name: string): DeclaredOp {
  return { name, attrs: [ID, SPLIT], results: [{ name: 'entry', is: ['tensor_view'] }] };
}

const PIPE_HANDLE: DeclaredOperand = { name: 'pipe_handle', is: ['pipe'] };

const PIPE_OPS: DeclaredOp[] = [
  frontendInit('pto.aic_initialize_pipe'),
  frontendInit('pto.aiv_initialize_pipe'),
  loweredInit(
    'pto.initialize_l2g2l_pipe',
    [
      { name: 'gm_addr', is: ['any'] },
      { name: 'local_addr', is: ['any'], optional: true },
      { name: 'peer_local_addr', is: ['any'], optional: true },
    ],
    ['local_slot_num', 'flag_base'],
  ),
  loweredInit(
    'pto.initialize_l2l_pipe',
    [
      { name: 'local_addr', is: ['any'] },
      { name: 'peer_local_addr', is: ['any'], optional: true },
    ],
    ['flag_base'],
  ),
  pushTo('pto.tpush_to_aiv', false),
  pushTo('pto.tpush_to_aic', true),
  popFrom('pto.tpop_from_aic', true),
  popFrom('pto.tpop_from_aiv', false),
  freeFrom('pto.tfree_from_aic'),
  freeFrom('pto.tfree_from_aiv'),
  allocTo('pto.talloc_to_aiv'),
  allocTo('pto.talloc_to_aic'),
  { name: 'pto.talloc', operands: [{ name: 'entry', is: ['tensor_view'] }, PIPE_HANDLE], attrs: [SPLIT] },
  { name: 'pto.tpush', operands: [{ name: 'tile', is: [...ENTRY_CLASSES] }, PIPE_HANDLE, SUBBLOCK], attrs: [SPLIT], check: checkSubblock },
  { name: 'pto.tpop', operands: [{ name: 'tile', is: [...ENTRY_CLASSES] }, PIPE_HANDLE, SUBBLOCK], attrs: [SPLIT], check: checkSubblock },
  { name: 'pto.tfree', operands: [{ name: 'entry', is: [...ENTRY_CLASSES], optional: true }, PIPE_HANDLE], attrs: [SPLIT] },
  // A slot's contents named before it is popped (the lowered forms fill it in place).
  { name: 'pto.declare_tile', results: [{ name: 'tile', is: ['tile', 'tensor_view', 'partition_view'] }] },
  { name: 'pto.declare_global', results: [{ name: 'entry', is: ['tensor_view'] }] },
  {
    name: 'pto.reserve_buffer',
    attrs: [
      { name: 'name', type: { kind: 'string' }, required: true },
      { name: 'size', type: { kind: 'int' }, required: true },
      { name: 'location', type: ptoEnum('address_space', ['vec', 'mat', 'gm', 'left', 'right', 'acc', 'bias', 'scaling', 'zero']), required: true },
      { name: 'auto', type: { kind: 'bool' }, required: true },
      { name: 'base', type: { kind: 'int' } },
    ],
    results: [{ name: 'addr', is: ['i32'], fixed: { kind: 'scalar', elem: 'i32' } }],
    check(c) {
      const { op } = c.v;
      const size = c.int('size');
      if (size !== undefined && size <= 0) c.error(op.span, `pto.reserve_buffer expects 'size' to be greater than 0, got ${size}`);
      const location = c.enumValue('location');
      if (location !== undefined && location !== 'vec' && location !== 'mat')
        c.error(c.binding.attrs.location.span, `pto.reserve_buffer reserves in vec or mat, not ${location}`);
      const auto = c.binding.attrs.auto;
      if (auto?.kind === 'bool' && !auto.value && c.binding.attrs.base === undefined) c.error(op.span, "pto.reserve_buffer needs 'base' when 'auto' is false");
      const base = c.int('base');
      if (base !== undefined && base < 0) c.error(c.binding.attrs.base.span, `pto.reserve_buffer expects 'base' to be non-negative, got ${base}`);
      uniqueInFunction(
        c,
        (other) => stringAttrOf(other, 'name'),
        (key) => `requires 'name' ("${key}") to be unique within the function`,
      );
    },
  },
  {
    name: 'pto.import_reserved_buffer',
    attrs: [
      { name: 'name', type: { kind: 'string' }, required: true },
      { name: 'peer_func', type: { kind: 'symbol' }, required: true },
    ],
    results: [{ name: 'addr', is: ['i32'], fixed: { kind: 'scalar', elem: 'i32' } }],
    check(c) {
      const peer = c.binding.attrs.peer_func;
      if (peer?.kind === 'symbol' && !c.v.callee(peer.name))
        c.error(peer.span, `pto.import_reserved_buffer: 'peer_func' @${peer.name} is not a function of the module`);
    },
  },
  // Quantization parameters a fixpipe push applies (id names the pipe).
  { name: 'pto.set_quant_scalar', operands: [{ name: 'scale', is: ['f32'] }], attrs: [ID] },
  { name: 'pto.set_quant_vector', operands: [{ name: 'scaling_tile', is: [...ENTRY_CLASSES] }], attrs: [ID] },
];

function attrIntOf(op: OpNode, key: string): number | undefined {
  const a = attrOf(op, key);
  return a?.kind === 'int' ? Number(a.value) : undefined;
}

function stringAttrOf(op: OpNode, key: string): string | undefined {
  const a = attrOf(op, key);
  return a?.kind === 'string' ? a.value : undefined;
}

/** Reports the op when an earlier op of the same name in its function has the same key. */
function uniqueInFunction(c: DeclaredCheck, keyOf: (op: OpNode) => string | undefined, message: (key: string) => string): void {
  const { op } = c.v;
  const key = keyOf(op);
  if (key === undefined) return;
  const earlier = findEarlier(c.v.function, op, (other) => other.name === op.name && keyOf(other) === key);
  if (earlier) c.v.error(op.span, `${op.name} ${message(key)}`, [{ message: 'the other one', span: earlier.span }]);
}

/** The first op of the function, before `op` in program order, that satisfies `matches`. */
function findEarlier(fn: OpNode, op: OpNode, matches: (other: OpNode) => boolean): OpNode | undefined {
  let found: OpNode | undefined;
  let done = false;
  const walk = (ops: OpNode[]): void => {
    for (const other of ops) {
      if (done) return;
      if (other === op) {
        done = true;
        return;
      }
      if (!found && matches(other)) found = other;
      for (const r of other.regions) for (const b of r.blocks) walk(b.ops);
    }
  };
  for (const r of fn.regions) for (const b of r.blocks) walk(b.ops);
  return found;
}

export const PIPE_DEFINITIONS: OpDefinition[] = PIPE_OPS.map(declaredDefinition);
