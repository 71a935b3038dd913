import { DIAGNOSTICS as D } from '../../diag/catalog';
import { decided } from '../../ir/bound';
import { BoundOp } from '../../ir/bound';
import { Execution, Executor, OpDefinition, OpVerifier, Wait } from '../../ir/definition';
import { vmTrap } from '../../machine/trap';
import { Value } from '../../machine/value';
import { codec } from '../../numerics/elements';
import { FORMATS } from '../../numerics/rounding';
import type { MicroOpRowData } from '../../spec/micro-schema';
import { OpNode, attrOf, segment } from '../../syntax/ast';
import { Span } from '../../diag/source';
import { ElemType, Type, isFloat, printType } from '../../types/type';
import { attrText, globalAddress, localAddress, MicroRun, MicroSemantics } from './operands';
import { coreConfig } from './config';
import { convertScalar, floatMath, multiplyWide, permuteBytes, roundTo } from '../semantics/simt-scalar';

/**
 * The SIMT level (docs/isa/micro-isa/17-simt.md, docs/vpto.md "SIMT"): `pto.simt_launch @body<<<x, y, z>>>(args)`
 * runs the `pto.simt_entry` function @body as x*y*z threads of the vector core (`pto.section.simt` its region). Each
 * thread is an executor forked from the launching one (`Executor.fork`): a frame of its own (its registers) while
 * the memory, the core and the run's state stay the launching core's. Threads run in linear order
 * (tid_x + dim_x * (tid_y + dim_y * tid_z)) up to the next barrier or lane collective, which yields a SimtWait to
 * the launch: a barrier (`pto.syncthreads`) is released once every thread is at it, a collective (vote, shuffle)
 * once every running lane of its 32-lane warp is, each lane then getting its result.
 */

/** The warp width: lanes of 32 threads (get_laneid, the lane masks, the collectives). */
export const WARP = 32;
/** The most threads one launch may have (docs/isa/micro-isa/17-simt.md: the launch count is bounded by 2048). */
const MAX_THREADS = 2048;

interface SimtThread {
  tid: [number, number, number];
  dims: [number, number, number];
  linear: number;
}

/** Each thread's coordinates, by its executor (the one its ops run with). */
const threads = new WeakMap<Executor, SimtThread>();

function threadOf(r: MicroRun): SimtThread {
  return threads.get(r.x) ?? r.fail('runs only in a SIMT thread (a function pto.simt_launch runs)');
}

/** Where a thread waits for the others: a barrier, or a lane collective with this thread's contribution. */
class SimtWait implements Wait {
  result?: Value;
  constructor(
    readonly op: BoundOp,
    readonly thread: SimtThread,
    /** A collective: the values it contributes and how a lane's result comes from every lane's; none for a barrier. */
    readonly collective?: { values: Value[]; combine: (lanes: Map<number, Value[]>, lane: number) => Value },
  ) {}
  get what(): string {
    return `${this.op.def.name} of SIMT thread ${this.thread.linear}`;
  }
  ready(): boolean {
    return this.result !== undefined;
  }
}

/**
 * Runs the threads of a launch (pto.simt_launch's call, pto.section.simt's region: `start` begins one thread's run)
 * to their ends, releasing barriers and collectives as every participant reaches them.
 */
export function runThreads(x: Executor, op: BoundOp, dims: [number, number, number], start: (thread: Executor) => Generator<Wait, unknown, void>): void {
  const [dx, dy, dz] = dims;
  const count = dx * dy * dz;
  const trap = (message: string): never => {
    throw vmTrap(`${op.def.name}: ${message}`, op.node.span);
  };
  if (dx < 1 || dy < 1 || dz < 1 || count > MAX_THREADS)
    trap(`launches ${dx} x ${dy} x ${dz} threads; each dimension must be at least 1 and the count at most ${MAX_THREADS}`);
  const running = Array.from({ length: count }, (_, linear) => {
    const t = x.fork();
    const thread: SimtThread = { tid: [linear % dx, Math.floor(linear / dx) % dy, Math.floor(linear / (dx * dy))], dims, linear };
    threads.set(t, thread);
    return { thread, run: start(t), at: undefined as SimtWait | undefined, done: false };
  });
  for (;;) {
    for (const th of running) {
      if (th.done || th.at) continue;
      const step = th.run.next();
      if (step.done) th.done = true;
      else if (step.value instanceof SimtWait) th.at = step.value;
      else trap(`thread ${th.thread.linear} waits for another core (${step.value.what}) inside a SIMT body, which is not implemented yet`);
    }
    const live = running.filter((th) => !th.done);
    if (live.length === 0) return;
    // Collectives: a warp whose running lanes are all at one.
    let released = false;
    for (let base = 0; base < count; base += WARP) {
      const lanes = live.filter((th) => th.thread.linear >= base && th.thread.linear < base + WARP);
      if (lanes.length === 0 || lanes.some((th) => !th.at?.collective)) continue;
      const first = lanes[0].at!;
      const other = lanes.find((th) => th.at!.op !== first.op);
      if (other)
        trap(
          `the lanes of warp ${base / WARP} wait at different collectives (${first.op.def.name} and ${other.at!.op.def.name}), which is not implemented yet`,
        );
      const values = new Map(lanes.map((th) => [th.thread.linear - base, th.at!.collective!.values]));
      for (const th of lanes) {
        th.at!.result = th.at!.collective!.combine(values, th.thread.linear - base);
        th.at = undefined;
      }
      released = true;
    }
    if (released) continue;
    const waiting = live.find((th) => th.at?.collective);
    if (waiting) trap(`${waiting.at!.what} waits for lanes that wait at a barrier: the launch cannot go on`);
    const ended = running.find((th) => th.done);
    if (ended) trap(`thread ${ended.thread.linear} returned while others wait at ${live[0].at!.op.def.name}: the barrier is never reached by every thread`);
    for (const th of live) {
      th.at!.result = 0n;
      th.at = undefined;
    }
  }
}

