/**
 * The PTOAS control-flow, SCF and Sync samples: small vector chains under scf.for / scf.if / scf.while, loads and
 * stores whose synchronization the samples exercise, and a multi-core add. Each reference replays the sample's
 * control flow in plain TS, rounding to f32 after every vector op. Tiles a kernel never loads hold zeros: the VM's
 * on-chip memory starts zeroed (docs/architecture.md: one fresh byte array per on-chip buffer).
 */
import { f32 } from '../../models/float';
import { SampleIO, SampleReference } from './harness';

/** `out` with element r * cols + c replaced by fn(input at the same index) inside the valid rows x cols; the rest unchanged. */
function overValid(input: number[], out: number[], cols: number, validRows: number, validCols: number, fn: (x: number) => number): number[] {
  return out.map((old, k) => (Math.floor(k / cols) < validRows && k % cols < validCols ? fn(input[k]) : old));
}

// control_flow-pto-new: two outer steps (+1.25 on the first, -0.75 on the second), each followed by three inner steps
// (+0.5 on the middle one, -0.25 on the others).
function nestedBranches(x: number): number {
  let v = x;
  for (let i = 0; i < 2; i++) {
    v = f32(v + (i === 0 ? 1.25 : -0.75));
    for (let j = 0; j < 3; j++) v = f32(v + (j === 1 ? 0.5 : -0.25));
  }
  return v;
}

// control_flow_dynamic_branch: mode 0 scales by 2, clamps to +-4.0001 (tmaxs then tmins) and adds 1; any other mode
// computes x*x + x*(-0.5) - 1 (tmul into tmp, tmuls in place, tadd, tadds).
const clampLo = f32(-4.0001);
const clampHi = f32(4.0001);
function modeA(x: number): number {
  const scaled = f32(x * 2);
  const atLeast = scaled < clampLo ? clampLo : scaled;
  const atMost = clampHi < atLeast ? clampHi : atLeast;
  return f32(atMost + 1);
}
const modeB = (x: number): number => f32(f32(f32(x * x) + f32(x * -0.5)) - 1);

function dynamicBranch(io: SampleIO): Record<string, number[]> {
  const fn = io.scalar.mode === 0 ? modeA : modeB;
  return { output: overValid(io.in.input, io.in.output, 32, io.scalar.valid_row, io.scalar.valid_col, fn) };
}

// control_flow_nested_vec: acc starts as the first 32x32 block; for each of the two blocks, three times acc += data * 0.25
// and data *= 1.25; finally acc *= -1.
function nestedVec(io: SampleIO): Record<string, number[]> {
  const input = io.in.input;
  const acc = input.slice(0, 1024);
  for (let i = 0; i < 2; i++) {
    const data = input.slice(i * 1024, i * 1024 + 1024);
    for (let j = 0; j < 3; j++) {
      for (let k = 0; k < 1024; k++) {
        acc[k] = f32(acc[k] + f32(data[k] * 0.25));
        data[k] = f32(data[k] * 1.25);
      }
    }
  }
  return { output: acc.map((a) => f32(a * -1)) };
}

// scf_for_break_like and scf_while_break: from a zeroed tile, each iteration adds 1 and, unless it is iteration 2 (the
// break), 10; the loop stops at 4 iterations or at the break; after a break, 1 more.
function breakLike(): number {
  let v = 0;
  let alive = true;
  for (let i = 0; i < 4 && alive; i++) {
    v = f32(v + 1);
    if (i === 2) alive = false;
    else v = f32(v + 10);
  }
  if (!alive) v = f32(v + 1);
  return v;
}

// add_static_multicore: core b * subblocks + s adds rows [32 (b * subblocks + s), + 32) of arg0 and arg1 into arg2, over
// the tile's valid arg3 x arg4 corner of its block.
function multicoreAdd(io: SampleIO, cores: number): Record<string, number[]> {
  const [rows, cols] = [io.scalar.arg3, io.scalar.arg4];
  const sum = io.in.arg2.map((old, k) => {
    const [r, c] = [Math.floor(k / 32), k % 32];
    const inCore = r < 32 * cores && r % 32 < rows && c < cols;
    return inCore ? f32(io.in.arg0[k] + io.in.arg1[k]) : old;
  });
  return { arg2: sum };
}

