import { assemble } from '../../src/verify/assemble';

/** The errors of a tile-op helper with this body and these parameters (`CODE message`). */
function helperErrors(body: string, params = ''): string[] {
  const text = `module {\n  func.func private @h(${params}) attributes {pto.tileop.helper} {\n${body}\n    return\n  }\n  func.func private @g() {\n    return\n  }\n}\n`;
  return assemble('t.pto', text, { target: 'a5' })
    .diags.items.filter((d) => d.severity === 'error')
    .map((d) => `${d.code} ${d.message}`);
}

const VEC = '!pto.tile_buf<vec, 1x16xf32>';

describe('a tile-op helper holds compute code only (PTOAS places its body in one section)', () => {
  it('no synchronization between pipes', () => {
    expect(helperErrors('    pto.barrier <PIPE_V>')).toEqual(['E0436 tileop helpers must not contain pipe synchronization']);
  });

  it('no tile allocation and no tile-granular instruction', () => {
    expect(helperErrors(`    %t = pto.alloc_tile : ${VEC}`)).toEqual(['E0436 tileop helpers must not contain Tile allocation or high-level TileOps']);
    expect(helperErrors(`    pto.tadd ins(%s, %s : ${VEC}, ${VEC}) outs(%d : ${VEC})`, `%s: ${VEC}, %d: ${VEC}`)).toEqual([
      'E0436 tileop helpers must not contain Tile allocation or high-level TileOps',
    ]);
  });

  it("no moves between memories (the micro level's MTE ops): those are the calling kernel's", () => {
    const body = [
      '    %c0 = arith.constant 0 : i64',
      '    %c32 = arith.constant 32 : i64',
      '    %c128 = arith.constant 128 : i64',
      '    %src = pto.castptr %c0 : i64 -> !pto.ptr<f32, gm>',
      '    %dst = pto.castptr %c0 : i64 -> !pto.ptr<f32, ub>',
      '    pto.mte_gm_ub %src, %dst, %c0, %c128 nburst(%c32, %c128, %c128) : !pto.ptr<f32, gm>, !pto.ptr<f32, ub>, i64, i64, i64, i64, i64',
    ].join('\n');
    expect(helperErrors(body)).toEqual(['E0436 tileop helpers must not contain MTE data movement']);
  });

  it('no SIMT code in place (the SIMT micro-ops, the core queries, pto.trap): a helper launches a @pto.simt function', () => {
    const simt = 'E0436 tileop helpers must launch a @pto.simt helper instead of containing SIMT operations directly';
    expect(helperErrors('    %z = arith.constant 0 : i32\n    %v = pto.prmt %z, %z, %z : i32, i32, i32 -> i32')).toEqual([simt]);
    expect(helperErrors('    %one = arith.constant 1 : i32\n    pto.store_vfsimt_info %one, %one, %one : i32, i32, i32')).toEqual([simt]);
    expect(helperErrors('    %b = pto.get_block_idx')).toEqual([simt]);
    expect(helperErrors('    pto.trap')).toEqual([simt]);
  });

  it('no results: a helper writes through the tiles it is given', () => {
    const text =
      'module {\n  func.func private @h() -> i32 attributes {pto.tileop.helper} {\n    %one = arith.constant 1 : i32\n    return %one : i32\n  }\n}\n';
    const errors = assemble('t.pto', text, { target: 'a5' }).diags.items.map((d) => `${d.code} ${d.message}`);
    expect(errors).toEqual(['E0436 tileop helpers must not return values; write results through mutable Tile parameters']);
  });

  it('no calls; a kernel (no helper attribute) may do all of these', () => {
    expect(helperErrors('    func.call @g() : () -> ()')).toEqual(['E0436 tileop helpers must not call another helper; use pto.simt_launch for SIMT work']);
    const kernel = `module {\n  func.func @k() {\n    pto.barrier <PIPE_V>\n    %t = pto.alloc_tile : ${VEC}\n    return\n  }\n}\n`;
    expect(assemble('t.pto', kernel, { target: 'a5' }).diags.hasErrors()).toBe(false);
  });
});
