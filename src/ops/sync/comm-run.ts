import { BoundOp } from '../../ir/bound';
import { Execution, Executor, HappensBefore } from '../../ir/definition';
import { GlobalBuffer, PartitionView, TensorView } from '../../machine/memory';
import { vmTrap } from '../../machine/trap';
import { Handle } from '../../machine/value';
import { Scalar } from '../../numerics/elements';
import { DeclaredBinding, enumValueOf, ptoEnum } from '../define/declared';

/**
 * What the `pto.comm.*` ops do when the VM runs them (pto-isa's comm manual, docs/ranks.md). Global views name
 * memory of any rank: a kernel reaches a peer's buffer through an address it was given or computed
 * (src/machine/windows.ts), so the ops move data between views without asking whose they are. Signals are i32
 * words: a notify releases the notifier's clock into the word, a wait or a successful test acquires it.
 */

type GlobalView = TensorView | PartitionView;

function operandIndex(op: BoundOp, b: DeclaredBinding, name: string): number {
  const i = b.operands[name]?.[0];
  if (i === undefined) throw vmTrap(`${op.node.name} has no ${name}`, op.node.span);
  return i;
}

function viewAt(x: Executor, op: BoundOp, i: number): GlobalView {
  const v = x.operand(op, i);
  if (typeof v === 'object' && 'kind' in v && (v.kind === 'tensor_view' || v.kind === 'partition_view')) return v;
  throw vmTrap(`${op.node.name}: a tile as a global operand is not implemented yet`, op.node.operands[i].span);
}

function view(x: Executor, op: BoundOp, b: DeclaredBinding, name: string): { view: GlobalView; at: number } {
  const at = operandIndex(op, b, name);
  return { view: viewAt(x, op, at), at };
}

/** A view's elements (indices into its buffer) in row-major order; each must lie inside the buffer. */
function elementsOf(op: BoundOp, at: number, v: GlobalView): number[] {
  const elements: number[] = [];
  const walk = (d: number, base: number) => {
    if (d === v.shape.length) {
      if (base < 0 || base >= v.buffer.length)
        throw vmTrap(`${op.node.name}: element ${base} of ${bufferName(v.buffer)} is outside its ${v.buffer.length} elements`, op.node.operands[at].span);
      elements.push(base);
      return;
    }
    for (let k = 0; k < v.shape[d]; k++) walk(d + 1, base + k * v.strides[d]);
  };
  walk(0, v.offset);
  return elements;
}

/** `%arg1`, or `rank 1's %arg1` in a run of several ranks. */
function bufferName(buffer: GlobalBuffer): string {
  return buffer.placement ? `rank ${buffer.placement.rank}'s %${buffer.name}` : `%${buffer.name}`;
}

/** Global memory is read and written through the buffer's element accessors, which the race checker observes. */
function read(buffer: GlobalBuffer, element: number): Scalar {
  return buffer.readElement(element);
}

function write(buffer: GlobalBuffer, element: number, value: Scalar): void {
  buffer.writeElement(element, buffer.codec.round(value));
}

function combine(a: Scalar, b: Scalar, how: 'sum' | 'max' | 'min'): Scalar {
  if (typeof a === 'bigint' || typeof b === 'bigint') {
    const [p, q] = [BigInt(a), BigInt(b)];
    return how === 'sum' ? p + q : how === 'max' ? (p > q ? p : q) : p < q ? p : q;
  }
  return how === 'sum' ? a + b : how === 'max' ? Math.max(a, b) : Math.min(a, b);
}

/** Copies (or, atomically, adds) the source elements into the destination elements, all read before any is written. */
function move(
  op: BoundOp,
  from: { buffer: GlobalBuffer; elements: number[] },
  to: { buffer: GlobalBuffer; elements: number[]; at: number },
  add = false,
): void {
  if (from.buffer.elem !== to.buffer.elem)
    throw vmTrap(`${op.node.name}: ${bufferName(from.buffer)} holds ${from.buffer.elem} but ${bufferName(to.buffer)} holds ${to.buffer.elem}`, op.node.span);
  if (from.elements.length !== to.elements.length)
    throw vmTrap(`${op.node.name}: the source has ${from.elements.length} elements but the destination ${to.elements.length}`, op.node.operands[to.at].span);
  const values = from.elements.map((e) => read(from.buffer, e));
  to.elements.forEach((e, k) => write(to.buffer, e, add ? combine(read(to.buffer, e), values[k], 'sum') : values[k]));
}

function enumAttr(b: DeclaredBinding, name: string, mnemonic: string): string | undefined {
  const a = b.attrs[name];
  const kind = ptoEnum(mnemonic, []);
  return a?.kind === 'dialect' && kind.kind === 'enum' ? enumValueOf(a.text, kind.syntax) : undefined;
}

