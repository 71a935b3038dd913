/**
 * The shape of test/fixtures/costmodel/vfsim-tileops.json: VfSim's cycles for the vector function of each of
 * pto-isa's A5 tile-op tests (tests/costmodel/st_a5), measured by scripts/vfsim-cycles.py (it builds and runs them).
 * Bodies and repeats are checked against what the tests' sources say; the fallback cycles against pto-isa's table.
 */
import * as fs from 'fs';
import * as path from 'path';

interface VfSimOp {
  test: string;
  source: string;
  op: string;
  dtype: string;
  shape: { rows: number; cols: number; validRows: number; validCols: number };
  body: string[] | null;
  repeat: number | null;
  forms: string[];
  vfsimCycles: number | null;
  fallbackCycles?: number;
  notSimulated?: string;
  vf?: unknown[];
  vfImplKind?: string;
  profiled?: number;
}

const fixtures = path.join(__dirname, '..', 'fixtures', 'costmodel');
const fixture: {
  repository: string;
  commit: string;
  measuredBy: { script: string; compiler: string; compat: string[] };
  note: string;
  ops: VfSimOp[];
  fitOps: VfSimOp[];
  fitSkipped: Record<string, number>;
} = JSON.parse(fs.readFileSync(path.join(fixtures, 'vfsim-tileops.json'), 'utf8'));
const byTest = (test: string): VfSimOp => fixture.ops.find((o) => o.test === test)!;

describe('VfSim tile-op cycles (vfsim-tileops.json)', () => {
  it('holds the 18 tests of st_a5`s 13 cases at the commit the other cost-model fixtures use', () => {
    const singleOp = JSON.parse(fs.readFileSync(path.join(fixtures, 'single-op.json'), 'utf8'));
    expect(fixture.commit).toBe(singleOp.commit);
    expect(fixture.measuredBy.script).toBe('scripts/vfsim-cycles.py');
    expect(fixture.ops.length).toBe(18);
    expect(new Set(fixture.ops.map((o) => o.source)).size).toBe(13);
    for (const o of fixture.ops) expect(o.source).toMatch(/^tests\/costmodel\/st_a5\/testcase\/\w+\/main\.cpp$/);
  });

  it('each op has one loop body, a form per instruction, and either VfSim`s cycles or the reason it has none', () => {
    for (const o of fixture.ops) {
      expect([o.test, o.body!.length > 0, o.forms.length]).toEqual([o.test, true, o.body!.length]);
      if (o.vfsimCycles === null) {
        expect([o.test, typeof o.notSimulated, Number.isInteger(o.fallbackCycles)]).toEqual([o.test, 'string', true]);
      } else {
        expect([o.test, Number.isInteger(o.vfsimCycles) && o.vfsimCycles > 0]).toEqual([o.test, true]);
      }
    }
  });

  it('TADD f32 1x512 is vlds, vlds, vadd, vsts x 8 (64 f32 lanes a 256-byte register, 512 / 64)', () => {
    const o = byTest('TAdd.float_1x512');
    expect([o.op, o.dtype, o.shape]).toEqual(['TADD', 'f32', { rows: 1, cols: 512, validRows: 1, validCols: 512 }]);
    expect([o.body, o.repeat]).toEqual([['vlds', 'vlds', 'vadd', 'vsts'], 8]);
  });

  it('the scalar forms load once: TADDS and TSUBS (an add of the negated scalar) are vlds, vadds, vsts', () => {
    expect([byTest('TAddS.float_1x512').body, byTest('TAddS.float_1x512').repeat]).toEqual([['vlds', 'vadds', 'vsts'], 8]);
    expect(byTest('TSubS.float_1x512').body).toEqual(['vlds', 'vadds', 'vsts']);
  });

  it('TADD f32 repeats ceil(cols / 64) times, and VfSim`s cycles grow with the repeat', () => {
    const tadd = fixture.ops.filter((o) => o.op === 'TADD').sort((a, b) => a.shape.cols - b.shape.cols);
    expect(tadd.map((o) => [o.shape.cols, o.repeat])).toEqual([
      [64, 1],
      [512, 8],
      [1024, 16],
      [2048, 32],
      [4096, 64],
      [6144, 96],
    ]);
    for (let i = 1; i < tadd.length; i++) expect(tadd[i].vfsimCycles!).toBeGreaterThan(tadd[i - 1].vfsimCycles!);
  });

  it('uint32 bodies have no VfSim cycles: its isa.csv has fp32 and fp16 forms only, so pto-isa used its table', () => {
    // The table (a5 cce_costmodel/vec_cycle_generated.hpp): vlds and vsts 4, vand and vshls 6 cycles an iteration.
    const tand = byTest('TAnd.uint32_1x512');
    expect([tand.vfsimCycles, tand.fallbackCycles, tand.forms[0]]).toEqual([null, 8 * (4 + 4 + 6 + 4), 'uint32']);
    expect(tand.notSimulated).toContain('no uint32 form of VLDS');
    expect([byTest('TShlS.uint32_1x512').vfsimCycles, byTest('TShlS.uint32_1x512').fallbackCycles]).toEqual([null, 8 * 14]);
  });
});

describe('VfSim on st_a5_fit`s hardware-profiled shapes (vfsim-tileops.json fitOps)', () => {
  const singleOp = JSON.parse(fs.readFileSync(path.join(fixtures, 'single-op.json'), 'utf8'));
  const fitPoints = singleOp.datapoints.filter((p: { source: string }) => p.source.includes('/st_a5_fit/'));
  const fit = (op: string, rows: number, cols: number, validRows: number, validCols: number): VfSimOp =>
    fixture.fitOps.find((o) => o.op === op && o.dtype === 'f32' && JSON.stringify(o.shape) === JSON.stringify({ rows, cols, validRows, validCols }))!;

  it('accounts for every st_a5_fit datapoint: replayed, or counted under the reason it is not', () => {
    const skipped = Object.values(fixture.fitSkipped).reduce((a, b) => a + b, 0);
    expect(fixture.fitOps.length + skipped).toBe(fitPoints.length);
    expect(fixture.fitOps.length).toBeGreaterThan(100);
  });

  it('TADD f32 1x64: one iteration of vlds, vlds, vadd, vsts; VfSim gives the 55 cycles profiled on hardware', () => {
    const o = fit('TADD', 1, 64, 1, 64);
    expect([o.body, o.repeat, o.profiled, o.vfsimCycles]).toEqual([['vlds', 'vlds', 'vadd', 'vsts'], 1, 55, 55]);
  });

  it('a 2x160 tile with 128 valid columns takes the 2-D form: a loop over the 2 rows of 2 iterations each', () => {
    const o = fit('TADD', 2, 160, 2, 128);
    expect([o.body, o.vf]).toEqual([null, [[{ loop: 2, body: [{ loop: 2, body: ['vlds', 'vlds', 'vadd', 'vsts'] }] }]]]);
  });

  it('TSQRT has no VfSim cycles: params/isa.csv has no VSQRT', () => {
    for (const o of fixture.fitOps.filter((x) => x.op === 'TSQRT')) {
      expect([o.vfsimCycles, o.notSimulated]).toEqual([null, 'params/isa.csv has no VSQRT']);
    }
  });
});
