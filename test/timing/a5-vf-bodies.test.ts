/**
 * The A5 tile ops pto-isa's curves lack, priced from the vector-function body pto-isa's A5 implementation issues
 * (spec/costmodel/a5-vf-bodies.json, src/timing/a5-vf-bodies.ts), against what pto-isa's CPU mock records for them
 * and VfSim's cycles (test/fixtures/costmodel/vfsim-tileops.json noCurveOps, by scripts/vfsim-cycles.py).
 */
import * as fs from 'fs';
import * as path from 'path';
import { a5VfBody, a5VfBodyCost } from '../../src/timing/a5-vf-bodies';
import { assemble } from '../../src/verify/assemble';
import { GlobalBuffer } from '../../src/machine/memory';
import { Value, runFunction } from '../../src/vm/interpreter';
import { TimingObserver } from '../../src/timing/observer';
import { simulateVf } from '../../src/timing/vf-sim';
import { tileOpCost } from '../../src/timing/estimate';
import type { TileOpInput } from '../../src/timing/cost';
import type { VfOp } from '../../src/timing/vf-sim';
import type { ElemType } from '../../src/types/type';

type Tree = (string | { loop: number; body: Tree })[];
interface Recorded {
  test: string;
  op: string;
  dtype: ElemType;
  shape: { rows: number; cols: number; validRows: number; validCols: number };
  vf: Tree[];
  registers: string[][];
  forms: string[];
  vfsimCycles: number | null;
  simCycles?: number;
  notSimulated?: string;
}
const fixture = JSON.parse(fs.readFileSync(path.join(__dirname, '../fixtures/costmodel/vfsim-tileops.json'), 'utf8')) as {
  noCurveOps: Recorded[];
  noCurveUnrecorded: string[];
};

/** The cost input the observer gives for the op run on the recorded tiles (as scripts/vfsim/fit_ops.hpp builds them). */
function inputOf(r: Recorded): TileOpInput {
  const { rows, cols, validRows, validCols } = r.shape;
  const base = { op: r.op, arch: 'a5' as const, dtype: r.dtype };
  const whole = { validRows, validCols, rowMajor: true };
  // Row reductions write a column-major rows x 1 tile; column reductions a 1 x cols row; TCOLSUM's two-operand form.
  if (r.op.startsWith('TROWEXPAND')) return { ...base, rows, cols, validRows, validCols, sources: [whole, { validRows, validCols: 1, rowMajor: false }] };
  if (r.op.startsWith('TCOLEXPAND')) return { ...base, rows, cols, validRows, validCols, sources: [whole, { validRows: 1, validCols, rowMajor: true }] };
  if (r.op.startsWith('TROW')) return { ...base, rows, cols: 1, validRows, validCols: 1, sources: [whole] };
  if (r.op.startsWith('TCOL')) return { ...base, rows: 1, cols, validRows: 1, validCols, sources: [whole], binary: false };
  return { ...base, rows, cols, validRows, validCols, sources: r.op === 'TEXPANDS' ? [] : [whole] };
}

/**
 * Our unrolled body folded back into the tree the mock records (each loop once, with its count; instructions by
 * name): a loop's node is made by its first run under its parents' first iterations, which also fills its body.
 */
function treeOf(ops: readonly VfOp[]): Tree {
  const root: Tree = [];
  const nodes = new Map<number, { loop: number; body: Tree }>();
  for (const o of ops) {
    const loops = o.loops ?? [];
    const later = loops.findIndex((l) => l.iteration > 0);
    let parent = root;
    for (let k = 0; k < (later === -1 ? loops.length : later + 1); k++) {
      let node = nodes.get(loops[k].run);
      if (!node) {
        node = { loop: 0, body: [] };
        nodes.set(loops[k].run, node);
        parent.push(node);
      }
      node.loop = Math.max(node.loop, loops[k].iteration + 1);
      parent = node.body;
    }
    if (later === -1) parent.push(o.op.toLowerCase());
  }
  return root;
}

