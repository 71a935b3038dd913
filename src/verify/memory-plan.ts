import { Span } from '../diag/source';
import { BoundFunction, BoundOp, BoundRegion, PlannedFrame, Slot, TilePlacement } from '../ir/bound';
import { Isa } from '../spec/isa';
import { TargetName } from '../spec/schema';
import { TileType, Type, elemSize, printType } from '../types/type';
import { allocTile } from '../ops/memory/tiles';
import { allocMultiTile } from '../ops/memory/multi-tile';
import { forOp, whileOp } from '../ops/structure/scf';

/**
 * Memory planning as PTOAS does it at levels 1 and 2 (its PlanMemory pass, lib/PTO/Transforms/PTOPlanMemory.cpp,
 * the default `legacy` planner: MemLivenessAnalysis, then MemPlan). Each tile a function allocates without an
 * address (`pto.alloc_tile`, `pto.alloc_multi_tile`'s `count` tiles together, each Level 1 tile result) is live
 * from its first use to its last, and gets an
 * offset in its buffer that no tile live at the same time has: a dead tile's space is reused. Where the tiles live
 * at one point need more than the buffer, PTOAS rejects the program ("vec overflow, requires N bits while M bits
 * available"); so does pto-as, at that point, naming the tiles. The VM places the tiles at the offsets found here.
 *
 * What counts, as PTOAS counts it:
 * - A tile's life starts at the first op that uses it or a view of it (PTOAS's "gen"), not at its alloc: an op
 *   other than a view (subview, treshape, bitcast) or a terminator (a multi-tile buffer: its first multi_tile_get).
 *   A Level 1 result starts where it is computed.
 *   A tile allocated before a loop and live at it (used in it or after it) is live from the loop's start
 *   (GetLiveBuffersInLoop): the loop may run again.
 * - It ends after the last use of any value that names its bytes: its views, and the values scf ops hand on (iter_args,
 *   results, yields). A use inside a loop or a branch counts as a use by the loop or branch, in the block the tile
 *   lives in (PTOAS kills a buffer only in its defining block).
 * - A tile nothing uses gets no storage, nor does one used only as a scratch operand its target never touches
 *   (the tables' `scratchUnusedOn`: A5's trowmax, txor, ...).
 * - Sizes are PTOAS's footprints (rows x cols, or the row_plus_one compact layout's), rounded up to the buffer's
 *   planning alignment; the capacities are PTOAS's (spec/targets.json `planned`: A5's UB is 248 KiB, not 256).
 * - Tiles placed by address (`addr = %a`, level 3) are not planned; at level3 nothing is checked.
 *
 * Where this differs: PTOAS keeps the alias sets of loop-carried tiles in the order it meets them, and a set whose
 * buffer it never kills conflicts with nothing (its life has no end); here such a tile lives to the last use of
 * anything that carries it, and values handed between blocks by branches live through their whole region. The
 * scratch tiles PTOAS allocates itself for an instruction that leaves one out (pto-materialize-implicit-tmp) are
 * not counted. Its placement heuristics (DMA buffers first, rollback) are not followed: only whether the live
 * tiles fit decides, and a layout this planner cannot find where they do is a trap of the VM ("not implemented yet").
 */

/** What planning reports: an error at `span` with notes. */
export type PlanReport = (span: Span, message: string, notes: { message: string; span: Span }[]) => void;

/** Where an op sits: its region and block, and the times it covers (an op with regions covers its regions' ops). */
interface Place {
  region: BoundRegion;
  block: number;
  begin: number;
  end: number;
}

interface Use {
  op: BoundOp;
  place: Place;
  /** Whether it starts the tile's life (PTOAS's gen): not a view op's operand, nor a terminator's. */
  real: boolean;
}

/** A tile that planning places. */
interface Root {
  slot: Slot;
  op: BoundOp;
  name: string;
  /** The tile's type (a multi-tile buffer's slot type), and how many such tiles it is (a multi-tile buffer's count). */
  type: TileType;
  count: number;
  /** As written, for messages. */
  written: Type;
  buffer: string;
  /** Its footprint rounded up to the buffer's planning alignment, times the count. */
  bytes: number;
  start: number;
  end: number;
}

/** Union-find over the frame's slots. */
class Classes {
  private readonly parent: Int32Array;
  constructor(size: number) {
    this.parent = new Int32Array(size).fill(-1);
  }
  find(s: Slot): Slot {
    let root = s;
    while (this.parent[root] >= 0) root = this.parent[root];
    while (s !== root) {
      const next = this.parent[s];
      this.parent[s] = root;
      s = next;
    }
    return root;
  }
  union(a: Slot, b: Slot): void {
    const [x, y] = [this.find(a), this.find(b)];
    if (x !== y) this.parent[x] = y;
  }
}

