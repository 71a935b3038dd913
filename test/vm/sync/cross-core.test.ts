/**
 * Races between the cores of a launch on global memory (W0703), and pto.syncall. Each kernel is a mixed kernel
 * (a cube core and two vector cores per block) over %out, 3 rows of 16 f32 (element = 16 row + col, 4 bytes
 * each); which elements and bytes race is worked out from the ops by hand.
 */
import { assemble } from '../../../src/verify/assemble';
import { formatAll } from '../../../src/diag/diagnostic';
import { LocatedError } from '../../../src/diag/located-error';
import { GlobalBuffer } from '../../../src/machine/memory';
import { runLaunch, RunResult, Value } from '../../../src/vm/interpreter';

const VEC = '!pto.tile_buf<loc=vec, dtype=f32, rows=1, cols=16, v_row=1, v_col=16, blayout=row_major, slayout=none_box, fractal=512, pad=0>';
const ROW = '!pto.partition_tensor_view<1x16xf32>';

/** The kernel's head: constants, and %row, the view of row `sub-block` of %out (each vector core's own row). */
const HEAD = `func.func @k(%out: !pto.ptr<f32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c6 = arith.constant 6 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  %seven = arith.constant 7.0 : f32
  %v = pto.make_tensor_view %out, shape = [%c3, %c16], strides = [%c16, %c1] : !pto.tensor_view<?x?xf32>
`;

/** Each vector core stores a tile into its own row (vector 0: elements 0..15, vector 1: 16..31), after `before`. */
const vectorStoresItsRow = (before = '', attrs = '') => `  pto.section.vector {
    %sb = pto.get_subblock_idx
    %sbi = arith.index_cast %sb : i64 to index
    %row = pto.partition_view %v, offsets = [%sbi, %c0], sizes = [%c1, %c16] : !pto.tensor_view<?x?xf32> -> ${ROW}
    %t = pto.alloc_tile : ${VEC}
${before}    pto.tstore ins(%t : ${VEC}) outs(%row : ${ROW}) ${attrs}
  }
`;

/** The cube core stores 7.0 into elements first..first+3 (one pto.store_scalar in a loop), then runs `after`. */
const cubeStores = (first: string, after = '') => `  pto.section.cube {
    %end = arith.addi ${first}, %c3 : index
    scf.for %i = ${first} to %end step %c1 {
      pto.store_scalar %seven, %out[%i] : !pto.ptr<f32>, f32
    }
    %last = arith.addi ${first}, %c3 : index
    pto.store_scalar %seven, %out[%last] : !pto.ptr<f32>, f32
${after}  }
`;

function launch(text: string, blocks = 1, scheduleSeed?: number, subblocks?: number, fastPaths = true): RunResult & { out: Float32Array } {
  const asm = assemble('k.pto', text, { target: 'a5' });
  if (asm.diags.hasErrors()) throw new Error(formatAll(asm.diags));
  const fn = [...asm.program.functions.values()].find((f) => f.symbol === 'k')!;
  const out = new GlobalBuffer('out', 'f32', new Uint8Array(48 * 4));
  const result = runLaunch(
    asm.program,
    asm.types,
    fn,
    new Map<string, Value>([['%out', out]]),
    { numerics: 'npu', maxSteps: 100_000, scheduleSeed, fastPaths },
    blocks,
    subblocks,
  );
  return { ...result, out: new Float32Array(out.bytes.buffer.slice(0)) };
}

const lineOf = (text: string, offset: number) => text.slice(0, offset).split('\n').length;
const lineWith = (text: string, needle: string) => text.split('\n').findIndex((l) => l.includes(needle)) + 1;