/**
 * The recorded tree as VfSim runs it (and our unrolled body is made): a loop of one iteration whose body is
 * instructions alone is its body (ProgramCanonicalization.cpp); a loop that never ran issues nothing.
 */
const asVfSimRuns = (tree: Tree): Tree =>
  tree.flatMap((n): Tree => {
    if (typeof n === 'string') return [n];
    if (n.loop === 0) return [];
    if (n.loop === 1 && n.body.every((b) => typeof b === 'string')) return n.body;
    return [{ loop: n.loop, body: asVfSimRuns(n.body) }];
  });

/**
 * TEXPANDS takes a tile of either layout; the cost input does not say which, so a shape whose loops differ by layout
 * is no data (src/timing/a5-vf-bodies.ts layoutsAgree): these two recorded row-major shapes are such. Their 2-D loop
 * is binaryScalar's, checked on TSUBS 8x256 valid 8x200.
 */
const LAYOUT_UNKNOWN = new Set(['TEXPANDS float 8x256 valid 8x200', 'TEXPANDS half 4x256 valid 4x100']);

/**
 * Row reductions over 8 rows or more: our VfSim model (src/timing/vf-sim.ts) issues their VCMAX/VCADD and VMAX/VADD
 * chain later than VfSim does, 5% to 21% more cycles (ours, VfSim's). The body is not the cause: VfSim run
 * (scripts/vfsim/run-program.cpp) on `loop 8 { VLDS r1; VCMAX r1 r1; VMAX r1 r0,r1 }`, no body of ours, gives 76 where
 * our model gives 80 (the test below); VfSim keeps an ALU and an SFU wait queue per issue port (OOO.cpp
 * chooseExqEnqueuePort), ours one port timeline. One to fix in vf-sim.ts.
 */
const ENGINE_DIFFERENCES: Record<string, [number, number]> = {
  'TROWSUM float 16x64 valid 16x64': [120, 112],
  'TROWSUM float 8x256 valid 8x200': [178, 163],
  'TROWSUM half 16x128 valid 16x128': [126, 118],
  'TROWMAX float 16x64 valid 16x64': [101, 93],
  'TROWMAX float 8x256 valid 8x200': [147, 132],
  'TROWMAX half 16x128 valid 16x128': [117, 97],
  'TROWMIN float 16x64 valid 16x64': [101, 93],
  'TROWMIN float 8x256 valid 8x200': [147, 132],
  'TROWMIN half 16x128 valid 16x128': [117, 97],
};

