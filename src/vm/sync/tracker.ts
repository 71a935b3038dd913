import { DiagnosticKind } from '../../diag/catalog';
import { OpNode } from '../../syntax/ast';
import { Span } from '../../diag/source';
import { isa } from '../../spec/isa';
import { syncTables } from '../../spec/sync';
import { BoundInstruction, Program, VerifiedSyncOp } from '../../ir/program';
import { GlobalBuffer, PartitionView, Tile } from '../../machine/memory';
import { vmTrap } from '../../machine/trap';
import { instructionPipe } from './pipes';
import { Ranges, ShadowSpace, tileRanges, viewRanges } from './shadow';

/** A synchronization problem found while running, located at an op, with the other op involved as a note. */
export interface SyncFinding {
  message: string;
  span: Span;
  notes?: { message: string; span: Span }[];
  /** Its catalog kind; none: W0702 (a pipe dependency within a core). */
  kind?: DiagnosticKind;
}

/** One instruction's access to memory through one operand. */
interface Access {
  op: OpNode;
  pipe: number;
  /** The instruction's position in its pipe's queue (1-based). */
  seq: number;
  /** The operand as written (`%a`). */
  operand: string;
}

/** What a pipe knows of every pipe's progress: entry p = the last instruction of pipe p ordered before it. */
type Clock = number[];

interface PendingSet {
  clock: Clock;
  op: OpNode;
  sync: VerifiedSyncOp;
}

/**
 * Checks the synchronization of a run. Every pipe is an in-order queue; instructions are numbered per pipe and
 * each pipe carries a vector clock of what it has synchronized with. set_flag snapshots its source pipe's clock
 * into the (src, dst, event) slot and wait_flag joins it into the destination pipe's clock (record_event and
 * wait_event through their op types' pipes; barrier PIPE_ALL joins every pipe; get_buf/rls_buf through their
 * buffer id; sync.set/sync.wait through their cross-core id). Reads and writes of on-chip bytes and global
 * elements are remembered per unit; an instruction that touches a unit another pipe wrote (or, for a write,
 * read) after the last point this pipe synchronized with that pipe is a finding, reported once per op pair.
 *
 * A function with no intra-core sync op is left to PTOAS's automatic sync insertion: nothing is checked there.
 */
export class SyncTracker {
  private readonly found: SyncFinding[] = [];
  private readonly reported = new Set<string>();
  private readonly tables = syncTables();
  private readonly pipeIndex = new Map(this.tables.corePipes.map((p, i) => [p, i]));
  private readonly issued: number[];
  private readonly clocks: Clock[];
  /** The clocks of the idle pipes flags may name (MTE4, ...): what each has waited for; no instruction runs there. */
  private readonly idleClocks: Map<string, Clock>;
  private readonly flags = new Map<string, PendingSet[]>();
  private readonly crossCore = new Map<string, Clock[]>();
  private readonly released = new Map<number, Clock>();
  private readonly held = new Map<string, OpNode>();
  private readonly chip = new Map<string, ShadowSpace<Access>>();
  private readonly global = new Map<GlobalBuffer, ShadowSpace<Access>>();
  private readonly pipes = new Map<OpNode, number>();
  private readonly opIds = new Map<OpNode, number>();
  private checkedFunctions?: Map<OpNode, boolean>;

  constructor(readonly program: Program) {
    const n = this.tables.corePipes.length;
    this.issued = new Array(n).fill(0);
    this.clocks = Array.from({ length: n }, () => new Array(n).fill(0));
    this.idleClocks = new Map(this.tables.idlePipes.map((p) => [p, new Array(n).fill(0)]));
  }

  /** The findings so far, plus the flags still set and buffer ids still held when they are read (the end of a run). */
  get findings(): SyncFinding[] {
    const end: SyncFinding[] = [];
    const unwaited = new Set<OpNode>();
    for (const pending of this.flags.values()) for (const p of pending) unwaited.add(p.op);
    for (const op of unwaited) {
      end.push({ message: `${this.program.syncOps.get(op)!.text} is never waited (its flag is still set when the kernel ends)`, span: op.span });
    }
    for (const op of this.held.values()) {
      const sync = this.program.syncOps.get(op)!;
      end.push({ message: `${sync.text} acquires buffer id ${sync.id} and no rls_buf releases it`, span: op.span });
    }
    return [...this.found, ...end];
  }