describe('races between cores on global memory', () => {
  // The cube stores elements 2..5 (a loop for 2, 3, 4, then 5 by another op); vector 0's tstore covers 0..15.
  const racing = HEAD + cubeStores('%c2') + vectorStoresItsRow() + '  return\n}\n';

  it('the cube and vector 0 write the same bytes with no flag: one report per pair of ops, naming cores, ops, elements and bytes', () => {
    const { sync } = launch(racing);
    expect(sync.map((f) => f.kind?.code)).toEqual(['W0703', 'W0703']);
    // Round robin: the cube runs to its end first, then vector 0 stores its row over the cube's elements.
    expect(sync.map((f) => f.message)).toEqual([
      "block 0, vector 0: pto.tstore writes elements 2..4 of %out (bytes 8..19), which block 0, cube's pto.store_scalar wrote, and no flag or barrier orders the two cores' accesses",
      "block 0, vector 0: pto.tstore writes element 5 of %out (bytes 20..23), which block 0, cube's pto.store_scalar wrote, and no flag or barrier orders the two cores' accesses",
    ]);
    const tstoreLine = lineWith(racing, 'pto.tstore');
    expect(sync.map((f) => lineOf(racing, f.span.start))).toEqual([tstoreLine, tstoreLine]);
    // The notes point at the loop's store (elements 2..4) and at the store after the loop (element 5).
    const [loopStore, lastStore] = racing
      .split('\n')
      .map((l, i) => (l.includes('pto.store_scalar') ? i + 1 : 0))
      .filter((n) => n > 0);
    expect(sync.map((f) => [f.notes![0].message, lineOf(racing, f.notes![0].span.start)])).toEqual([
      ['block 0, cube: pto.store_scalar writes them here', loopStore],
      ['block 0, cube: pto.store_scalar writes them here', lastStore],
    ]);
  });

  it("the tstore's rows, copied at once by the fast path, are seen as the general path's element by element", () => {
    for (const seed of [undefined, 0, 1, 2, 3]) {
      const fast = launch(racing, 1, seed, undefined, true);
      const general = launch(racing, 1, seed, undefined, false);
      expect(fast.sync).toHaveLength(2);
      expect(fast.sync.map((f) => f.message)).toEqual(general.sync.map((f) => f.message));
      expect(fast.out).toEqual(general.out);
    }
  });

  it('another interleaving reports the same pairs the other way round (the cube writes after vector 0)', () => {
    // A seed that runs vector 0 before the cube; whichever order, the same two pairs race.
    const orders = [0, 1, 2, 3, 4, 5, 6, 7].map((seed) => launch(racing, 1, seed).sync.map((f) => f.message.split(':')[0]));
    for (const reported of orders) expect(reported).toHaveLength(2);
    expect(orders.some((o) => o[0] === 'block 0, cube')).toBe(true);
  });

  it('a flag from the cube to its vector cores (sync.set / sync.wait) orders the accesses: no report', () => {
    const text = HEAD + cubeStores('%c2', '    pto.sync.set <PIPE_FIX>, 0\n') + vectorStoresItsRow('    pto.sync.wait <PIPE_V>, 0\n') + '  return\n}\n';
    const { sync, out } = launch(text);
    expect(sync).toEqual([]);
    // The vector store came after the cube's: its zeros won.
    expect(Array.from(out.slice(0, 8))).toEqual([0, 0, 0, 0, 0, 0, 0, 0]);
  });

  it('an event id given at run time (an index value) pairs like the literal: the cube sets 2 + 1, the vector cores wait for 3', () => {
    const dynamic = (wait: string) =>
      HEAD.replace('%v =', '%id = arith.addi %c2, %c1 : index\n  %v =') +
      cubeStores('%c2', '    pto.sync.set <PIPE_FIX>, %id\n') +
      vectorStoresItsRow(`    pto.sync.wait <PIPE_V>, ${wait}\n`) +
      '  return\n}\n';
    for (const wait of ['%c3', '%id', '3']) {
      const { sync, out } = launch(dynamic(wait));
      expect(sync).toEqual([]);
      expect(Array.from(out.slice(0, 8))).toEqual([0, 0, 0, 0, 0, 0, 0, 0]);
    }
    // Waiting for flag 2 instead: no core ever sets it.
    expect(() => launch(dynamic('%c2'))).toThrow(/^deadlock: .*block 0, vector 0 waits at pto.sync.wait for flag 2 \(1 signal; 0 counted\)/);
  });

  it("an event id given at run time past A5's 16 FFTS flags traps at the operand, as the literal is refused", () => {
    const text = HEAD + cubeStores('%c2', '    %big = arith.addi %c16, %c0 : index\n    pto.sync.set <PIPE_FIX>, %big\n') + '  return\n}\n';
    expect(() => launch(text)).toThrow('pto.sync.set: event id 16 is out of range 0..15');
  });

  it('a negative event id (PTOAS accepts any i32 on A2/A3) traps as not implemented, written, as its i32 bits or at run time', () => {
    /** A2/A3 kernel: the cube runs `cube`, the vector cores `vector` (with the FFTS base PTOAS requires there). */
    const a2a3 = (cube: string, vector: string) => {
      const text =
        'func.func @k(%ffts: !pto.ptr<i64>) {\n  pto.set_ffts %ffts : !pto.ptr<i64>\n  %c0 = arith.constant 0 : index\n  %c1 = arith.constant 1 : index\n' +
        `  %m1 = arith.subi %c0, %c1 : index\n  pto.section.cube {\n${cube}  }\n  pto.section.vector {\n${vector}  }\n  return\n}\n`;
      const asm = assemble('k.pto', text, { target: 'a2a3' });
      if (asm.diags.hasErrors()) throw new Error(formatAll(asm.diags));
      const fn = [...asm.program.functions.values()][0];
      const ffts = new GlobalBuffer('ffts', 'i64', new Uint8Array(8));
      return () => runLaunch(asm.program, asm.types, fn, new Map<string, Value>([['%ffts', ffts]]), { numerics: 'npu', maxSteps: 10_000 }, 1);
    };
    const what = (op: string, intrinsic: string) =>
      `${op} with the negative event id -1 is not implemented yet: PTOAS passes it on to the FFTS flag intrinsics (${intrinsic}), and which flag that is is not known`;
    expect(a2a3('    pto.sync.set <PIPE_FIX>, -1\n', '')).toThrow(what('pto.sync.set', 'ffts_cross_core_sync'));
    expect(a2a3('    pto.sync.set <PIPE_FIX>, 4294967295\n', '')).toThrow(what('pto.sync.set', 'ffts_cross_core_sync'));
    expect(a2a3('', '    pto.sync.wait <PIPE_V>, %m1\n')).toThrow(what('pto.sync.wait', 'wait_flag_dev'));
    // Id 0 runs: the cube's signal reaches each vector core, which waits for one.
    expect(a2a3('    pto.sync.set <PIPE_FIX>, 0\n', '    pto.sync.wait <PIPE_V>, 0\n')().sync).toEqual([]);
  });

  it('a flag to the wrong core does not order them: vector 1 is told, vector 0 still races', () => {
    // The cube's set (mode 2) reaches both vector cores; only vector 1 waits for it, so vector 0 is unordered.
    const text =
      HEAD +
      cubeStores('%c2', '    pto.sync.set <PIPE_FIX>, 0\n') +
      vectorStoresItsRow(`    %is1 = arith.cmpi eq, %sbi, %c1 : index\n    scf.if %is1 {\n      pto.sync.wait <PIPE_V>, 0\n    }\n`) +
      '  return\n}\n';
    expect(launch(text).sync.map((f) => f.message.split(':')[0])).toEqual(['block 0, vector 0', 'block 0, vector 0']);
  });

  it('different bytes do not race: the cube writes row 2, which no vector core touches', () => {
    expect(launch(HEAD + cubeStores('%c32') + vectorStoresItsRow() + '  return\n}\n').sync).toEqual([]);
  });

  it('two vector cores (a vector kernel launched with 2 sub-blocks) adding atomically to the same row do not race; a plain store does', () => {
    const both = (attrs: string) => `${HEAD}  pto.section.vector {
    %row = pto.partition_view %v, offsets = [%c0, %c0], sizes = [%c1, %c16] : !pto.tensor_view<?x?xf32> -> ${ROW}
    %t = pto.alloc_tile : ${VEC}
    pto.tstore ins(%t : ${VEC}) outs(%row : ${ROW}) ${attrs}
  }
  return
}
`;
    expect(launch(both('{atomicType = #pto<atomic_type atomic_add>}'), 1, undefined, 2).sync).toEqual([]);
    expect(launch(both(''), 1, undefined, 2).sync.map((f) => f.message)).toEqual([
      "block 0, sub-block 1: pto.tstore writes elements 0..15 of %out (bytes 0..63), which block 0, sub-block 0's pto.tstore wrote, and no flag or barrier orders the two cores' accesses",
    ]);
  });

  it('blocks that race the same way are one report, counting the other pairs of cores', () => {
    const { sync } = launch(racing, 2);
    // Both blocks use the same rows: the cube's loop store and vector 0's tstore race in 4 pairs of cores (block 0 cube
    // with both blocks' vector 0, block 1 cube with both); each pair of ops (the two stores of the cubes, the tstores)
    // is one report, naming the first pair of cores.
    expect(sync).toHaveLength(5);
    expect(sync[0].message).toMatch(/^block 0, vector 0: pto.tstore writes elements 2..4 of %out .* \(3 more pairs of cores race through these ops\)$/);
  });

  it('a run of one core looks for no races', () => {
    const text = `func.func @k(%out: !pto.ptr<f32>) {
  %c0 = arith.constant 0 : index
  %seven = arith.constant 7.0 : f32
  pto.store_scalar %seven, %out[%c0] : !pto.ptr<f32>, f32
  %x = pto.load_scalar %out[%c0] : !pto.ptr<f32> -> f32
  return
}
`;
    expect(launch(text).sync).toEqual([]);
  });
});