describe("A5 ops without a curve: pto-isa's vector-function bodies on VfSim's tables", () => {
  const cases = fixture.noCurveOps.map((r) => [r.test, r] as const);

  it('records every family at f32 and f16, one-row and multi-row, a valid width short of the tile`s', () => {
    const ops = new Set(fixture.noCurveOps.map((r) => r.op));
    for (const op of ['TROWSUM', 'TROWMAX', 'TROWMIN', 'TCOLSUM', 'TCOLMAX', 'TCOLMIN', 'TEXPANDS', 'TMULS', 'TADDS'])
      expect([op, ops.has(op)]).toEqual([op, true]);
    for (const op of ['ADD', 'SUB', 'MUL', 'DIV', 'MAX', 'MIN']) expect([op, ops.has(`TROWEXPAND${op}`), ops.has(`TCOLEXPAND${op}`)]).toEqual([op, true, true]);
    expect(new Set(fixture.noCurveOps.map((r) => r.dtype))).toEqual(new Set(['f32', 'f16']));
    expect(fixture.noCurveOps.some((r) => r.shape.validCols < r.shape.cols)).toBe(true);
    expect(fixture.noCurveOps.some((r) => r.shape.validRows === 1)).toBe(true);
  });

  const costed = cases.filter(([test]) => !LAYOUT_UNKNOWN.has(test));

  it.each(costed)('%s: our body is the loop tree the mock recorded', (_, r) => {
    const body = a5VfBody(inputOf(r));
    if ('reason' in body) throw new Error(body.reason);
    expect(treeOf(body.ops)).toEqual(asVfSimRuns(r.vf[0]));
  });

  // Each instruction's registers, in tree order (each loop body once), renamed consistently onto the mock's names.
  it.each(costed)('%s: and the same data flow (register for register)', (_, r) => {
    const body = a5VfBody(inputOf(r), true);
    if ('reason' in body) throw new Error(body.reason);
    // The register each value was written to.
    const register = new Map<number, number>();
    for (const o of body.ops) o.dsts.forEach((v, k) => register.set(v, o.names![k]));
    const ours = body.ops.filter((o) => (o.loops ?? []).every((l) => l.iteration === 0)).map((o) => [...o.dsts, ...o.srcs].map((v) => register.get(v)!));
    const theirs = r.registers.map((names) => names.filter((n) => n.startsWith('reg')));
    const map = new Map<number, string>();
    expect(ours.length).toBe(theirs.length);
    ours.forEach((regs, k) => {
      expect(regs.length).toBe(theirs[k].length);
      regs.forEach((reg, j) => {
        if (!map.has(reg)) map.set(reg, theirs[k][j]);
        expect([k, j, map.get(reg)]).toEqual([k, j, theirs[k][j]]);
      });
    });
    expect(new Set(map.values()).size).toBe(map.size);
  });

  it.each(costed)('%s: our cycles are VfSim`s', (test, r) => {
    const cost = a5VfBodyCost(inputOf(r));
    const vfsim = r.vfsimCycles ?? r.simCycles;
    const [ours, theirs] = ENGINE_DIFFERENCES[test] ?? [vfsim, vfsim];
    expect([theirs, cost.kind === 'cycles' && cost.cycles]).toEqual([vfsim, ours]);
  });

  it.each([...LAYOUT_UNKNOWN].map((t) => [t, fixture.noCurveOps.find((r) => r.test === t)!] as const))('%s: no data, the layout decides its loops', (_, r) => {
    expect(a5VfBodyCost(inputOf(r))).toEqual({
      kind: 'no-data',
      pipe: 'vector',
      reason: "TEXPANDS: its loops depend on the destination's layout here, which the cost input does not carry",
    });
  });

  it('the engine difference without a body: loop 8 { VLDS, VCMAX, VMAX } is 80 in our model, 76 in VfSim', () => {
    const ops: VfOp[] = [];
    for (let i = 0; i < 8; i++) {
      const loops = [{ run: 0, iteration: i }];
      ops.push({ op: 'VLDS', form: 'fp32', srcs: [], dsts: [3 * i], names: [1], loops });
      ops.push({ op: 'VCMAX', form: 'fp32', srcs: [3 * i], dsts: [3 * i + 1], names: [1], loops });
      ops.push({ op: 'VMAX', form: 'fp32', srcs: [3 * i + 1], dsts: [3 * i + 2], names: [1], loops });
    }
    expect(simulateVf(ops).cycles).toBe(80);
  });

  // The mock's loop trace keeps a loop only when every iteration records the same operands: a row op whose source
  // pointer moves between rows (a short row's padding, TCOLEXPAND's post-update form over whole rows) names another
  // UB address each row, and nothing is recorded.
  it('every case ran on the mock; 24 whose rows the loop trace saw differ recorded nothing', () => {
    expect([fixture.noCurveOps.length, fixture.noCurveUnrecorded.length]).toEqual([85, 24]);
    for (const line of fixture.noCurveUnrecorded) {
      expect(line).toMatch(
        /^(TROW\w+ (float 16x32 valid 16x32|half 16x256 valid 16x100)|TCOLEXPAND\w+ (float 16x64 valid 16x64|half 16x128 valid 16x128)): the mock recorded no vector function/,
      );
    }
  });

  // One row of 64 f32 (TROWMAX 8x64, valid 1x64): loop 1 { vbr; vlds; vcmax; vmax; vsts }, all dispatched at 21 (the
  // loop opens at 19, + 2). VBR issues at 24 (queued 23, + exq_recv 1); the load at 23; VCMAX sees it at 23 + VLDS ->
  // VCMAX forwarding 6 - 1 = 28, issues at 29; VMAX sees VCMAX at 29 + 13 - 1 = 41, issues at 42, is done 42 + 6 = 48.
  // VfSim's renaming moved VMAX's result off the accumulator's register, so the store reads VBR's value and is done
  // long before: the end is 48 + drain 12 = 60 (VfSim: 60). With the chain kept (the registers as pto-isa writes them),
  // the store waits for VMAX: 42 + VMAX -> VSTS forwarding 4 = 46, done 46 + 9 = 55, end 67.
  it('a hand-derived case: TROWMAX f32 over one row of 64 is 60 cycles (67 with the accumulator chain kept)', () => {
    const input: TileOpInput = {
      op: 'TROWMAX',
      arch: 'a5',
      dtype: 'f32',
      rows: 8,
      cols: 1,
      validRows: 1,
      validCols: 1,
      sources: [{ validRows: 1, validCols: 64, rowMajor: true }],
    };
    expect(a5VfBodyCost(input)).toMatchObject({ kind: 'cycles', cycles: 60, pipe: 'vector' });
    const written = a5VfBody(input, true);
    if ('reason' in written) throw new Error(written.reason);
    expect(simulateVf(written.ops).cycles).toBe(67);
  });
});

