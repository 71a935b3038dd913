import { CoreKind, OpDefinition } from '../../ir/definition';
import { DIAGNOSTICS as D } from '../../diag/catalog';
import { OpNode, attrOf } from '../../syntax/ast';
import { elemSize } from '../../types/type';
import { DeclaredCheck, DeclaredOp, DeclaredOperand, declaredDefinition, ptoEnum } from '../define/declared';
import {
  checkConsumerPeer,
  checkEpilogueAttr,
  checkFixpipeInitLocal,
  checkFixpipePush,
  checkFixpipePop,
  checkFixpipeSplit,
  checkProducerPeer,
  checkSetQuant,
  fixpipeOf,
} from './fixpipe-contract';
import {
  PipeDataRole,
  checkCoreContext,
  checkDataOp,
  checkOddSplitEntry,
  checkPopValidShape,
  checkSplitParity,
  checkSubblock,
  checkTensorEntry,
} from './pipe-frontend';
import { PIPE_OP, definingOp, intAttr, isFrontendInit, opsNamed, perFunction, pipeId, symbolAttr } from './pipe-model';
import { pipePeerProblem } from './pipe-peers';
import {
  allocEntry,
  declareEntry,
  freeEntry,
  importReservedBuffer,
  initializeFrontendPipe,
  initializeLoweredPipe,
  popEntry,
  pushEntry,
  reserveBuffer,
  setQuant,
} from './pipe-run';

/** The two directions of a pipe and the core each end of it runs on. */
const CUBE_TO_VECTOR = { producer: { core: 'cube', c2v: true }, consumer: { core: 'vector', c2v: true } } satisfies Record<string, PipeDataRole>;
const VECTOR_TO_CUBE = { producer: { core: 'vector', c2v: false }, consumer: { core: 'cube', c2v: false } } satisfies Record<string, PipeDataRole>;

/**
 * Pipes between the cube core and the vector cores of a launch (PTOAS's docs/designs/ptoas-tpush-tpop-design.md):
 * a pipe is initialized on each side with a direction (dir_mask 1 cube -> vector, 2 vector -> cube, 3 both), a
 * slot size and a slot count; the producer allocates a slot (talloc), fills it and pushes it (tpush); the consumer
 * pops it (tpop) and frees it (tfree). The frontend forms name the pipe by `id` (`tpush_to_aiv`, `tpop_from_aic`);
 * the lowered forms pass a `!pto.pipe` value. Slots live in buffers reserved by name (reserve_buffer) and imported
 * by the peer function (import_reserved_buffer). The VM runs them as pipe-run.ts says (docs/pipes.md).
 */

const ID = { name: 'id', type: { kind: 'int' as const, range: [0, 2147483647] as [number, number] } };
const SPLIT = { name: 'split', type: { kind: 'int' as const, range: [0, 4] as [number, number] }, required: true };
const SUBBLOCK: DeclaredOperand = { name: 'aiv_subblockid', is: ['i64'], optional: true, keyword: true };
const ENTRY_CLASSES = ['tile', 'tensor_view'] as const;

/** The fixpipe parameters pto-isa has and PTOAS keeps off its frontend: an op that names one is refused. */
const UNPUBLISHED = {
  names: [
    'stPhase',
    'st_phase',
    'atomicType',
    'atomic_type',
    'subBlockId',
    'subBlockid',
    'sub_blockid',
    'clipReluMode',
    'clip_relu_mode',
    'isChannelSplit',
    'is_channel_split',
    'channelSplit',
    'channel_split',
  ],
  reason: 'unpublished fixpipe attr',
};

/** `aiv_subblockid(%sb)` on a lowered push or pop: only split transfers (split 1..4) go to one sub-block. */
function checkLoweredSubblock(c: DeclaredCheck): void {
  checkSubblock(c, c.type('tile'));
}

/**
 * A lowered push (on the cube) or pop (on a vector core) with an odd split: only on a one-way cube -> vector
 * `initialize_l2g2l_pipe` with a local consumer buffer.
 */
function loweredTransfer(side: CoreKind) {
  return (c: DeclaredCheck): void => {
    checkTensorViewEntry(c, 'tile');
    checkLoweredSubblock(c);
    const split = c.int('split');
    if (split !== 3 && split !== 4) return;
    const handle = c.binding.operands.pipe_handle?.[0];
    const init = handle === undefined ? undefined : definingOp(c.v.function, c.v.op.operands[handle]);
    const positional = init ? (init.segments.operands ?? []) : [];
    const ok = c.v.coreKind() === side && init?.name === PIPE_OP.l2g2lInit && intAttr(init, 'dir_mask') === 1 && positional.length >= 2;
    if (!ok)
      c.error(
        c.binding.attrs.split.span,
        `${c.v.op.name} supports odd split modes (split = 3 or 4) only for a unidirectional C2V pto.initialize_l2g2l_pipe with a local consumer buffer`,
      );
  };
}