/** `pto.simt_launch`'s definition: its own syntax, PTOAS's SimtLaunchOp::verify, and the run of its threads. */
function simtLaunch(row: MicroOpRowData): OpDefinition {
  const name = row.name;
  return {
    name,
    syntax: 'SimtLaunchBody',
    diagnostic: D.microOperand,
    verify(v) {
      const { op } = v;
      const err = (message: string, span = op.nameSpan, notes?: { message: string; span: typeof op.span }[]) =>
        v.error(span, `${name}: ${message}`, notes, D.microOperand);
      const entry = v.function.attrs.find((a) => a.key === 'pto.simt_entry');
      if (entry)
        err(`must not appear inside a function marked with 'pto.simt_entry'; launch the SIMT entry from an outer non-simt function`, op.nameSpan, [
          { message: `@${v.function.symbol} is marked here`, span: entry.span },
        ]);
      segment(op, 'dims').forEach((o, k) => {
        const t = v.operands[op.segments.dims[k]];
        if (t && printType(t) !== 'i32') err(`the launch dimensions are i32, got ${printType(t)}`, o.span);
      });
      const calleeAttr = attrOf(op, 'callee');
      const calleeName = calleeAttr?.kind === 'symbol' ? calleeAttr.name : '';
      const callee = v.callee(calleeName);
      const fn = callee?.definition ?? callee?.symbol;
      const args = op.segments.args.map((i) => v.operands[i]);
      if (!fn) err(`'${calleeName}' does not reference a valid function`, calleeAttr?.span);
      else if (!fn.attrs.some((a) => a.key === 'pto.simt_entry')) err(`callee '${calleeName}' must be marked with 'pto.simt_entry'`, calleeAttr?.span);
      else if (fn.resultTypes.length > 0) err('requires a callee with no results', calleeAttr?.span);
      else if ((fn.params ?? []).length !== args.length) err('incorrect number of operands for callee');
      else
        (fn.params ?? []).forEach((p, k) => {
          const want = p.type ? v.type(p.type) : undefined;
          const got = args[k];
          if (want && got && printType(want) !== printType(got))
            err(
              `operand type mismatch: expected operand type ${printType(want)}, but provided ${printType(got)} for operand number ${k}`,
              op.operands[op.segments.args[k]].span,
            );
        });
      if (op.resultTypes.length > 0) err('gives no results', op.resultTypes[0].span);
      v.expectResults(0);
      v.define([]);
      v.decide(fn ?? calleeName);
    },
    execute(x, op) {
      const callee = decided<OpNode | string>(op);
      if (typeof callee === 'string') throw vmTrap(`${name}: no function @${callee} with a body`, op.node.span);
      const dims = op.node.segments.dims.map((i) => Number(BigInt.asIntN(32, x.int(op, i)))) as [number, number, number];
      const args = op.node.segments.args.map((i) => x.operand(op, i));
      runThreads(x, op, dims, (t) => t.call(op, callee, args));
    },
  };
}

/** The SIMT modifiers written as keywords: `signed`, `sat`, `round(r)`; undefined when absent. */
function keyword(op: OpNode, words: string[]): string | undefined {
  return op.micro?.clauses.find((c) => c.bare && words.includes(c.keyword))?.keyword;
}

/**
 * The rules of PTOAS's SIMT verifiers (lib/PTO/IR/VPTO.cpp) beyond the rows' kinds: value and result of one type,
 * signedness where redux and convert need it and nowhere else, convert's type pairs and controls.
 */
