/** Pipes between the cube core and the vector cores, run by the VM: slots, FIFO order, split halves, both directions, waits. */
import { assemble } from '../../../src/verify/assemble';
import { formatAll } from '../../../src/diag/diagnostic';
import { LocatedError } from '../../../src/diag/located-error';
import { GlobalBuffer } from '../../../src/machine/memory';
import { runLaunch, RunResult } from '../../../src/vm/interpreter';

const MAT = '!pto.tile_buf<loc=mat, dtype=f32, rows=16, cols=16, v_row=16, v_col=16, blayout=col_major, slayout=row_major, fractal=512, pad=0>';
const LEFT = '!pto.tile_buf<loc=left, dtype=f32, rows=16, cols=16, v_row=16, v_col=16, blayout=col_major, slayout=row_major, fractal=512, pad=0>';
const RIGHT = '!pto.tile_buf<loc=right, dtype=f32, rows=16, cols=16, v_row=16, v_col=16, blayout=row_major, slayout=col_major, fractal=512, pad=0>';
const ACC = '!pto.tile_buf<loc=acc, dtype=f32, rows=16, cols=16, v_row=16, v_col=16, blayout=col_major, slayout=row_major, fractal=1024, pad=0>';
const vec = (rows: number) =>
  `!pto.tile_buf<loc=vec, dtype=f32, rows=${rows}, cols=16, v_row=${rows}, v_col=16, blayout=row_major, slayout=none_box, fractal=512, pad=0>`;
const PART = (rows: number) => `!pto.partition_tensor_view<${rows}x16xf32>`;
const VIEW = '!pto.tensor_view<?x?xf32>';

interface C2V {
  split: 0 | 1;
  /** How many 16x16 entries the cube pushes (B's blocks, one after another). */
  count: number;
  slots: number;
  /** The vector cores free each entry after storing it (else they pop them all and never free). */
  frees: boolean;
}

/**
 * The cube computes I x B_i (B_i: block i of %b) for each i and pushes it; each vector core pops it (its half for
 * split 1, all of it for split 0) and stores it to block i of %out (at its half's rows for split 1; vector core k at
 * block i of %out + k * count * 256 for split 0).
 */
