import { BoundOp } from '../../ir/bound';
import { Executor } from '../../ir/definition';
import { BoundInstruction } from '../../ir/program';
import { PartitionView, Tile } from '../../machine/memory';
import { OutsideStorage, vmTrap } from '../../machine/trap';
import { Value } from '../../machine/value';
import { Dims, checkDimRule } from '../../spec/valid';
import { ValidRule } from '../../spec/schema';
import { TileType, elemTypeName } from '../../types/type';
import { plannedTile } from '../memory/tiles';
import { InstructionContext, Semantics } from './semantics/context';
import { SEMANTICS } from './semantics';

/**
 * What running one instruction needs that does not change from one run of it to the next, made the first time it
 * runs: where each operand comes from, the valid-region rules left for run time, its semantics function, and one
 * context object that every run reuses (an instruction runs to its end before another starts, on any core).
 */
interface InstructionPlan {
  operands: { name: string; slot?: number; resultType?: TileType; resultSlot?: number }[];
  /** The valid-region rules left for run time, each with a check that reads the tiles without allocating. */
  rules: { rule: ValidRule; holds: (objects: Map<string, Value>) => boolean }[];
  semantics?: Semantics;
  results: string[];
  /** The running op's operands by spec name, and the executor running it (set at the start of each run). */
  objects: Map<string, Value>;
  executor?: Executor;
  ctx: InstructionContext;
  /** What the semantics function declared repeatable in the run that just ended (ctx.repeatWith). */
  declared?: () => void;
  /** Whether that run did something `again` would not (printed, noted, set a result, rebound an operand). */
  acted: boolean;
  /** The last run, when it may be repeated: its executor, its operand values and their valid regions. */
  repeat?: Repeat;
}

interface Repeat {
  executor: Executor;
  again: () => void;
  slots: number[];
  values: Value[];
  /** Each tile operand's vRow and vCol (NaN for a scalar). */
  dims: number[];
}

const plans = new WeakMap<BoundOp, InstructionPlan>();

/**
 * Runs a table instruction: its operands by spec name, the valid-region rules that depended on dynamic sizes, then
 * the semantics function its entry names (`semantics` in spec/instructions, implemented in ./semantics).
 */
export function executeInstruction(x: Executor, op: BoundOp): void {
  let plan = plans.get(op);
  if (!plan) plans.set(op, (plan = planOf(op)));
  const repeat = plan.repeat;
  if (repeat !== undefined && repeats(repeat, x)) {
    // plan.objects still holds these operands: only a full run changes them, and a full run replaces plan.repeat.
    x.observeInstruction(op, plan.objects);
    repeat.again();
    return;
  }
  plan.repeat = undefined;
  const bound = op.instruction!;
  const objects = plan.objects;
  objects.clear();
  plan.executor = x;
  for (const o of plan.operands) {
    if (o.slot !== undefined) objects.set(o.name, x.slot(o.slot)!);
    else if (o.resultType) {
      const type = o.resultType;
      // A Level 1 result has storage of its own (where memory planning put it), reused when the op runs again.
      objects.set(
        o.name,
        x.storage(op, o.name, () => plannedTile(x, op, o.resultSlot ?? -1, type)),
      );
    }
  }
  const early = bound.spec.earlyReturnIfEmpty ? objects.get(bound.spec.earlyReturnIfEmpty) : undefined;
  if (early instanceof Tile && (early.vRow === 0 || early.vCol === 0)) return;
  const marker = bound.spec.noOpWhenEmpty ? objects.get(bound.spec.noOpWhenEmpty) : undefined;
  if (marker instanceof Tile && marker.vRow === 0 && marker.vCol === 0) return;
  for (const { rule, holds } of plan.rules) {
    if (holds(objects)) continue;
    const outcome = checkDimRule(rule, (name: string): Dims | undefined => {
      const v = objects.get(name);
      return v instanceof Tile ? { rows: v.type.rows, cols: v.type.cols, vRow: v.vRow, vCol: v.vCol } : undefined;
    });
    if (outcome.status === 'violated') plan.ctx.trap(outcome.message);
  }
  if (!plan.semantics) return plan.ctx.trap('is not implemented yet');
  for (const gap of bound.spec.unimplementedDtypes ?? []) {
    const tile = objects.get(gap.operand);
    if (!(tile instanceof Tile) || !(gap.dtypes as string[]).includes(tile.type.dtype) || !gap.targets.includes(plan.ctx.target)) continue;
    if (gap.backends && !gap.backends.includes(plan.ctx.backend)) continue;
    plan.ctx.trap(`${elemTypeName(tile.type.dtype)} tiles on ${plan.ctx.target} are not implemented yet: ${gap.why}`);
  }
  x.observeInstruction(op, objects);
  plan.declared = undefined;
  plan.acted = false;
  try {
    plan.semantics(plan.ctx);
  } catch (e) {
    if (e instanceof OutsideStorage) plan.ctx.trap(e.message);
    throw e;
  }
  if (plan.results.length > 0)
    x.setResults(
      op,
      plan.results.map((name) => objects.get(name)!),
    );
  else if (plan.declared && !plan.acted) plan.repeat = repeatOf(plan, x, plan.declared);
}

/** The record of a run to repeat: only for ops whose operands all come from slots (no results of their own). */
function repeatOf(plan: InstructionPlan, x: Executor, again: () => void): Repeat | undefined {
  const slots: number[] = [];
  for (const o of plan.operands)
    if (o.slot !== undefined) slots.push(o.slot);
    else if (o.resultType) return undefined;
  const values = slots.map((slot) => x.slot(slot)!);
  const dims = values.flatMap((v) => (v instanceof Tile ? [v.vRow, v.vCol] : [NaN, NaN]));
  return { executor: x, again, slots, values, dims };
}

