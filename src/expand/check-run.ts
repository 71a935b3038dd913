/**
 * pto-vm check-lowering's engine: one function of a tile-level module and the same function of its expansion (ours,
 * or PTOAS's own --emit-vpto output) run on the same bound arguments; every byte of every global buffer compared.
 * The first differing element is described: its buffer, index and coordinates (from the make_tensor_view of its
 * pointer), both values, and which op of the expanded run last changed it (src/expand/provenance.ts). A stored
 * element's bytes were last changed by the store; the element it stored is followed into the vector buffer (the
 * store's source tile, at the element's coordinates) to the micro-op that computed it.
 */
import { GlobalBuffer, Tile } from '../machine/memory';
import { Value } from '../machine/value';
import { Program } from '../ir/program';
import { OpNode, Block } from '../syntax/ast';
import { TypeTable } from '../syntax/type-table';
import { runFunction } from '../vm/interpreter';
import type { RunObserver } from '../vm/observer';
import { formatValue } from '../vm/io/results';
import { WriteTracker, Writer } from './provenance';

export interface Runnable {
  program: Program;
  types: TypeTable;
  /** The source text's line of a character offset. */
  lineOf: (offset: number) => number;
}

export interface WriterReport {
  /** The micro-op (or tile-level op) that last changed the bytes, and its line in the expanded text. */
  op: string;
  line: number;
  /** The tile op whose expansion ran it (its line in FILE), when known. */
  tileOp?: string;
  tileLine?: number;
}

export interface ElementDifference {
  buffer: string;
  element: number;
  /** The element's coordinates in its tensor view (row-major over the view's shape); none without a static view. */
  coords?: number[];
  tileLevel: { hex: string; value: string };
  expanded: { hex: string; value: string };
  /** The op that last changed the element's bytes in global memory. */
  stored?: WriterReport;
  /** The op that last changed the stored element in the vector buffer (the store's source tile). */
  computed?: WriterReport;
}

export type FunctionCheck =
  { fn: string; agree: true; bytes: number } | { fn: string; agree: false; difference: ElementDifference } | { fn: string; error: string };

function* opsOf(blocks: Block[]): Generator<OpNode> {
  for (const b of blocks)
    for (const op of b.ops) {
      yield op;
      for (const r of op.regions) yield* opsOf(r.blocks);
    }
}

/** Constant operands of an op segment (arith.constant of an index), else undefined. */
function constants(fn: OpNode, op: OpNode, segment: string): number[] | undefined {
  const values: number[] = [];
  for (const i of op.segments[segment] ?? []) {
    const o = op.operands[i];
    if (o.literal !== undefined) {
      values.push(Number(o.literal));
      continue;
    }
    const def = [...opsOf(fn.regions.flatMap((r) => r.blocks))].find((d) => d.results.some((r) => r.name === o.value?.name));
    const v = def && def.operands.length === 0 ? def.attrs.find((a) => a.key === 'value')?.value : undefined;
    if (!v || v.kind !== 'int') return undefined;
    values.push(Number(v.value));
  }
  return values;
}

/**
 * The coordinates of element `e` of pointer `%name` in the first tensor view made of it (make_tensor_view: a
 * tensor_view result, written strides) with static strides.
 */
export function coordinatesOf(program: Program, fn: OpNode, name: string, e: number): number[] | undefined {
  const types = program.valueTypes.get(fn);
  for (const op of opsOf(fn.regions.flatMap((r) => r.blocks))) {
    const made = op.results.length === 1 ? types?.get(op.results[0].name) : undefined;
    if (made?.kind !== 'tensor_view' || op.operands[0]?.value?.name !== `%${name}`) continue;
    const strides = constants(fn, op, 'strides');
    if (!strides || strides.length === 0) continue;
    // Dimensions from the largest stride down; each coordinate is what the larger strides leave over.
    const order = strides.map((s, i) => ({ s, i })).sort((a, b) => b.s - a.s);
    const coords = new Array<number>(strides.length).fill(0);
    let rest = e;
    for (const { s, i } of order) {
      coords[i] = s > 0 ? Math.floor(rest / s) : 0;
      rest -= coords[i] * s;
    }
    return rest === 0 ? coords : undefined;
  }
  return undefined;
}

const hexOf = (bytes: Uint8Array): string =>
  [...bytes]
    .reverse()
    .map((b) => b.toString(16).padStart(2, '0'))
    .join('');

/** A copy of a bound value with fresh buffers (the second run must not see the first's writes). */
function cloneValue(v: Value, copies: Map<GlobalBuffer, GlobalBuffer>): Value {
  const copy = (b: GlobalBuffer): GlobalBuffer => {
    if (!copies.has(b)) copies.set(b, new GlobalBuffer(b.name, b.elem, b.bytes.slice()));
    return copies.get(b)!;
  };
  if (v instanceof GlobalBuffer) return copy(v);
  if (typeof v === 'object' && v !== null && 'kind' in v && v.kind === 'partition_view') return { ...v, buffer: copy(v.buffer) };
  return v;
}