function c2vKernel({ split, count, slots, frees }: C2V): string {
  const rows = split === 1 ? 8 : 16;
  const slotBytes = 1024;
  return `module {
  func.func @k(%a: !pto.ptr<f32>, %b: !pto.ptr<f32>, %out: !pto.ptr<f32>) attributes {pto.entry} {
    func.call @k_cube(%a, %b, %out) : (!pto.ptr<f32>, !pto.ptr<f32>, !pto.ptr<f32>) -> ()
    func.call @k_vector(%a, %b, %out) : (!pto.ptr<f32>, !pto.ptr<f32>, !pto.ptr<f32>) -> ()
    return
  }
  func.func private @k_cube(%a: !pto.ptr<f32>, %b: !pto.ptr<f32>, %out: !pto.ptr<f32>) attributes {pto.kernel_kind = #pto.kernel_kind<cube>} {
    %c0_i32 = arith.constant 0 : i32
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    %cn = arith.constant ${count} : index
    %rows = arith.constant ${16 * count} : index
    %buf = pto.import_reserved_buffer {name = "fifo", peer_func = @k_vector} -> i32
    pto.aic_initialize_pipe {id = 0, dir_mask = 1, slot_size = ${slotBytes}, slot_num = ${slots}} (c2v_consumer_buf = %buf : i32, v2c_consumer_buf = %c0_i32 : i32)
    %ma = pto.alloc_tile : ${MAT}
    %mb = pto.alloc_tile : ${MAT}
    %l = pto.alloc_tile : ${LEFT}
    %r = pto.alloc_tile : ${RIGHT}
    %acc = pto.alloc_tile : ${ACC}
    %av = pto.make_tensor_view %a, shape = [%c16, %c16], strides = [%c16, %c1] : ${VIEW}
    %bv = pto.make_tensor_view %b, shape = [%rows, %c16], strides = [%c16, %c1] : ${VIEW}
    %ap = pto.partition_view %av, offsets = [%c0, %c0], sizes = [%c16, %c16] : ${VIEW} -> ${PART(16)}
    pto.tload ins(%ap : ${PART(16)}) outs(%ma : ${MAT})
    pto.tmov ins(%ma : ${MAT}) outs(%l : ${LEFT})
    scf.for %i = %c0 to %cn step %c1 {
      %row = arith.muli %i, %c16 : index
      %bp = pto.partition_view %bv, offsets = [%row, %c0], sizes = [%c16, %c16] : ${VIEW} -> ${PART(16)}
      pto.tload ins(%bp : ${PART(16)}) outs(%mb : ${MAT})
      pto.tmov ins(%mb : ${MAT}) outs(%r : ${RIGHT})
      pto.tmatmul ins(%l, %r : ${LEFT}, ${RIGHT}) outs(%acc : ${ACC})
      pto.tpush_to_aiv(%acc : ${ACC}) {id = 0, split = ${split}}
    }
    return
  }
  func.func private @k_vector(%a: !pto.ptr<f32>, %b: !pto.ptr<f32>, %out: !pto.ptr<f32>) attributes {pto.kernel_kind = #pto.kernel_kind<vector>} {
    %c0_i32 = arith.constant 0 : i32
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    %cn = arith.constant ${count} : index
    %half = arith.constant ${rows} : index
    %outrows = arith.constant ${16 * count * (split === 1 ? 1 : 2)} : index
    %buf = pto.reserve_buffer {name = "fifo", size = ${slotBytes * slots}, location = #pto.address_space<vec>, auto = true} -> i32
    pto.aiv_initialize_pipe {id = 0, dir_mask = 1, slot_size = ${slotBytes}, slot_num = ${slots}} (c2v_consumer_buf = %buf : i32, v2c_consumer_buf = %c0_i32 : i32)
    %sb = pto.get_subblock_idx
    %sbi = arith.index_cast %sb : i64 to index
    %ov = pto.make_tensor_view %out, shape = [%outrows, %c16], strides = [%c16, %c1] : ${VIEW}
    scf.for %i = %c0 to %cn step %c1 {
      %t = pto.tpop_from_aic {id = 0, split = ${split}} -> ${vec(rows)}
      %block = arith.muli %i, %c16 : index
      %mine = arith.muli %sbi, %half : index
      ${split === 1 ? '%row = arith.addi %block, %mine : index' : `%whose = arith.muli %sbi, %cn : index\n      %whose16 = arith.muli %whose, %c16 : index\n      %row = arith.addi %block, %whose16 : index`}
      %op = pto.partition_view %ov, offsets = [%row, %c0], sizes = [%half, %c16] : ${VIEW} -> ${PART(rows)}
      pto.tstore ins(%t : ${vec(rows)}) outs(%op : ${PART(rows)})
      ${frees ? `pto.tfree_from_aic {id = 0, split = ${split}}` : ''}
    }
    return
  }
}
`;
}

function f32Buffer(name: string, values: number[]): GlobalBuffer {
  const buffer = new GlobalBuffer(name, 'f32', new Uint8Array(values.length * 4));
  values.forEach((v, i) => buffer.view.setFloat32(i * 4, v, true));
  return buffer;
}

const floats = (buffer: GlobalBuffer) => Array.from({ length: buffer.length }, (_, i) => buffer.view.getFloat32(i * 4, true));

const identity = Array.from({ length: 256 }, (_, i) => (Math.floor(i / 16) === i % 16 ? 1 : 0));

/** B's block i, element (r, c) = 1000 i + 16 r + c: each entry tells which push it came from. */
const blocks = (count: number) => Array.from({ length: 256 * count }, (_, i) => 1000 * Math.floor(i / 256) + (i % 256));

function launch(text: string, entry: string, buffers: GlobalBuffer[], target: 'a5' | 'a2a3' = 'a5'): RunResult {
  const asm = assemble('k.pto', text, { target });
  if (asm.diags.hasErrors()) throw new Error(formatAll(asm.diags));
  const fn = [...asm.program.functions.values()].find((f) => f.symbol === entry)!;
  const args = new Map(buffers.map((b) => [`%${b.name}`, b]));
  return runLaunch(asm.program, asm.types, fn, args, { numerics: 'npu', maxSteps: 100_000 }, 1);
}

function errorOf(run: () => unknown): LocatedError {
  try {
    run();
  } catch (e) {
    if (e instanceof LocatedError) return e;
    throw e;
  }
  throw new Error('the run ended without an error');
}

