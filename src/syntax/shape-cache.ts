import * as ohm from 'ohm-js';
import { OpSyntaxTable } from './op-syntax';
import { StatementShape } from './statement-shape';
import { GenerationalMap } from './generational-map';

/**
 * The grammar's match of one statement shape (src/syntax/statement-shape.ts), kept so that later statements of the
 * shape skip the match (the type table keeps the matches of its types' parameters alike): the parser's semantic
 * actions run on the recorded tree as they run on Ohm's, and each node reads its text and position from the statement
 * being built. A node's position is kept relative to the abstracted tokens (the `k`th token's end plus an offset), so
 * it moves with the names and numbers of each statement.
 */

/** The semantic actions of one operation (the parser's `ast(c)`, the type table's `items()`), by rule name. */
export type Actions = Record<string, (this: ohm.Node, ...children: ohm.Node[]) => unknown>;

/**
 * A recorded node was asked for something the shape does not fix: the text of a node that starts or ends inside an
 * abstracted token, children that depend on a token's characters, a node no statement of the shape had visited, or
 * an action the actions do not define. The statement is then matched by the grammar instead.
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

/**
 * What the nodes of one recorded match share: the abstracted tokens of the header it was made on, the actions, and
 * how many nodes it has recorded.
 */
interface Recording {
  tokens: number[];
  structured: boolean[];
  actions: Actions;
  nodes: number;
}

/** A position a shape does not fix (inside an abstracted token). */
const NOWHERE = -1;

/**
 * A node of a recorded match, standing in for Ohm's node wrapper in the semantic actions. Its children are recorded
 * when an action first asks for them (the actions visit a few dozen of the hundreds of nodes of a match), and once a
 * statement has been built, the nodes they did not visit are let go of (`forgetUnvisited`). A boundary is kept as
 * `delta` characters after the end of the `token`-th abstracted token (token 0: the header's start).
 */
class ShapeNode {
  private iterationOf: ShapeNode | undefined;
  readonly ctorName: string;
  private readonly kind: 'nonterminal' | 'iteration' | 'terminal';
  private readonly startToken: number = NOWHERE;
  private readonly startDelta: number = 0;
  private readonly endToken: number = NOWHERE;
  private readonly endDelta: number = 0;
  private readonly action: Actions[string] | undefined;
  private kids: ShapeNode[] | undefined;
  /** The abstracted token it lies in (-1: none). */
  private readonly withinToken: number = -1;
  /** Its children are not shown: they depend on the characters of a token (see `children`), or were let go of. */
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
    recording.nodes++;
    this.ctorName = node.ctorName;
    this.kind = node.isIteration() ? 'iteration' : node.isTerminal() ? 'terminal' : 'nonterminal';
    const { startIdx, endIdx } = node.source;
    const tokens = recording.tokens;
    this.startToken = anchorToken(tokens, startIdx);
    this.startDelta = startIdx - tokenEnd(tokens, this.startToken);
    this.endToken = anchorToken(tokens, endIdx);
    this.endDelta = endIdx - tokenEnd(tokens, this.endToken);
    this.action = Object.prototype.hasOwnProperty.call(recording.actions, this.ctorName) ? recording.actions[this.ctorName] : undefined;
    this.withinToken = enclosingToken(tokens, startIdx, endIdx);
  }

  /**
   * Its children, unless they depend on the characters of a token, which another statement of the shape has other
   * of: below a name (`suffixId` has two alternatives), and below an iteration that has a node per character of a
   * token (a `digit+`, the items of a `<...>` body). The rules a number or an op name is read through do not
   * (`number`, `intLit`, `dim`, `opName`): their children are shown, and the actions look at them (`intLit` or
   * `floatLit`), and an iteration of them (the sizes `[16, 32]`) has one child per number, whatever its digits.
   */
  get children(): ShapeNode[] {
    if (!this.kids && !this.hidden) {
      if (this.withinToken >= 0 && !this.recording!.structured[this.withinToken]) this.hidden = true;
      else {
        const recording = this.recording!;
        const children = this.node!.children;
        const kids = children.map((child) => new ShapeNode(child, recording));
        const perCharacter = (kid: ShapeNode, i: number) =>
          kid.startToken === NOWHERE || kid.endToken === NOWHERE || (kid.withinToken >= 0 && !readsWholeToken(children[i], recording.tokens, kid.withinToken));
        if (this.kind === 'iteration' && kids.some(perCharacter)) this.hidden = true;
        else this.kids = kids;
      }
      this.node = undefined;
    }
    if (this.hidden) throw new Unreplayable(`the children of ${this.ctorName} depend on the characters of a name or number, or were not recorded`);
    return this.kids!;
  }

  /** Lets go of the match below the nodes no action has visited: another statement of the shape visits the same. */
  forgetUnvisited(): void {
    if (this.kids) for (const kid of this.kids) kid.forgetUnvisited();
    else if (this.node) {
      this.node = undefined;
      this.hidden = true;
    }
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
    if (this.startToken === NOWHERE || this.endToken === NOWHERE) throw new Unreplayable(`the bounds of ${this.ctorName} lie inside a name or number`);
    const replay = active!;
    const source = replay.source;
    source.startIdx = replay.bases[this.startToken] + this.startDelta;
    source.endIdx = replay.bases[this.endToken] + this.endDelta;
    return source;
  }

  get sourceString(): string {
    if (this.startToken === NOWHERE || this.endToken === NOWHERE) throw new Unreplayable(`the bounds of ${this.ctorName} lie inside a name or number`);
    const replay = active!;
    return replay.header.slice(replay.bases[this.startToken] + this.startDelta, replay.bases[this.endToken] + this.endDelta);
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
  evaluate(): unknown {
    if (this.action) return this.action.apply(this as unknown as ohm.Node, this.children as unknown as ohm.Node[]);
    if (this.kind !== 'iteration' && this.children.length === 1) return this.children[0].evaluate();
    throw new Unreplayable(`no action for ${this.ctorName}`);
  }
}

