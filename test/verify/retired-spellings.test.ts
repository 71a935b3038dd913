/**
 * `pto.textract_fp` and `pto.tinsert_fp`, which PTOAS printed until its commit 3d8482a2 ("unify fp operand forms")
 * folded them into `pto.textract` / `pto.tinsert` with a keyword operand: `ins(%src, %fp, %row, %col : S, F, index,
 * index)` became `ins(%src, %row, %col : S, index, index fp %fp : F)` (test/lit/pto/extract_insert_fp_tile_native.pto
 * before and after that commit). One for one, so the old spelling is read as today's op with a warning naming it;
 * before, both were "not implemented yet".
 */
import { at, diagLines, run } from '../fixtures/verify/helpers';
import { printCanonical } from '../../src/emit/canonical';

const ACC = '!pto.tile_buf<loc=acc, dtype=f32, rows=32, cols=32, v_row=32, v_col=32, blayout=col_major, slayout=row_major, fractal=1024, pad=0>';
const FP = '!pto.tile_buf<loc=scaling, dtype=f32, rows=32, cols=32, v_row=32, v_col=32, blayout=row_major, slayout=row_major, fractal=512, pad=0>';
const MAT = '!pto.tile_buf<loc=mat, dtype=i8, rows=32, cols=32, v_row=32, v_col=32, blayout=col_major, slayout=row_major, fractal=512, pad=0>';

/** PTOAS's lit test before 3d8482a2, one op per function. */
const program = (op: string) =>
  ['module {', `  func.func private @f(%src: ${ACC}, %fp: ${FP}, %row: index, %col: index, %dst: ${MAT}) {`, `    ${op}`, '    return', '  }', '}', ''].join(
    '\n',
  );

describe.each(['textract', 'tinsert'])('pto.%s_fp', (name) => {
  const old = program(`pto.${name}_fp ins(%src, %fp, %row, %col : ${ACC}, ${FP}, index, index) outs(%dst : ${MAT})`);
  const today = program(`pto.${name} ins(%src, %row, %col : ${ACC}, index, index fp %fp : ${FP}) outs(%dst : ${MAT})`);

  test("is read as today's op with its fp operand after the ins, with a warning naming it", () => {
    const r = run(old, 'a5');
    expect(diagLines(r)).toEqual([
      `${at(old, `pto.${name}_fp`)}: warning[W0105]: 'pto.${name}_fp' is the old name of 'pto.${name}', which takes fp %fp : T after its ins`,
    ]);
    const printed = printCanonical(r.module, r.types);
    expect(printed).toContain(
      `pto.${name} ins(%src, %row, %col : !pto.tile_buf<acc, 32x32xf32, blayout=col_major, slayout=row_major, fractal=1024>, index, index fp %fp : `,
    );
    const t = run(today, 'a5');
    expect(diagLines(t)).toEqual([]);
    expect(printed).toBe(printCanonical(t.module, t.types));
  });

  test("verifies as today's op: an fp tile outside scaling is refused alike", () => {
    const wrongFp = FP.replace('loc=scaling', 'loc=vec');
    const oldErrors = diagLines(run(old.replaceAll(FP, wrongFp), 'a5')).filter((l) => l.includes('error'));
    const todayErrors = diagLines(run(today.replaceAll(FP, wrongFp), 'a5'));
    expect(oldErrors.length).toBeGreaterThan(0);
    expect(oldErrors.map((l) => l.replace(/^\d+:\d+: /, ''))).toEqual(todayErrors.map((l) => l.replace(/^\d+:\d+: /, '')));
  });

  test("its generic form, whose operand order was the old op's, is refused", () => {
    const text = program(`"pto.${name}_fp"(%src, %fp, %row, %col, %dst) : (${ACC}, ${FP}, index, index, ${MAT}) -> ()`);
    expect(diagLines(run(text, 'a5'))).toEqual([
      `${at(text, `"pto.${name}_fp"`)}: error[E0422]: the generic form of pto.${name}_fp, an old name of pto.${name}, is not supported: write pto.${name}`,
    ]);
  });
});
