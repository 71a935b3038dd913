import { TargetName } from '../../spec/schema';
import { OpNode, Operand } from '../../syntax/ast';
import {
  LOWERED_FRONTEND_ID,
  PIPE_OP,
  appendAt,
  boolAttr,
  definingOp,
  intAttr,
  isFrontendInit,
  isLoweredInit,
  operandIn,
  opsOf,
  perFunction,
  pipeId,
  stringAttr,
  symbolAttr,
} from './pipe-model';

/**
 * The rules PTOAS's passes check of the pipes of a whole module, once the frontend initializations are lowered
 * (PTOInferValidatePipeInit, PTOResolveReservedBuffers). Each pipe has an initialization at both ends, in two
 * functions, found through the buffer one reserves and the other imports (or, for a pipe of GM slots only,
 * through its frontend id). The two ends agree on direction and shape and on whether transfers split; each
 * function gives each pipe its own hardware flags, 2 for a one-way pipe and 4 for a two-way one, out of 16.
 */

/** An initialization as PTOAS lowers it: `pto.initialize_l2l_pipe` / `pto.initialize_l2g2l_pipe`. */
interface PipeEnd {
  op: OpNode;
  fn: OpNode;
  dir: number;
  slotSize: number;
  slotNum: number;
  localSlotNum?: number;
  /** Slots in GM only: no local consumer buffer. */
  globalOnly: boolean;
  /** The consumer buffer of the pipe's (first) direction, and for a two-way pipe the other direction's. */
  local?: Operand;
  peerLocal?: Operand;
  nosplit?: boolean;
  flagBase?: number;
  frontendId?: number;
  usage: 'unknown' | 'split' | 'nosplit' | 'mixed';
}

const FRONTEND_DATA_OPS: string[] = [
  PIPE_OP.allocToAiv,
  PIPE_OP.allocToAic,
  PIPE_OP.pushToAiv,
  PIPE_OP.pushToAic,
  PIPE_OP.popFromAic,
  PIPE_OP.popFromAiv,
  PIPE_OP.freeFromAic,
  PIPE_OP.freeFromAiv,
];

const splitsCache = new WeakMap<OpNode, { byFrontendId: Map<number, number[]>; byPipeValue: Map<string, number[]> }>();

/**
 * The `split` of each transfer of a function, by the pipe it uses: a frontend data op by its pipe's id, a lowered op
 * (with a `split` attribute) by each value it takes. Found in one pass (a function can have thousands of pipes).
 */
function splitsOf(fn: OpNode): { byFrontendId: Map<number, number[]>; byPipeValue: Map<string, number[]> } {
  return perFunction(splitsCache, fn, () => {
    const splits = { byFrontendId: new Map<number, number[]>(), byPipeValue: new Map<string, number[]>() };
    for (const o of opsOf(fn)) {
      if (FRONTEND_DATA_OPS.includes(o.name)) appendAt(splits.byFrontendId, pipeId(o), intAttr(o, 'split') ?? 0);
      if (!isLoweredInit(o) && o.attrs.some((a) => a.key === 'split')) {
        const split = intAttr(o, 'split') ?? 0;
        for (const name of new Set(o.operands.map((x) => x.value?.name))) if (name !== undefined) appendAt(splits.byPipeValue, name, split);
      }
    }
    return splits;
  });
}

/** Whether the transfers of a pipe split their entries (split 1..4), do not (split 0), or both. */
function usageOf(splits: number[]): PipeEnd['usage'] {
  const split = splits.some((s) => s !== 0);
  const whole = splits.some((s) => s === 0);
  return split && whole ? 'mixed' : split ? 'split' : whole ? 'nosplit' : 'unknown';
}

/** A frontend initialization as PTOAS's PTOLowerFrontendPipeOps lowers it on `target`. */
function lowerFrontend(fn: OpNode, op: OpNode, target: TargetName): PipeEnd {
  const dir = intAttr(op, 'dir_mask') ?? 0;
  const slotNum = intAttr(op, 'slot_num') ?? (dir === 3 ? 4 : 8);
  const c2v = operandIn(op, 'c2v_consumer_buf');
  const v2c = operandIn(op, 'v2c_consumer_buf');
  const local = dir === 2 ? v2c : c2v;
  const peerLocal = dir === 3 ? v2c : undefined;
  const tensorSlots = operandIn(op, 'gm_slot_tensor') !== undefined;
  // A5 lowers a local pipe to initialize_l2l_pipe, which counts no local slots; GM-backed pipes count them.
  const l2g2l = tensorSlots || target !== 'a5';
  const id = pipeId(op);
  const splits = splitsOf(fn).byFrontendId.get(id) ?? [];
  return {
    op,
    fn,
    dir,
    slotSize: intAttr(op, 'slot_size') ?? 0,
    slotNum,
    localSlotNum: l2g2l && local ? (intAttr(op, 'local_slot_num') ?? slotNum) : undefined,
    globalOnly: tensorSlots && !local,
    local,
    peerLocal,
    nosplit: boolAttr(op, 'nosplit'),
    frontendId: id,
    usage: usageOf(splits),
  };
}

