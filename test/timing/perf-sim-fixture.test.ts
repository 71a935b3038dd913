/**
 * The shape of test/fixtures/costmodel/perf-sim-kernels.json: perf_sim's kernel totals, measured by
 * scripts/perf-sim-totals.py (it builds and runs pto-isa's perf_sim tests), beside each test's cores and pipes.
 */
import * as fs from 'fs';
import * as path from 'path';

interface Kernel {
  source: string;
  test: string;
  cores: number;
  requiresStages: string[];
  totalCycles: number | null;
  reportedTotalCycles?: number;
  deadlock?: string;
  pipeBusyCycles?: Record<string, number>;
  measuredBy?: { script: string; compiler: string; commit: string; compat: string[] };
}

const fixture: { commit: string; note: string; kernels: Kernel[] } = JSON.parse(
  fs.readFileSync(path.join(__dirname, '..', 'fixtures', 'costmodel', 'perf-sim-kernels.json'), 'utf8'),
);
const perfSimSt = fixture.kernels.filter((k) => k.source.startsWith('tests/costmodel/perf_sim_st/'));
/** The pipe columns of perf_sim's _pipeline_summary.csv, without "_cycles". */
const PIPES = ['scalar', 'mte2_aic', 'mte2_aiv', 'mte1', 'cube', 'fixp', 'vec', 'mte3'];

describe('perf_sim kernel totals (perf-sim-kernels.json)', () => {
  it('lists the 14 perf_sim_st tests, and says where the totals come from', () => {
    expect(perfSimSt.length).toBe(14);
    expect(fixture.note).toContain('scripts/perf-sim-totals.py');
  });

  it('every perf_sim_st kernel has a positive total, except the flash-attention ones, where perf_sim deadlocks', () => {
    for (const k of perfSimSt) {
      if (k.test.startsWith('FAPerfSim.')) {
        expect([k.totalCycles, k.deadlock?.includes('deadlock'), k.reportedTotalCycles! > 0]).toEqual([null, true, true]);
      } else {
        expect([k.test, Number.isInteger(k.totalCycles) && k.totalCycles! > 0]).toEqual([k.test, true]);
      }
    }
  });

  it('each measured entry names how it was measured and has every pipe of the summary', () => {
    for (const k of fixture.kernels.filter((x) => x.measuredBy)) {
      expect(k.measuredBy!.script).toBe('scripts/perf-sim-totals.py');
      expect(k.measuredBy!.commit).toBe(fixture.commit);
      expect(Object.keys(k.pipeBusyCycles!).sort()).toEqual([...PIPES].sort());
      for (const cycles of Object.values(k.pipeBusyCycles!)) expect(Number.isInteger(cycles) && cycles >= 0).toBe(true);
    }
    expect(perfSimSt.every((k) => k.measuredBy)).toBe(true);
  });

  it('the pipes a test requires are busy in its run (the tests` own assertions, checked on the totals)', () => {
    // requiresStages names the test's has_* flags; each is one or more of perf_sim's pipes.
    const pipesOf: Record<string, string[]> = {
      matrix: ['cube'],
      mte2: ['mte2_aic', 'mte2_aiv'],
      fixp: ['fixp'],
      vector: ['vec'],
      mte3: ['mte3'],
      gm_read: ['mte2_aic', 'mte2_aiv'],
      gm_write: ['mte3', 'fixp'],
    };
    for (const k of perfSimSt) {
      for (const stage of k.requiresStages) {
        const busy = pipesOf[stage].reduce((sum, pipe) => sum + k.pipeBusyCycles![pipe], 0);
        expect([k.test, stage, busy > 0]).toEqual([k.test, stage, true]);
      }
    }
  });

  it('GemmPerfSim.Small_128x64x256 holds the numbers of perf_sim`s own text report', () => {
    // perf_sim's report for runGemm_128x64x256: "Total cycles : 3024"; Scalar 9, MTE2(AIC) 627, MTE1 321,
    // CUBE 518, FIXP 1614, no vector core pipe.
    const k = fixture.kernels.find((x) => x.test === 'GemmPerfSim.Small_128x64x256')!;
    expect(k.totalCycles).toBe(3024);
    expect(k.pipeBusyCycles).toEqual({ scalar: 9, mte2_aic: 627, mte2_aiv: 0, mte1: 321, cube: 518, fixp: 1614, vec: 0, mte3: 0 });
  });
});