const isTile = (t: Type | undefined): t is TileType => t?.kind === 'tile';
/** A tile or a multi-tile buffer: what names bytes of an on-chip buffer. */
const holdsTiles = (t: Type | undefined): boolean => t?.kind === 'tile' || t?.kind === 'multi_tile';

/** PTOAS's footprint of a tile (getTileBufferFootprintBytes): a row_plus_one compact tile pads every row but the last. */
export function tileFootprint(t: TileType): number {
  const size = elemSize(t.dtype);
  if (t.compact !== 2) return t.rows * t.cols * size;
  const [major, minor] = t.blayout === 'row_major' ? [t.rows, t.cols] : [t.cols, t.rows];
  return major === 0 || minor === 0 ? 0 : ((major - 1) * (minor + 1) + minor) * size;
}

const alignUp = (n: number, a: number): number => Math.ceil(n / a) * a;

/**
 * The function's IR laid out in time: every op a moment, an op with regions a span around its regions' ops. Only
 * tile values are followed (by slot: arrays of the frame's size, as an assembler run meets thousands of functions).
 */
class Timeline {
  /** The place of the op that owns each region (undefined: the function's body). */
  readonly owner = new Map<BoundRegion, Place | undefined>();
  private readonly depth = new Map<BoundRegion, number>();
  readonly spans = new Map<BoundRegion, { first: number; last: number }>();
  /** Where each tile slot is defined: an op's place, or for a block argument its region and block at the owner's start. */
  readonly defs: (Place | undefined)[];
  readonly uses: (Use[] | undefined)[];
  /** Each tile slot's type (a block argument's is known from its uses: an unused one carries nothing). */
  readonly types: (Type | undefined)[];
  /** The op at each moment (an op with regions at its start and its end). */
  readonly at: BoundOp[] = [];
  /** The ops that touch a tile or hold regions, in order. */
  readonly ops: BoundOp[] = [];
  readonly carry: Classes;
  readonly views: Classes;
  /** The places of the loops (scf.for, scf.while) directly in each region. */
  readonly loops = new Map<BoundRegion, Place[]>();
  private classes?: Map<Slot, Slot[]>;

  constructor(fn: BoundFunction) {
    const n = fn.frameSize;
    [this.defs, this.uses, this.types] = [new Array(n), new Array(n), new Array(n)];
    [this.carry, this.views] = [new Classes(n), new Classes(n)];
    if (fn.body) this.region(fn.body, undefined, 0);
  }

  /** The slots that carry the same bytes as `slot` (its class of `carry`). */
  members(slot: Slot): Slot[] {
    if (!this.classes) {
      this.classes = new Map();
      this.defs.forEach((def, s) => {
        if (!def) return;
        const c = this.carry.find(s);
        const list = this.classes!.get(c);
        if (list) list.push(s);
        else this.classes!.set(c, [s]);
      });
    }
    return this.classes.get(this.carry.find(slot)) ?? [slot];
  }

  private region(region: BoundRegion, owner: Place | undefined, start: number): void {
    this.owner.set(region, owner);
    this.depth.set(region, owner ? this.depth.get(owner.region)! + 1 : 0);
    const first = this.at.length;
    region.blocks.forEach((block, b) => {
      for (const slot of block.args) this.defs[slot] = { region, block: b, begin: start, end: start };
      for (const op of block.ops) this.op(op, region, b);
    });
    this.spans.set(region, { first, last: Math.max(first, this.at.length - 1) });
  }

  private op(op: BoundOp, region: BoundRegion, block: number): void {
    const begin = this.at.length;
    this.at.push(op);
    // Most ops touch no tile (scalar code): they get a moment and nothing else.
    const { results, resultTypes, operands, operandTypes, regions } = op;
    let place: Place | undefined = regions.length > 0 ? { region, block, begin, end: begin } : undefined;
    for (let i = 0; i < results.length; i++) {
      const t = resultTypes[i];
      if (!holdsTiles(t)) continue;
      place ??= { region, block, begin, end: begin };
      this.defs[results[i]] = place;
      this.types[results[i]] = t;
    }
    let real: boolean | undefined;
    for (let i = 0; i < operands.length; i++) {
      const slot = operands[i];
      const t = operandTypes[i];
      if (slot < 0 || !holdsTiles(t)) continue;
      place ??= { region, block, begin, end: begin };
      real ??= op.def.properties?.aliasesOperand === undefined && op.def.terminator === undefined;
      this.types[slot] = t;
      const list = this.uses[slot];
      if (list) list.push({ op, place, real });
      else this.uses[slot] = [{ op, place, real }];
    }
    if (!place) return;
    this.ops.push(op);
    if (op.def === forOp || op.def === whileOp) {
      const list = this.loops.get(region);
      if (list) list.push(place);
      else this.loops.set(region, [place]);
    }
    for (const r of regions) this.region(r, place, begin);
    if (regions.length > 0) {
      place.end = this.at.length;
      this.at.push(op);
    }
    this.alias(op, region);
  }