/**
 * A lowered transfer whose entry is a GM tensor view: the pipe must be a global-only pto.initialize_l2g2l_pipe whose
 * gm_addr view has the entry's element type, rank and static dims (PTOAS's internal tensor-entry rule).
 */
function checkTensorViewEntry(c: DeclaredCheck, entryName: string): void {
  const entry = c.type(entryName);
  if (entry?.kind !== 'tensor_view') return;
  const handle = c.binding.operands.pipe_handle?.[0];
  const init = handle === undefined ? undefined : definingOp(c.v.function, c.v.op.operands[handle]);
  const at = c.span(entryName);
  if (init?.name !== PIPE_OP.l2g2lInit) return c.error(at, `${c.v.op.name} expects a !pto.tensor_view entry to use a pipe made by ${PIPE_OP.l2g2lInit}`);
  // Its positional operands: gm_addr, then local_addr when the pipe also has a local buffer.
  const positional = init.segments.operands ?? [];
  const gm = positional.length > 0 ? [init.operands[positional[0]]] : [];
  if (positional.length >= 2) return c.error(at, `${c.v.op.name} expects a !pto.tensor_view entry to use a global-only ${PIPE_OP.l2g2lInit} (no local_addr)`);
  const slotRef = gm[0]?.type;
  const slot = slotRef ? c.v.type(slotRef) : undefined;
  if (slot?.kind !== 'tensor_view') return;
  if (slot.elem !== entry.elem)
    return c.error(at, `${c.v.op.name} expects the pipe entry's element type to match ${PIPE_OP.l2g2lInit}'s gm_addr (${slot.elem})`);
  if (slot.shape.length !== entry.shape.length)
    return c.error(
      at,
      `${c.v.op.name} expects the pipe entry's rank (${entry.shape.length}) to match ${PIPE_OP.l2g2lInit}'s gm_addr rank (${slot.shape.length})`,
    );
  const dim = entry.shape.findIndex((d, i) => d !== null && slot.shape[i] !== null && d !== slot.shape[i]);
  if (dim >= 0)
    c.error(at, `${c.v.op.name} expects pipe entry dimension ${dim} (${entry.shape[dim]}) to match ${PIPE_OP.l2g2lInit} gm_addr dimension ${slot.shape[dim]}`);
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

/**
 * `pto.aic_initialize_pipe {id, dir_mask, slot_size, ...} (c2v_consumer_buf = %a : i32, ...)`: the cube end
 * (`core` cube) or the vector end of a pipe, in code for that core.
 */
function frontendInit(name: string, core: CoreKind): DeclaredOp {
  return {
    name,
    operands: [
      { name: 'gm_slot_buffer', is: ['ptr'], optional: true, keyword: true },
      { name: 'gm_slot_tensor', is: ['tensor_view'], optional: true, keyword: true },
      { name: 'c2v_consumer_buf', is: ['i32'], optional: true, keyword: true },
      { name: 'v2c_consumer_buf', is: ['i32'], optional: true, keyword: true },
    ],
    attrs: [ID, ...PIPE_CONFIG, { name: 'slot_num', type: { kind: 'int' } }, { name: 'local_slot_num', type: { kind: 'int' } }],
    refusedAttrs: UNPUBLISHED,
    execute: initializeFrontendPipe,
    check(c) {
      if (!checkCoreContext(c, core)) return;
      const errors = c.v.diags.errorCount;
      checkPipeConfig(c);
      const { op } = c.v;
      const has = (k: string) => c.binding.operands[k] !== undefined;
      const dir = c.int('dir_mask');
      if (has('gm_slot_tensor')) checkGmSlotTensor(c, dir);
      else if (!has('c2v_consumer_buf') && !has('v2c_consumer_buf'))
        c.error(op.span, `${name} needs a consumer buffer operand (c2v_consumer_buf or v2c_consumer_buf), or 'gm_slot_tensor'`);
      else if (dir === 1 && !has('c2v_consumer_buf')) c.error(op.span, `${name} needs 'c2v_consumer_buf' when dir_mask is 1`);
      else if (dir === 2 && !has('v2c_consumer_buf')) c.error(op.span, `${name} needs 'v2c_consumer_buf' when dir_mask is 2`);
      else if (dir === 3 && !(has('c2v_consumer_buf') && has('v2c_consumer_buf')))
        c.error(op.span, `${name} needs both 'c2v_consumer_buf' and 'v2c_consumer_buf' when dir_mask is 3`);
      uniqueInFunction(
        c,
        (other) => (isFrontendInit(other) ? String(pipeId(other)) : undefined),
        (key) => `requires 'id' (${key}) to be unique across the function's initialize_pipe ops`,
      );
      const local = c.int('local_slot_num');
      if (local !== undefined) {
        const slots = c.int('slot_num') ?? (dir === 3 ? 4 : 8);
        if (c.v.target === 'a5') c.error(op.span, `${name}: 'local_slot_num' is only supported on a2a3`);
        else if (local <= 0) c.error(op.span, `${name} expects 'local_slot_num' to be greater than 0`);
        else if (local > slots) c.error(op.span, `${name} expects 'local_slot_num' (${local}) to be at most slot_num (${slots}) for dir_mask = ${dir}`);
      }
      const epilogue = checkEpilogueAttr(c);
      if (epilogue && c.v.diags.errorCount === errors && checkFixpipeInitLocal(c, epilogue)) {
        if (core === 'cube') checkProducerPeer(c, epilogue);
        else checkConsumerPeer(c, epilogue);
      }
      if (c.v.diags.errorCount === errors) checkPeerEnds(c);
    },
  };
}

/**
 * A pipe whose slots are a GM tensor (`gm_slot_tensor`): not with a GM slot buffer too; with a consumer buffer
 * only one-way cube -> vector through `c2v_consumer_buf`; without one, no `local_slot_num`. The tensor is one
 * slot's entry: its bytes are the slot size, or half of it for split entries.
 */
function checkGmSlotTensor(c: DeclaredCheck, dir: number | undefined): void {
  const { op } = c.v;
  const has = (k: string) => c.binding.operands[k] !== undefined;
  if (has('gm_slot_buffer')) return c.error(op.span, `${op.name}: 'gm_slot_tensor' cannot be combined with 'gm_slot_buffer'`);
  const consumers = has('c2v_consumer_buf') || has('v2c_consumer_buf');
  if (consumers && (dir !== 1 || !has('c2v_consumer_buf') || has('v2c_consumer_buf')))
    return c.error(op.span, `${op.name}: GM-backed tile pipe init currently supports only dir_mask = 1 with 'gm_slot_tensor' and 'c2v_consumer_buf'`);
  if (!consumers && c.binding.attrs.local_slot_num) return c.error(op.span, `${op.name}: globaltensor pipe init does not use 'local_slot_num'`);
  const tensor = c.type('gm_slot_tensor');
  const size = c.int('slot_size');
  if (tensor?.kind !== 'tensor_view' || size === undefined) return;
  if (tensor.shape.length === 0) return c.error(c.span('gm_slot_tensor'), `${op.name} expects 'gm_slot_tensor' to describe one slot entry tensor`);
  if (tensor.shape.some((d) => d === null)) return;
  const bytes = tensor.shape.reduce<number>((n, d) => n * d!, 1) * elemSize(tensor.elem);
  if (bytes !== size && bytes * 2 !== size)
    c.error(
      c.span('gm_slot_tensor'),
      `${op.name} expects 'slot_size' to equal gm_slot_tensor byte size or twice gm_slot_tensor byte size for split GlobalTensor entries (got slot_size = ${size}, gm_slot_tensor byte size = ${bytes})`,
    );
}

/** `%pipe = pto.initialize_l2g2l_pipe {dir_mask, slot_size, slot_num, ...} (%gm : T[, %local : T[, %peer : T]]) -> !pto.pipe`. */
function loweredInit(name: string, operands: DeclaredOperand[], extra: string[]): DeclaredOp {
  return {
    name,
    operands,
    attrs: [...PIPE_CONFIG, { name: 'slot_num', type: { kind: 'int' }, required: true }, ...extra.map((n) => ({ name: n, type: { kind: 'int' as const } }))],
    results: [{ name: 'pipe', is: ['pipe'] }],
    execute: initializeLoweredPipe,
    check(c) {
      const errors = c.v.diags.errorCount;
      checkPipeConfig(c);
      if (c.v.diags.errorCount === errors) checkPeerEnds(c);
    },
  };
}

/** What PTOAS's passes find wrong with the pipe this initialization is one end of (pipe-peers.ts). */
function checkPeerEnds(c: DeclaredCheck): void {
  const problem = pipePeerProblem(c.v.functions(), c.v.target, c.v.op);
  if (problem) c.error(c.v.op.nameSpan, `${c.v.op.name} ${problem}`);
}

/** `tpush_to_aiv(%t : T) {id, split}`: the producer hands a filled slot to the consumer. */
function pushTo(name: string, role: PipeDataRole): DeclaredOp {
  return {
    name,
    operands: [{ name: 'tile', is: [...ENTRY_CLASSES] }, ...(role.c2v ? [] : [SUBBLOCK])],
    attrs: [ID, SPLIT],
    refusedAttrs: UNPUBLISHED,
    execute: pushEntry,
    check(c) {
      const entry = c.type('tile');
      const init = checkDataOp(c, role);
      if (!init || !checkTensorEntry(c, init, entry, c.span('tile')) || !checkOddSplitEntry(c, entry, c.span('tile'))) return;
      if (!role.c2v) {
        checkSubblock(c, entry);
        return;
      }
      if (!checkSplitParity(c, entry)) return;
      const epilogue = fixpipeOf(init, PIPE_OP.aicInit);
      if (epilogue) checkFixpipePush(c, epilogue, entry);
    },
  };
}

/** `%t = tpop_from_aic[(%rows, %cols)] {id, split} -> T`: the consumer takes the oldest filled slot. */
function popFrom(name: string, role: PipeDataRole): DeclaredOp {
  return {
    name,
    operands: [{ name: 'valid_row', is: ['index'], optional: true }, { name: 'valid_col', is: ['index'], optional: true }, ...(role.c2v ? [SUBBLOCK] : [])],
    attrs: [ID, SPLIT],
    results: [{ name: 'tile', is: [...ENTRY_CLASSES] }],
    refusedAttrs: UNPUBLISHED,
    execute: popEntry,
    check(c) {
      const result = c.v.declared[0];
      const resultSpan = c.v.op.resultTypes[0]?.span ?? c.v.op.span;
      const init = checkDataOp(c, role);
      if (!init || !checkOddSplitEntry(c, result, resultSpan) || !checkTensorEntry(c, init, result, resultSpan)) return;
      if (!checkPopValidShape(c, result) || !checkSubblock(c, result)) return;
      const epilogue = role.c2v ? fixpipeOf(init, PIPE_OP.aivInit) : undefined;
      if (epilogue) checkFixpipePop(c, epilogue);
    },
  };
}

/** `tfree_from_aic[(%t : T)] {id, split}`: the consumer gives the slot back. */
function freeFrom(name: string, role: PipeDataRole): DeclaredOp {
  return {
    name,
    operands: [{ name: 'entry', is: [...ENTRY_CLASSES], optional: true }],
    attrs: [ID, SPLIT],
    refusedAttrs: UNPUBLISHED,
    execute: freeEntry,
    check(c) {
      const init = checkDataOp(c, role);
      if (!init) return;
      if (role.c2v && fixpipeOf(init, PIPE_OP.aivInit) && !checkFixpipeSplit(c, 'TFREE')) return;
      const entry = c.type('entry');
      if (checkOddSplitEntry(c, entry, c.span('entry'))) checkTensorEntry(c, init, entry, c.span('entry'));
    },
  };
}

/** `%e = talloc_to_aiv {id, split} -> !pto.tensor_view<...>`: the producer takes a free GM slot to fill. */
function allocTo(name: string, role: PipeDataRole): DeclaredOp {
  return {
    name,
    attrs: [ID, SPLIT],
    results: [{ name: 'entry', is: ['tensor_view'] }],
    refusedAttrs: UNPUBLISHED,
    execute: allocEntry,
    check(c) {
      const init = checkDataOp(c, role);
      if (!init) return;
      if (role.c2v && fixpipeOf(init, PIPE_OP.aicInit) && !checkFixpipeSplit(c, 'TALLOC')) return;
      const entry = c.v.declared[0];
      const span = c.v.op.resultTypes[0]?.span ?? c.v.op.span;
      if (!role.c2v || checkOddSplitEntry(c, entry, span)) checkTensorEntry(c, init, entry, span);
    },
  };
}

const PIPE_HANDLE: DeclaredOperand = { name: 'pipe_handle', is: ['pipe'] };

const PIPE_OPS: DeclaredOp[] = [
  frontendInit(PIPE_OP.aicInit, 'cube'),
  frontendInit(PIPE_OP.aivInit, 'vector'),
  loweredInit(
    PIPE_OP.l2g2lInit,
    [
      { name: 'gm_addr', is: ['any'] },
      { name: 'local_addr', is: ['any'], optional: true },
      { name: 'peer_local_addr', is: ['any'], optional: true },
    ],
    ['local_slot_num', 'flag_base'],
  ),
  loweredInit(
    PIPE_OP.l2lInit,
    [
      { name: 'local_addr', is: ['any'] },
      { name: 'peer_local_addr', is: ['any'], optional: true },
    ],
    ['flag_base'],
  ),
  pushTo(PIPE_OP.pushToAiv, CUBE_TO_VECTOR.producer),
  pushTo(PIPE_OP.pushToAic, VECTOR_TO_CUBE.producer),
  popFrom(PIPE_OP.popFromAic, CUBE_TO_VECTOR.consumer),
  popFrom(PIPE_OP.popFromAiv, VECTOR_TO_CUBE.consumer),
  freeFrom(PIPE_OP.freeFromAic, CUBE_TO_VECTOR.consumer),
  freeFrom(PIPE_OP.freeFromAiv, VECTOR_TO_CUBE.consumer),
  allocTo(PIPE_OP.allocToAiv, CUBE_TO_VECTOR.producer),
  allocTo(PIPE_OP.allocToAic, VECTOR_TO_CUBE.producer),
  {
    name: 'pto.talloc',
    operands: [{ name: 'entry', is: ['tensor_view'] }, PIPE_HANDLE],
    attrs: [SPLIT],
    check: (c) => checkTensorViewEntry(c, 'entry'),
    execute: allocEntry,
  },
  {
    name: 'pto.tpush',
    operands: [{ name: 'tile', is: [...ENTRY_CLASSES] }, PIPE_HANDLE, SUBBLOCK],
    attrs: [SPLIT],
    check: loweredTransfer('cube'),
    execute: pushEntry,
  },
  {
    name: 'pto.tpop',
    operands: [{ name: 'tile', is: [...ENTRY_CLASSES] }, PIPE_HANDLE, SUBBLOCK],
    attrs: [SPLIT],
    check: loweredTransfer('vector'),
    execute: popEntry,
  },
  {
    name: 'pto.tfree',
    operands: [{ name: 'entry', is: [...ENTRY_CLASSES], optional: true }, PIPE_HANDLE],
    attrs: [SPLIT],
    check: (c) => checkTensorViewEntry(c, 'entry'),
    execute: freeEntry,
  },
  // A slot's contents named before it is popped (the lowered forms fill it in place).
  { name: 'pto.declare_tile', results: [{ name: 'tile', is: ['tile', 'tensor_view', 'partition_view'] }], execute: declareEntry },
  { name: 'pto.declare_global', results: [{ name: 'entry', is: ['tensor_view'] }], execute: declareEntry },
  {
    name: PIPE_OP.reserveBuffer,
    properties: { notInTileOpHelper: 'Tile allocation or high-level TileOps' },
    attrs: [
      { name: 'name', type: { kind: 'string' }, required: true },
      { name: 'size', type: { kind: 'int' }, required: true },
      { name: 'location', type: ptoEnum('address_space', ['vec', 'mat', 'gm', 'left', 'right', 'acc', 'bias', 'scaling', 'zero']), required: true },
      { name: 'auto', type: { kind: 'bool' }, required: true },
      { name: 'base', type: { kind: 'int' } },
    ],
    results: [{ name: 'addr', is: ['i32'], fixed: { kind: 'scalar', elem: 'i32' } }],
    execute: reserveBuffer,
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
      placementAtLevel(c);
      uniqueInFunction(
        c,
        (other) => stringAttrOf(other, 'name'),
        (key) => `requires 'name' ("${key}") to be unique within the function`,
      );
    },
  },
  {
    name: PIPE_OP.importReservedBuffer,
    attrs: [
      { name: 'name', type: { kind: 'string' }, required: true },
      { name: 'peer_func', type: { kind: 'symbol' }, required: true },
    ],
    results: [{ name: 'addr', is: ['i32'], fixed: { kind: 'scalar', elem: 'i32' } }],
    execute: importReservedBuffer,
    check(c) {
      const peer = c.binding.attrs.peer_func;
      if (peer?.kind !== 'symbol') return;
      const peerFn = c.v.peerFunction(peer.name);
      if (!peerFn) {
        const why = c.v.functions().some((f) => f.symbol === peer.name)
          ? ' PTOAS can see from here (a private function of a sibling module)'
          : ' of the module';
        c.error(peer.span, `pto.import_reserved_buffer: 'peer_func' @${peer.name} is not a function${why}`);
        return;
      }
      const name = stringAttrOf(c.v.op, 'name');
      uniqueInFunction(
        c,
        (other) => (other.name === c.v.op.name ? `${stringAttrOf(other, 'name')} from @${symbolAttr(other, 'peer_func')}` : undefined),
        (key) => `requires (name, peer_func) (${key}) to be unique within the function`,
      );
      if (name !== undefined && !opsNamed(peerFn, PIPE_OP.reserveBuffer).some((o) => stringAttrOf(o, 'name') === name))
        c.error(peer.span, `pto.import_reserved_buffer expects @${peer.name} to reserve a buffer named "${name}" (pto.reserve_buffer)`);
    },
  },
  // Quantization parameters a fixpipe push applies (id names the pipe).
  {
    name: PIPE_OP.setQuantScalar,
    operands: [{ name: 'scale', is: ['f32'] }],
    attrs: [ID],
    refusedAttrs: UNPUBLISHED,
    check: (c) => checkSetQuant(c, 'scalar'),
    execute: (x, op, b) => setQuant(x, op, b, 'scalar'),
  },
  {
    name: PIPE_OP.setQuantVector,
    operands: [{ name: 'scaling_tile', is: [...ENTRY_CLASSES] }],
    attrs: [ID],
    refusedAttrs: UNPUBLISHED,
    check: (c) => checkSetQuant(c, 'vector'),
    execute: (x, op, b) => setQuant(x, op, b, 'vector'),
  },
];

