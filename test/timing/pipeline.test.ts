import { CorePipeline, summarize } from '../../src/timing/pipeline';
import type { OpCost } from '../../src/timing/cost';

const c = (cycles: number): OpCost => ({ kind: 'cycles', cycles, pipe: 'vector', basis: 'test' });

describe('one core`s pipes as in-order queues', () => {
  it('pipes run side by side until a flag orders them', () => {
    const p = new CorePipeline();
    p.issue('PIPE_MTE2', c(100), 'TLOAD'); // 0..100
    p.issue('PIPE_V', c(30), 'TADD'); // 0..30: no flag, the vector pipe does not wait
    expect(p.total()).toBe(100);
    p.setFlag('PIPE_MTE2', 'PIPE_V', 0); // fires at 100
    p.waitFlag('PIPE_MTE2', 'PIPE_V', 0);
    expect(p.issue('PIPE_V', c(50), 'TADD')).toEqual({ start: 100, end: 150 });
    p.setFlag('PIPE_V', 'PIPE_MTE3', 1);
    p.waitFlag('PIPE_V', 'PIPE_MTE3', 1);
    expect(p.issue('PIPE_MTE3', c(40), 'TSTORE')).toEqual({ start: 150, end: 190 });
    expect(p.total()).toBe(190);
    expect(p.busyPipes()).toEqual([
      { pipe: 'PIPE_MTE2', busy: 100 },
      { pipe: 'PIPE_V', busy: 80 },
      { pipe: 'PIPE_MTE3', busy: 40 },
    ]);
  });

  it('a flag is consumed once, in the order flags were set; PIPE_ALL joins every pipe', () => {
    const p = new CorePipeline();
    p.issue('PIPE_MTE2', c(10), 'a');
    p.setFlag('PIPE_MTE2', 'PIPE_V', 0); // 10
    p.issue('PIPE_MTE2', c(10), 'b');
    p.setFlag('PIPE_MTE2', 'PIPE_V', 0); // 20
    p.waitFlag('PIPE_MTE2', 'PIPE_V', 0);
    expect(p.issue('PIPE_V', c(1), 'x').start).toBe(10);
    p.waitFlag('PIPE_MTE2', 'PIPE_V', 0);
    expect(p.issue('PIPE_V', c(1), 'y').start).toBe(20);
    p.issue('PIPE_MTE3', c(5), 'z'); // 0..5
    p.barrier('PIPE_ALL');
    expect(p.issue('PIPE_MTE3', c(5), 'w').start).toBe(21);
  });

  it('an op without data takes no time and is counted', () => {
    const p = new CorePipeline();
    p.issue('PIPE_V', { kind: 'no-data', pipe: 'vector', reason: 'none' }, 'TGATHER');
    p.issue('PIPE_V', c(8), 'TADD');
    const s = summarize([p], 1.85e9);
    expect(s.noData).toEqual([['TGATHER', 1]]);
    expect(s.totalCycles).toBe(8);
  });

  it('summarizes: the slowest core sets the time, its busiest pipe is named', () => {
    const a = new CorePipeline();
    a.issue('PIPE_MTE2', c(830), 'TLOAD');
    a.issue('PIPE_V', c(200), 'TADD');
    a.barrier('PIPE_ALL');
    a.issue('PIPE_MTE3', c(170), 'TSTORE');
    const b = new CorePipeline();
    b.issue('PIPE_V', c(10), 'TADD');
    const s = summarize([b, a], 1e9);
    expect(s.totalCycles).toBe(1000);
    expect(s.microseconds).toBeCloseTo(1);
    expect(s.bottleneck).toBe('MTE2 busy 83%: loads from GM bound the run; V busy 20%, MTE3 busy 17%');
  });
});

describe('waits for another core', () => {
  it('a wait naming a pipe holds that pipe; a scalar wait holds every op issued after it; flows go to the op held', () => {
    const p = new CorePipeline('PIPE_ALL', 0, true);
    p.issue('PIPE_MTE2', c(10), 'TLOAD'); // 0..10
    p.hold('PIPE_V', { time: 50 }, 'sync.wait', 'cross-core');
    expect(p.issue('PIPE_MTE2', c(5), 'TLOAD').start).toBe(10); // another pipe runs on
    expect(p.issue('PIPE_V', c(5), 'TADD').start).toBe(50);
    const from = p.slices[0];
    p.hold(undefined, { time: 100, from }, 'tpop', 'cross-core');
    expect(p.issue('PIPE_MTE3', c(5), 'TSTORE').start).toBe(100);
    expect(p.waited).toBe(50 + (100 - 55));
    expect(p.flows.map((f) => [f.from.name, f.to?.name])).toEqual([['TLOAD', 'TSTORE']]);
  });
});
