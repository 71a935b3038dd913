import { OpDefinition } from '../../ir/definition';
import { Type, printType } from '../../types/type';
import { DeclaredCheck, DeclaredOp, DeclaredOperand, declaredDefinition, ptoEnum } from '../define/declared';
import { syncAll } from './syncall-run';
import { handle, runAsyncEvent, runAsyncTransfer, runBroadcast, runGather, runNotify, runReduce, runScatter, runTest, runTransfer, runWait } from './comm-run';

/**
 * Communication between devices (ranks) and all cores of a launch (PTOAS's `pto.comm.*`, pto-isa's TPUT, TGET,
 * TNOTIFY, TWAIT, TTEST, TBROADCAST, TGATHER, TSCATTER, TREDUCE and their async forms): data moves between global
 * memories through an on-chip staging tile (`buf(%ping[, %pong])`, `recv(...)`), signals are i32 words in global
 * memory. `pto.syncall` is a barrier across the cores of a launch. The VM runs them on the ranks of a run
 * (src/ops/sync/comm-run.ts, docs/ranks.md), and `pto.syncall` as a barrier of the launch (src/ops/sync/syncall-run.ts).
 */

/** The op that sets the FFTS flags' base address, which A2/A3 code with cross-core flags needs (src/ops/sync/sync-definition.ts). */
export const SET_FFTS = 'pto.set_ffts';

const COMM: DeclaredOperand['is'] = ['partition_view', 'tensor_view', 'tile'];
const VIEW: DeclaredOperand['is'] = ['partition_view', 'tensor_view'];

/** `buf(%ping[, %pong])` or `recv(%ping[, %pong])`: one or two staging tiles. */
function staging(clause: string): DeclaredOperand {
  return { name: clause, is: ['tile'], variadic: true, keyword: true };
}

const GROUP: DeclaredOperand = { name: 'group', is: VIEW, variadic: true, keyword: true };
const ROOT = { name: 'root', type: { kind: 'int' as const, range: [0, 2147483647] as [number, number] }, required: true };
const ATOMIC = { name: 'atomicType', type: ptoEnum('atomic_type', ['atomic_none', 'atomic_add']) };

/** `buf(...)` / `recv(...)` hold a ping tile and at most a pong tile, of one type. */
function checkStaging(clause: string) {
  return (c: DeclaredCheck): void => {
    const tiles = c.binding.operands[clause] ?? [];
    const { op } = c.v;
    if (tiles.length === 0 || tiles.length > 2) c.error(op.span, `${op.name} takes ${clause}(%ping) or ${clause}(%ping, %pong), got ${tiles.length} tile(s)`);
    const [ping, pong] = tiles.map((i) => c.v.operands[i]);
    if (ping && pong && printType(ping) !== printType(pong))
      c.error(op.operands[tiles[1]].span, `${op.name}: the pong tile must have the ping tile's type ${printType(ping)}`);
  };
}

/** Static dims must be positive (the async transfers' operands). */
function checkShapes(c: DeclaredCheck, names: string[]): void {
  const { op } = c.v;
  const shapes = names.map((n) => [n, c.type(n)] as const).filter((e): e is readonly [string, Type] => !!e[1]);
  for (const [name, t] of shapes) {
    if ((t.kind === 'partition_view' || t.kind === 'tensor_view') && t.shape.some((d) => d !== null && d <= 0))
      c.error(c.span(name), `${op.name} expects every static dimension of ${name} to be positive, got ${printType(t)}`);
  }
}

/**
 * A view in global memory a transfer or collective reads or writes (PTOAS's verifyCommGlobalLike): a tensor view
 * or a partition of one, of rank 1 or more, with positive static dims. Dynamic dims only where the op allows them
 * (tput/tget), and then only on a partition, whose extent is fixed when it is made.
 */
function globalViewProblem(opName: string, name: string, t: Type, allowDynamicPartition: boolean): string | undefined {
  if ((t.kind !== 'tensor_view' && t.kind !== 'partition_view') || isMemref(t))
    return `${opName} expects ${name} to be a tensor_view or partition_view, got ${printType(t)}`;
  if (t.shape.length === 0) return `${opName} expects ${name} to have rank >= 1`;
  for (const d of t.shape) {
    if (d === null && !allowDynamicPartition) return `${opName} does not support dynamic dimensions on ${name}, got ${printType(t)}`;
    if (d === null && t.kind !== 'partition_view') return `${opName} allows dynamic dimensions on ${name} only for partition_tensor_view, got ${printType(t)}`;
    if (d !== null && d <= 0) return `${opName} expects every static dimension of ${name} to be positive, got ${printType(t)}`;
  }
  return undefined;
}

/** A buffer written in the memref form: PTOAS's view types are not memrefs. */
function isMemref(t: Type): boolean {
  return t.kind === 'partition_view' && t.memref !== undefined;
}