export const CONTROL_FLOW: SampleReference[] = [
  { file: 'test/samples/ControlFlow/control_flow-pto-new.pto', expect: (io) => ({ arg1: io.in.arg0.map(nestedBranches) }) },

  // Both branches (the else branch for any mode but 0). The valid region must be 32 x 32: TLOAD's ND rule ties it to
  // the fixed 32x32 view (docs/corpus.md), so no partial binding runs.
  { file: 'test/samples/ControlFlow/control_flow_dynamic_branch.pto', args: { valid_row: '32', valid_col: '32', mode: '0' }, expect: dynamicBranch },
  { file: 'test/samples/ControlFlow/control_flow_dynamic_branch.pto', args: { valid_row: '32', valid_col: '32', mode: '1' }, expect: dynamicBranch },
  { file: 'test/samples/ControlFlow/control_flow_dynamic_branch.pto', args: { valid_row: '32', valid_col: '32', mode: '-7' }, expect: dynamicBranch },

  { file: 'test/samples/ControlFlow/control_flow_nested_vec.pto', expect: nestedVec },

  // Both keep their result on chip: observe the tile.
  { file: 'test/samples/SCF/scf_for_break_like.pto', observe: ['%tile'], expect: () => ({ observed_tile: new Array(1024).fill(breakLike()) }) },
  { file: 'test/samples/SCF/scf_while_break.pto', observe: ['%tile'], expect: () => ({ observed_tile: new Array(1024).fill(breakLike()) }) },

  // compensation_test: with cond the tile is loaded from arg0 and stored back (arg0 unchanged); without it the
  // never-loaded (zeroed) tile is stored over arg0.
  { file: 'test/samples/Sync/compensation_test.pto', args: { cond: '1' }, expect: (io) => ({ arg0: io.in.arg0 }) },
  { file: 'test/samples/Sync/compensation_test.pto', args: { cond: '0' }, expect: (io) => ({ arg0: io.in.arg0.map(() => 0) }) },

  // nested_loop_confliect: arg0 loaded ten times, each time stored ten times to arg1: a copy.
  { file: 'test/samples/Sync/nested_loop_confliect.pto', expect: (io) => ({ arg1: io.in.arg0 }) },

  // rar_optimization_test: two loads and nothing stored: observe both tiles.
  {
    file: 'test/samples/Sync/rar_optimization_test.pto',
    observe: ['%buf0', '%buf1'],
    expect: (io) => ({ observed_buf0: io.in.arg0, observed_buf1: io.in.arg1 }),
  },

  // test_if_else_tile_result: per 64-row block, tb0 ends up holding arg1's block (the second load overwrites arg0's);
  // arg2 == 1 stores tb0 + tb0, anything else tb0 * tb0, into arg3.
  { file: 'test/samples/Sync/test_if_else_tile_result.pto', args: { arg2: '1' }, expect: (io) => ({ arg3: io.in.arg1.map((y) => f32(y + y)) }) },
  { file: 'test/samples/Sync/test_if_else_tile_result.pto', args: { arg2: '0' }, expect: (io) => ({ arg3: io.in.arg1.map((y) => f32(y * y)) }) },

  // add_static_multicore: 20 blocks x 2 sub-blocks cover all 40 row blocks of the 1280x32 tensors; then 3 x 2 cores
  // (arg2's rows past the sixth block untouched). The valid region must be 32 x 32, as in control_flow_dynamic_branch.
  {
    file: 'tools/ptobc/testdata/add_static_multicore.pto',
    args: { arg3: '32', arg4: '32' },
    launch: { blocks: 20, subblocks: 2 },
    expect: (io) => multicoreAdd(io, 40),
  },
  {
    file: 'tools/ptobc/testdata/add_static_multicore.pto',
    args: { arg3: '32', arg4: '32' },
    launch: { blocks: 3, subblocks: 2 },
    expect: (io) => multicoreAdd(io, 6),
  },
];