function simtChecks(v: OpVerifier, name: string, family: string): void {
  const err = (message: string, span = v.op.nameSpan) => v.error(span, `${name}: ${message}`, undefined, D.microOperand);
  const [t0, t1, t2] = v.operands;
  const result = v.declared[0];
  const show = (t: Type | undefined) => (t ? printType(t) : '?');
  const mnemonic = name.slice('pto.'.length);
  const signedness = keyword(v.op, ['signed', 'unsigned']);
  // AllTypesMatch: a shuffle's or redux's value and result; every operand and the result of the math ops.
  const lane = mnemonic.startsWith('shuffle_') || mnemonic.startsWith('redux_');
  const same = (lane ? [t0, result] : family === 'simt-math' ? [t0, t1, t2, result].slice(0, v.operands.length).concat([result]) : []).filter(
    (t): t is Type => t !== undefined,
  );
  if (same.some((t) => printType(t) !== printType(same[0]))) err(`requires all operands and the result to have one type, got ${same.map(show).join(', ')}`);
  if (mnemonic.startsWith('redux_') && t0?.kind === 'scalar') {
    if (isFloat(t0.elem) && signedness) err('does not accept signedness for floating-point redux');
    if (!isFloat(t0.elem) && !signedness && mnemonic !== 'redux_add') err('requires explicit signedness for integer redux');
  }
  if (family === 'simt-memory') memoryChecks(v, mnemonic, err);
  if (family === 'device-memory') deviceChecks(v, mnemonic, err);
  if (mnemonic.startsWith('shuffle_')) {
    // VPTO.cpp's verifyShuffleSemanticControl: the width attribute (32 when absent) is 16 or 32.
    const width = v.op.attrs.find((a) => a.key === 'width')?.value;
    if (width && !(width.kind === 'int' && (width.value === 16n || width.value === 32n))) err('requires width to be 16 or 32', width.span);
  }
  // resume's type is written after ':' alone (`: i32`), as a result's.
  const resumed = v.op.micro?.types[0] ? v.type(v.op.micro.types[0].type) : undefined;
  if (family === 'simt-sync' || family === 'simt-state') {
    // PTO.cpp's verifyInsideSimtExecutionScope.
    if (!insideSimt(v)) return err(`must appear inside a function marked with 'pto.simt_entry' or inside pto.section.simt`);
  }
  if (mnemonic === 'keep' || mnemonic === 'resume') keepChecks(v, mnemonic === 'keep' ? t0 : resumed, err);
  if (mnemonic === 'keep' || mnemonic === 'resume') placementChecks(v, mnemonic, err);
  if (family === 'simt-atomic') atomicChecks(v, mnemonic, signedness, err);
  if (mnemonic === 'convert' && t0?.kind === 'scalar' && result?.kind === 'scalar') {
    const problem = convertProblem(
      t0.elem,
      result.elem,
      v.op.micro?.clauses.find((c) => c.keyword === 'round')?.word ?? '',
      keyword(v.op, ['sat', 'nosat']),
      signedness,
    );
    if (problem) err(problem);
  }
}

/** Whether `op` is a SIMT section (`pto.section.simt`), as its definition says. */
const isSimtSection = (v: OpVerifier, op: OpNode): boolean => v.definitionOf(op)?.properties?.simtSection === true;

/** In a `pto.simt_entry` function or a `pto.section.simt` (PTOAS's isInsideSimtExecutionScope). */
const insideSimt = (v: OpVerifier): boolean => v.function.attrs.some((a) => a.key === 'pto.simt_entry') || v.enclosing.some((o) => isSimtSection(v, o));

/** The words of a slot group a keep or resume uses (a 64-bit value two). */
function slotWords(o: OpNode): number[] {
  const slot = o.attrs.find((a) => a.key === 'slot')?.value;
  const n = slot?.kind === 'int' ? Number(slot.value) : -1;
  // keep's value type and resume's result type are both the one type written after ':'.
  const wide = o.micro?.types[0]?.type.text.trim() === 'i64';
  return wide ? [n, n + 1] : [n];
}

/**
 * PTO.cpp's KeepOp/ResumeOp placement: the resumes are one group first in their block after constant-like ops, the
 * keeps one group last before optional pto.syncthreads and the end (func.return, or the section's end); no two in a
 * group share a slot word.
 */
function placementChecks(v: OpVerifier, mnemonic: string, err: (message: string) => void): void {
  const block = v.parent.regions.flatMap((r) => r.blocks).find((b) => b.ops.includes(v.op));
  if (!block) return;
  const ops = block.ops;
  const inSection = isSimtSection(v, v.parent);
  const group: OpNode[] = [];
  if (mnemonic === 'resume') {
    let k = 0;
    // Constant-like ops (MLIR's ConstantLike: arith.constant and its kin) may come first.
    while (k < ops.length && ops[k].name.endsWith('.constant')) k++;
    while (k < ops.length && ops[k].name === 'pto.resume') group.push(ops[k++]);
    if (!group.includes(v.op)) return err('must be in the contiguous SIMT resume prologue group after constant-like operations');
  } else {
    let k = ops.length - 1;
    if (!inSection && ops[k] && v.definitionOf(ops[k])?.terminator === 'return') k--;
    else if (!inSection) return err('must be placed in the SIMT epilogue before func.return or the end of pto.section.simt');
    while (k >= 0 && ops[k].name === 'pto.syncthreads') k--;
    if (ops[k]?.name !== 'pto.keep')
      return err(
        "must be placed in the SIMT epilogue before func.return; only 'pto.syncthreads' may appear between the final 'pto.keep' group and func.return or the end of pto.section.simt",
      );
    while (k >= 0 && ops[k].name === 'pto.keep') group.unshift(ops[k--]);
    if (!group.includes(v.op))
      return err(
        "must be in the contiguous SIMT keep epilogue group immediately before optional 'pto.syncthreads' and func.return or the end of pto.section.simt",
      );
  }
  const mine = new Set(slotWords(v.op));
  const earlier = group.slice(0, group.indexOf(v.op));
  if (earlier.some((o) => slotWords(o).some((w) => mine.has(w))))
    err(`duplicates an earlier slot ${slotWords(v.op)[0]} in the SIMT ${mnemonic === 'keep' ? 'keep epilogue' : 'resume prologue'} group`);
}

