import { assemble } from '../../src/verify/assemble';
import { GlobalBuffer } from '../../src/machine/memory';
import { Value, runFunction } from '../../src/vm/interpreter';
import { TimingObserver } from '../../src/timing/observer';
import { loadAddStore as kernel } from '../fixtures/timing';
import { gemmProgram } from '../fixtures/costmodel/perf-sim/gemm';

function profile(flags: boolean) {
  const { program, types, diags } = assemble('k.pto', kernel(flags));
  expect(diags.sorted().filter((d) => d.severity === 'error')).toEqual([]);
  const x = new GlobalBuffer('x', 'f32', new Uint8Array(32 * 64 * 4));
  const y = new GlobalBuffer('y', 'f32', new Uint8Array(32 * 64 * 4));
  const observer = new TimingObserver('a2a3');
  const args = new Map<string, Value>([
    ['%x', x],
    ['%y', y],
  ]);
  runFunction(program, types, program.functions.get('k')!, args, { numerics: 'npu', maxSteps: 1000, observer, syncCheck: false });
  return observer.summary();
}

describe('the timing model observing a run', () => {
  // TLOAD 8192 bytes GM -> UB on the curve measured from pto-isa`s profiled loads: 262.35 + 8192 / 127.66 = 326.5; TADDS f32 32 x 64:
  // 0.0156 * 2048 + 25 = 56.95; TSTORE 8192 bytes UB -> GM at 188.46 GiB/s (109.38 bytes a cycle): 74.9.
  it('queues each op on its pipe with its cost, and the flags order the pipes', () => {
    const s = profile(true);
    expect(s.totalCycles).toBe(327 + 57 + 74);
    expect(s.cores[0].pipes.map((p) => [p.pipe, p.busy])).toEqual([
      ['PIPE_MTE2', 327],
      ['PIPE_MTE3', 74],
      ['PIPE_V', 57],
    ]);
    expect(s.bottleneck).toBe('MTE2 busy 71%: loads from GM bound the run; MTE3 busy 16%, V busy 12%');
    expect(s.noData).toEqual([]);
  });

  it('without flags the pipes overlap: the total is the longest pipe', () => {
    expect(profile(false).totalCycles).toBe(327);
  });
});

describe('the cube path (TEXTRACT L1 -> L0A/L0B, TMATMUL_ACC) in a GEMM', () => {
  // pto-isa's GEMM kernel (test/fixtures/costmodel/perf-sim/gemm.ts) with K = 512: two 128x256 / 256x256 panels in
  // L1, eight K steps of 128x64x256 (one TMATMUL, seven TMATMUL_ACC).
  const size = { test: 'gemm', m: 128, k: 512, n: 256, stepKa: 4, stepKb: 4 };
  const { program, types, diags } = assemble('gemm.pto', gemmProgram(size));
  const observer = new TimingObserver('a2a3', true);
  const args = new Map<string, Value>([
    ['%a', new GlobalBuffer('a', 'f16', new Uint8Array(128 * 512 * 2))],
    ['%b', new GlobalBuffer('b', 'f16', new Uint8Array(512 * 256 * 2))],
    ['%c', new GlobalBuffer('c', 'f32', new Uint8Array(128 * 256 * 4))],
  ]);
  runFunction(program, types, program.functions.get('gemm')!, args, { numerics: 'npu', maxSteps: 100_000, observer, syncCheck: false });
  const cycles = (name: string) => [
    ...new Set(
      observer
        .pipelines()[0]
        .slices.filter((s) => s.name === name)
        .map((s) => s.end - s.start),
    ),
  ];

  it('assembles', () => expect(diags.sorted().filter((d) => d.severity === 'error')).toEqual([]));

  // A TEXTRACT moves the slice it writes, not its whole L1 panel: 128 x 64 f16 = 16384 bytes at L1 -> L0A's
  // 441 GiB/s (255.96 bytes a cycle) is 64 cycles; 64 x 256 f16 = 32768 bytes at L1 -> L0B's 220.5 GiB/s is 256.
  it('costs a TEXTRACT by the slice it extracts', () => {
    expect(cycles('TEXTRACT(128x64,f16)')).toEqual([64]);
    expect(cycles('TEXTRACT(64x256,f16)')).toEqual([256]);
  });

  // mad over 16x16 fractals of 32 bytes of k: (128 / 16) x (64 / 16) x (256 / 16) = 512 repeats of one cycle (f16),
  // plus the 6-cycle head: TMATMUL_ACC takes k and its dtype from its left operand, not from the accumulator.
  it('costs TMATMUL and TMATMUL_ACC by the left operand`s k and dtype', () => {
    expect(cycles('TMATMUL(128x256,f32)')).toEqual([518]);
    expect(cycles('TMATMUL_ACC(128x256,f32)')).toEqual([518]);
  });
});

describe('what the observer tells the model of an op', () => {
  const T = (loc: string, rows: number, cols: number, dtype = 'f16') =>
    `!pto.tile_buf<loc=${loc}, dtype=${dtype}, rows=${rows}, cols=${cols}, v_row=${rows}, v_col=${cols}, blayout=row_major, slayout=none_box, fractal=512, pad=0>`;
  const slices = (arch: 'a2a3' | 'a5', body: string) => {
    const text = `module {\n  func.func @k() {\n${body}\n    return\n  }\n}\n`;
    const { program, types, diags } = assemble('k.pto', text, { target: arch });
    expect(diags.sorted().filter((d) => d.severity === 'error')).toEqual([]);
    const observer = new TimingObserver(arch, true);
    runFunction(program, types, program.functions.get('k')!, new Map(), { numerics: 'npu', maxSteps: 1000, observer, syncCheck: false });
    return { slices: observer.pipelines()[0].slices.map((s) => [s.name, s.end - s.start]), noData: observer.summary().noData };
  };

  it('TCOLSUM`s isBinary (written, or its default false): sequential f16 16x256 is 620 cycles on a2a3', () => {
    const body = (attr: string) => `    %s = pto.alloc_tile : ${T('vec', 16, 256)}
    %d = pto.alloc_tile : ${T('vec', 1, 256)}
    pto.tcolsum ins(%s${attr} : ${T('vec', 16, 256)}) outs(%d : ${T('vec', 1, 256)})`;
    // test/timing/a2a3-instructions.test.ts works the 620 out by hand.
    expect(slices('a2a3', body('')).slices).toEqual([['TCOLSUM(1x256,f16)', 620]]);
    expect(slices('a2a3', body(' {isBinary = false}')).slices).toEqual([['TCOLSUM(1x256,f16)', 620]]);
  });

  it('TEXPANDS into a mat tile on a5 is no vector function: no data, not the vector fill`s cycles', () => {
    const fill = (loc: string) => `    %z = arith.constant 0.0 : f16
    %d = pto.alloc_tile : ${T(loc, 16, 256)}
    pto.texpands ins(%z : f16) outs(%d : ${T(loc, 16, 256)})`;
    expect(slices('a5', fill('vec')).noData).toEqual([]);
    expect(slices('a5', fill('mat')).noData).toEqual([['TEXPANDS', 1]]);
  });
});
