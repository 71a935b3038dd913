import { Block, OpNode } from '../../syntax/ast';

/**
 * The def-use graph of one function, as PTOAS's passes walk it (value.getUses(), op.getParentOp()). MLIR scopes SSA
 * names by region: a name defined inside a region can be defined again in a sibling region (two `pto.section.simt`
 * bodies each with their own `%c0`), so a use is resolved through the regions that enclose it, innermost first.
 */

/** A value: an op's result (`op`, `result`) or a block argument (`block`; `entry` for the function's parameters). */
export interface SsaValue {
  /** Its name as the verifier keys it (`%x`, `%x#1`), for Program.valueTypes. */
  name: string;
  op?: OpNode;
  result: number;
  block?: Block;
  entry?: boolean;
  uses: SsaUse[];
}

export interface SsaUse {
  op: OpNode;
  operand: number;
}

/** Where an op stands: the op whose region holds it (undefined: the function's body), its block and position. */
export interface OpPlace {
  parent?: OpNode;
  block: Block;
  index: number;
}

export interface SsaGraph {
  places: Map<OpNode, OpPlace>;
  /** Each operand's value, by op and operand index (undefined: a name no enclosing region defines). */
  operands: Map<OpNode, (SsaValue | undefined)[]>;
  /** Each op's results, in order (a `%x:2` definition gives two). */
  results: Map<OpNode, SsaValue[]>;
  /** Every op, nested ones included, in program order (parents before their children). */
  ops: OpNode[];
  /** A region of more than one block was seen: dominance is then a CFG question these checks do not answer. */
  multiBlock: boolean;
}

const graphs = new WeakMap<OpNode, SsaGraph>();

export function ssaGraph(fn: OpNode): SsaGraph {
  const cached = graphs.get(fn);
  if (cached) return cached;
  const g: SsaGraph = { places: new Map(), operands: new Map(), results: new Map(), ops: [], multiBlock: false };
  const walkRegion = (blocks: Block[], parent: OpNode | undefined, outer: Map<string, SsaValue>[], entryArgs: boolean) => {
    if (blocks.length > 1) g.multiBlock = true;
    blocks.forEach((block, blockIndex) => {
      const scope = new Map<string, SsaValue>();
      const scopes = [scope, ...outer];
      const args = parent === undefined && entryArgs && block.args.length === 0 ? (fn.params ?? []) : block.args;
      for (const a of args) scope.set(a.name, { name: a.name, block, result: 0, entry: parent === undefined && blockIndex === 0, uses: [] });
      block.ops.forEach((op, index) => {
        g.places.set(op, { parent, block, index });
        g.ops.push(op);
        g.operands.set(
          op,
          op.operands.map((o, i) => {
            const ref = o.value;
            if (!ref) return undefined;
            const key = ref.index !== undefined ? `${ref.name}#${ref.index}` : ref.name;
            const value = lookup(scopes, key) ?? (ref.index === 0 ? lookup(scopes, ref.name) : undefined);
            value?.uses.push({ op, operand: i });
            return value;
          }),
        );
        for (const r of op.regions) walkRegion(r.blocks, op, scopes, false);
        const results: SsaValue[] = [];
        for (const r of op.results) {
          for (let i = 0; i < r.count; i++) {
            const name = r.count === 1 ? r.name : `${r.name}#${i}`;
            const value: SsaValue = { name, op, result: results.length, uses: [] };
            results.push(value);
            scope.set(name, value);
          }
        }
        g.results.set(op, results);
      });
    });
  };
  for (const r of fn.regions) walkRegion(r.blocks, undefined, [], true);
  graphs.set(fn, g);
  return g;
}

function lookup(scopes: Map<string, SsaValue>[], key: string): SsaValue | undefined {
  for (const s of scopes) {
    const v = s.get(key);
    if (v) return v;
  }
  return undefined;
}

/** The nearest op that encloses `op` (not `op` itself) and is one `is` looks for. */
export function enclosing(g: SsaGraph, op: OpNode, is: (p: OpNode) => boolean): OpNode | undefined {
  for (let p = g.places.get(op)?.parent; p; p = g.places.get(p)?.parent) if (is(p)) return p;
  return undefined;
}

/** `op` or the op enclosing it that stands in `block`. */
export function ancestorIn(g: SsaGraph, op: OpNode, block: Block): OpNode | undefined {
  for (let p: OpNode | undefined = op; p; p = g.places.get(p)?.parent) if (g.places.get(p)?.block === block) return p;
  return undefined;
}

/**
 * Whether `a` properly dominates `b` in structured (single-block region) code: `a` stands before `b`, or before an
 * op that encloses `b`, in the same block.
 */
export function dominates(g: SsaGraph, a: OpNode, b: OpNode): boolean {
  const at = g.places.get(a);
  if (!at || a === b) return false;
  const other = ancestorIn(g, b, at.block);
  return other !== undefined && other !== a && g.places.get(other)!.index > at.index;
}
