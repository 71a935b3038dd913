import { assemble } from '../../src/verify/assemble';
import { BuildLevel } from '../../src/ir/definition';
import { TargetName } from '../../src/spec/schema';

/** The errors of a function body (`CODE message`), for a target at a build level (undefined: none given). */
function errors(body: string, target: TargetName, level?: BuildLevel): string[] {
  const text = `module {\n  func.func @k() {\n${body}\n    return\n  }\n}\n`;
  return assemble('t.pto', text, { target, level })
    .diags.items.filter((d) => d.severity === 'error')
    .map((d) => `${d.code} ${d.message}`);
}

const tile = (dtype: string, cols = 32, vCol: number | '?' = cols) =>
  `!pto.tile_buf<loc=vec, dtype=${dtype}, rows=1, cols=${cols}, v_row=1, v_col=${vCol}, blayout=row_major, slayout=none_box, fractal=512, pad=0>`;

/** Tiles placed one after another (level3 needs every allocation placed). */
function placed(tiles: [string, string][], extra = ''): string {
  return tiles
    .map(
      ([name, type], i) =>
        `    %a${i} = arith.constant ${i * 4096} : i64\n    %${name} = pto.alloc_tile addr = %a${i}${type.includes('v_col=?') ? ' valid_col = %c' : ''} : ${type}`,
    )
    .join('\n')
    .concat(extra);
}

describe('at level3 (no PlanMemory) the scratch tiles PTOAS would allocate must be written', () => {
  const tpow = (withTmp: boolean, dtype = 'f32') =>
    placed([
      ['b', tile(dtype)],
      ['e', tile(dtype)],
      ['d', tile(dtype)],
      ['t', tile(dtype)],
    ]) + `\n    pto.tpow ins(%b, %e${withTmp ? ', %t' : ''} : ${tile(dtype)}, ${tile(dtype)}${withTmp ? ', ' + tile(dtype) : ''}) outs(%d : ${tile(dtype)})`;

  it('tpow on floats, on both targets, at level3 only', () => {
    const missing = 'E0431 pto.tpow: requires explicit tmp when PlanMemory is skipped (--level level3)';
    expect(errors(tpow(false), 'a5', 'level3')).toEqual([missing]);
    expect(errors(tpow(false), 'a2a3', 'level3')).toEqual([missing]);
    expect(errors(tpow(true), 'a2a3', 'level3')).toEqual([]);
    expect(errors(tpow(false).replace(/ addr = %a\d/g, ''), 'a2a3', 'level2')).toEqual([]);
    expect(errors(tpow(false, 'i32'), 'a2a3', 'level3')).toEqual([]);
  });

  it('tprelu on A2/A3 only', () => {
    const body =
      placed([
        ['s0', tile('f32')],
        ['s1', tile('f32')],
        ['d', tile('f32')],
      ]) + `\n    pto.tprelu ins(%s0, %s1 : ${tile('f32')}, ${tile('f32')}) outs(%d : ${tile('f32')})`;
    expect(errors(body, 'a2a3', 'level3')).toEqual(['E0431 pto.tprelu: requires explicit tmp when PlanMemory is skipped (--level level3)']);
    expect(errors(body, 'a5', 'level3')).toEqual([]);
  });

  it('tcvt on A2/A3 when it narrows without saturating (sat_mode defaults to OFF)', () => {
    const cvt = (dst: string, attrs: string) =>
      placed([
        ['s', tile('f32')],
        ['d', tile(dst)],
      ]) + `\n    pto.tcvt ins(%s${attrs} : ${tile('f32')}) outs(%d : ${tile(dst)})`;
    expect(errors(cvt('i16', ''), 'a2a3', 'level3')).toEqual([
      'E0431 pto.tcvt: requires explicit tmp for non-saturating narrowing tcvt when PlanMemory is skipped (--level level3)',
    ]);
    expect(errors(cvt('i16', ' {satmode = #pto<saturation_mode ON>}'), 'a2a3', 'level3')).toEqual([]);
    expect(errors(cvt('i32', ''), 'a2a3', 'level3')).toEqual([]);
    expect(errors(cvt('i16', ''), 'a5', 'level3')).toEqual([]);
  });

  it('tsort32 when its width is not a static multiple of 32', () => {
    const sort = (cols: number, vCol: number | '?') => {
      const body = placed([
        ['s', tile('f16', cols, vCol)],
        ['i', tile('ui32', cols, vCol)],
        ['d', tile('f16', cols, vCol)],
      ]);
      return `${body}\n    pto.tsort32 ins(%s, %i : ${tile('f16', cols, vCol)}, ${tile('ui32', cols, vCol)}) outs(%d : ${tile('f16', cols, vCol)})`;
    };
    const missing = 'E0431 pto.tsort32: requires explicit tmp for tsort32 with dynamic or non-32-aligned width when PlanMemory is skipped (--level level3)';
    expect(errors(sort(32, 32), 'a5', 'level3')).toEqual([]);
    expect(errors(sort(48, 48), 'a5', 'level3')).toEqual([missing]);
    const dynamic = `    %c = arith.constant 32 : index\n${sort(64, '?')}`;
    expect(errors(dynamic, 'a5', 'level3')).toEqual([missing]);
  });
});

describe('who places a reserved buffer depends on the build level', () => {
  const reserve = (auto: boolean, base?: number) =>
    `    %r = pto.reserve_buffer { name = "fifo", size = 8192, location = #pto.address_space<vec>, auto = ${auto}${base === undefined ? '' : `, base = ${base}`} } -> i32`;

  it('at level1/2 PlanMemory places it: no base, no manual buffer', () => {
    expect(errors(reserve(true), 'a2a3', 'level2')).toEqual([]);
    expect(errors(reserve(true, 0), 'a2a3', 'level1')).toEqual([
      "E0431 unexpected 'base' on auto reserve_buffer: PlanMemory places it (--level level1/level2)",
    ]);
    expect(errors(reserve(false, 0), 'a2a3', 'level2')).toEqual([
      "E0431 pto.reserve_buffer with explicit 'base' (auto = false) is not supported when --pto-level=level1 or level2; use level3 or auto = true",
    ]);
  });

  it('at level3 the author places it; without a level neither rule applies', () => {
    expect(errors(reserve(false, 0), 'a2a3', 'level3')).toEqual([]);
    expect(errors(reserve(true), 'a2a3', 'level3')).toEqual(["E0431 pto.reserve_buffer requires 'auto = false' and explicit 'base' when --pto-level=level3"]);
    expect(errors(reserve(true, 0), 'a2a3')).toEqual([]);
    expect(errors(reserve(false, 0), 'a2a3')).toEqual([]);
  });
});
