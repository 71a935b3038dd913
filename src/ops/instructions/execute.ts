import { BoundOp } from '../../ir/bound';
import { Executor } from '../../ir/definition';
import { PartitionView, Tile } from '../../machine/memory';
import { vmTrap } from '../../machine/trap';
import { Value } from '../../machine/value';
import { checkDimRule } from '../../spec/valid';
import { TileType } from '../../types/type';
import { InstructionContext } from './semantics/context';
import { SEMANTICS } from './semantics';

/**
 * Runs a table instruction: its operands by spec name, the valid-region rules that depended on dynamic sizes, then
 * the semantics function its entry names (`semantics` in spec/instructions, implemented in ./semantics).
 */
export function executeInstruction(x: Executor, op: BoundOp): void {
  const bound = op.instruction!;
  const objects = new Map<string, Value>();
  for (const [name, b] of bound.operands) {
    if (b.use) objects.set(name, x.slot(b.slot!)!);
    else if (b.result && b.type.kind === 'tile') {
      const type = b.type as TileType;
      // A Level 1 result has storage of its own, reused when the op runs again.
      objects.set(
        name,
        x.storage(op, name, () => x.memory.allocate(type, op.def.name, op.node.span)),
      );
    }
  }
  const trap = (message: string): never => {
    throw vmTrap(`${bound.spec.opName}: ${message}`, op.node.nameSpan);
  };
  const dims = (name: string) => {
    const v = objects.get(name);
    return v instanceof Tile ? { rows: v.type.rows, cols: v.type.cols, vRow: v.vRow, vCol: v.vCol } : undefined;
  };
  const early = bound.spec.earlyReturnIfEmpty ? dims(bound.spec.earlyReturnIfEmpty) : undefined;
  if (early && (early.vRow === 0 || early.vCol === 0)) return;
  const marker = bound.spec.noOpWhenEmpty ? dims(bound.spec.noOpWhenEmpty) : undefined;
  if (marker && marker.vRow === 0 && marker.vCol === 0) return;
  for (const rule of bound.spec.valid ?? []) {
    if (rule.kind === 'view-matches-valid') continue; // checked by the transfer itself
    const outcome = checkDimRule(rule, dims);
    if (outcome.status === 'violated') trap(outcome.message);
  }
  const ctx: InstructionContext = {
    op: op.node,
    bound,
    numerics: x.numerics,
    backend: x.backend,
    target: x.target,
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
    setResult: (name, value) => objects.set(name, value),
    flag: (name) => {
      const value = bound.written?.has(name) ? bound.attributes?.get(name) : undefined;
      return typeof value === 'boolean' ? value : undefined;
    },
    attribute: (name) => bound.attributes?.get(name),
    print: (text) => x.print(text),
    note: (message) => x.note(message),
    bindMxScale: (name, of) => {
      const b = bound.operands.get(name);
      const current = objects.get(name);
      if (!b?.use || b.slot === undefined || !(current instanceof Tile)) return trap(`operand ${name} is not a tile the op can rebind`);
      const placed = x.memory.placeMxScale(current.type, of, op.def.name, op.node.span);
      placed.vRow = current.vRow;
      placed.vCol = current.vCol;
      x.rebindSlot(b.slot, placed);
      objects.set(name, placed);
      return placed;
    },
  };
  const semantics = bound.spec.implemented ? SEMANTICS[bound.spec.semantics] : undefined;
  if (!semantics) return trap('is not implemented yet');
  x.observeInstruction(op, objects);
  semantics(ctx);
  const results = [...bound.operands.values()].filter((b) => b.result).map((b) => objects.get(b.spec.name)!);
  if (results.length > 0) x.setResults(op, results);
}
