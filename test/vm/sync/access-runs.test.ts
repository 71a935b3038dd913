/** The race checker's shadow of one core's accesses to one buffer: runs of elements, split and merged as accesses land. */
import { AccessRuns, Segment } from '../../../src/vm/sync/cross-core';
import { OpNode } from '../../../src/syntax/ast';

const A = { name: 'a' } as OpNode;
const B = { name: 'b' } as OpNode;
const access = (start: number, end: number, op: OpNode, epoch = 1): Segment => ({ start, end, op, epoch, atomic: false });
const shape = (runs: AccessRuns) => runs.overlapping(0, 1000).map((s) => `${s.start}-${s.end}:${s.op.name}${s.epoch}`);

describe('AccessRuns', () => {
  it('an access inside a run splits it in three', () => {
    const runs = new AccessRuns();
    runs.assign(access(0, 10, A));
    runs.assign(access(3, 5, B));
    expect(shape(runs)).toEqual(['0-3:a1', '3-5:b1', '5-10:a1']);
  });

  it('an access over several runs replaces them, keeping the parts outside it', () => {
    const runs = new AccessRuns();
    runs.assign(access(0, 4, A));
    runs.assign(access(4, 8, B));
    runs.assign(access(8, 12, A, 2));
    runs.assign(access(2, 10, B, 3));
    expect(shape(runs)).toEqual(['0-2:a1', '2-10:b3', '10-12:a2']);
  });

  it('touching runs of the same access merge: a row stored element by element, or rows one after another, is one run', () => {
    const runs = new AccessRuns();
    for (let e = 0; e < 16; e++) runs.assign(access(e, e + 1, A));
    runs.assign(access(20, 24, A));
    runs.assign(access(16, 20, A));
    expect(shape(runs)).toEqual(['0-24:a1']);
  });

  it('the same rows written every iteration (a new epoch each) stay as many runs as rows', () => {
    const runs = new AccessRuns();
    for (let epoch = 1; epoch <= 100; epoch++) for (const row of [0, 32]) runs.assign(access(row, row + 16, A, epoch));
    expect(shape(runs)).toEqual(['0-16:a100', '32-48:a100']);
  });

  it('overlapping() returns only the runs that meet the range', () => {
    const runs = new AccessRuns();
    runs.assign(access(0, 4, A));
    runs.assign(access(8, 12, B));
    expect(runs.overlapping(4, 8)).toEqual([]);
    expect(runs.overlapping(3, 9).map((s) => s.op.name)).toEqual(['a', 'b']);
  });
});