  /** A sync op executed. */
  syncOp(op: OpNode, sync: VerifiedSyncOp): void {
    if (!this.checks(op)) return;
    const [first, second] = sync.pipes;
    switch (sync.spec.role) {
      case 'set':
        return this.set(op, sync, first, second);
      case 'wait':
        return this.wait(op, sync, first, second);
      case 'barrier':
        if (first === this.tables.allPipes) return this.joinAll();
        this.clockOf(first, op, sync); // (a pipe the checks know)
        return; // a single pipe already runs in order here (see docs: intra-pipe hazards are not modelled)
      case 'acquire':
        return this.acquire(op, sync, first);
      case 'release':
        return this.release(op, sync, first);
      case 'cross-set':
        return this.crossSet(op, sync, first);
      case 'cross-wait':
        return this.crossWait(op, sync, first);
    }
  }

  /** An instruction is about to execute with these operand objects (tiles, views, scalars) by spec name. */
  instruction(op: OpNode, bound: BoundInstruction, objects: Map<string, unknown>): void {
    if (!this.checks(op)) return;
    let pipe = this.pipes.get(op);
    if (pipe === undefined) {
      pipe = this.pipeIndex.get(instructionPipe(bound))!;
      this.pipes.set(op, pipe);
    }
    const seq = ++this.issued[pipe];
    this.clocks[pipe][pipe] = seq;
    const touched: { access: Access; write: boolean; space: ShadowSpace<Access>; ranges: Ranges }[] = [];
    for (const [name, b] of bound.operands) {
      const place = this.placeOf(objects.get(name));
      if (!place) continue;
      const operand = b.use?.value ? `${b.use.value.name}${b.use.value.index !== undefined ? '#' + b.use.value.index : ''}` : (b.result?.name ?? name);
      touched.push({ access: { op, pipe, seq, operand }, write: b.spec.role !== 'src', ...place });
    }
    // Check everything first: an instruction does not race with itself.
    for (const t of touched) this.check(t.access, t.write, t.space, t.ranges);
    for (const t of touched) this.record(t.access, t.write, t.space, t.ranges);
  }

  /** Whether the function holding this op has an intra-core sync op (otherwise PTOAS inserts the sync). */
  private checks(op: OpNode): boolean {
    if (!this.checkedFunctions) {
      this.checkedFunctions = new Map();
      for (const fn of this.program.functions.values()) {
        const ops: OpNode[] = [];
        collectOps(fn, ops);
        const synchronized = ops.some((o) => {
          const role = this.program.syncOps.get(o)?.spec.role;
          return role !== undefined && role !== 'cross-set' && role !== 'cross-wait';
        });
        for (const o of ops) this.checkedFunctions.set(o, synchronized);
      }
    }
    return this.checkedFunctions.get(op) ?? false;
  }

  private placeOf(value: unknown): { space: ShadowSpace<Access>; ranges: Ranges } | undefined {
    if (value instanceof Tile) return { space: this.chipSpace(value.buffer), ranges: tileRanges(value) };
    if (value && typeof value === 'object' && (value as PartitionView).kind === 'partition_view') {
      const view = value as PartitionView;
      return { space: this.globalSpace(view.buffer), ranges: viewRanges(view) };
    }
    return undefined;
  }

  private chipSpace(buffer: string): ShadowSpace<Access> {
    let s = this.chip.get(buffer);
    if (!s) {
      const size = isa().buffers[this.program.target][buffer];
      s = new ShadowSpace(buffer, size, this.tables.corePipes.length);
      this.chip.set(buffer, s);
    }
    return s;
  }

  private globalSpace(buffer: GlobalBuffer): ShadowSpace<Access> {
    let s = this.global.get(buffer);
    if (!s) {
      s = new ShadowSpace('%' + buffer.name, buffer.length, this.tables.corePipes.length);
      this.global.set(buffer, s);
    }
    return s;
  }