/** The slots pto.keep and pto.resume may name: 0 to 122 (docs/isa/micro-isa/17-simt.md). */
const KEEP_SLOTS = 123;

/** PTO.cpp's verifySimtKeepResumeSlotRange: a slot in range, a 64-bit value in an even slot and the next. */
function keepChecks(v: OpVerifier, value: Type | undefined, err: (message: string, span?: Span) => void): void {
  const slot = v.op.attrs.find((a) => a.key === 'slot');
  if (!slot || slot.value.kind !== 'int') return err('requires an integer slot attribute');
  if (value?.kind !== 'scalar') return;
  const words = value.elem === 'i64' ? 2 : ['i1', 'i8', 'i16', 'i32', 'f16', 'bf16', 'f32'].includes(value.elem) ? 1 : 0;
  if (words === 0) return err(`takes any integer scalar up to 64 bits, f16, bf16 or f32, got ${printType(value)}`);
  const n = slot.value.value;
  if (n < 0n || n >= BigInt(KEEP_SLOTS)) return err(`requires slot in range [0, ${KEEP_SLOTS - 1}]`, slot.span);
  if (words === 2 && n % 2n !== 0n) return err('requires an even slot for 64-bit keep/resume values', slot.span);
  if (words === 2 && n + 1n >= BigInt(KEEP_SLOTS)) err(`requires slot in range [0, ${KEEP_SLOTS - 2}] for 64-bit keep/resume values`, slot.span);
}

/** VPTO.cpp's verifyVPTOScalarAccessTypes and (ldg, stg) verifyLdgStgAccess and the SIMT scope. */
function memoryChecks(v: OpVerifier, mnemonic: string, err: (message: string) => void): void {
  const load = mnemonic === 'load' || mnemonic === 'ldg';
  const ptr = v.operands[load ? 0 : 1];
  const value = load ? v.declared[0] : v.operands[0];
  if (ptr?.kind === 'ptr' && value && !(value.kind === 'scalar' && value.elem === ptr.elem))
    return err(`expects ${mnemonic} value type to match pointer element type`);
  if (mnemonic === 'ldg' || mnemonic === 'stg') {
    if (!insideSimt(v)) err('must be inside a pto.simt_entry function or pto.section.simt');
  }
}

/** The attributes that mark a function an entry of the kernel (PTO.cpp's hasExplicitPTOEntryAttr). */
const ENTRY_ATTRIBUTES = ['pto.entry', 'hacc.entry', 'pto.kernel', 'pto.aicore'];

/** VPTO.cpp's verifyVPTOScalarAccessTypes and verifyLdStDevAccess: GM integers, from an AICore entry, not SIMT code. */
function deviceChecks(v: OpVerifier, mnemonic: string, err: (message: string) => void): void {
  const load = mnemonic === 'ld_dev';
  const ptr = v.operands[load ? 0 : 1];
  const value = load ? v.declared[0] : v.operands[0];
  if (ptr?.kind === 'ptr' && value && !(value.kind === 'scalar' && value.elem === ptr.elem))
    return err(`expects ${mnemonic} value type to match pointer element type`);
  if (v.op.attrs.some((a) => a.key === 'l1cache' || a.key === 'l2cache')) return err('does not accept l1cache or l2cache policy attributes');
  if (ptr?.kind === 'ptr' && ptr.space !== 'gm') return err('requires GM pointer');
  if (value?.kind === 'scalar' && !['i8', 'i16', 'i32', 'i64'].includes(value.elem)) return err('supports only i8, i16, i32 or i64 values');
  if (insideSimt(v)) return err('must be outside pto.simt_entry functions and pto.section.simt');
  if (!v.function.attrs.some((a) => ENTRY_ATTRIBUTES.includes(a.key))) return err('requires an enclosing ordinary AICore entry function');
  // PTOAS emits the device-memory path for A5 only (the lit test's a3 run is rejected).
  if (v.target !== 'a5') err('requires the a5 target');
}