/** A statement shape the grammar matched: its recorded tree, and whether it matched its op's former syntax. */
export interface RecordedShape {
  root: ShapeNode;
  /**
   * The header matched the syntax of the op its name formerly spelled (`OpSyntax.formerly`), not the current one's:
   * so does every header of the shape.
   */
  former: boolean;
  /** How many nodes it keeps (the cache's budget). */
  readonly size: number;
  /** The segments of the ops built from it, shared by them (frozen). */
  segments?: Record<string, number[]>;
}

/**
 * The token after whose end an offset of a header lies (0: the header's start), or NOWHERE when it lies inside a token
 * (the first token that ends after the offset starts before it).
 */
function anchorToken(tokens: number[], offset: number): number {
  const count = tokens.length / 2;
  let lo = 0;
  let hi = count;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (tokens[2 * mid + 1] <= offset) lo = mid + 1;
    else hi = mid;
  }
  return lo < count && tokens[2 * lo] < offset ? NOWHERE : lo;
}

/** Where the `k`th anchor is: the end of token k - 1, or 0 for the header's start. */
function tokenEnd(tokens: number[], k: number): number {
  return k > 0 ? tokens[2 * k - 1] : 0;
}

/**
 * The node (inside token k) reads the whole token, however long: below it an iteration spans the token (the `digit+`
 * of an `intLit`, a few rules down). A node that does not (an `any`, a `digit`) reads one character of it.
 */
function readsWholeToken(node: ohm.Node, tokens: number[], k: number, depth = 4): boolean {
  const { startIdx, endIdx } = node.source;
  if (node.isIteration() && startIdx === tokens[2 * k] && endIdx === tokens[2 * k + 1]) return true;
  return depth > 0 && node.children.some((child) => readsWholeToken(child, tokens, k, depth - 1));
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

/**
 * Records a successful match of a header of this shape (its root; the rest when the actions ask for it). Build a
 * statement from it before storing it: that leaves only the nodes the actions visit.
 */
export function recordShape(root: ohm.Node, shape: StatementShape, actions: Actions, former = false): RecordedShape {
  const recording: Recording = { tokens: shape.tokens, structured: shape.structured, actions, nodes: 0 };
  const node = new ShapeNode(root, recording);
  return {
    root: node,
    former,
    get size() {
      return recording.nodes;
    },
  };
}

/** The statement built from a new record was built: its match is let go of but for the nodes the actions visited. */
export function keepVisited(recorded: RecordedShape): void {
  recorded.root.forgetUnvisited();
}

/** Builds the value of the recorded operation for a header of the recorded shape (`c`: the `ast` operation's). */
export function replayShape(recorded: RecordedShape, header: string, shape: StatementShape, c?: unknown): unknown {
  const tokens = shape.tokens;
  const bases = [0];
  for (let k = 1; k < tokens.length; k += 2) bases.push(tokens[k]);
  const outer = active;
  active = { header, bases, args: { c }, source: { startIdx: 0, endIdx: 0 } };
  try {
    return recorded.root.evaluate();
  } finally {
    active = outer;
  }
}

/** Recorded nodes (about 100 bytes each) per generation of the cache (src/syntax/generational-map.ts). */
const NODE_BUDGET = 100_000;

/**
 * A shape's entry: its record; a shape whose statements the actions could not be built from a record for; or one
 * whose statements the grammar does not match (statements of one shape match alike: src/syntax/statement-shape.ts).
 */
type CacheEntry = RecordedShape | 'unreplayable' | 'unmatched';

/**
 * The recorded shapes of one op table, shared by every file parsed with it: compiler output of one toolchain repeats
 * its shapes from file to file. The shapes used lately are kept, within a budget of recorded nodes.
 */
export class ShapeCache {
  private readonly shapes: GenerationalMap<string, CacheEntry>;
  /** How many statements were built from a recorded shape (for the tests and the benchmark). */
  built = 0;

  constructor(nodeBudget = NODE_BUDGET) {
    // A mark weighs one node, so that marks too are bounded.
    this.shapes = new GenerationalMap<string, CacheEntry>(nodeBudget, (e) => (typeof e === 'string' ? 1 : e.size + 1));
  }

  lookup(key: string): CacheEntry | undefined {
    return this.shapes.get(key);
  }

  markUnreplayable(key: string): void {
    this.shapes.set(key, 'unreplayable');
  }

  markUnmatched(key: string): void {
    this.shapes.set(key, 'unmatched');
  }

  store(key: string, recorded: RecordedShape): void {
    this.shapes.set(key, recorded);
  }

  /** Shapes and marks held. */
  get size(): number {
    return this.shapes.size;
  }
}

const caches = new WeakMap<OpSyntaxTable, ShapeCache>();

export function shapeCacheFor(opTable: OpSyntaxTable): ShapeCache {
  let cache = caches.get(opTable);
  if (!cache) caches.set(opTable, (cache = new ShapeCache()));
  return cache;
}