/** Each operand of these names (every one of a variadic group, as `group[i]`) is a global view. */
function checkGlobalViews(c: DeclaredCheck, names: string[], allowDynamicPartition: boolean): boolean {
  const { op } = c.v;
  let ok = true;
  for (const name of names) {
    const indices = c.binding.operands[name] ?? [];
    indices.forEach((operand, k) => {
      const t = c.v.operands[operand];
      const problem = t && globalViewProblem(op.name, indices.length > 1 || name === 'group' ? `${name}[${k}]` : name, t, allowDynamicPartition);
      if (problem) {
        c.error(op.operands[operand].span, problem);
        ok = false;
      }
    });
  }
  return ok;
}

/** A signal word: a global i32 (an element of a view), compared with or combined with an integer value. */
function signalOp(name: string, attr: { name: string; values: string[]; mnemonic: string }, result: boolean, execute: DeclaredOp['execute']): DeclaredOp {
  return {
    name,
    execute,
    operands: [
      { name: 'signal', is: VIEW },
      { name: 'value', is: ['integer'] },
    ],
    attrs: [{ name: attr.name, type: ptoEnum(attr.mnemonic, attr.values), required: true }],
    results: result ? [{ name: 'result', is: ['i1'], fixed: { kind: 'scalar', elem: 'i1' } }] : [],
    check(c) {
      const signal = c.type('signal');
      if (signal && (signal.kind === 'partition_view' || signal.kind === 'tensor_view')) {
        if (signal.elem !== 'i32') c.error(c.span('signal'), `${name} expects the signal to hold i32, got ${printType(signal)}`);
        if (signal.shape.some((d) => d === null)) c.error(c.span('signal'), `${name} does not support dynamic dimensions on signal`);
      }
    },
  };
}

const WAIT_CMP = { name: 'cmp', mnemonic: 'wait_cmp', values: ['eq', 'ne', 'gt', 'ge', 'lt', 'le'] };

function transfer(name: string, atomic: boolean): DeclaredOp {
  return {
    name,
    operands: [{ name: 'dst', is: COMM }, { name: 'src', is: COMM }, staging('buf')],
    attrs: atomic ? [ATOMIC] : [],
    properties: { readsGlobalViews: true },
    execute: runTransfer,
    check(c) {
      checkStaging('buf')(c);
      if (!checkGlobalViews(c, ['dst', 'src'], true)) return;
      // Both ends move the same elements: dynamic dims must line up as well as static ones.
      const [dst, src] = [c.type('dst'), c.type('src')];
      if (dst && src && 'shape' in dst && 'shape' in src && String(dst.shape) !== String(src.shape))
        c.error(c.v.op.span, `${name} expects src and dst to have the same static/dynamic shape signature, got ${printType(dst)} and ${printType(src)}`);
    },
  };
}

/** PTOAS's emission-stage VPTO checks (PTOValidateVPTOIR) stop on the async session ops. */
const ASYNC_NEEDS_EMITC = 'async SDMA session operations currently require the EmitC backend';

function asyncTransfer(name: string): DeclaredOp {
  return {
    name,
    operands: [
      { name: 'dst', is: COMM },
      { name: 'src', is: COMM },
      { name: 'session', is: ['async_session'] },
    ],
    results: [{ name: 'event', is: ['async_event'], fixed: { kind: 'handle', handle: 'async_event' } }],
    properties: { readsGlobalViews: true, notInVptoBackend: ASYNC_NEEDS_EMITC },
    execute: runAsyncTransfer,
    check(c) {
      checkShapes(c, ['dst', 'src']);
      // The asynchronous engine moves one contiguous run of bytes.
      for (const side of ['dst', 'src']) {
        const t = c.type(side);
        if (t && (t.kind === 'partition_view' || t.kind === 'tensor_view') && (t.shape.some((d) => d === null) || t.shape.filter((d) => d !== 1).length > 1))
          c.error(c.span(side), `${name} expects ${side} to be a static flat contiguous 1D view in global memory, got ${printType(t)}`);
      }
    },
  };
}

function collective(name: string, first: string, extra: DeclaredOperand[], attrs: DeclaredOp['attrs'], execute: DeclaredOp['execute']): DeclaredOp {
  return {
    name,
    execute,
    properties: { readsGlobalViews: true },
    operands: [{ name: first, is: COMM }, ...extra, staging('recv'), GROUP],
    attrs: [ROOT, ...(attrs ?? [])],
    check(c) {
      checkStaging('recv')(c);
      checkGlobalViews(c, [first, 'group'], false);
      const group = c.binding.operands.group ?? [];
      if (group.length === 0) c.error(c.v.op.span, `${name} needs group(...) with at least one view`);
      const root = c.int('root');
      if (root !== undefined && group.length > 0 && root >= group.length)
        c.error(c.binding.attrs.root.span, `${name}: root ${root} is not a member of the group of ${group.length}`);
    },
  };
}