/** tput / tget: src -> staging tile -> dst; tput may add into dst atomically. */
export function runTransfer(x: Executor, op: BoundOp, b: DeclaredBinding): void {
  const dst = view(x, op, b, 'dst');
  const src = view(x, op, b, 'src');
  const add = enumAttr(b, 'atomicType', 'atomic_type') === 'atomic_add';
  move(
    op,
    { buffer: src.view.buffer, elements: elementsOf(op, src.at, src.view) },
    { buffer: dst.view.buffer, elements: elementsOf(op, dst.at, dst.view), at: dst.at },
    add,
  );
}

/** Each signal word's clock: what the cores that notified it had done (merged), for a waiter to acquire. */
function signalClocks(x: Executor): Map<GlobalBuffer, Map<number, HappensBefore>> {
  return x.shared('world', 'comm:signals', () => new Map<GlobalBuffer, Map<number, HappensBefore>>());
}

function signalWords(x: Executor, op: BoundOp, b: DeclaredBinding): { buffer: GlobalBuffer; elements: number[]; value: number } {
  const signal = view(x, op, b, 'signal');
  if (signal.view.buffer.elem !== 'i32')
    throw vmTrap(
      `${op.node.name}: the signal must hold i32, ${bufferName(signal.view.buffer)} holds ${signal.view.buffer.elem}`,
      op.node.operands[signal.at].span,
    );
  // The value is an i32 (the manual's int32_t): a wider operand is truncated to it.
  const value = Number(BigInt.asIntN(32, x.int(op, operandIndex(op, b, 'value'))));
  return { buffer: signal.view.buffer, elements: elementsOf(op, signal.at, signal.view), value };
}

/** tnotify: sets each signal word to the value, or adds the value to it atomically; releases this core's clock into it. */
export function runNotify(x: Executor, op: BoundOp, b: DeclaredBinding): void {
  const { buffer, elements, value } = signalWords(x, op, b);
  const add = enumAttr(b, 'notifyOp', 'notify_op') === 'atomic_add';
  const clock = x.release();
  const clocks = signalClocks(x);
  let words = clocks.get(buffer);
  if (!words) clocks.set(buffer, (words = new Map()));
  for (const e of elements) {
    write(buffer, e, add ? Number(read(buffer, e)) + value : value);
    const before = words.get(e);
    words.set(e, before ? clock.map((c, i) => Math.max(c, before[i])) : clock);
  }
}

const COMPARE: Record<string, (a: number, b: number) => boolean> = {
  eq: (a, b) => a === b,
  ne: (a, b) => a !== b,
  gt: (a, b) => a > b,
  ge: (a, b) => a >= b,
  lt: (a, b) => a < b,
  le: (a, b) => a <= b,
};

/** The comparison of twait / ttest over every signal word, and what taking its notifiers' work in means. */
function signalTest(x: Executor, op: BoundOp, b: DeclaredBinding) {
  const { buffer, elements, value } = signalWords(x, op, b);
  const cmp = enumAttr(b, 'cmp', 'wait_cmp') ?? 'eq';
  const holds = () => elements.every((e) => COMPARE[cmp](Number(read(buffer, e)), value));
  const describe = () => {
    const now = elements.slice(0, 4).map((e) => String(read(buffer, e)));
    const where = elements.length === 1 ? `${bufferName(buffer)}[${elements[0]}]` : `${elements.length} signals of ${bufferName(buffer)}`;
    return `${where} ${cmp} ${value} (holds ${now.join(', ')}${elements.length > 4 ? ', ...' : ''})`;
  };
  const acquire = () => {
    const words = signalClocks(x).get(buffer);
    for (const e of elements) {
      const clock = words?.get(e);
      if (clock) x.acquire(clock);
    }
  };
  return { holds, describe, acquire };
}

/** twait: blocks until every signal word compares true with the value; then what its notifiers did happens-before. */
export function* runWait(x: Executor, op: BoundOp, b: DeclaredBinding): Execution {
  const test = signalTest(x, op, b);
  yield {
    // Read when reported: the signal's value by then.
    get what() {
      return `signal ${test.describe()}`;
    },
    ready: test.holds,
  };
  test.acquire();
}

/** ttest: whether every signal word compares true now (a poll: it lets the other cores run first). */
export function* runTest(x: Executor, op: BoundOp, b: DeclaredBinding): Execution {
  const test = signalTest(x, op, b);
  yield { what: `a turn (ttest of ${test.describe()})`, ready: () => true };
  const holds = test.holds();
  if (holds) test.acquire();
  x.setResults(op, [holds ? 1n : 0n]);
}

/** The group's views with their elements, all of one shape. */
function groupOf(x: Executor, op: BoundOp, b: DeclaredBinding): { views: GlobalView[]; elements: number[][]; at: number[] } {
  const at = b.operands.group ?? [];
  const views = at.map((i) => viewAt(x, op, i));
  const shape = String(views[0]?.shape);
  views.forEach((v, k) => {
    if (String(v.shape) !== shape)
      throw vmTrap(`${op.node.name}: group[${k}] is ${v.shape.join('x')}, group[0] ${shape.replace(/,/g, 'x')}`, op.node.operands[at[k]].span);
  });
  return { views, elements: views.map((v, k) => elementsOf(op, at[k], v)), at };
}