  /** The values that name the same bytes as another: a view of a tile, what scf ops and branches hand on. */
  private alias(op: BoundOp, region: BoundRegion): void {
    // Most ops (instructions, scalars) hand on no tile: only region ops, branches and ops giving tiles may.
    if (op.regions.length === 0 && op.def.terminator !== 'branch' && (op.instruction || !op.resultTypes.some(holdsTiles))) return;
    const tileSlots = (slots: Slot[], types: (Type | undefined)[]) => slots.map((s, i) => (holdsTiles(types[i]) && s >= 0 ? s : -1));
    const operands = tileSlots(op.operands, op.operandTypes);
    const results = tileSlots(op.results, op.resultTypes);
    const join = (a: Slot[], b: Slot[], both = false) => {
      // Aligned from the end: an scf.for's init operands follow its bounds, its iter_args its induction variable.
      for (let k = 1; k <= Math.min(a.length, b.length); k++) {
        const x = a[a.length - k];
        const y = b[b.length - k];
        if (x < 0 || y < 0) continue;
        this.carry.union(x, y);
        if (both) this.views.union(x, y);
      }
    };
    if (op.def.properties?.aliasesOperand !== undefined) {
      join(results, operands.slice(0, 1), true);
      return;
    }
    if (op.def.terminator === 'branch') {
      for (const successor of op.node.successors ?? []) {
        const target = region.node.blocks.findIndex((b) => b.label === successor.label);
        const args = region.blocks[target]?.args ?? [];
        successor.operands.forEach((operand, k) => {
          const [from, to] = [operands[operand] ?? -1, args[k]];
          if (from >= 0 && to !== undefined) this.carry.union(from, to);
        });
      }
      return;
    }
    if (op.regions.length > 0) {
      // Each region's arguments take the op's operands (or a yield's, looping back); each yield hands on the results.
      const entryArgs = op.regions.map((r) => (r.blocks[0]?.args ?? []).map((s) => (this.types[s] ? s : -1)));
      for (const args of entryArgs) join(args, operands);
      for (const r of op.regions) {
        for (const block of r.blocks) {
          const last = block.ops.at(-1);
          if (last?.def.terminator !== 'yield') continue;
          const handed = tileSlots(last.operands, last.operandTypes);
          join(handed, results);
          for (const args of entryArgs) join(handed, args);
        }
      }
      return;
    }
    // Any other op that gives a tile from tiles without computing it (arith.select, a call) may give one of them.
    if (!op.instruction && results.some((s) => s >= 0)) for (const r of results) for (const o of operands) if (r >= 0 && o >= 0) this.carry.union(r, o);
  }

  /** The innermost region that holds both (each region is in its owner's region, up to the function's body). */
  common(a: BoundRegion, b: BoundRegion): BoundRegion {
    const up = (r: BoundRegion) => this.owner.get(r)?.region ?? r;
    while (this.depth.get(a)! > this.depth.get(b)!) a = up(a);
    while (this.depth.get(b)! > this.depth.get(a)!) b = up(b);
    while (a !== b) [a, b] = [up(a), up(b)];
    return a;
  }

  /** A place seen from an enclosing region: the op of that region it is in (its whole span when it is inside it). */
  lift(place: Place, to: BoundRegion): Place {
    let p = place;
    while (p.region !== to) {
      const up = this.owner.get(p.region);
      if (!up) break;
      p = up;
    }
    return p;
  }
}

/** A tile's size in its buffer as planning counts it. */
function plannedBytes(t: TileType, buffer: string, spec: Isa): number {
  return alignUp(tileFootprint(t), spec.planning.alignment[buffer] ?? spec.alignment);
}