/** VPTO.cpp's verifyAtomicCommon (scalar types: the packed vector<2xT> ones are not read by this toolchain). */
function atomicChecks(v: OpVerifier, mnemonic: string, signedness: string | undefined, err: (message: string) => void): void {
  const ptr = v.operands[0];
  const value = v.operands[v.operands.length - 1];
  const result = v.declared[0];
  if (mnemonic === 'atomic_cas' && v.operands[1] && value && printType(v.operands[1]) !== printType(value))
    return err('requires compare and value types to match');
  if (value?.kind !== 'scalar' || !['i32', 'i64', 'f16', 'bf16', 'f32'].includes(value.elem))
    return err('requires i32, i64, f16, bf16, f32, vector<2xf16> or vector<2xbf16> atomic value type');
  if (result && printType(result) !== printType(value)) return err('requires atomic result type to match value type');
  if (ptr?.kind !== 'ptr') return;
  if (ptr.elem !== value.elem) return err('requires atomic value type to match pointer element type');
  if (ptr.space !== 'gm' && ptr.space !== 'vec') return err('requires GM or UB pointer');
  if (ptr.space === 'vec' && value.elem === 'i64') return err('does not support i64 UB-space atomics');
  const bitwise = ['atomic_and', 'atomic_or', 'atomic_xor'].includes(mnemonic);
  if (bitwise && isFloat(value.elem)) return err('requires integer type for bitwise atomics');
  if (signedness && isFloat(value.elem)) err('does not accept signedness for floating-point atomics');
}

/** VPTO.cpp's verifyConvertControls for scalar types (packed vector<2xT> conversions are not read by this toolchain). */
function convertProblem(src: ElemType, dst: ElemType, rounding: string, saturation: string | undefined, signedness: string | undefined): string | undefined {
  const ok = ['i32', 'i64', 'f16', 'bf16', 'f32'];
  if (!ok.includes(src) || !ok.includes(dst)) return 'requires i32, i64, f16, bf16, f32 or supported vector<2xT> conversion types';
  const srcInt = !isFloat(src);
  const dstInt = !isFloat(dst);
  const directed = rounding === 'o' || rounding === 'h';
  if (srcInt && dstInt) return 'does not support integer-to-integer conversion';
  if ((srcInt || dstInt) && !signedness) return 'requires signedness when converting to or from integer type';
  if (!srcInt && !dstInt && signedness) return 'does not accept signedness for floating-to-floating conversion';
  if (srcInt) {
    if (src === 'i64' && dst !== 'f32') return 'supports i64 conversion only to f32 in the confirmed slice';
    return directed ? 'integer-to-floating conversion supports rounding r/a/f/c/z' : undefined;
  }
  if (dst === 'i64' && src !== 'f32') return 'supports conversion to i64 only from f32 in the confirmed slice';
  if (src === 'f32') {
    if (dstInt)
      return saturation !== 'sat'
        ? 'fp32-to-integer conversion requires saturation enable'
        : directed
          ? 'fp32-to-integer conversion supports rounding r/a/f/c/z'
          : undefined;
    if (dst === 'f16') return rounding === 'h' ? 'fp32-to-fp16 conversion supports rounding r/a/f/c/z/o' : undefined;
    return directed ? 'fp32-to-floating conversion supports rounding r/a/f/c/z' : undefined;
  }
  if (dstInt)
    return saturation !== 'sat'
      ? 'fp16/bf16-to-integer conversion requires saturation enable'
      : directed
        ? 'fp16/bf16-to-integer conversion supports rounding r/a/f/c/z'
        : undefined;
  return directed ? 'fp16/bf16-to-floating conversion supports rounding r/a/f/c/z' : undefined;
}

/** A row's standard definition with the SIMT verifier rules after its own. */
function simtChecked(row: MicroOpRowData, standard: () => OpDefinition): OpDefinition {
  const base = standard();
  return {
    ...base,
    verify(v) {
      base.verify!(v);
      simtChecks(v, row.name, row.family);
    },
  };
}

/** The launch dimensions pto.store_vfsimt_info configured on a core (x, y, z), for the entry calls after it. */
const configured = new WeakMap<object, [number, number, number]>();

/**
 * `func.call @body(...)` of a `pto.simt_entry` function: the low-level form of a launch (docs/isa/micro-isa/17-simt.md:
 * `pto.store_vfsimt_info` then the call), run as the threads the core's descriptor says. False for any other callee.
 */
export function runSimtEntryCall(x: Executor, op: BoundOp, callee: OpNode | string, args: Value[]): boolean {
  if (typeof callee === 'string' || !callee.attrs.some((a) => a.key === 'pto.simt_entry')) return false;
  // A SIMT body calling an entry is not a launch; a body is entered once per thread already.
  if (threads.has(x)) return false;
  const dims = configured.get(x.memory);
  if (!dims)
    throw vmTrap(
      `func.call of the pto.simt_entry function @${callee.symbol} with no pto.store_vfsimt_info before it: its launch dimensions are not configured`,
      op.node.span,
    );
  runThreads(x, op, dims, (t) => t.call(op, callee, args));
  return true;
}

export const SIMT_DEFINITIONS: Record<string, (row: MicroOpRowData, standard: () => OpDefinition) => OpDefinition> = {
  'simt-launch': simtLaunch,
  'simt-checked': simtChecked,
};

/** An i32 result from a JavaScript integer (its low 32 bits, signed, as the VM holds i32 values). */
const i32 = (n: number | bigint): bigint => BigInt.asIntN(32, BigInt(n));

