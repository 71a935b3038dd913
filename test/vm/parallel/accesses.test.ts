/** The records of what each core touched, and the conflict test that decides whether a parallel run stands. */
import fc from 'fast-check';
import { GlobalBuffer } from '../../../src/machine/memory';
import { AccessRecorder, CoreAccesses, MAX_RUNS, RunSet, findConflict } from '../../../src/vm/parallel/accesses';

const runs = (...pairs: [number, number][]) => Float64Array.from(pairs.flat());
const core = (reads: Float64Array[], writes: Float64Array[]): CoreAccesses => ({ reads, writes });
const none = runs();

describe('RunSet', () => {
  it('joins touching and overlapping runs, in any order', () => {
    const set = new RunSet();
    for (const [s, e] of [
      [10, 12],
      [0, 2],
      [2, 4],
      [11, 15],
      [20, 21],
      [3, 5],
    ])
      set.add(s, e);
    expect([...set.toArray()]).toEqual([0, 5, 10, 15, 20, 21]);
  });

  it('keeps at most MAX_RUNS runs, each covering what was added', () => {
    const set = new RunSet();
    const n = 3 * MAX_RUNS;
    for (let i = 0; i < n; i++) set.add(3 * i, 3 * i + 1);
    const out = set.toArray();
    expect(out.length / 2).toBeLessThanOrEqual(MAX_RUNS);
    for (let i = 0; i < n; i++) {
      let covered = false;
      for (let k = 0; k < out.length; k += 2) covered ||= out[k] <= 3 * i && 3 * i + 1 <= out[k + 1];
      expect(covered).toBe(true);
    }
  });
});

describe('AccessRecorder', () => {
  it("gathers a core's consecutive elements into runs, reads and writes apart, per buffer", () => {
    const a = new GlobalBuffer('a', 'f32', new Uint8Array(400));
    const b = new GlobalBuffer('b', 'f32', new Uint8Array(400));
    const recorder = new AccessRecorder([a, b]);
    recorder.begin();
    for (let i = 10; i < 20; i++) recorder.access(a, i, 'read');
    for (let i = 5; i >= 0; i--) recorder.access(b, i, 'write');
    recorder.access(a, 50, 'atomic');
    for (let i = 20; i < 25; i++) recorder.access(a, i, 'read');
    const record = recorder.end();
    expect([...record.reads[0]]).toEqual([10, 25]);
    expect([...record.writes[0]]).toEqual([50, 51]);
    expect([...record.writes[1]]).toEqual([0, 6]);
    expect([...record.reads[1]]).toEqual([]);
  });
});

describe('AccessRecorder runs', () => {
  it('records a run as it records each of its elements in turn', () => {
    const access = fc.record({
      buffer: fc.nat(1),
      start: fc.nat(40),
      length: fc.integer({ min: 1, max: 6 }),
      how: fc.constantFrom('read', 'write', 'atomic') as fc.Arbitrary<'read' | 'write' | 'atomic'>,
    });
    fc.assert(
      fc.property(fc.array(access, { maxLength: 12 }), (accesses) => {
        const buffers = [new GlobalBuffer('a', 'f32', new Uint8Array(256)), new GlobalBuffer('b', 'f32', new Uint8Array(256))];
        const byRuns = new AccessRecorder(buffers);
        const byElements = new AccessRecorder(buffers);
        byRuns.begin();
        byElements.begin();
        for (const a of accesses) {
          byRuns.accessRun(buffers[a.buffer], a.start, a.start + a.length, a.how);
          for (let i = a.start; i < a.start + a.length; i++) byElements.access(buffers[a.buffer], i, a.how);
        }
        expect(byRuns.end()).toEqual(byElements.end());
      }),
    );
  });
});

describe('findConflict', () => {
  it('reads of the same elements by several cores do not conflict', () => {
    expect(findConflict([core([runs([0, 10])], [none]), core([runs([5, 15])], [none])], 1)).toBeUndefined();
  });

  it('a core may read what it writes; neighbours that only touch do not conflict', () => {
    expect(findConflict([core([runs([0, 10])], [runs([0, 10])]), core([runs([10, 20])], [runs([10, 20])])], 1)).toBeUndefined();
  });

  it('a write of one core and a read or write of another do, whichever comes first', () => {
    expect(findConflict([core([none], [runs([0, 10])]), core([runs([9, 12])], [none])], 1)).toEqual({ buffer: 0, element: 9, cores: [0, 1] });
    expect(findConflict([core([runs([0, 10])], [none]), core([none], [runs([9, 12])])], 1)).toEqual({ buffer: 0, element: 9, cores: [0, 1] });
    expect(findConflict([core([none], [runs([5, 6])]), undefined, core([none], [runs([0, 100])])], 1)).toEqual({ buffer: 0, element: 5, cores: [0, 2] });
  });

  it('only elements of the same buffer meet', () => {
    expect(findConflict([core([none, none], [runs([0, 10]), none]), core([none, runs([0, 10])], [none, none])], 2)).toBeUndefined();
  });

  it('agrees with a pairwise check on random runs', () => {
    const run = fc.tuple(fc.nat(60), fc.integer({ min: 1, max: 8 })).map(([s, n]): [number, number] => [s, s + n]);
    const setOf = fc.array(run, { maxLength: 4 }).map((pairs) => {
      const set = new RunSet();
      for (const [s, e] of pairs.sort((x, y) => x[0] - y[0])) set.add(s, e);
      return set.toArray();
    });
    const cores = fc.array(fc.record({ reads: setOf, writes: setOf }), { minLength: 1, maxLength: 5 });
    fc.assert(
      fc.property(cores, (list) => {
        const overlap = (x: Float64Array, y: Float64Array) => {
          for (let i = 0; i < x.length; i += 2) for (let j = 0; j < y.length; j += 2) if (x[i] < y[j + 1] && y[j] < x[i + 1]) return true;
          return false;
        };
        let expected = false;
        list.forEach((p, i) =>
          list.forEach((q, j) => {
            if (i !== j && (overlap(p.writes, q.writes) || overlap(p.writes, q.reads))) expected = true;
          }),
        );
        const accesses = list.map((c) => core([c.reads], [c.writes]));
        expect(findConflict(accesses, 1) !== undefined).toBe(expected);
      }),
    );
  });
});