/** A lowered initialization as written: `%pipe = pto.initialize_l2l_pipe {...}(%local[, %peer])`. */
function lowered(fn: OpNode, op: OpNode): PipeEnd {
  const l2g2l = op.name === PIPE_OP.l2g2lInit;
  const positional = (op.segments.operands ?? []).map((i) => op.operands[i]);
  const [local, peerLocal] = l2g2l ? positional.slice(1) : positional;
  const pipe = op.results[0]?.name;
  const splits = (pipe !== undefined && splitsOf(fn).byPipeValue.get(pipe)) || [];
  return {
    op,
    fn,
    dir: intAttr(op, 'dir_mask') ?? 0,
    slotSize: intAttr(op, 'slot_size') ?? 0,
    slotNum: intAttr(op, 'slot_num') ?? 0,
    localSlotNum: l2g2l ? intAttr(op, 'local_slot_num') : undefined,
    globalOnly: l2g2l && !local,
    local,
    peerLocal,
    nosplit: boolAttr(op, 'nosplit'),
    flagBase: intAttr(op, 'flag_base'),
    frontendId: intAttr(op, LOWERED_FRONTEND_ID),
    usage: usageOf(splits),
  };
}

/**
 * The key that names one direction of a pipe at both ends: the function that reserves its consumer buffer and
 * the buffer's name (an import names its peer), and the direction; a GM-only pipe's key is its frontend id.
 */
function keysOf(end: PipeEnd, functions: Map<string, OpNode>): string[] | undefined {
  if (end.globalOnly) return [`gm:${end.frontendId ?? `op${end.op.span.start}`}:${end.dir}`];
  const keyOf = (operand: Operand | undefined, dir: number): string | undefined => {
    const def = definingOp(end.fn, operand);
    const name = def && stringAttr(def, 'name');
    if (name === undefined) return undefined;
    if (def!.name === PIPE_OP.reserveBuffer) return `${end.fn.symbol}/${name}:${dir}`;
    const peer = def!.name === PIPE_OP.importReservedBuffer ? symbolAttr(def!, 'peer_func') : undefined;
    return peer !== undefined && functions.has(peer) ? `${peer}/${name}:${dir}` : undefined;
  };
  const keys = end.dir === 3 ? [keyOf(end.local, 1), keyOf(end.peerLocal, 2)] : [keyOf(end.local, end.dir)];
  const found = keys.filter((k): k is string => k !== undefined);
  return found.length > 0 ? found : undefined;
}

/** The ends connected through shared keys, in the order the module's initializations come. */
function components(ends: PipeEnd[], keys: Map<PipeEnd, string[]>): PipeEnd[][] {
  const byKey = new Map<string, PipeEnd[]>();
  for (const [end, ks] of keys) for (const k of ks) appendAt(byKey, k, end);
  const seen = new Set<PipeEnd>();
  // Each key's ends are gone through once: many ends can share a key.
  const expanded = new Set<string>();
  const result: PipeEnd[][] = [];
  for (const root of ends) {
    if (!keys.has(root) || seen.has(root)) continue;
    const component: PipeEnd[] = [];
    const stack = [root];
    seen.add(root);
    while (stack.length > 0) {
      const end = stack.pop()!;
      component.push(end);
      for (const k of keys.get(end) ?? []) {
        if (expanded.has(k)) continue;
        expanded.add(k);
        for (const next of byKey.get(k) ?? []) {
          if (!seen.has(next)) {
            seen.add(next);
            stack.push(next);
          }
        }
      }
    }
    result.push(component);
  }
  return result;
}

/** The problems of the module's pipes, each on the initialization (as written) it concerns. */
export function pipePeerProblems(functions: OpNode[], target: TargetName): Map<OpNode, string> {
  const byName = new Map(functions.filter((f) => f.symbol !== undefined).map((f) => [f.symbol!, f]));
  const ends: PipeEnd[] = [];
  for (const fn of functions) {
    for (const op of opsOf(fn)) {
      if (isFrontendInit(op)) ends.push(lowerFrontend(fn, op, target));
      else if (isLoweredInit(op)) ends.push(lowered(fn, op));
    }
  }
  const problems = new Map<OpNode, string>();
  const report = (end: PipeEnd, message: string) => {
    if (!problems.has(end.op)) problems.set(end.op, message);
  };
  checkSplitAgreement(ends, byName, report);
  checkPeerPairs(ends, byName, report);
  return problems;
}

type Report = (end: PipeEnd, message: string) => void;

