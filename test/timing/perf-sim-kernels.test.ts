/**
 * pto-isa's perf_sim_st kernels as PTO-AS programs (test/fixtures/costmodel/perf-sim/), run with the timing model:
 * each total within 10% of perf_sim's (test/fixtures/costmodel/perf-sim-kernels.json), or listed with its reason in
 * test/fixtures/costmodel/perf-sim-exceptions.json.
 */
import * as fs from 'fs';
import * as path from 'path';
import { assemble } from '../../src/verify/assemble';
import { GlobalBuffer } from '../../src/machine/memory';
import { Value, runFunction } from '../../src/vm/interpreter';
import { TimingObserver } from '../../src/timing/observer';
import type { ElemType } from '../../src/types/type';
import { GEMM_SIZES, gemmProgram } from '../fixtures/costmodel/perf-sim/gemm';
import { TOPK_SIZES, topkProgram } from '../fixtures/costmodel/perf-sim/topk';

const FIXTURES = path.join(__dirname, '../fixtures/costmodel');

interface Exception {
  test: string;
  ours: number | null;
  perfSim: number | null;
  reason: string;
}
const exceptions: Exception[] = JSON.parse(fs.readFileSync(path.join(FIXTURES, 'perf-sim-exceptions.json'), 'utf8'));
const kernels: { source: string; test: string; totalCycles: number | null }[] = JSON.parse(
  fs.readFileSync(path.join(FIXTURES, 'perf-sim-kernels.json'), 'utf8'),
).kernels;

/** The program's total cycles on a2a3: its one function run on zero-filled buffers of `sizes` bytes. */
function total(text: string, fn: string, sizes: Record<string, [ElemType, number]>): number {
  const { program, types, diags } = assemble('k.pto', text);
  expect(diags.sorted().filter((d) => d.severity === 'error')).toEqual([]);
  const observer = new TimingObserver('a2a3');
  const args = new Map<string, Value>(
    Object.entries(sizes).map(([name, [dtype, bytes]]) => [`%${name}`, new GlobalBuffer(name, dtype, new Uint8Array(bytes))]),
  );
  runFunction(program, types, program.functions.get(fn)!, args, { numerics: 'npu', maxSteps: 10_000_000, observer, syncCheck: false });
  return observer.summary().totalCycles;
}

/** Within 10% of perf_sim's total, or an exception whose numbers are today's. */
function holds(test: string, ours: number): void {
  const perfSim = kernels.find((k) => k.test === test)?.totalCycles ?? null;
  const exception = exceptions.find((e) => e.test === test);
  if (exception) {
    expect([exception.ours, exception.reason.length > 0]).toEqual([ours, true]);
    if (perfSim !== null) expect(exception.perfSim).toBe(perfSim);
    if (exception.perfSim !== null) expect(Math.abs(ours - exception.perfSim) / exception.perfSim).toBeGreaterThan(0.1);
    return;
  }
  expect(perfSim).not.toBeNull();
  expect(Math.abs(ours - perfSim!) / perfSim!).toBeLessThanOrEqual(0.1);
}

describe('perf_sim_st top-k (kernels/manual/a2a3/topk)', () => {
  test.each(TOPK_SIZES)('$test: the committed program is the generator`s', (size) => {
    expect(fs.readFileSync(path.join(FIXTURES, 'perf-sim', `${size.test}.pto`), 'utf8')).toBe(topkProgram(size));
  });

  test.each(TOPK_SIZES)('$test: total within 10% of perf_sim`s or listed with its reason', (size) => {
    const ours = total(topkProgram(size), 'topk', {
      out: ['f32', size.rows * size.topk * 4],
      index: ['u32', size.rows * size.topk * 4],
      src: ['f32', size.rows * size.cols * 4],
      inIdx: ['u32', size.cols * 4],
    });
    holds(size.test, ours);
  });
});

describe('perf_sim_st flash attention (kernels/manual/common/flash_atten)', () => {
  test('every FA test is an exception: perf_sim deadlocks on the kernel, so it has no total', () => {
    const fa = kernels.filter((k) => k.source.includes('perf_sim_st/') && k.test.startsWith('FAPerfSim.'));
    expect(fa.map((k) => k.test).sort()).toEqual(
      exceptions
        .filter((e) => e.test.startsWith('FAPerfSim.'))
        .map((e) => e.test)
        .sort(),
    );
    for (const e of exceptions.filter((x) => x.test.startsWith('FAPerfSim.'))) expect([e.perfSim, e.reason.includes('deadlock')]).toEqual([null, true]);
  });
});

describe('perf_sim_st GEMM (kernels/manual/a2a3/gemm_performance)', () => {
  test.each(GEMM_SIZES)('$test: the committed program is the generator`s', (size) => {
    expect(fs.readFileSync(path.join(FIXTURES, 'perf-sim', `${size.test}.pto`), 'utf8')).toBe(gemmProgram(size));
  });

  test.each(GEMM_SIZES)('$test: total within 10% of perf_sim`s or listed with its reason', (size) => {
    const ours = total(gemmProgram(size), 'gemm', { a: ['f16', size.m * size.k * 2], b: ['f16', size.k * size.n * 2], c: ['f32', size.m * size.n * 4] });
    holds(size.test, ours);
  });
});

describe('perf_sim_st conv2d (kernels/manual/a2a3/conv2d_forward)', () => {
  test('every conv2d test is an exception: its TIMG2COL, SETFMATRIX and ConvTile loads are not in PTOAS`s dialect', () => {
    const conv = kernels.filter((k) => k.source.includes('perf_sim_st/') && k.test.startsWith('Conv2dPerfSim.'));
    const listed = exceptions.filter((e) => e.test.startsWith('Conv2dPerfSim.'));
    expect(listed.map((e) => e.test).sort()).toEqual(conv.map((k) => k.test).sort());
    for (const e of listed) {
      expect([e.ours, e.reason.includes('TIMG2COL')]).toEqual([null, true]);
      const perfSim = conv.find((k) => k.test === e.test)!.totalCycles;
      if (perfSim !== null) expect(e.perfSim).toBe(perfSim);
    }
  });
});