describe('programs on A5: the curves first, then the bodies', () => {
  function summary(file: string, fn: string, buffers: [string, number][]) {
    const { program, types, diags } = assemble(file, fs.readFileSync(path.join(__dirname, '../../programs', file), 'utf8'));
    expect(diags.sorted().filter((d) => d.severity === 'error')).toEqual([]);
    const observer = new TimingObserver('a5');
    const args = new Map<string, Value>(buffers.map(([n, bytes]) => [`%${n}`, new GlobalBuffer(n, 'f32', new Uint8Array(bytes))]));
    runFunction(program, types, program.functions.get(fn)!, args, { numerics: 'npu', maxSteps: 100_000, observer, syncCheck: false });
    return observer.summary();
  }

  // TROWMAX 101 and TROWSUM 120 (16 rows of 64 f32, ENGINE_DIFFERENCES above), TROWEXPANDSUB 70, TROWEXPANDDIV 94.
  it('softmax (16x64 f32) has no op without cost data', () => {
    const s = summary('softmax.pto', 'softmax_16x64', [
      ['x', 16 * 64 * 4],
      ['y', 16 * 64 * 4],
    ]);
    expect(s.noData).toEqual([]);
  });

  it('an op with neither a curve nor a body is no data with both reasons', () => {
    const cost = tileOpCost({ op: 'TGETVAL', arch: 'a5', dtype: 'f32', rows: 1, cols: 8 });
    expect(cost).toEqual({
      kind: 'no-data',
      pipe: 'vector',
      reason: "pto-isa has no A5 curve for TGETVAL; pto-isa's A5 vector-function bodies (a5-vf-bodies.json) have no TGETVAL",
    });
  });

  it('TMULS f32 1x16 (rmsnorm`s): no curve, the binary-scalar body: VfSim`s 56', () => {
    const input: TileOpInput = {
      op: 'TMULS',
      arch: 'a5',
      dtype: 'f32',
      rows: 1,
      cols: 16,
      validRows: 1,
      validCols: 16,
      sources: [{ validRows: 1, validCols: 16, rowMajor: true }],
    };
    expect(tileOpCost(input)).toMatchObject({ kind: 'cycles', cycles: fixture.noCurveOps.find((r) => r.test === 'TMULS float 1x16 valid 1x16')!.vfsimCycles });
  });
});
