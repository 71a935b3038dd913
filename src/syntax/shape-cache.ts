import * as ohm from 'ohm-js';
import { OpSyntax, OpSyntaxTable } from './op-syntax';
import { StatementShape } from './statement-shape';

/**
 * The grammar's match of one statement shape (src/syntax/statement-shape.ts), kept so that later statements of the
 * shape skip the match (the type table keeps the matches of its types' parameters alike): the parser's semantic actions run on the recorded tree as they run on Ohm's, and each node
 * reads its text and position from the statement being built. A node's position is kept relative to the abstracted
 * tokens (the `k`th token's end plus an offset), so it moves with the names and numbers of each statement.
 */

/** The semantic actions of one operation (the parser's `ast(c)`, the type table's `items()`), by rule name. */
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

/** What the nodes of one recorded match share: the abstracted tokens of the header it was made on, and the actions. */
interface Recording {
  tokens: number[];
  numbers: boolean[];
  actions: Actions;
}

/**
 * A node of a recorded match, standing in for Ohm's node wrapper in the semantic actions. Its children are recorded
 * when an action first asks for them: the actions visit a few dozen of the hundreds of nodes of a match.
 */
class ShapeNode {
  private iterationOf: ShapeNode | undefined;
  readonly ctorName: string;
  private readonly kind: 'nonterminal' | 'iteration' | 'terminal';
  private readonly startAt: Anchor | undefined;
  private readonly endAt: Anchor | undefined;
  private readonly action: Actions[string] | undefined;
  private kids: ShapeNode[] | undefined;
  /** The abstracted token it lies in (-1: none). */
  private readonly withinToken: number = -1;
  /** Its children depend on the characters of a token: not shown (see `children`). */
  private hidden = false;

  /** From a node of the match (`recording` given), or an iteration of recorded nodes (`asIteration`). */
  constructor(
    private node: ohm.Node | undefined,
    private readonly recording: Recording | undefined,
    elements?: ShapeNode[],
  ) {
    if (!node || !recording) {
      this.ctorName = '_iter';
      this.kind = 'iteration';
      this.kids = elements;
      return;
    }
    this.ctorName = node.ctorName;
    this.kind = node.isIteration() ? 'iteration' : node.isTerminal() ? 'terminal' : 'nonterminal';
    const { startIdx, endIdx } = node.source;
    this.startAt = anchor(recording.tokens, startIdx);
    this.endAt = anchor(recording.tokens, endIdx);
    this.action = Object.prototype.hasOwnProperty.call(recording.actions, this.ctorName) ? recording.actions[this.ctorName] : undefined;
    this.withinToken = enclosingToken(recording.tokens, startIdx, endIdx);
  }

  /**
   * Its children, unless they depend on the characters of a token, which another statement of the shape has other
   * of: below a name (`suffixId` has two alternatives), and below an iteration with a child inside a token (one node
   * per character of a `digit+`, of a `<...>` body). The rules a number is read through do not (`number`, `intLit`,
   * `dim`): their children are shown, and the actions look at them (`intLit` or `floatLit`).
   */
  get children(): ShapeNode[] {
    if (!this.kids && !this.hidden) {
      if (this.withinToken >= 0 && !this.recording!.numbers[this.withinToken]) this.hidden = true;
      else {
        const kids = this.node!.children.map((child) => new ShapeNode(child, this.recording));
        if (this.kind === 'iteration' && kids.some((kid) => kid.withinToken >= 0 || !kid.startAt || !kid.endAt)) this.hidden = true;
        else this.kids = kids;
      }
      this.node = undefined;
    }
    if (this.hidden) throw new Unreplayable(`the children of ${this.ctorName} depend on the characters of a name or number`);
    return this.kids!;
  }

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
    this.iterationOf = new ShapeNode(undefined, undefined, elements);
    return this.iterationOf;
  }

  /** The parser's `ast(c)` operation (the context is the statement's, `args.c`). */
  ast(_c: unknown): unknown {
    return this.evaluate();
  }

  /** The type table's `items()` operation. */
  items(): unknown {
    return this.evaluate();
  }

  /** The recorded operation, dispatched as Ohm dispatches it: the rule's action, else the only child's. */
  private evaluate(): unknown {
    if (this.action) return this.action.apply(this as unknown as ohm.Node, this.children as unknown as ohm.Node[]);
    if (this.kind !== 'iteration' && this.children.length === 1) return this.children[0].evaluate();
    throw new Unreplayable(`no action for ${this.ctorName}`);
  }
}

/** A statement shape the grammar matched: its recorded tree and the op its header spells. */
export interface RecordedShape {
  root: ShapeNode;
  /** The op the match was made for (the one its name spells, or that name's former op). */
  op: OpSyntax | undefined;
  /** About how much memory it keeps (the cache's budget), in nodes. */
  size: number;
  /** The segments of the ops built from it, shared by them (frozen). */
  segments?: Record<string, number[]>;
}

/**
 * Where an offset of a header lies relative to its abstracted tokens; undefined when it lies inside one (the first
 * token that ends after the offset starts before it).
 */
function anchor(tokens: number[], offset: number): Anchor | undefined {
  const count = tokens.length / 2;
  let lo = 0;
  let hi = count;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (tokens[2 * mid + 1] <= offset) lo = mid + 1;
    else hi = mid;
  }
  if (lo < count && tokens[2 * lo] < offset) return undefined;
  return { token: lo, delta: offset - (lo > 0 ? tokens[2 * lo - 1] : 0) };
}

/** The abstracted token a non-empty range lies in, or -1. */
function enclosingToken(tokens: number[], start: number, end: number): number {
  if (start === end) return -1;
  for (let k = 0; k < tokens.length; k += 2) {
    if (tokens[k] > start) return -1;
    if (end <= tokens[k + 1]) return k / 2;
  }
  return -1;
}

/** Nodes of a match per character of its header, about (the match is kept until its nodes are recorded). */
const NODES_PER_CHARACTER = 8;

/** Records a successful match of a header of this shape (its root; the rest when the actions ask for it). */
export function recordShape(root: ohm.Node, shape: StatementShape, actions: Actions, op: OpSyntax | undefined, headerLength: number): RecordedShape {
  return { root: new ShapeNode(root, { tokens: shape.tokens, numbers: shape.numbers, actions }), op, size: headerLength * NODES_PER_CHARACTER };
}

/** Builds the value of the recorded operation for a header of the recorded shape (`c`: the `ast` operation's). */
export function replayShape(recorded: RecordedShape, header: string, shape: StatementShape, c?: unknown): unknown {
  const tokens = shape.tokens;
  const bases = [0];
  for (let k = 1; k < tokens.length; k += 2) bases.push(tokens[k]);
  const outer = active;
  active = { header, bases, args: { c }, source: { startIdx: 0, endIdx: 0 } };
  try {
    return recorded.root.items();
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
