import * as ohm from 'ohm-js';
import { OpSyntax, OpSyntaxTable } from './op-syntax';
import { StatementShape } from './statement-shape';

/**
 * The grammar's match of one statement shape (src/syntax/statement-shape.ts), kept so that later statements of the
 * shape skip the match: the parser's semantic actions run on the recorded tree as they run on Ohm's, and each node
 * reads its text and position from the statement being built. A node's position is kept relative to the abstracted
 * tokens (the `k`th token's end plus an offset), so it moves with the names and numbers of each statement.
 */

/** The semantic actions of the parser's `ast(c)` operation, by rule name. */
export type Actions = Record<string, (this: ohm.Node, ...children: ohm.Node[]) => unknown>;

/**
 * A recorded node was asked for something the shape does not fix: the text of a node that starts or ends inside an
 * abstracted token (the grammar read into it), or an action the actions do not define. The statement is then
 * matched by the grammar instead.
 */
export class Unreplayable extends Error {}

/** The statement being built from a shape: its header, and where each abstracted token of it ends. */
interface Replay {
  header: string;
  /** bases[k]: the end of the k-th abstracted token (bases[0] = 0, the header's start). */
  bases: number[];
  args: { c: unknown };
  source: { startIdx: number; endIdx: number };
}

let active: Replay | undefined;

/** Where a node boundary lies: `delta` characters after the end of the `token`-th abstracted token (0: the start). */
interface Anchor {
  token: number;
  delta: number;
}

/** A node of a recorded match, standing in for Ohm's node wrapper in the semantic actions. */
class ShapeNode {
  private iterationOf: ShapeNode | undefined;

  constructor(
    readonly ctorName: string,
    private readonly kind: 'nonterminal' | 'iteration' | 'terminal',
    private readonly startAt: Anchor | undefined,
    private readonly endAt: Anchor | undefined,
    readonly children: ShapeNode[],
    private readonly action: Actions[string] | undefined,
  ) {}

  get numChildren(): number {
    return this.children.length;
  }

  get args(): { c: unknown } {
    return active!.args;
  }

  /**
   * Where the node is in the statement's header. The actions read it at once (`spanOf`, `typeRef`), so every node
   * answers with one object of the statement's, not a new one each time.
   */
  get source(): { startIdx: number; endIdx: number } {
    const start = this.startAt;
    const end = this.endAt;
    if (!start || !end) throw new Unreplayable(`the bounds of ${this.ctorName} lie inside a name or number`);
    const replay = active!;
    const source = replay.source;
    source.startIdx = replay.bases[start.token] + start.delta;
    source.endIdx = replay.bases[end.token] + end.delta;
    return source;
  }

  get sourceString(): string {
    const start = this.startAt;
    const end = this.endAt;
    if (!start || !end) throw new Unreplayable(`the bounds of ${this.ctorName} lie inside a name or number`);
    const replay = active!;
    return replay.header.slice(replay.bases[start.token] + start.delta, replay.bases[end.token] + end.delta);
  }

  isIteration(): boolean {
    return this.kind === 'iteration';
  }

  isTerminal(): boolean {
    return this.kind === 'terminal';
  }

  isNonterminal(): boolean {
    return this.kind === 'nonterminal';
  }

  /** Ohm's built-in `asIteration`: the elements of a `ListOf` (its separators left out). */
  asIteration(): ShapeNode {
    if (this.iterationOf) return this.iterationOf;
    let elements: ShapeNode[];
    switch (this.ctorName) {
      case 'NonemptyListOf':
      case 'nonemptyListOf':
        elements = [this.children[0], ...this.children[2].children];
        break;
      case 'EmptyListOf':
      case 'emptyListOf':
        elements = [];
        break;
      case '_iter':
        return this;
      default:
        if (this.kind !== 'iteration' && this.children.length === 1) return this.children[0].asIteration();
        throw new Unreplayable(`no asIteration for ${this.ctorName}`);
    }
    this.iterationOf = new ShapeNode('_iter', 'iteration', undefined, undefined, elements, undefined);
    return this.iterationOf;
  }