/** The value each thread query returns (docs/isa/micro-isa/17-simt.md; the simt-scalar-core golden for grids). */
const QUERIES: Record<string, (t: SimtThread) => bigint> = {
  get_tid_x: (t) => i32(t.tid[0]),
  get_tid_y: (t) => i32(t.tid[1]),
  get_tid_z: (t) => i32(t.tid[2]),
  get_block_dim_x: (t) => i32(t.dims[0]),
  get_block_dim_y: (t) => i32(t.dims[1]),
  get_block_dim_z: (t) => i32(t.dims[2]),
  // A VF launch is one block with no grid: the simt-scalar-core golden expects grid dimensions 0 and block index 0.
  get_grid_dim_x: () => 0n,
  get_grid_dim_y: () => 0n,
  get_grid_dim_z: () => 0n,
  get_block_idx_x: () => 0n,
  get_block_idx_y: () => 0n,
  get_block_idx_z: () => 0n,
  get_laneid: (t) => i32(t.linear % WARP),
  get_lanemask_eq: (t) => i32(1n << BigInt(t.linear % WARP)),
  get_lanemask_lt: (t) => i32((1n << BigInt(t.linear % WARP)) - 1n),
  get_lanemask_le: (t) => i32((1n << BigInt((t.linear % WARP) + 1)) - 1n),
  get_lanemask_ge: (t) => i32(0xffffffffn << BigInt(t.linear % WARP)),
  get_lanemask_gt: (t) => i32(0xffffffffn << BigInt((t.linear % WARP) + 1)),
};

interface ScalarAccess {
  read(): Value;
  write(v: Value): void;
  /** An atomic read-modify-write: the new value from the old, which it returns. */
  update(f: (old: Value) => Value): Value;
}

/**
 * The element a scalar load, store or atomic touches (at `offset` elements when the op has one): in UB (bytes of the
 * on-chip buffer) or in a global buffer.
 */
function scalarAccess(r: MicroRun, ptr: string, value: Type | undefined): ScalarAccess {
  const t = r.op.operandTypes[r.b.operands[ptr][0]];
  if (t?.kind !== 'ptr') return r.fail(`'${ptr}' is not a pointer`);
  const elem = t.elem as ElemType;
  if (value && !(value.kind === 'scalar' && value.elem === elem)) return r.fail(`a ${printType(value)} through a ${printType(t)} is not implemented yet`);
  const c = codec(elem);
  if (!c) return r.fail(`${printType(t)}'s elements are not implemented yet`);
  const offset = r.b.operands.offset ? r.x.index(r.op, r.b.operands.offset[0]) : 0;
  const toValue = (v: number | bigint): Value => (isFloat(elem) ? Number(v) : BigInt(v));
  if (t.space === 'gm') {
    const gm = globalAddress(r, ptr);
    if (gm.buffer.elem !== elem) return r.fail(`a ${printType(t)} into a buffer of ${gm.buffer.elem} is not implemented yet`);
    const element = gm.byte / c.size + offset;
    if (element < 0 || element >= gm.buffer.length)
      return r.fail(`element ${element} of %${gm.buffer.name} is out of bounds (the buffer has ${gm.buffer.length} elements)`);
    return {
      read: () => toValue(gm.buffer.readElement(element) as number | bigint),
      write: (v) => gm.buffer.writeElement(element, c.round(v as number | bigint)),
      update(f) {
        let old: Value = 0n;
        gm.buffer.updateElement(element, (o) => {
          old = toValue(o as number | bigint);
          return c.round(f(old) as number | bigint);
        });
        return old;
      },
    };
  }
  const { buffer, address } = localAddress(r, ptr, offset);
  const bytes = r.x.memory.bytesAt(buffer, address, c.size, r.op.def.name, r.op.node.span);
  const view = new DataView(bytes.buffer, bytes.byteOffset, c.size);
  const read = () => toValue(c.read(view, 0) as number | bigint);
  const write = (v: Value) => c.write(view, 0, c.round(v as number | bigint));
  return {
    read,
    write,
    update(f) {
      const old = read();
      write(f(old));
      return old;
    },
  };
}

/**
 * The new value of an atomic from the old one and the operands (docs/isa/micro-isa/17-simt.md): integers wrap in
 * their width and compare by the signedness written (signed when none is), floats round once to their type.
 */