/** PTOInferValidatePipeInit: the ends of a pipe agree on splitting, with each other and with their transfers. */
function checkSplitAgreement(ends: PipeEnd[], functions: Map<string, OpNode>, report: Report): void {
  const keys = new Map<PipeEnd, string[]>();
  for (const end of ends) keys.set(end, keysOf(end, functions) ?? []);
  for (const component of components(ends, keys)) {
    let explicit: boolean | undefined;
    let inferred: boolean | undefined;
    for (const end of component) {
      if (end.usage === 'mixed') {
        return report(end, "cannot mix 'split = 0' with 'split = 1', 'split = 2', 'split = 3', or 'split = 4' on the same logical pipe");
      }
      if (end.nosplit === undefined) continue;
      if (explicit !== undefined && explicit !== end.nosplit) return report(end, "conflicting explicit 'nosplit' across peer pipe init ops");
      explicit = end.nosplit;
    }
    for (const end of component) {
      if (end.usage !== 'split' && end.usage !== 'nosplit') continue;
      const usage = end.usage === 'nosplit';
      if (inferred !== undefined && inferred !== usage) return report(end, 'conflicting pipe split usage across peer pipe init ops');
      inferred = usage;
    }
    if (explicit === undefined || inferred === undefined || explicit === inferred) continue;
    const wrong = component.find((e) => e.nosplit !== undefined && e.nosplit !== inferred)!;
    report(
      wrong,
      wrong.nosplit
        ? "explicit 'nosplit = true' conflicts with downstream users that require split = 1, 2, 3, or 4"
        : "explicit 'nosplit = false' conflicts with downstream users that require split = 0",
    );
  }
}

const MAX_FLAG_IDS = 16;
const PEER_PAIR = 'requires a complete compatible peer init pair when local_addr comes from pto.reserve_buffer or pto.import_reserved_buffer';

/** PTOResolveReservedBuffers: every pipe has its two ends in two functions, alike, and the flags fit. */
function checkPeerPairs(ends: PipeEnd[], functions: Map<string, OpNode>, report: Report): void {
  const keys = new Map<PipeEnd, string[]>();
  for (const end of ends) {
    const k = keysOf(end, functions);
    if (k) keys.set(end, k);
    else if (end.flagBase === undefined)
      return report(end, "requires local_addr to come from pto.reserve_buffer or pto.import_reserved_buffer when 'flag_base' is not explicit");
  }
  const pipes: { ends: PipeEnd[]; width: number; flagBase?: number; order: number; sortId?: number }[] = [];
  for (const component of components(ends, keys)) {
    const [first] = component;
    if (!first.globalOnly && component.length !== 2) return report(first, PEER_PAIR);
    const shape = (e: PipeEnd) => JSON.stringify([e.dir, e.slotSize, e.slotNum, e.localSlotNum, e.globalOnly]);
    if (component.some((e) => shape(e) !== shape(first))) return report(first, 'requires peer pipe init ops to agree on direction and pipe shape');
    let flagBase: number | undefined;
    for (const e of component) {
      if (e.flagBase === undefined) continue;
      if (flagBase !== undefined && flagBase !== e.flagBase) return report(e, 'conflicting explicit flag_base across peer pipe inits');
      flagBase = e.flagBase;
    }
    if (!first.globalOnly && new Set(component.map((e) => e.fn)).size !== 2) return report(first, PEER_PAIR);
    const ids = component.map((e) => e.frontendId).filter((id): id is number => id !== undefined);
    pipes.push({ ends: component, width: first.dir === 3 ? 4 : 2, flagBase, order: pipes.length, sortId: ids.length ? Math.min(...ids) : undefined });
  }
  // PTOAS gives flags to pipes with a frontend id first, by id and direction, then to the others as they come.
  const rank = (p: (typeof pipes)[number]) => (p.sortId !== undefined ? [0, p.sortId, p.ends[0].dir, p.order] : [1, 0, 0, p.order]);
  pipes.sort((a, b) => {
    const [x, y] = [rank(a), rank(b)];
    const i = x.findIndex((v, k) => v !== y[k]);
    return i < 0 ? 0 : x[i] - y[i];
  });
  const used = new Map<OpNode, [number, number][]>();
  const overlaps = (fns: OpNode[], begin: number, end: number) => fns.flatMap((f) => used.get(f) ?? []).filter(([b, e]) => begin < e && b < end);
  for (const pipe of pipes) {
    const fns = [...new Set(pipe.ends.map((e) => e.fn))];
    let base = pipe.flagBase;
    if (base === undefined) {
      base = 0;
      for (let clash = overlaps(fns, base, base + pipe.width); clash.length > 0; clash = overlaps(fns, base, base + pipe.width)) {
        base = Math.max(base + 2, ...clash.map(([, e]) => e + (e % 2)));
      }
    } else if (overlaps(fns, base, base + pipe.width).length > 0) {
      return report(pipe.ends[0], 'conflicting flag_base across peer pipe init components in the same function');
    }
    if (base + pipe.width > MAX_FLAG_IDS)
      return report(pipe.ends[0], `requires all pipe components in a function to fit within ${MAX_FLAG_IDS} hardware flag ids`);
    for (const f of fns) appendAt(used, f, [base, base + pipe.width]);
  }
}

const problemsCache = new WeakMap<OpNode, { target: TargetName; problems: Map<OpNode, string> }>();

/** The module-wide pipe problem of one initialization, if it has one (the module is analysed once). */
export function pipePeerProblem(functions: OpNode[], target: TargetName, init: OpNode): string | undefined {
  const key = functions[0];
  if (!key) return undefined;
  let cached = problemsCache.get(key);
  if (!cached || cached.target !== target) problemsCache.set(key, (cached = { target, problems: pipePeerProblems(functions, target) }));
  return cached.problems.get(init);
}