/** Whether this run has the recorded run's executor, operand values and valid regions. */
function repeats(r: Repeat, x: Executor): boolean {
  if (r.executor !== x) return false;
  const { slots, values, dims } = r;
  for (let i = 0; i < slots.length; i++) {
    const v = x.slot(slots[i]);
    if (v !== values[i]) return false;
    if (v instanceof Tile && (v.vRow !== dims[2 * i] || v.vCol !== dims[2 * i + 1])) return false;
  }
  return true;
}

function planOf(op: BoundOp): InstructionPlan {
  const bound = op.instruction!;
  const operands: InstructionPlan['operands'] = [];
  for (const [name, b] of bound.operands) {
    if (b.use) operands.push({ name, slot: b.slot! });
    else if (b.result && b.type.kind === 'tile') operands.push({ name, resultType: b.type as TileType, resultSlot: b.slot });
    else operands.push({ name });
  }
  const plan: InstructionPlan = {
    operands,
    // view-matches-valid is checked by the transfer itself.
    rules: (bound.spec.valid ?? []).filter((rule) => rule.kind !== 'view-matches-valid').map((rule) => ({ rule, holds: quickCheck(rule) })),
    semantics: bound.spec.implemented ? SEMANTICS[bound.spec.semantics] : undefined,
    results: [...bound.operands.values()].filter((b) => b.result).map((b) => b.spec.name),
    objects: new Map(),
    ctx: undefined as unknown as InstructionContext,
    acted: false,
  };
  plan.ctx = contextOf(op, bound, plan);
  return plan;
}

type DimReader = (objects: Map<string, Value>) => number | undefined;

/** A dimension reference (`src.vCol`, or a number) read from the running op's tiles; undefined: the operand is absent. */
function dimReader(ref: string | number): DimReader {
  if (typeof ref === 'number') return () => ref;
  const [operand, field] = ref.split('.');
  const read = (t: Tile): number => (field === 'vRow' ? t.vRow : field === 'vCol' ? t.vCol : field === 'rows' ? t.type.rows : t.type.cols);
  return (objects) => {
    const v = objects.get(operand);
    return v instanceof Tile ? read(v) : undefined;
  };
}

/**
 * Whether a rule holds, decided without allocating (the common case on every run); false sends the op to
 * checkDimRule, which decides again and words the violation.
 */
function quickCheck(rule: ValidRule): (objects: Map<string, Value>) => boolean {
  switch (rule.kind) {
    case 'eq':
    case 'le': {
      const [lhs, rhs] = [dimReader(rule.lhs), dimReader(rule.rhs)];
      const eq = rule.kind === 'eq';
      return (objects) => {
        const a = lhs(objects);
        const b = rhs(objects);
        return a === undefined || b === undefined || (eq ? a === b : a <= b);
      };
    }
    case 'positive': {
      const of = dimReader(rule.of);
      return (objects) => {
        const a = of(objects);
        return a === undefined || a > 0;
      };
    }
    default:
      return () => true;
  }
}

/** The context the semantics functions see, reading the plan's current operands and executor. */
function contextOf(op: BoundOp, bound: BoundInstruction, plan: InstructionPlan): InstructionContext {
  const objects = plan.objects;
  const x = (): Executor => plan.executor!;
  const trap = (message: string): never => {
    throw vmTrap(`${bound.spec.opName}: ${message}`, op.node.nameSpan);
  };
  return {
    op: op.node,
    bound,
    get numerics() {
      return x().numerics;
    },
    get backend() {
      return x().backend;
    },
    get target() {
      return x().target;
    },
    get vectorKernels() {
      return x().vectorKernels;
    },
    tile: (name) => {
      const v = objects.get(name);
      if (!(v instanceof Tile)) trap(`operand ${name} is not a tile`);
      return v as Tile;
    },
    optionalTile: (name) => {
      const v = objects.get(name);
      return v instanceof Tile ? v : undefined;
    },
    view: (name) => {
      const v = objects.get(name);
      if (!v || typeof v !== 'object' || !('kind' in v) || v.kind !== 'partition_view') trap(`operand ${name} is not a partition view`);
      return v as PartitionView;
    },
    trap,
    scalar: (name) => {
      const v = objects.get(name);
      if (typeof v !== 'bigint' && typeof v !== 'number') trap(`operand ${name} is not a scalar`);
      return v as bigint | number;
    },
    setResult: (name, value) => {
      plan.acted = true;
      objects.set(name, value);
    },
    flag: (name) => {
      const value = bound.written?.has(name) ? bound.attributes?.get(name) : undefined;
      return typeof value === 'boolean' ? value : undefined;
    },
    attribute: (name) => bound.attributes?.get(name),
    print: (text) => {
      plan.acted = true;
      x().print(op, text);
    },
    note: (message) => {
      plan.acted = true;
      x().note(message);
    },
    bindMxScale: (name, of) => {
      plan.acted = true;
      const b = bound.operands.get(name);
      const current = objects.get(name);
      if (!b?.use || b.slot === undefined || !(current instanceof Tile)) return trap(`operand ${name} is not a tile the op can rebind`);
      const placed = x().memory.placeMxScale(current.type, of, op.def.name, op.node.span);
      placed.vRow = current.vRow;
      placed.vCol = current.vCol;
      x().rebindSlot(b.slot, placed);
      objects.set(name, placed);
      return placed;
    },
    repeatWith: (again) => {
      plan.declared = again;
    },
  };
}