function atomicUpdate(r: MicroRun, elem: ElemType): (old: Value) => Value {
  const value = operand(r, 'value');
  const kind = r.mnemonic.slice('atomic_'.length);
  if (isFloat(elem)) {
    const v = value as number;
    if (kind === 'exch') return () => v;
    if (kind === 'add' || kind === 'sub') return (old) => roundTo(kind === 'add' ? (old as number) + v : (old as number) - v, elem);
    if (kind === 'min' || kind === 'max')
      return (old) => {
        const o = old as number;
        if (Number.isNaN(o) || Number.isNaN(v)) return r.fail('a NaN operand is not implemented yet (the docs do not say which value wins)');
        return kind === 'min' ? (v < o || (v === o && Object.is(v, -0)) ? v : o) : v > o || (v === o && Object.is(v, 0)) ? v : o;
      };
    if (kind === 'cas') {
      // A compare-and-swap compares bits (so -0 is not +0 and a NaN can match itself).
      const bits = (x: number) => FORMATS[elem as 'f32'].encode(x);
      const compare = bits(operand(r, 'compare') as number);
      return (old) => (bits(old as number) === compare ? v : old);
    }
    return r.fail(`${r.op.def.name} of ${elem} is not implemented yet`);
  }
  const width = elem === 'i64' ? 64 : 32;
  const unsigned = r.b.attrs.signedness?.kind === 'string' && r.b.attrs.signedness.value === 'unsigned';
  const read = (x: Value) => (unsigned ? BigInt.asUintN(width, x as bigint) : BigInt.asIntN(width, x as bigint));
  const wrap = (x: bigint) => BigInt.asIntN(width, x);
  const v = read(value);
  const ops: Record<string, (o: bigint) => bigint> = {
    exch: () => v,
    add: (o) => o + v,
    sub: (o) => o - v,
    min: (o) => (v < o ? v : o),
    max: (o) => (v > o ? v : o),
    and: (o) => o & v,
    or: (o) => o | v,
    xor: (o) => o ^ v,
  };
  if (kind === 'cas') {
    const compare = read(operand(r, 'compare'));
    return (old) => (read(old) === compare ? wrap(v) : old);
  }
  const f = ops[kind] ?? r.fail('is not implemented yet');
  return (old) => wrap(f(read(old)));
}

/**
 * What pto.keep preserved for pto.resume across the launches of one core, by thread (its linear id: the same
 * logical workitem in the next launch) and slot; kept per core, keyed by its on-chip memory (as config.ts does).
 */
const kept = new WeakMap<object, Map<string, Value>>();
function keptSlots(x: Executor): Map<string, Value> {
  let slots = kept.get(x.memory);
  if (!slots) kept.set(x.memory, (slots = new Map()));
  return slots;
}
const slotOf = (r: MicroRun): number => {
  const a = r.op.node.attrs.find((e) => e.key === 'slot')?.value;
  return a?.kind === 'int' ? Number(a.value) : r.fail('has no slot');
};

/** A collective: this lane's values go to the launch, which hands back the lane's result once the warp is there. */
function* collective(r: MicroRun, values: Value[], combine: (lanes: Map<number, Value[]>, lane: number) => Value): Execution {
  const wait = new SimtWait(r.op, threadOf(r), { values, combine });
  yield wait;
  r.x.setResults(r.op, [wait.result!]);
}

const operand = (r: MicroRun, name: string): Value => r.x.operand(r.op, r.b.operands[name][0]);
const truth = (v: Value | undefined): boolean => v !== undefined && v !== 0n && v !== 0;

/** The source lane of a shuffle (docs: group_base + local lane +- offset, or xor mask); out of the group: its own. */
function shuffleSource(kind: string, lane: number, control: number, width: number): number {
  const base = Math.floor(lane / width) * width;
  const local = lane - base;
  const source = kind === 'shuffle_idx' ? control : kind === 'shuffle_up' ? local - control : kind === 'shuffle_down' ? local + control : local ^ control;
  // The simt-scalar-core golden: shuffle_up by 2 keeps lanes 0, 1 their own value, shuffle_down lanes 30, 31.
  return source < 0 || source >= width ? lane : base + source;
}

const scalarElem = (t: Type | undefined, r: MicroRun): ElemType => (t?.kind === 'scalar' ? t.elem : r.fail('a scalar operand has no element type'));