export interface CheckFunctionOptions {
  maxSteps: number;
  /** The tile op each call of an expansion stands for (our expansion: the calls' ops and their tile ops). */
  tileOpOfCall?: Map<OpNode, { op: string; line: number }>;
  /** Watchers of the two runs (the timing model, for check-lowering --profile). */
  observers?: { tileLevel: RunObserver; expanded: RunObserver };
}

/**
 * Runs `fn` of both programs, the arguments bound once (`args`, by the tile-level function's parameter names) and
 * handed to the expanded function by position, and compares every global byte.
 */
export function checkFunction(tileLevel: Runnable, expanded: Runnable, fn: string, args: Map<string, Value>, options: CheckFunctionOptions): FunctionCheck {
  const before = tileLevel.program.functions.get(fn)!;
  const after = expanded.program.functions.get(fn);
  if (!after || after.regions.length === 0) return { fn, error: `the expansion has no function @${fn}` };
  const params = before.regions[0].blocks[0].args;
  const afterParams = after.regions[0].blocks[0].args;
  if (params.length !== afterParams.length) return { fn, error: `@${fn} takes ${params.length} arguments, its expansion ${afterParams.length}` };
  const copies = new Map<GlobalBuffer, GlobalBuffer>();
  const afterArgs = new Map<string, Value>(params.map((p, i) => [afterParams[i].name, cloneValue(args.get(p.name)!, copies)]));
  const tracker = new WriteTracker([...copies.values()], new Set(opsOf(after.regions.flatMap((r) => r.blocks))));
  try {
    runFunction(tileLevel.program, tileLevel.types, before, args, { numerics: 'npu', maxSteps: options.maxSteps, observer: options.observers?.tileLevel });
  } catch (e) {
    return { fn, error: `the tile-level run: ${(e as Error).message}` };
  }
  try {
    runFunction(expanded.program, expanded.types, after, afterArgs, {
      numerics: 'npu',
      maxSteps: options.maxSteps,
      afterOp: tracker.afterOp,
      observer: options.observers?.expanded,
    });
  } catch (e) {
    return { fn, error: `the expanded run: ${(e as Error).message}` };
  }
  let bytes = 0;
  for (const [b, c] of copies) {
    const x = b.bytes;
    const y = c.bytes;
    bytes += x.length;
    for (let i = 0; i < x.length; i++) {
      if (x[i] === y[i]) continue;
      const size = b.codec.size;
      const element = Math.floor(i / size);
      const at = (buffer: GlobalBuffer): { hex: string; value: string } => {
        const hex = hexOf(buffer.bytes.subarray(element * size, (element + 1) * size));
        return { hex, value: String(formatValue(buffer.codec.read(buffer.view, element * size))) };
      };
      const coords = coordinatesOf(tileLevel.program, before, b.name, element);
      const report = (w: Writer | undefined): WriterReport | undefined =>
        w && {
          op: w.op.name,
          line: expanded.lineOf(w.op.nameSpan.start),
          ...(w.top && options.tileOpOfCall?.has(w.top)
            ? { tileOp: options.tileOpOfCall.get(w.top)!.op, tileLine: options.tileOpOfCall.get(w.top)!.line }
            : w.top && w.top !== w.op
              ? { tileOp: w.top.name, tileLine: expanded.lineOf(w.top.nameSpan.start) }
              : {}),
        };
      const stored = tracker.global(b.name, element * size, size);
      const source = storedFrom(stored?.tiles, coords, size);
      return {
        fn,
        agree: false,
        difference: {
          buffer: b.name,
          element,
          coords,
          tileLevel: at(b),
          expanded: at(c),
          stored: report(stored),
          computed: source === undefined ? undefined : report(tracker.vector(source, size)),
        },
      };
    }
  }
  return { fn, agree: true, bytes };
}

/**
 * The UB byte a store took an element at `coords` from: its one source tile, row-major, at the same (row, column)
 * (the stores of a whole tile from the view's origin; a store of another shape gives no answer).
 */
function storedFrom(tiles: Tile[] | undefined, coords: number[] | undefined, size: number): number | undefined {
  if (!tiles || tiles.length !== 1 || !coords || coords.length < 2) return undefined;
  const t = tiles[0];
  if (t.type.blayout !== 'row_major') return undefined;
  const [r, c] = coords.slice(-2);
  if (coords.slice(0, -2).some((x) => x !== 0) || r >= t.type.rows || c >= t.type.cols) return undefined;
  return t.address + (r * t.type.cols + c) * size;
}
