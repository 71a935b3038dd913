/** The cores of a launch run together: cross-core flags make a core wait, a cycle of waits is a deadlock, seeds give other interleavings. */
import { assemble } from '../../src/verify/assemble';
import { formatAll } from '../../src/diag/diagnostic';
import { LocatedError } from '../../src/diag/located-error';
import { runLaunch, RunResult } from '../../src/vm/interpreter';

function launch(text: string, blocks = 1, scheduleSeed?: number): RunResult {
  const asm = assemble('k.pto', text, { target: 'a5' });
  if (asm.diags.hasErrors()) throw new Error(formatAll(asm.diags));
  const fn = [...asm.program.functions.values()].find((f) => f.symbol === 'k')!;
  return runLaunch(asm.program, asm.types, fn, new Map(), { numerics: 'npu', maxSteps: 10_000, scheduleSeed }, blocks);
}

function deadlockOf(text: string): LocatedError {
  try {
    launch(text);
  } catch (e) {
    if (e instanceof LocatedError) return e;
    throw e;
  }
  throw new Error('the run ended without a deadlock');
}

/** Each core prints which it is: `c` for the cube, `v0`/`v1` for the vector sub-blocks. */
const WHO = `    %sb = pto.get_subblock_idx
    %sb32 = arith.index_cast %sb : i64 to i32`;

describe('cross-core flags under the scheduler', () => {
  // The cube waits (mode 2) for flag 1 from both of its vector cores; the vector cores print before they set it.
  const cubeWaitsForVectors = `func.func @k() {
  %one = arith.constant 1 : i32
  pto.section.cube {
    pto.sync.wait <PIPE_FIX>, 1
    pto.print ins("cube %d", %one : i32)
  }
  pto.section.vector {
${WHO}
    pto.print ins("vector %d", %sb32 : i32)
    pto.sync.set <PIPE_V>, 1
  }
  return
}
`;

  it('a mixed kernel gets a cube core and two vector cores per block; the cube prints only after both vector cores set the flag', () => {
    expect(launch(cubeWaitsForVectors).printed).toEqual(['vector 0', 'vector 1', 'cube 1']);
  });

  it('every schedule seed keeps the order the flags impose', () => {
    for (const seed of [0, 1, 2, 3, 17, 99]) expect(launch(cubeWaitsForVectors, 1, seed).printed.at(-1)).toBe('cube 1');
  });

  it("blocks run together: each block's cube waits for its own vector cores only", () => {
    const printed = launch(cubeWaitsForVectors, 2).printed;
    expect(printed.filter((p) => p === 'cube 1')).toHaveLength(2);
    expect(printed.filter((p) => p.startsWith('vector'))).toHaveLength(4);
    // Round robin: block 0 cube waits, its vectors print, block 1 cube waits, its vectors print; then both cubes.
    expect(printed).toEqual(['vector 0', 'vector 1', 'vector 0', 'vector 1', 'cube 1', 'cube 1']);
  });

  it('a cycle of waits is a deadlock naming every waiting core, its op and what it waits for', () => {
    const text = `func.func @k() {
  pto.section.cube {
    pto.sync.wait <PIPE_FIX>, 1
    pto.sync.set <PIPE_FIX>, 0
  }
  pto.section.vector {
    pto.sync.wait <PIPE_V>, 0
    pto.sync.set <PIPE_V>, 1
  }
  return
}
`;
    const e = deadlockOf(text);
    const line = (offset: number) => text.slice(0, offset).split('\n').length;
    expect(e.diagnostic.code).toBe('E0803');
    expect(e.message).toBe('deadlock: none of the 3 waiting cores can go on: block 0, cube waits at pto.sync.wait for flag 1 (2 signals; 0 counted)');
    expect(line(e.span.start)).toBe(3);
    expect(e.notes!.map((n) => [n.message, line(n.span.start)])).toEqual([
      ['block 0, vector 0 waits at pto.sync.wait for flag 0 (1 signal; 0 counted)', 7],
      ['block 0, vector 1 waits at pto.sync.wait for flag 0 (1 signal; 0 counted)', 7],
    ]);
  });

  it('a wait nobody signals is a deadlock once the other cores have ended', () => {
    const e = deadlockOf(`func.func @k() {
  pto.section.vector {
    pto.sync.wait <PIPE_V>, 3
  }
  pto.section.cube {
    pto.sync.set <PIPE_FIX>, 2
  }
  return
}
`);
    expect(e.message).toMatch(/^deadlock: none of the 2 waiting cores can go on: block 0, vector 0 waits at pto.sync.wait for flag 3/);
  });

  it('a kernel for one kind of core runs its blocks one after another, as before', () => {
    const text = `func.func @k() {
  %b = pto.get_block_idx
  %b32 = arith.index_cast %b : i64 to i32
  pto.print ins("block %d", %b32 : i32)
  return
}
`;
    expect(launch(text, 3).printed).toEqual(['block 0', 'block 1', 'block 2']);
  });
});