/** The SIMT ops' semantics. */
export const SIMT_SEMANTICS: Record<string, MicroSemantics> = {
  'simt-query'(r) {
    const query = QUERIES[r.mnemonic];
    if (!query) return r.fail('is not implemented yet');
    r.x.setResults(r.op, [query(threadOf(r))]);
  },
  *'simt-syncthreads'(r): Execution {
    yield new SimtWait(r.op, threadOf(r));
  },
  'simt-fence'(r) {
    // The VM makes each access at once and in program order: a fence has nothing left to order.
    threadOf(r);
  },
  'simt-load'(r) {
    r.x.setResults(r.op, [scalarAccess(r, 'source', r.op.resultTypes[0]).read()]);
  },
  'simt-store'(r) {
    scalarAccess(r, 'destination', r.op.operandTypes[r.b.operands.value[0]]).write(operand(r, 'value'));
  },
  'simt-vote'(r) {
    const kind = r.mnemonic;
    return collective(r, [operand(r, 'pred')], (lanes) => {
      const votes = [...lanes.entries()].map(([lane, [p]]) => ({ lane, on: truth(p) }));
      if (kind === 'vote_ballot') return i32(votes.reduce((bits, v) => (v.on ? bits | (1n << BigInt(v.lane)) : bits), 0n));
      const on = votes.filter((v) => v.on).length;
      const result = kind === 'vote_all' ? on === votes.length : kind === 'vote_any' ? on > 0 : on === 0 || on === votes.length;
      return result ? 1n : 0n;
    });
  },
  'simt-shuffle'(r) {
    const kind = r.mnemonic;
    const widthAttr = r.op.node.attrs.find((a) => a.key === 'width')?.value;
    const width = widthAttr?.kind === 'int' ? Number(widthAttr.value) : WARP;
    if (width !== 16 && width !== 32) return r.fail(`width must be 16 or 32, got ${width}`);
    const control = r.b.operands.index ?? r.b.operands.offset ?? r.b.operands.mask;
    return collective(r, [operand(r, 'value'), r.x.operand(r.op, control[0])], (lanes, lane) => {
      const source = shuffleSource(kind, lane, Number(lanes.get(lane)![1]), width);
      // A source lane that is not running keeps the lane's own value (the docs leave it to the target).
      return (lanes.get(source) ?? lanes.get(lane)!)[0];
    });
  },
  'ctrl-read'(r) {
    // The CTRL register as pto.set_ctrl last wrote it; 0 at reset, as pto-isa's CPU model (cpu_stub.hpp) has it.
    r.x.setResults(r.op, [BigInt.asIntN(64, coreConfig(r.x.memory).values.get('ctrl') ?? 0n)]);
  },
  'simt-launch-config'(r) {
    const dim = (name: string) => Number(BigInt.asIntN(32, r.x.int(r.op, r.b.operands[name][0])));
    configured.set(r.x.memory, [dim('dim_x'), dim('dim_y'), dim('dim_z')]);
  },
  'simt-keep'(r) {
    const t = threadOf(r);
    keptSlots(r.x).set(`${t.linear}:${slotOf(r)}`, operand(r, 'value'));
  },
  'simt-resume'(r) {
    const t = threadOf(r);
    const v = keptSlots(r.x).get(`${t.linear}:${slotOf(r)}`);
    // A slot no pto.keep wrote holds whatever the register held: not documented.
    if (v === undefined) return r.fail(`slot ${slotOf(r)} of thread ${t.linear} was not kept before; its value is not implemented yet`);
    r.x.setResults(r.op, [v]);
  },
  'simt-atomic'(r) {
    const elem = scalarElem(r.op.resultTypes[0], r);
    const access = scalarAccess(r, 'destination', r.op.resultTypes[0]);
    r.x.setResults(r.op, [access.update(atomicUpdate(r, elem))]);
  },
  'simt-redux'(r) {
    const elem = scalarElem(r.op.resultTypes[0], r);
    const kind = r.mnemonic;
    const unsigned = r.b.attrs.signedness?.kind === 'string' && r.b.attrs.signedness.value === 'unsigned';
    return collective(r, [operand(r, 'value')], (lanes) => {
      const all = [...lanes.keys()].sort((a, b) => a - b).map((l) => lanes.get(l)![0]);
      if (!isFloat(elem)) {
        const ints = all.map((v) => (unsigned ? BigInt.asUintN(32, v as bigint) : BigInt.asIntN(32, v as bigint)));
        const pick = kind === 'redux_add' ? ints.reduce((s, v) => s + v, 0n) : ints.reduce((m, v) => ((kind === 'redux_max' ? v > m : v < m) ? v : m));
        return i32(pick);
      }
      const floats = all as number[];
      if (floats.some((v) => Number.isNaN(v))) return r.fail('a NaN lane is not implemented yet (the docs do not say which NaN a reduction gives)');
      // A sum in lane order, each add rounded to the type (the docs give no order; the goldens sum exact values).
      if (kind === 'redux_add') return floats.reduce((s, v) => roundTo(s + v, elem));
      return kind === 'redux_max' ? Math.max(...floats) : Math.min(...floats);
    });
  },
  'simt-convert'(r) {
    const src = scalarElem(r.op.operandTypes[r.b.operands.src[0]], r);
    const dst = scalarElem(r.op.resultTypes[0], r);
    const signedness = r.b.attrs.signedness?.kind === 'string' ? r.b.attrs.signedness.value : 'signed';
    const value = operand(r, 'src') as number | bigint;
    r.x.setResults(r.op, [convertScalar(value, src, dst, attrText(r, 'rounding'), attrText(r, 'saturation') === 'sat', signedness === 'signed', r.fail)]);
  },
  'simt-mul'(r) {
    const elem = scalarElem(r.op.operandTypes[r.b.operands.lhs[0]], r);
    const bits = elem === 'i64' ? 64 : 32;
    const signed = attrText(r, 'signedness') === 'signed';
    r.x.setResults(r.op, [multiplyWide(operand(r, 'lhs') as bigint, operand(r, 'rhs') as bigint, bits, signed, r.mnemonic === 'mulhi')]);
  },
  'simt-prmt'(r) {
    r.x.setResults(r.op, [permuteBytes(operand(r, 'lhs') as bigint, operand(r, 'rhs') as bigint, operand(r, 'selector') as bigint)]);
  },
  'simt-float'(r) {
    const elem = scalarElem(r.op.resultTypes[0], r);
    const args = r.op.operands.map((_, i) => r.x.operand(r.op, i) as number);
    r.x.setResults(r.op, [floatMath(r.mnemonic, args, elem, r.fail)]);
  },
};