  /** Reports the earlier accesses of other pipes this one conflicts with and has not synchronized with. */
  private check(access: Access, write: boolean, space: ShadowSpace<Access>, ranges: Ranges): void {
    const clock = this.clocks[access.pipe];
    const unordered = (earlier: Access) => earlier.pipe !== access.pipe && clock[earlier.pipe] < earlier.seq;
    const conflicts = new Map<Access, 'written' | 'read'>();
    for (const [start, end] of ranges) {
      for (const seg of space.cover(start, end)) {
        const w = seg.writer;
        if (w && !conflicts.has(w) && unordered(w)) conflicts.set(w, 'written');
        if (!write) continue;
        seg.readers.forEach((r, p) => {
          if (r && p !== access.pipe && !conflicts.has(r) && unordered(r)) conflicts.set(r, 'read');
        });
      }
    }
    for (const [earlier, how] of conflicts) this.reportRace(access, write, earlier, how);
  }

  private record(access: Access, write: boolean, space: ShadowSpace<Access>, ranges: Ranges): void {
    for (const [start, end] of ranges) {
      const segs = space.cover(start, end);
      if (write) space.write(segs, access);
      else space.read(segs, access.pipe, access);
      space.compact(start, end);
    }
  }

  private reportRace(access: Access, write: boolean, earlier: Access, how: 'written' | 'read'): void {
    const key = `race:${this.opId(earlier.op)}:${this.opId(access.op)}`;
    if (this.reported.has(key)) return;
    this.reported.add(key);
    const [p, q] = [this.tables.corePipes[earlier.pipe], this.tables.corePipes[access.pipe]];
    const verb = write ? 'overwrites' : 'reads';
    const message =
      `${access.op.name} (${q}) ${verb} ${access.operand}, ${how} by ${earlier.op.name} (${p}), ` + `with no set_flag/wait_flag from ${p} to ${q} between them`;
    const note = `${earlier.op.name} (${p}) ${how === 'written' ? 'writes' : 'reads'} ${earlier.operand} here`;
    this.found.push({ message, span: access.op.nameSpan, notes: [{ message: note, span: earlier.op.nameSpan }] });
  }

  private report(key: string, finding: SyncFinding): void {
    if (this.reported.has(key)) return;
    this.reported.add(key);
    this.found.push(finding);
  }

  private set(op: OpNode, sync: VerifiedSyncOp, src: string, dst: string): void {
    const slot = `${src}|${dst}|${sync.id}`;
    const pending = this.flags.get(slot) ?? [];
    const earlier = pending[pending.length - 1];
    if (earlier) {
      this.report(`twice:${this.opId(earlier.op)}:${this.opId(op)}`, {
        message: `${sync.text} sets a flag that is already set and not yet waited`,
        span: op.span,
        notes: [{ message: `${earlier.sync.text} set it here`, span: earlier.op.span }],
      });
    }
    this.clockOf(dst, op, sync); // (both ends must be pipes the checks know)
    pending.push({ clock: [...this.clockOf(src, op, sync)], op, sync });
    this.flags.set(slot, pending);
  }

  private wait(op: OpNode, sync: VerifiedSyncOp, src: string, dst: string): void {
    this.clockOf(src, op, sync); // (both ends must be pipes the checks know)
    const slot = `${src}|${dst}|${sync.id}`;
    const setter = this.flags.get(slot)?.shift();
    if (this.flags.get(slot)?.length === 0) this.flags.delete(slot);
    if (!setter) {
      const setName = sync.spec.name === 'wait_event' ? 'record_event' : 'set_flag';
      this.report(`orphan:${this.opId(op)}`, { message: `${sync.text} has no matching ${setName} before it (it would wait forever)`, span: op.span });
      return;
    }
    this.join(this.clockOf(dst, op, sync), setter.clock);
  }

  private acquire(op: OpNode, sync: VerifiedSyncOp, pipe: string): void {
    this.modeZero(op, sync);
    const release = this.released.get(sync.id);
    if (release) this.join(this.clockOf(pipe, op, sync), release);
    this.held.set(`${pipe}|${sync.id}`, op);
  }