  /** The `ast(c)` operation, dispatched as Ohm dispatches it: the rule's action, else the only child's. */
  ast(c: unknown): unknown {
    if (this.action) return this.action.apply(this as unknown as ohm.Node, this.children as unknown as ohm.Node[]);
    if (this.kind !== 'iteration' && this.children.length === 1) return this.children[0].ast(c);
    throw new Unreplayable(`no action for ${this.ctorName}`);
  }
}

/** A statement shape the grammar matched: its recorded tree and the op its header spells. */
export interface RecordedShape {
  root: ShapeNode;
  /** The op the match was made for (the one its name spells, or that name's former op). */
  op: OpSyntax | undefined;
  /** How many nodes it keeps (the cache's memory budget). */
  size: number;
  /** The segments of the ops built from it, shared by them (frozen). */
  segments?: Record<string, number[]>;
}

/** Records the tree of a successful match of a header of this shape. */
export function recordShape(root: ohm.Node, shape: StatementShape, actions: Actions, op: OpSyntax | undefined): RecordedShape {
  const tokens = shape.tokens;
  const count = tokens.length / 2;
  const anchor = (offset: number): Anchor | undefined => {
    // The first token that ends after the offset: the offset is before it, or inside it.
    let lo = 0;
    let hi = count;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (tokens[2 * mid + 1] <= offset) lo = mid + 1;
      else hi = mid;
    }
    if (lo < count && tokens[2 * lo] < offset) return undefined;
    return { token: lo, delta: offset - (lo > 0 ? tokens[2 * lo - 1] : 0) };
  };
  let size = 0;
  const record = (node: ohm.Node): ShapeNode => {
    size++;
    const kind = node.isIteration() ? 'iteration' : node.isTerminal() ? 'terminal' : 'nonterminal';
    const children = node.children.map(record);
    const ctorName = node.ctorName;
    const action = Object.prototype.hasOwnProperty.call(actions, ctorName) ? actions[ctorName] : undefined;
    return new ShapeNode(ctorName, kind, anchor(node.source.startIdx), anchor(node.source.endIdx), children, action);
  };
  return { root: record(root), op, size };
}

/** Builds the value of the `ast(c)` operation for a header of the recorded shape. */
export function replayShape(recorded: RecordedShape, header: string, shape: StatementShape, c: unknown): unknown {
  const tokens = shape.tokens;
  const bases = [0];
  for (let k = 1; k < tokens.length; k += 2) bases.push(tokens[k]);
  const outer = active;
  active = { header, bases, args: { c }, source: { startIdx: 0, endIdx: 0 } };
  try {
    return recorded.root.ast(c);
  } finally {
    active = outer;
  }
}

/** Shapes kept at most (nodes); past it, new shapes are matched without being recorded. */
const NODE_BUDGET = 2_000_000;

/**
 * The recorded shapes of one op table, shared by every file parsed with it: compiler output of one toolchain repeats
 * its shapes from file to file.
 */
export class ShapeCache {
  private readonly shapes = new Map<string, RecordedShape | 'unreplayable'>();
  private nodes = 0;
  /** How many statements were built from a recorded shape (for the tests and the benchmark). */
  built = 0;

  lookup(key: string): RecordedShape | 'unreplayable' | undefined {
    return this.shapes.get(key);
  }

  /** There is room for a shape of this many nodes. */
  hasRoom(size = 0): boolean {
    return this.nodes + size <= NODE_BUDGET;
  }

  markUnreplayable(key: string): void {
    this.shapes.set(key, 'unreplayable');
  }

  store(key: string, recorded: RecordedShape): void {
    if (!this.hasRoom(recorded.size)) return;
    this.nodes += recorded.size;
    this.shapes.set(key, recorded);
  }
}

const caches = new WeakMap<OpSyntaxTable, ShapeCache>();

export function shapeCacheFor(opTable: OpSyntaxTable): ShapeCache {
  let cache = caches.get(opTable);
  if (!cache) caches.set(opTable, (cache = new ShapeCache()));
  return cache;
}