/** tbroadcast: the root's src goes to every member's view. */
export function runBroadcast(x: Executor, op: BoundOp, b: DeclaredBinding): void {
  const src = view(x, op, b, 'src');
  const from = { buffer: src.view.buffer, elements: elementsOf(op, src.at, src.view) };
  const group = groupOf(x, op, b);
  group.views.forEach((v, k) => move(op, from, { buffer: v.buffer, elements: group.elements[k], at: group.at[k] }));
}

/**
 * tgather / tscatter: the root's view stacks the members' views along the row dimension (the one before the last,
 * pto-isa's DIM_3): member k's box starts at row k x H of it. The root's view has the members' shape but for at
 * least N x H rows; a one-dimensional view has no rows to stack along.
 */
function stacked(op: BoundOp, root: { view: GlobalView; at: number }, group: ReturnType<typeof groupOf>): number[][] {
  const part = group.views[0].shape;
  const whole = root.view.shape;
  const n = group.views.length;
  const row = part.length - 2;
  const fits = row >= 0 && whole.length === part.length && whole.every((d, i) => (i === row ? d >= n * part[row] : d === part[i]));
  if (!fits) {
    const needed = row >= 0 ? part.map((d, i) => (i === row ? `>=${n * d}` : String(d))).join('x') : `a rows dimension (${n} stacked rows of ${part[0]})`;
    throw vmTrap(
      `${op.node.name}: ${whole.join('x')} cannot hold the group's ${n} views of ${part.join('x')} stacked by rows: it needs ${needed}`,
      op.node.operands[root.at].span,
    );
  }
  return group.views.map((_, k) => elementsOf(op, root.at, { ...root.view, shape: part, offset: root.view.offset + k * part[row] * root.view.strides[row] }));
}

export function runGather(x: Executor, op: BoundOp, b: DeclaredBinding): void {
  const dst = view(x, op, b, 'dst');
  const group = groupOf(x, op, b);
  stacked(op, dst, group).forEach((elements, k) =>
    move(op, { buffer: group.views[k].buffer, elements: group.elements[k] }, { buffer: dst.view.buffer, elements, at: dst.at }),
  );
}

export function runScatter(x: Executor, op: BoundOp, b: DeclaredBinding): void {
  const src = view(x, op, b, 'src');
  const group = groupOf(x, op, b);
  stacked(op, src, group).forEach((elements, k) =>
    move(op, { buffer: src.view.buffer, elements }, { buffer: group.views[k].buffer, elements: group.elements[k], at: group.at[k] }),
  );
}

/** treduce: dst = the members' views combined element by element, in group order, rounded at each step. */
export function runReduce(x: Executor, op: BoundOp, b: DeclaredBinding): void {
  const dst = view(x, op, b, 'dst');
  const group = groupOf(x, op, b);
  const how = (enumAttr(b, 'reduceOp', 'reduce_op') ?? 'sum') as 'sum' | 'max' | 'min';
  const elements = elementsOf(op, dst.at, dst.view);
  if (elements.length !== group.elements[0].length)
    throw vmTrap(`${op.node.name}: dst has ${elements.length} elements but each member's view ${group.elements[0].length}`, op.node.operands[dst.at].span);
  for (const v of group.views)
    if (v.buffer.elem !== dst.view.buffer.elem)
      throw vmTrap(`${op.node.name}: ${bufferName(v.buffer)} holds ${v.buffer.elem}, dst ${dst.view.buffer.elem}`, op.node.span);
  const codec = dst.view.buffer.codec;
  const sums = group.elements[0].map((e) => read(group.views[0].buffer, e));
  for (let k = 1; k < group.views.length; k++)
    group.elements[k].forEach((e, i) => (sums[i] = codec.round(combine(sums[i], read(group.views[k].buffer, e), how))));
  elements.forEach((e, i) => write(dst.view.buffer, e, sums[i]));
}

export function handle(kind: string, state: Record<string, unknown> = {}): Handle {
  return { kind: 'handle', handle: kind, state };
}

/** tput_async / tget_async: the engine moves the bytes; the VM completes the transfer as it is issued. */
export function runAsyncTransfer(x: Executor, op: BoundOp, b: DeclaredBinding): void {
  runTransfer(x, op, b);
  x.setResults(op, [handle('async_event', { complete: true })]);
}

/** wait_async_event / test_async_event: every event the VM issues is complete, so both give true. */
export function* runAsyncEvent(x: Executor, op: BoundOp, b: DeclaredBinding): Execution {
  const event = x.operand(op, operandIndex(op, b, 'event'));
  if (typeof event !== 'object' || !('kind' in event) || event.kind !== 'handle' || event.handle !== 'async_event')
    throw vmTrap(`${op.node.name} needs an async event`, op.node.span);
  yield { what: 'an async event', ready: () => event.state.complete === true };
  x.setResults(op, [1n]);
}