const COMM_OPS: DeclaredOp[] = [
  transfer('pto.comm.tput', true),
  transfer('pto.comm.tget', false),
  asyncTransfer('pto.comm.tput_async'),
  asyncTransfer('pto.comm.tget_async'),
  signalOp('pto.comm.tnotify', { name: 'notifyOp', mnemonic: 'notify_op', values: ['atomic_add', 'set'] }, false, runNotify),
  signalOp('pto.comm.twait', WAIT_CMP, false, runWait),
  signalOp('pto.comm.ttest', WAIT_CMP, true, runTest),
  collective('pto.comm.tbroadcast', 'src', [], [], runBroadcast),
  collective('pto.comm.tgather', 'dst', [], [], runGather),
  collective('pto.comm.tscatter', 'src', [], [], runScatter),
  collective(
    'pto.comm.treduce',
    'dst',
    [{ name: 'acc', is: ['tile'] }],
    [{ name: 'reduceOp', type: ptoEnum('reduce_op', ['sum', 'max', 'min']), required: true }],
    runReduce,
  ),
  {
    name: 'pto.comm.build_async_session',
    operands: [
      { name: 'scratch', is: ['tile'] },
      { name: 'workspace', is: ['ptr'] },
    ],
    attrs: ['sync_id', 'block_bytes', 'comm_block_offset', 'queue_num', 'channel_group_idx'].map((n) => ({ name: n, type: { kind: 'int' as const } })),
    results: [{ name: 'session', is: ['async_session'], fixed: { kind: 'handle', handle: 'async_session' } }],
    properties: { notInVptoBackend: ASYNC_NEEDS_EMITC },
    execute: (x, op) => x.setResults(op, [handle('async_session')]),
  },
  ...['pto.comm.wait_async_event', 'pto.comm.test_async_event'].map((name): DeclaredOp => ({
    name,
    operands: [
      { name: 'event', is: ['async_event'] },
      { name: 'session', is: ['async_session'] },
    ],
    results: [{ name: 'completed', is: ['i1'], fixed: { kind: 'scalar', elem: 'i1' } }],
    properties: { notInVptoBackend: ASYNC_NEEDS_EMITC },
    execute: runAsyncEvent,
  })),
  {
    // `pto.syncall() mode = #pto.sync_all_mode<hard>, core_type = #pto.sync_core_type<mix>`; soft mode counts
    // arrivals in a global workspace.
    name: 'pto.syncall',
    properties: { delimitsVectorScope: true },
    execute: syncAll,
    operands: [
      { name: 'gm_workspace', is: ['ptr', 'tensor_view', 'partition_view'], optional: true },
      { name: 'used_cores', is: ['i32'], optional: true },
    ],
    attrs: [
      { name: 'mode', type: ptoEnum('sync_all_mode', ['hard', 'soft']), required: true },
      { name: 'core_type', type: ptoEnum('sync_core_type', ['aiv_only', 'aic_only', 'mix']), required: true },
    ],
    check(c) {
      const { op } = c.v;
      const mode = c.enumValue('mode');
      const operands = op.operands.length;
      if (mode === 'hard' && operands > 0) c.error(op.span, 'pto.syncall in hard mode takes no operands');
      if (mode === 'soft' && operands === 0) c.error(op.span, 'pto.syncall in soft mode takes the global workspace and optionally the number of cores used');
      const ws = c.type('gm_workspace');
      if (ws && isMemref(ws))
        c.error(
          c.span('gm_workspace'),
          `pto.syncall: gm_workspace must be a !pto.ptr, a !pto.tensor_view or a !pto.partition_tensor_view, got ${printType(ws)}`,
        );
      if (ws && 'elem' in ws && ws.elem !== 'i32')
        c.error(c.span('gm_workspace'), `pto.syncall expects gm_workspace element type to be i32, got ${printType(ws)}`);
      if (ws?.kind === 'ptr' && ws.space !== 'gm') c.error(c.span('gm_workspace'), 'pto.syncall expects gm_workspace in global memory');
      // Soft syncall counts arrivals in 16 i32 words (64 bytes) of the workspace.
      if (ws && (ws.kind === 'partition_view' || ws.kind === 'tensor_view') && ws.shape.every((d) => d !== null)) {
        const capacity = (ws.shape as number[]).reduce((a, b) => a * b, 1);
        if (capacity < 16)
          c.error(c.span('gm_workspace'), `pto.syncall expects gm_workspace to hold at least 16 i32 elements (64 bytes), but it holds ${capacity}`);
      }
    },
  },
  // Sets the base address of the cross-core flag hardware; the VM's flags (src/ops/sync/cross-core-flags.ts) need none.
  { name: SET_FFTS, operands: [{ name: 'ffts', is: ['ptr'] }], execute: () => undefined },
];

export const COMM_DEFINITIONS: OpDefinition[] = COMM_OPS.map(declaredDefinition);