describe('cube -> vector pipes', () => {
  it("split 1: each vector core pops its half of the rows of the cube's matmul result", () => {
    const out = f32Buffer('out', new Array(256).fill(-1));
    launch(c2vKernel({ split: 1, count: 1, slots: 8, frees: true }), 'k', [f32Buffer('a', identity), f32Buffer('b', blocks(1)), out]);
    // I x B = B: vector 0 stored rows 0..7, vector 1 rows 8..15.
    expect(floats(out)).toEqual(blocks(1));
  });

  it('split 0: every vector core pops the whole entry', () => {
    const out = f32Buffer('out', new Array(512).fill(-1));
    launch(c2vKernel({ split: 0, count: 1, slots: 8, frees: true }), 'k', [f32Buffer('a', identity), f32Buffer('b', blocks(1)), out]);
    expect(floats(out)).toEqual([...blocks(1), ...blocks(1)]);
  });

  it('entries come out in the order they went in, through 2 slots reused as the vector cores free them', () => {
    const out = f32Buffer('out', new Array(256 * 5).fill(-1));
    launch(c2vKernel({ split: 1, count: 5, slots: 2, frees: true }), 'k', [f32Buffer('a', identity), f32Buffer('b', blocks(5)), out]);
    expect(floats(out)).toEqual(blocks(5));
  });

  it('the cube kernel runs as a launch with the vector kernel its pipe names (no entry calling both)', () => {
    const out = f32Buffer('out', new Array(256).fill(-1));
    launch(c2vKernel({ split: 1, count: 1, slots: 8, frees: true }), 'k_cube', [f32Buffer('a', identity), f32Buffer('b', blocks(1)), out]);
    expect(floats(out)).toEqual(blocks(1));
  });

  it('a producer with every slot full waits: 3 pushes into 2 slots that are never freed deadlock at the third push', () => {
    const out = f32Buffer('out', new Array(256 * 3).fill(-1));
    const e = errorOf(() => launch(c2vKernel({ split: 1, count: 3, slots: 2, frees: false }), 'k', [f32Buffer('a', identity), f32Buffer('b', blocks(3)), out]));
    expect(e.message).toMatch(
      /^deadlock: none of the 3 waiting cores can go on: block 0, cube waits at pto\.tpush_to_aiv for a free slot of the pipe \(2 of 2 slots in use\)/,
    );
    expect(e.notes?.map((n) => n.message)).toEqual([
      'block 0, vector 0 waits at pto.tpop_from_aic for an entry of the pipe (the cube core to push entry 2)',
      'block 0, vector 1 waits at pto.tpop_from_aic for an entry of the pipe (the cube core to push entry 2)',
    ]);
    // The two entries that went through were stored.
    expect(floats(out).slice(0, 512)).toEqual(blocks(2));
  });

  it('a pop that no push feeds is a deadlock naming the pop', () => {
    const text = c2vKernel({ split: 1, count: 1, slots: 8, frees: true }).replace(/pto\.tpush_to_aiv\([^\n]*\n/, '\n');
    const e = errorOf(() => launch(text, 'k', [f32Buffer('a', identity), f32Buffer('b', blocks(1)), f32Buffer('out', new Array(256).fill(0))]));
    expect(e.message).toBe(
      'deadlock: none of the 2 waiting cores can go on: block 0, vector 0 waits at pto.tpop_from_aic for an entry of the pipe (the cube core to push entry 0)',
    );
    expect(text.slice(e.span.start, e.span.end)).toMatch(/^%t = pto\.tpop_from_aic/);
  });

  it('a tfree with nothing popped is a located trap', () => {
    const text = c2vKernel({ split: 1, count: 1, slots: 8, frees: true })
      .replace(/ {6}%t = pto\.tpop_from_aic[^\n]*\n/, '')
      .replace(/pto\.tstore ins\(%t[^\n]*\n/, '\n');
    const e = errorOf(() => launch(text, 'k', [f32Buffer('a', identity), f32Buffer('b', blocks(1)), f32Buffer('out', new Array(256).fill(0))]));
    expect(e.message).toBe('block 0, vector 0: pto.tfree_from_aic: this core has no popped entry of the pipe to free');
  });
});

describe('vector -> cube pipes', () => {
  const MAT_POP = '!pto.tile_buf<loc=mat, dtype=f32, rows=16, cols=16, v_row=16, v_col=16, blayout=col_major, slayout=row_major, fractal=512, pad=0>';
  // Each vector core loads its 8 rows of %x (split 1) and pushes them; the cube pops the 16x16 entry, computes X x I and stores it.
  const text = `module {
  func.func @k_cube(%x: !pto.ptr<f32>, %id: !pto.ptr<f32>, %out: !pto.ptr<f32>) attributes {pto.kernel_kind = #pto.kernel_kind<cube>} {
    %c0_i32 = arith.constant 0 : i32
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    %buf = pto.reserve_buffer {name = "v2c", size = 8192, location = #pto.address_space<mat>, auto = true} -> i32
    pto.aic_initialize_pipe {id = 0, dir_mask = 2, slot_size = 1024} (c2v_consumer_buf = %c0_i32 : i32, v2c_consumer_buf = %buf : i32)
    %mi = pto.alloc_tile : ${MAT}
    %l = pto.alloc_tile : ${LEFT}
    %r = pto.alloc_tile : ${RIGHT}
    %acc = pto.alloc_tile : ${ACC}
    %iv = pto.make_tensor_view %id, shape = [%c16, %c16], strides = [%c16, %c1] : ${VIEW}
    %ip = pto.partition_view %iv, offsets = [%c0, %c0], sizes = [%c16, %c16] : ${VIEW} -> ${PART(16)}
    pto.tload ins(%ip : ${PART(16)}) outs(%mi : ${MAT})
    pto.tmov ins(%mi : ${MAT}) outs(%r : ${RIGHT})
    %m = pto.tpop_from_aiv {id = 0, split = 1} -> ${MAT_POP}
    pto.tmov ins(%m : ${MAT_POP}) outs(%l : ${LEFT})
    pto.tfree_from_aiv {id = 0, split = 1}
    pto.tmatmul ins(%l, %r : ${LEFT}, ${RIGHT}) outs(%acc : ${ACC})
    %ov = pto.make_tensor_view %out, shape = [%c16, %c16], strides = [%c16, %c1] : ${VIEW}
    %op = pto.partition_view %ov, offsets = [%c0, %c0], sizes = [%c16, %c16] : ${VIEW} -> ${PART(16)}
    pto.tstore ins(%acc : ${ACC}) outs(%op : ${PART(16)})
    return
  }
  func.func @k_vector(%x: !pto.ptr<f32>, %id: !pto.ptr<f32>, %out: !pto.ptr<f32>) attributes {pto.kernel_kind = #pto.kernel_kind<vector>} {
    %c0_i32 = arith.constant 0 : i32
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %c16 = arith.constant 16 : index
    %buf = pto.import_reserved_buffer {name = "v2c", peer_func = @k_cube} -> i32
    pto.aiv_initialize_pipe {id = 0, dir_mask = 2, slot_size = 1024} (c2v_consumer_buf = %c0_i32 : i32, v2c_consumer_buf = %buf : i32)
    %sb = pto.get_subblock_idx
    %sbi = arith.index_cast %sb : i64 to index
    %row = arith.muli %sbi, %c8 : index
    %xv = pto.make_tensor_view %x, shape = [%c16, %c16], strides = [%c16, %c1] : ${VIEW}
    %xp = pto.partition_view %xv, offsets = [%row, %c0], sizes = [%c8, %c16] : ${VIEW} -> ${PART(8)}
    %t = pto.alloc_tile : ${vec(8)}
    pto.tload ins(%xp : ${PART(8)}) outs(%t : ${vec(8)})
    pto.tpush_to_aic(%t : ${vec(8)}) {id = 0, split = 1}
    return
  }
}
`;

  it('each vector core pushes its half of the rows; the cube pops the whole entry once both are in', () => {
    const x = blocks(1);
    const out = f32Buffer('out', new Array(256).fill(-1));
    launch(text, 'k_vector', [f32Buffer('x', x), f32Buffer('id', identity), out]);
    expect(floats(out)).toEqual(x);
  });
});

describe('pipes of GM slots (tensor_view entries)', () => {
  const SLOT = '!pto.tensor_view<16x16xf32>';
  // The cube takes a GM slot (talloc), stores I x B into it and commits it; each vector core pops a view of the slot,
  // loads it and stores it to %out (vector core k at rows 16 k), then frees it.
  const text = `module {
  func.func @k(%a: !pto.ptr<f32>, %b: !pto.ptr<f32>, %out: !pto.ptr<f32>, %slots: !pto.ptr<f32>) attributes {pto.entry} {
    func.call @k_cube(%a, %b, %out, %slots) : (!pto.ptr<f32>, !pto.ptr<f32>, !pto.ptr<f32>, !pto.ptr<f32>) -> ()
    func.call @k_vector(%a, %b, %out, %slots) : (!pto.ptr<f32>, !pto.ptr<f32>, !pto.ptr<f32>, !pto.ptr<f32>) -> ()
    return
  }
  func.func private @k_cube(%a: !pto.ptr<f32>, %b: !pto.ptr<f32>, %out: !pto.ptr<f32>, %slots: !pto.ptr<f32>) attributes {pto.kernel_kind = #pto.kernel_kind<cube>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    %gm = pto.make_tensor_view %slots, shape = [%c16, %c16], strides = [%c16, %c1] : ${SLOT}
    pto.aic_initialize_pipe {id = 0, dir_mask = 1, slot_size = 1024, slot_num = 2} (gm_slot_tensor = %gm : ${SLOT})
    %ma = pto.alloc_tile : ${MAT}
    %mb = pto.alloc_tile : ${MAT}
    %l = pto.alloc_tile : ${LEFT}
    %r = pto.alloc_tile : ${RIGHT}
    %acc = pto.alloc_tile : ${ACC}
    %av = pto.make_tensor_view %a, shape = [%c16, %c16], strides = [%c16, %c1] : ${VIEW}
    %bv = pto.make_tensor_view %b, shape = [%c16, %c16], strides = [%c16, %c1] : ${VIEW}
    %ap = pto.partition_view %av, offsets = [%c0, %c0], sizes = [%c16, %c16] : ${VIEW} -> ${PART(16)}
    %bp = pto.partition_view %bv, offsets = [%c0, %c0], sizes = [%c16, %c16] : ${VIEW} -> ${PART(16)}
    pto.tload ins(%ap : ${PART(16)}) outs(%ma : ${MAT})
    pto.tload ins(%bp : ${PART(16)}) outs(%mb : ${MAT})
    pto.tmov ins(%ma : ${MAT}) outs(%l : ${LEFT})
    pto.tmov ins(%mb : ${MAT}) outs(%r : ${RIGHT})
    pto.tmatmul ins(%l, %r : ${LEFT}, ${RIGHT}) outs(%acc : ${ACC})
    %e = pto.talloc_to_aiv {id = 0, split = 0} -> ${SLOT}
    %ep = pto.partition_view %e, offsets = [%c0, %c0], sizes = [%c16, %c16] : ${SLOT} -> ${PART(16)}
    pto.tstore ins(%acc : ${ACC}) outs(%ep : ${PART(16)})
    pto.tpush_to_aiv(%e : ${SLOT}) {id = 0, split = 0}
    return
  }
  func.func private @k_vector(%a: !pto.ptr<f32>, %b: !pto.ptr<f32>, %out: !pto.ptr<f32>, %slots: !pto.ptr<f32>) attributes {pto.kernel_kind = #pto.kernel_kind<vector>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    %c32 = arith.constant 32 : index
    %gm = pto.make_tensor_view %slots, shape = [%c16, %c16], strides = [%c16, %c1] : ${SLOT}
    pto.aiv_initialize_pipe {id = 0, dir_mask = 1, slot_size = 1024, slot_num = 2} (gm_slot_tensor = %gm : ${SLOT})
    %sb = pto.get_subblock_idx
    %sbi = arith.index_cast %sb : i64 to index
    %row = arith.muli %sbi, %c16 : index
    %e = pto.tpop_from_aic {id = 0, split = 0} -> ${SLOT}
    %ep = pto.partition_view %e, offsets = [%c0, %c0], sizes = [%c16, %c16] : ${SLOT} -> ${PART(16)}
    %t = pto.alloc_tile : ${vec(16)}
    pto.tload ins(%ep : ${PART(16)}) outs(%t : ${vec(16)})
    pto.tfree_from_aic(%e : ${SLOT}) {id = 0, split = 0}
    %ov = pto.make_tensor_view %out, shape = [%c32, %c16], strides = [%c16, %c1] : ${VIEW}
    %op = pto.partition_view %ov, offsets = [%row, %c0], sizes = [%c16, %c16] : ${VIEW} -> ${PART(16)}
    pto.tstore ins(%t : ${vec(16)}) outs(%op : ${PART(16)})
    return
  }
}
`;

  it('talloc gives the producer a view of the next GM slot; each vector core pops a view of it and reads what was stored', () => {
    const out = f32Buffer('out', new Array(512).fill(-1));
    const slots = f32Buffer('slots', new Array(512).fill(0));
    launch(text, 'k', [f32Buffer('a', identity), f32Buffer('b', blocks(1)), out, slots], 'a2a3');
    expect(floats(out)).toEqual([...blocks(1), ...blocks(1)]);
    // The entry went through slot 0 of the GM slots.
    expect(floats(slots).slice(0, 256)).toEqual(blocks(1));
  });
});

describe('the lowered forms (a !pto.pipe value, declare_tile, tpop into it)', () => {
  // PTOAS's lowering resolves the reserved buffer to a constant address: both ends pass the same one (4096).
  const text = `module {
  func.func @k(%a: !pto.ptr<f32>, %b: !pto.ptr<f32>, %out: !pto.ptr<f32>) attributes {pto.entry} {
    func.call @k_cube(%a, %b, %out) : (!pto.ptr<f32>, !pto.ptr<f32>, !pto.ptr<f32>) -> ()
    func.call @k_vector(%a, %b, %out) : (!pto.ptr<f32>, !pto.ptr<f32>, !pto.ptr<f32>) -> ()
    return
  }
  func.func private @k_cube(%a: !pto.ptr<f32>, %b: !pto.ptr<f32>, %out: !pto.ptr<f32>) attributes {pto.kernel_kind = #pto.kernel_kind<cube>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    %local = arith.constant 4096 : i32
    %pipe = pto.initialize_l2l_pipe {dir_mask = 1, slot_size = 1024, slot_num = 8, flag_base = 0} (%local : i32) -> !pto.pipe
    %ma = pto.alloc_tile : ${MAT}
    %mb = pto.alloc_tile : ${MAT}
    %l = pto.alloc_tile : ${LEFT}
    %r = pto.alloc_tile : ${RIGHT}
    %acc = pto.alloc_tile : ${ACC}
    %av = pto.make_tensor_view %a, shape = [%c16, %c16], strides = [%c16, %c1] : ${VIEW}
    %bv = pto.make_tensor_view %b, shape = [%c16, %c16], strides = [%c16, %c1] : ${VIEW}
    %ap = pto.partition_view %av, offsets = [%c0, %c0], sizes = [%c16, %c16] : ${VIEW} -> ${PART(16)}
    %bp = pto.partition_view %bv, offsets = [%c0, %c0], sizes = [%c16, %c16] : ${VIEW} -> ${PART(16)}
    pto.tload ins(%ap : ${PART(16)}) outs(%ma : ${MAT})
    pto.tload ins(%bp : ${PART(16)}) outs(%mb : ${MAT})
    pto.tmov ins(%ma : ${MAT}) outs(%l : ${LEFT})
    pto.tmov ins(%mb : ${MAT}) outs(%r : ${RIGHT})
    pto.tmatmul ins(%l, %r : ${LEFT}, ${RIGHT}) outs(%acc : ${ACC})
    pto.tpush(%acc, %pipe : ${ACC}, !pto.pipe) {split = 1}
    return
  }
  func.func private @k_vector(%a: !pto.ptr<f32>, %b: !pto.ptr<f32>, %out: !pto.ptr<f32>) attributes {pto.kernel_kind = #pto.kernel_kind<vector>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %c16 = arith.constant 16 : index
    %local = arith.constant 4096 : i32
    %pipe = pto.initialize_l2l_pipe {dir_mask = 1, slot_size = 1024, slot_num = 8, flag_base = 0} (%local : i32) -> !pto.pipe
    %sb = pto.get_subblock_idx
    %sbi = arith.index_cast %sb : i64 to index
    %row = arith.muli %sbi, %c8 : index
    %ov = pto.make_tensor_view %out, shape = [%c16, %c16], strides = [%c16, %c1] : ${VIEW}
    %op = pto.partition_view %ov, offsets = [%row, %c0], sizes = [%c8, %c16] : ${VIEW} -> ${PART(8)}
    %t = pto.declare_tile -> ${vec(8)}
    pto.tpop(%t, %pipe : ${vec(8)}, !pto.pipe) {split = 1}
    pto.tstore ins(%t : ${vec(8)}) outs(%op : ${PART(8)})
    pto.tfree(%pipe : !pto.pipe) {split = 1}
    return
  }
}
`;

  it('the cube pushes I x B with split 1 and each vector core stores the half it popped into its declared tile', () => {
    const out = f32Buffer('out', new Array(256).fill(-1));
    launch(text, 'k', [f32Buffer('a', identity), f32Buffer('b', blocks(1)), out]);
    expect(floats(out)).toEqual(blocks(1));
  });
});