/**
 * Plans the tiles of `fn`: records each allocation's placement on its op, and reports each buffer whose live tiles
 * exceed it at some point (`report` undefined: place only, as at level3, which PTOAS does not plan).
 */
export function planFunctionMemory(fn: BoundFunction, target: TargetName, spec: Isa, report: PlanReport | undefined): void {
  if (!fn.body) return;
  const time = new Timeline(fn);
  const roots: Root[] = [];
  const unplanned: { op: BoundOp }[] = [];
  for (const op of time.ops) {
    for (const { slot, name, type, count } of allocations(op)) {
      const buffer = spec.locationBuffer[type.loc];
      const written = op.resultTypes[op.results.indexOf(slot)] ?? type;
      const root: Root = { slot, op, name, type, count, written, buffer, bytes: count * plannedBytes(type, buffer, spec), start: 0, end: 0 };
      if (liveRange(root, time, target, op.instruction !== undefined)) roots.push(root);
      else unplanned.push({ op });
    }
  }
  const byBuffer = new Map<string, Root[]>();
  for (const r of roots) {
    const list = byBuffer.get(r.buffer);
    if (list) list.push(r);
    else byBuffer.set(r.buffer, [r]);
  }
  const extents = new Map<string, number>();
  const unplaced = new Set<string>();
  const offsets = new Map<Root, number>();
  for (const [buffer, list] of byBuffer) {
    const capacity = spec.planning.capacity[target][buffer] ?? spec.buffers[target][buffer] ?? 0;
    if (report) checkPeak(list, buffer, capacity, target, time, report);
    const placed = place(list, capacity);
    if (!placed) unplaced.add(buffer);
    let extent = 0;
    for (const [root, offset] of placed ?? sequential(list)) {
      offsets.set(root, offset);
      extent = Math.max(extent, offset + root.bytes);
    }
    extents.set(buffer, extent);
  }
  const frame: PlannedFrame = { name: fn.name, extents, unplaced };
  const placements = new Map<BoundOp, Map<Slot, number[]>>();
  const placementOf = (op: BoundOp) => {
    let m = placements.get(op);
    if (!m) placements.set(op, (m = new Map()));
    return m;
  };
  for (const { op } of unplanned) placementOf(op);
  // A multi-tile buffer's tiles lie one after another (PTOAS plans each apart; together they are live alike).
  for (const [root, offset] of offsets)
    placementOf(root.op).set(
      root.slot,
      Array.from({ length: root.count }, (_, k) => offset + (k * root.bytes) / root.count),
    );
  for (const [op, map] of placements) op.placement = { frame, offsets: map } satisfies TilePlacement;
}

/**
 * The tiles an op allocates: an alloc_tile's or alloc_multi_tile's without an address, a Level 1 instruction's tile
 * results.
 */
function allocations(op: BoundOp): { slot: Slot; name: string; type: TileType; count: number }[] {
  if (op.def === allocTile || op.def === allocMultiTile) {
    const type = op.resultTypes[0];
    const slot = op.results[0];
    if (op.node.segments.addr || slot === undefined) return [];
    const name = op.node.results[0]?.name ?? '%?';
    if (isTile(type)) return [{ slot, name, type, count: 1 }];
    return type?.kind === 'multi_tile' ? [{ slot, name, type: type.slot, count: type.count }] : [];
  }
  const out: { slot: Slot; name: string; type: TileType; count: number }[] = [];
  for (const o of op.instruction?.operands.values() ?? []) {
    if (o.result && o.slot !== undefined && isTile(o.type)) out.push({ slot: o.slot, name: o.result.name, type: o.type, count: 1 });
  }
  return out;
}

/**
 * Sets the root's live range (inclusive moments); false when PTOAS plans no storage for it: nothing uses it, or only
 * as a scratch operand its target never touches.
 */
