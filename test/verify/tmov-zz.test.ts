/** tmov's X-to-ZZ form and the no-alias rule of its operands (src/ops/instructions/checks/tmov-zz.ts, no-alias.ts). */
import { runFunction } from '../../src/vm/interpreter';
import { at, diagLines, kernel, run } from '../fixtures/verify/helpers';

const SRC = '!pto.tile_buf<vec, 32x32xui8, valid=20x32>';
const TMP = (cols: number) => `!pto.tile_buf<vec, 1x${cols}xui8, valid=1x32>`;
const DST = '!pto.tile_buf<vec, 32x32xui8, valid=20x32, slayout=row_major>';
const move = (tmp: string, attrs = '') => `pto.tmov ins(%src : ${SRC}, %tmp : ${tmp}) outs(%dst : ${DST})${attrs}`;

function check(lines: string[], target: 'a2a3' | 'a5' = 'a5', level?: string) {
  const text = kernel([...lines, 'return']);
  return { text, diags: diagLines(run(text, target)), level };
}

const allocs = (tmp: string) => [`%src = pto.alloc_tile : ${SRC}`, `%tmp = pto.alloc_tile : ${tmp}`, `%dst = pto.alloc_tile : ${DST}`];

describe('X-to-ZZ tmov (a vec third tile)', () => {
  test('ND-to-ZZ: tmp holds 64 + ceil(dst rows / 16) * dst cols bytes (20 rows, 32 cols: 128)', () => {
    expect(check([...allocs(TMP(128)), move(TMP(128))]).diags).toEqual([]);
    const { text, diags } = check([...allocs(TMP(96)), move(TMP(96))]);
    expect(diags).toEqual([
      `${at(text, TMP(96), 1)}: error[E0515]: pto.tmov: expects tmp to provide at least 128 bytes for ND-to-ZZ (64 + ceil(dst rows / 16) * dst cols), got 96`,
    ]);
  });
  test('is A5 only', () => {
    const { text, diags } = check([...allocs(TMP(128)), move(TMP(128))], 'a2a3');
    expect(diags.filter((l) => l.includes('X-to-ZZ'))).toEqual([
      `${at(text, 'pto.tmov')}: error[E0508]: pto.tmov: X-to-ZZ tmov (a vec third tile) is only supported on A5`,
    ]);
  });
  test('DN-to-ZZ (grpAxis axis0) needs an even number of src valid rows', () => {
    const src = '!pto.tile_buf<vec, 4x32xui8, valid=3x32>';
    const dst = '!pto.tile_buf<vec, 16x32xui8, valid=3x32, slayout=row_major>';
    const tmp = '!pto.tile_buf<vec, 1x32xui8, valid=1x1>';
    const line = `pto.tmov ins(%s : ${src}, %t : ${tmp}) outs(%d : ${dst}) {grpAxis = #pto<mx_group_axis axis0>}`;
    const { text, diags } = check([`%s = pto.alloc_tile : ${src}`, `%t = pto.alloc_tile : ${tmp}`, `%d = pto.alloc_tile : ${dst}`, line]);
    expect(diags).toEqual([`${at(text, src, 1)}: error[E0506]: pto.tmov: expects DN-to-ZZ src valid_shape[0] to be an even count >= 2, got 3`]);
  });
  test('src, tmp and dst placed at overlapping addresses are rejected at the later operand', () => {
    const placed = (tmpAt: number) => [
      '%a0 = arith.constant 0 : i64',
      `%a1 = arith.constant ${tmpAt} : i64`,
      '%a2 = arith.constant 2048 : i64',
      `%src = pto.alloc_tile addr = %a0 : ${SRC}`,
      `%tmp = pto.alloc_tile addr = %a1 : ${TMP(128)}`,
      `%dst = pto.alloc_tile addr = %a2 : ${DST}`,
      move(TMP(128)),
    ];
    expect(check(placed(1024)).diags).toEqual([]);
    const { text, diags } = check(placed(960));
    expect(diags).toEqual([`${at(text, TMP(128), 1)}: error[E0508]: pto.tmov: semantic no-alias violation: fp's bytes overlap src's`]);
  });
});

test("the VM runs the X-to-ZZ form as the NPU's gather; cpu-sim traps (the simulator has no such tmov)", () => {
  const text = kernel([...allocs(TMP(128)), move(TMP(128)), 'return']);
  const asm = run(text, 'a5');
  expect(diagLines(asm)).toEqual([]);
  const runAs = (numerics: 'npu' | 'cpu-sim') => () =>
    runFunction(asm.program, asm.types, asm.program.functions.get('k')!, new Map(), { numerics, maxSteps: 100 });
  expect(runAs('npu')).not.toThrow();
  expect(runAs('cpu-sim')).toThrow("tmov's X-to-ZZ form is not implemented for cpu-sim: the simulator has no such TMOV");
});