function stringAttrOf(op: OpNode, key: string): string | undefined {
  const a = attrOf(op, key);
  return a?.kind === 'string' ? a.value : undefined;
}

/** Per function and op name: the first op (in program order) of each key. */
const firstByKey = new WeakMap<OpNode, Map<string, Map<string, OpNode>>>();

/**
 * Reports the op when an earlier op of the same name in its function has the same key. The first op of each key is
 * found in one pass per function and name (a function can hold thousands of them); `keyOf` is the same for a name.
 */
function uniqueInFunction(c: DeclaredCheck, keyOf: (op: OpNode) => string | undefined, message: (key: string) => string): void {
  const { op } = c.v;
  const key = keyOf(op);
  if (key === undefined) return;
  const byName = perFunction(firstByKey, c.v.function, () => new Map<string, Map<string, OpNode>>());
  let first = byName.get(op.name);
  if (!first) {
    first = new Map();
    for (const other of opsNamed(c.v.function, op.name)) {
      const k = keyOf(other);
      if (k !== undefined && !first.has(k)) first.set(k, other);
    }
    byName.set(op.name, first);
  }
  const earlier = first.get(key);
  if (earlier && earlier !== op) c.v.error(op.span, `${op.name} ${message(key)}`, [{ message: 'the other one', span: earlier.span }]);
}

export const PIPE_DEFINITIONS: OpDefinition[] = PIPE_OPS.map(declaredDefinition);

/**
 * Who places a reserved buffer depends on the build level: at level1/2 PTOAS's PlanMemory does (an auto buffer may
 * not come with a base, and a manual one is refused), at level3 the author does (only manual buffers, with a base).
 */
function placementAtLevel(c: DeclaredCheck): void {
  const { level, op } = c.v;
  const auto = c.binding.attrs.auto;
  const base = c.binding.attrs.base;
  if (!level || auto?.kind !== 'bool') return;
  if (level === 'level3') {
    if (auto.value) c.v.error(auto.span, "pto.reserve_buffer requires 'auto = false' and explicit 'base' when --pto-level=level3", undefined, D.buildLevel);
    return;
  }
  if (auto.value && base !== undefined)
    c.v.error(base.span, "unexpected 'base' on auto reserve_buffer: PlanMemory places it (--level level1/level2)", undefined, D.buildLevel);
  if (!auto.value && base !== undefined)
    c.v.error(
      op.nameSpan,
      "pto.reserve_buffer with explicit 'base' (auto = false) is not supported when --pto-level=level1 or level2; use level3 or auto = true",
      undefined,
      D.buildLevel,
    );
}