describe('pto.syncall', () => {
  const SYNCALL = 'pto.syncall() mode = #pto.sync_all_mode<hard>, core_type = #pto.sync_core_type<mix>';
  /** Each core prints before and after `barrier`; the vector cores store their rows before it, the cube reads after. */
  const kernel = (barrier: string, cubeBarrier = barrier) => `${HEAD}  %one = arith.constant 1 : i32
  pto.section.cube {
    pto.print ins("cube before", %one : i32)
    ${cubeBarrier}
    pto.print ins("cube after", %one : i32)
    %x = pto.load_scalar %out[%c6] : !pto.ptr<f32> -> f32
  }
${vectorStoresItsRow('    pto.print ins("vector before", %one : i32)\n')}
  pto.section.vector {
    ${barrier}
    pto.print ins("vector after", %one : i32)
  }
  return
}
`;

  it('no core goes on before every core arrived: every "before" is printed before any "after"', () => {
    const { printed } = launch(kernel(SYNCALL));
    expect(printed).toEqual(['cube before', 'vector before', 'vector before', 'cube after', 'vector after', 'vector after']);
    for (const seed of [1, 2, 3, 4]) {
      const p = launch(kernel(SYNCALL), 1, seed).printed;
      expect(p.slice(0, 3).every((s) => s.endsWith('before'))).toBe(true);
    }
  });

  it('the barrier orders the vector cores stores before the cube load: the race it hides without the barrier goes away', () => {
    // Without it, the cube reads element 6 (bytes 24..27) which vector 0's tstore writes.
    const without = launch(kernel('', '')).sync;
    expect(without.map((f) => f.message)).toEqual([
      "block 0, vector 0: pto.tstore writes element 6 of %out (bytes 24..27), which block 0, cube's pto.load_scalar read, and no flag or barrier orders the two cores' accesses",
    ]);
    expect(launch(kernel(SYNCALL)).sync).toEqual([]);
  });

  it('aiv_only joins the vector cores only; the cube passes at once', () => {
    const aiv = SYNCALL.replace('<mix>', '<aiv_only>');
    const { printed } = launch(kernel(aiv));
    expect(printed.slice(0, 2)).toEqual(['cube before', 'cube after']);
  });

  it('a core that never arrives leaves the others waiting: a deadlock naming them', () => {
    let error: unknown;
    try {
      launch(kernel(SYNCALL, ''));
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(LocatedError);
    const e = error as LocatedError;
    expect(e.diagnostic.code).toBe('E0803');
    expect(e.message).toBe(
      'deadlock: none of the 2 waiting cores can go on: block 0, vector 0 waits at pto.syncall for every core of pto.syncall (mix) to arrive (3 must; 2 arrived)',
    );
    expect(e.notes!.map((n) => n.message)).toEqual([
      'block 0, vector 1 waits at pto.syncall for every core of pto.syncall (mix) to arrive (3 must; 2 arrived)',
    ]);
  });
});

describe('FFTS modes', () => {
  it('ffts_mode written on sync.set / sync.wait reaches the verified op (PTOAS lowers it into the FFTS message)', () => {
    const text = `func.func @k() {
  pto.sync.set <PIPE_MTE3>, 0 {ffts_mode = 0 : i32}
  pto.sync.set <PIPE_MTE3>, 1 {ffts_mode = 1 : i32}
  pto.sync.set <PIPE_MTE3>, 2 {ffts_mode = 2 : i32}
  pto.sync.wait <PIPE_V>, 2 {ffts_mode = 2 : i32}
  return
}
`;
    const asm = assemble('m.pto', text, { target: 'a5' });
    expect(formatAll(asm.diags)).toBe('');
    expect([...asm.program.syncOps.values()].map((s) => s.values.get('ffts_mode'))).toEqual([0, 1, 2, 2]);
  });

  it('ffts_mode outside 0..2 is an error (PTOAS: requires ffts_mode in range [0, 2])', () => {
    const asm = assemble('m.pto', 'func.func @k() {\n  pto.sync.set <PIPE_V>, 0 {ffts_mode = 3 : i32}\n  return\n}\n', { target: 'a5' });
    expect(formatAll(asm.diags)).toMatch(/error\[E0701\]: pto.sync.set: ffts_mode: must be in 0..2, got 3/);
  });

  /** Vector 0 stores its row; vector 1 then reads element 0 of it, after `between` in both vector cores. */
  const vectorsExchange = (between: string) => `${HEAD}  pto.section.cube {
  }
${vectorStoresItsRow()}  pto.section.vector {
${between}    %x = pto.load_scalar %out[%c0] : !pto.ptr<f32> -> f32
  }
  return
}
`;

  it('mode 1 (sub-block) is a barrier between the vector cores of a block: it orders vector 0 store before vector 1 load', () => {
    expect(launch(vectorsExchange('')).sync.map((f) => f.message.split(',')[1])).toEqual([' vector 1: pto.load_scalar reads element 0 of %out (bytes 0..3)']);
    // (A5 sync.wait names FIX, MTE1, MTE2, MTE3 or V: PTOAS SyncWaitOp::verify.)
    const mode1 = '    pto.sync.set <PIPE_MTE3>, 1 {ffts_mode = 1 : i32}\n    pto.sync.wait <PIPE_V>, 1 {ffts_mode = 1 : i32}\n';
    expect(launch(vectorsExchange(mode1)).sync).toEqual([]);
    // Mode 2 (the default) goes to the cube, which never waits: it does not order the vector cores.
    const mode2 = '    pto.sync.set <PIPE_MTE3>, 1\n';
    expect(launch(vectorsExchange(mode2)).sync).toHaveLength(1);
  });

  it('in a kernel for one kind of core, set/wait_cross_block (mode 0) is a barrier across the blocks', () => {
    const text = (between: string) => `${HEAD}  %b = pto.get_block_idx
  %bi = arith.index_cast %b : i64 to index
  %row = pto.partition_view %v, offsets = [%bi, %c0], sizes = [%c1, %c16] : !pto.tensor_view<?x?xf32> -> ${ROW}
  %t = pto.alloc_tile : ${VEC}
  pto.tstore ins(%t : ${VEC}) outs(%row : ${ROW})
${between}  %x = pto.load_scalar %out[%c16] : !pto.ptr<f32> -> f32
  return
}
`;
    // Block 0 reads element 16 (bytes 64..67), which block 1 stores.
    expect(launch(text(''), 2).sync.map((f) => f.message.split(':')[0])).toEqual(['block 1']);
    expect(launch(text('  pto.set_cross_block <PIPE_MTE3>, 2\n  pto.wait_cross_block <PIPE_V>, 2\n'), 2).sync).toEqual([]);
  });
});