function liveRange(root: Root, time: Timeline, target: TargetName, computed: boolean): boolean {
  const def = time.defs[root.slot]!;
  const direct = time.uses[root.slot] ?? [];
  if (!computed && direct.length > 0 && direct.every((u) => scratchUnused(u.op, root.slot, target))) return false;
  const viewClass = time.views.find(root.slot);
  const uses: { use: Use; view: boolean }[] = [];
  for (const m of time.members(root.slot)) for (const use of time.uses[m] ?? []) uses.push({ use, view: time.views.find(m) === viewClass });
  if (!computed && !uses.some((u) => u.view && u.use.real)) return false;
  // Seen from the innermost region holding the tile's definition and every use of what carries it.
  let region = def.region;
  for (const { use } of uses) region = time.common(region, use.place.region);
  const at = (p: { region: BoundRegion; block: number; begin: number; end: number }) => time.lift(p, region);
  const defAt = at(def);
  let start = computed ? defAt.begin : Infinity;
  let end = defAt.end;
  let viewEnd = defAt.end;
  const blocks = new Set([defAt.block]);
  for (const { use, view } of uses) {
    const p = at(use.place);
    blocks.add(p.block);
    end = Math.max(end, p.end);
    if (view) viewEnd = Math.max(viewEnd, p.end);
    if (view && use.real) start = Math.min(start, p.begin);
  }
  // A tile live at a loop it was allocated before is live from the loop's start: the loop may run again.
  for (const p of time.loops.get(region) ?? []) if (p.begin > defAt.begin && p.begin <= viewEnd && p.begin < start) start = p.begin;
  if (blocks.size > 1) {
    // Across blocks joined by branches (which may loop back): the whole region.
    const span = time.spans.get(region)!;
    [start, end] = [Math.min(start, span.first), Math.max(end, span.last)];
  }
  root.start = start;
  root.end = Math.max(end, start);
  return true;
}

/** Whether `op` uses the slot only as a scratch operand the target's implementation never touches. */
function scratchUnused(op: BoundOp, slot: Slot, target: TargetName): boolean {
  const operands = op.instruction?.operands;
  if (!operands) return false;
  let found = false;
  for (const o of operands.values()) {
    if (o.slot !== slot || o.result) continue;
    if (o.spec.role === 'dst' || !o.spec.scratchUnusedOn?.includes(target)) return false;
    found = true;
  }
  return found;
}

/** Reports the first moment the live tiles of a buffer need more than it has, naming them. */
function checkPeak(list: Root[], buffer: string, capacity: number, target: TargetName, time: Timeline, report: PlanReport): void {
  // Sweep the moments: a tile adds its bytes where it starts and frees them after it ends.
  const changes = new Map<number, number>();
  for (const r of list) {
    changes.set(r.start, (changes.get(r.start) ?? 0) + r.bytes);
    changes.set(r.end + 1, (changes.get(r.end + 1) ?? 0) - r.bytes);
  }
  let need = 0;
  for (const [t, change] of [...changes].sort((a, b) => a[0] - b[0])) {
    need += change;
    if (need <= capacity) continue;
    const live = list.filter((r) => r.start <= t && t <= r.end);
    const op = time.at[t];
    const loc = live[0].type.loc;
    report(
      op.node.nameSpan,
      `${loc} overflow: the ${live.length} ${buffer} tiles live here need ${need} bytes, more than the ${capacity} bytes PTOAS's memory planning has on ${target} ` +
        `(a dead tile's space is reused, a live one's never)`,
      live
        .sort((a, b) => a.start - b.start)
        .map((r) => ({
          message: `${r.name} (${printType(r.written)}, ${r.bytes} bytes) is live here`,
          span: r.op.instruction ? r.op.node.nameSpan : r.op.node.span,
        })),
    );
    return;
  }
}

/** Offsets in order of first use, one after another (PTOAS's path when all of a buffer's tiles fit at once). */
function sequential(list: Root[]): Map<Root, number> {
  const out = new Map<Root, number>();
  let at = 0;
  for (const r of [...list].sort((a, b) => a.start - b.start)) {
    out.set(r, at);
    at += r.bytes;
  }
  return out;
}

/**
 * Offsets within the capacity: one after another when everything fits at once (no tile then shares another's
 * bytes), else each at the lowest offset no tile live at the same time covers, in order of first use and then
 * largest first. Undefined when neither fits.
 */
function place(list: Root[], capacity: number): Map<Root, number> | undefined {
  if (list.reduce((n, r) => n + r.bytes, 0) < capacity) return sequential(list);
  for (const order of [(a: Root, b: Root) => a.start - b.start, (a: Root, b: Root) => b.bytes - a.bytes || a.start - b.start]) {
    const out = new Map<Root, number>();
    let fits = true;
    for (const r of [...list].sort(order)) {
      const busy = [...out].filter(([o]) => o.start <= r.end && r.start <= o.end).map(([o, at]) => [at, at + o.bytes] as const);
      busy.sort((a, b) => a[0] - b[0]);
      let at = 0;
      for (const [from, to] of busy) {
        if (at + r.bytes <= from) break;
        at = Math.max(at, to);
      }
      if (at + r.bytes > capacity) fits = false;
      out.set(r, at);
    }
    if (fits) return out;
  }
  return undefined;
}
