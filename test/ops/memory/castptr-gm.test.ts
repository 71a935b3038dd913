/**
 * pto.castptr between GM pointer types (PTOAS's VPTO goldens retype an f32 argument as i32, ui8 or i16): the new
 * pointer sees the same bytes, at the same byte offset, in elements of its own type.
 */
import { GlobalBuffer } from '../../../src/machine/memory';
import { assemble } from '../../../src/verify/assemble';
import { runFunction, Value } from '../../../src/vm/interpreter';
import { runMicroKernel } from '../../fixtures/micro';

/** 64 bytes from %src (seen as i32 from its 4th f32 on) to UB and back out to %dst (seen as ui8). */
const COPY = `module attributes {pto.target_arch = "a5"} {
  func.func @copy(%src: !pto.ptr<f32, gm>, %dst: !pto.ptr<f32, gm>) attributes {pto.kernel_kind = #pto.kernel_kind<vector>} {
    %c0_i64 = arith.constant 0 : i64
    %c1_i64 = arith.constant 1 : i64
    %c64_i64 = arith.constant 64 : i64
    %c4 = arith.constant 4 : index
    %from = pto.addptr %src, %c4 : !pto.ptr<f32, gm> -> !pto.ptr<f32, gm>
    %src_i32 = pto.castptr %from : !pto.ptr<f32, gm> -> !pto.ptr<i32, gm>
    %dst_u8 = pto.castptr %dst : !pto.ptr<f32, gm> -> !pto.ptr<ui8, gm>
    %ub = pto.castptr %c0_i64 : i64 -> !pto.ptr<i32, ub>
    %ub_u8 = pto.castptr %c0_i64 : i64 -> !pto.ptr<ui8, ub>
    pto.mte_gm_ub %src_i32, %ub, %c0_i64, %c64_i64
      nburst(%c1_i64, %c64_i64, %c64_i64)
      : !pto.ptr<i32, gm>, !pto.ptr<i32, ub>, i64, i64, i64, i64, i64
    pto.set_flag[<PIPE_MTE2>, <PIPE_MTE3>, <EVENT_ID0>]
    pto.wait_flag[<PIPE_MTE2>, <PIPE_MTE3>, <EVENT_ID0>]
    pto.mte_ub_gm %ub_u8, %dst_u8, %c64_i64
      nburst(%c1_i64, %c64_i64, %c64_i64)
      : !pto.ptr<ui8, ub>, !pto.ptr<ui8, gm>, i64, i64, i64, i64
    return
  }
}
`;

test('a retyped GM pointer reads and writes the same bytes, from the same byte offset', () => {
  const src = Float32Array.from({ length: 32 }, (_, i) => i + 0.5);
  const buffers = {
    src: new GlobalBuffer('src', 'f32', new Uint8Array(src.buffer.slice(0))),
    dst: new GlobalBuffer('dst', 'f32', new Uint8Array(128)),
  };
  runMicroKernel(COPY, 'copy', buffers);
  const out = new Float32Array(buffers.dst.bytes.slice().buffer);
  // f32 elements 4..19 (byte 16 on), moved as bits: 4.5, 5.5, ... 19.5, then the untouched zeros.
  expect(Array.from(out)).toEqual(Array.from({ length: 32 }, (_, i) => (i < 16 ? i + 4.5 : 0)));
  // The ui8 stores mark the f32 elements they overlap as written, and only those.
  expect(Array.from(buffers.dst.written)).toEqual(Array.from({ length: 32 }, (_, i) => (i < 16 ? 1 : 0)));
});

test('a pointer whose byte offset is not on an element of the new type traps at the cast', () => {
  const text = COPY.replace('!pto.ptr<f32, gm> -> !pto.ptr<i32, gm>', '!pto.ptr<f32, gm> -> !pto.ptr<i64, gm>')
    .replace('%c4 = arith.constant 4 : index', '%c4 = arith.constant 3 : index')
    .replace(/!pto\.ptr<i32, gm>, !pto\.ptr<i32, ub>/, '!pto.ptr<i64, gm>, !pto.ptr<i64, ub>')
    .replace('-> !pto.ptr<i32, ub>', '-> !pto.ptr<i64, ub>');
  const { program, types, diags } = assemble('k.pto', text);
  expect(diags.sorted().filter((d) => d.severity === 'error')).toEqual([]);
  const args = new Map<string, Value>([
    ['%src', new GlobalBuffer('src', 'f32', new Uint8Array(128))],
    ['%dst', new GlobalBuffer('dst', 'f32', new Uint8Array(128))],
  ]);
  // f32 element 3 is byte 12, which no 8-byte element starts at.
  expect(() => runFunction(program, types, program.functions.get('copy')!, args, { numerics: 'npu', maxSteps: 1000 })).toThrow(
    'pto.castptr: byte 12 of %src is not on a !pto.ptr<i64, gm> element',
  );
});