  private release(op: OpNode, sync: VerifiedSyncOp, pipe: string): void {
    this.modeZero(op, sync);
    const key = `${pipe}|${sync.id}`;
    if (!this.held.delete(key)) {
      this.report(`release:${this.opId(op)}`, { message: `${sync.text} releases buffer id ${sync.id} on ${pipe}, which no get_buf acquired`, span: op.span });
    }
    const clock = this.clockOf(pipe, op, sync);
    const previous = this.released.get(sync.id);
    this.released.set(sync.id, previous ? previous.map((v, i) => Math.max(v, clock[i])) : [...clock]);
  }

  /**
   * get_buf/rls_buf are checked in mode 0, the default (get_buf waits for the id's earlier releases, rls_buf for its
   * own pipe). In mode 1 get_buf does not wait and rls_buf waits for every pipe's work under the id (PTOAS
   * docs/isa/micro-isa/01-pipeline-sync.md), which the checks do not model; other modes are not documented.
   */
  private modeZero(op: OpNode, sync: VerifiedSyncOp): void {
    const mode = sync.values.get('mode');
    if (mode !== 0) {
      throw vmTrap(`the synchronization check of ${sync.text} in mode ${mode} is not implemented yet (pto-vm --no-sync-check runs without it)`, op.span);
    }
  }

  private crossSet(op: OpNode, sync: VerifiedSyncOp, pipe: string): void {
    const key = crossCoreFlag(sync);
    const pending = this.crossCore.get(key) ?? [];
    pending.push([...this.clockOf(pipe, op, sync)]);
    this.crossCore.set(key, pending);
  }

  /** A cross-core wait with no signal here may be answered by the other core, which this VM does not run. */
  private crossWait(op: OpNode, sync: VerifiedSyncOp, pipe: string): void {
    const mine = this.clockOf(pipe, op, sync);
    const clock = this.crossCore.get(crossCoreFlag(sync))?.shift();
    if (clock) this.join(mine, clock);
  }

  /**
   * The clock of a pipe a sync op names: a core pipe's, or an idle pipe's (MTE4, MTE5, V2: an in-order queue that
   * runs none of the VM's instructions, so it only passes on what it has waited for). PIPE_ALL in a flag, the
   * virtual MTE2 pipes and the enum's PIPE_NUM / PIPE_UNASSIGNED are not one queue the checks know.
   */
  private clockOf(pipe: string, op: OpNode, sync: VerifiedSyncOp): Clock {
    const core = this.pipeIndex.get(pipe);
    const clock = core !== undefined ? this.clocks[core] : this.idleClocks.get(pipe);
    if (!clock) {
      throw vmTrap(`the synchronization check of ${sync.text} (through ${pipe}) is not implemented yet (pto-vm --no-sync-check runs without it)`, op.span);
    }
    return clock;
  }

  private join(mine: Clock, clock: Clock): void {
    for (let i = 0; i < mine.length; i++) mine[i] = Math.max(mine[i], clock[i]);
  }

  /** PIPE_ALL: every pipe, the idle ones too, waits for what any pipe has done or waited for. */
  private joinAll(): void {
    const clocks = [...this.clocks, ...this.idleClocks.values()];
    const all = this.clocks[0].map((_, i) => Math.max(...clocks.map((c) => c[i])));
    for (const c of clocks) c.splice(0, c.length, ...all);
  }

  private opId(op: OpNode): number {
    let id = this.opIds.get(op);
    if (id === undefined) this.opIds.set(op, (id = this.opIds.size));
    return id;
  }
}

/** The flag a cross-core op signals or waits for: its id within its op family's flags (`space`). */
function crossCoreFlag(sync: VerifiedSyncOp): string {
  return `${sync.spec.space ?? 'ffts'}|${sync.id}`;
}

function collectOps(op: OpNode, into: OpNode[]): void {
  into.push(op);
  for (const region of op.regions) for (const block of region.blocks) for (const inner of block.ops) collectOps(inner, into);
}
