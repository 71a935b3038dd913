import { assemble } from '../../src/verify/assemble';
import { BuildLevel } from '../../src/ir/definition';

/** The errors of a function body (`CODE message`), at a build level (undefined: none given). */
function errors(body: string, level?: BuildLevel): string[] {
  const text = `module {\n  func.func @k() {\n${body}\n    return\n  }\n}\n`;
  return assemble('t.pto', text, { target: 'a5', level })
    .diags.items.filter((d) => d.severity === 'error')
    .map((d) => `${d.code} ${d.message}`);
}

const VEC = '!pto.tile_buf<loc=vec, dtype=f16, rows=16, cols=16, v_row=16, v_col=16, blayout=row_major, slayout=none_box, fractal=512, pad=0>';
const LEFT = '!pto.tile_buf<loc=left, dtype=f16, rows=16, cols=16, v_row=16, v_col=16, blayout=row_major, slayout=row_major, fractal=512, pad=0>';
const placed = (addr: number, type = VEC) => `    %a = arith.constant ${addr} : i64\n    %t = pto.alloc_tile addr = %a : ${type}`;

describe('a constant tile address is aligned as PTOAS requires', () => {
  it('32 bytes in the vector buffer, 512 in the L0 buffers', () => {
    expect(errors(placed(64))).toEqual([]);
    expect(errors(placed(48))).toEqual(['E0405 pto.alloc_tile: addr must be aligned to 32 bytes for local tile memory space, got 48']);
    expect(errors(placed(1024, LEFT))).toEqual([]);
    expect(errors(placed(256, LEFT))).toEqual(['E0405 pto.alloc_tile: addr must be aligned to 512 bytes for local tile memory space, got 256']);
  });

  it('pto.tassign and pto.alloc_multi_tile follow the same rule', () => {
    const tassign = `${placed(0)}\n    %b = arith.constant 70660 : i64\n    %u = pto.tassign %t, %b : ${VEC} -> ${VEC}`;
    expect(errors(tassign)).toEqual([expect.stringMatching(/pto.tassign: addr must be aligned to 32 bytes for local tile memory space, got 70660$/)]);
    const multi = `    %a = arith.constant 4 : i64\n    %m = pto.alloc_multi_tile addr = %a : !pto.multi_tile_buf<vec, 16x16xf16, count=2>`;
    expect(errors(multi)).toEqual([expect.stringMatching(/pto.alloc_multi_tile: addr must be aligned to 32 bytes for local tile memory space, got 4$/)]);
  });

  it('pto.tassign rebinds a tile_buf, not a memref buffer', () => {
    const body = `    %a = arith.constant 0 : i64\n    %m = memref.alloc() : memref<16x16xf16, #pto.address_space<vec>>\n    %u = pto.tassign %m, %a : memref<16x16xf16, #pto.address_space<vec>> -> memref<16x16xf16, #pto.address_space<vec>>`;
    expect(errors(body)).toEqual([expect.stringMatching(/pto.tassign rebinds a !pto.tile_buf, not memref</)]);
  });
});

describe('the build level (--level) decides who places tiles', () => {
  it('addresses only at level3', () => {
    expect(errors(placed(0), 'level3')).toEqual([]);
    expect(errors(placed(0), 'level2')).toEqual(["E0431 unexpected 'addr' operand: only supported when --pto-level=level3"]);
    expect(errors(placed(0))).toEqual([]);
  });

  it('at level3 every allocation is placed', () => {
    expect(errors(`    %t = pto.alloc_tile : ${VEC}`, 'level3')).toEqual(["E0431 pto.alloc_tile requires 'addr' operand when --pto-level=level3"]);
    expect(errors(`    %m = pto.alloc_multi_tile : !pto.multi_tile_buf<vec, 16x16xf16, count=2>`, 'level3')).toEqual([
      "E0431 pto.alloc_multi_tile requires a base 'addr' operand when --pto-level=level3",
    ]);
    expect(errors(`    %m = pto.alloc_multi_tile : !pto.multi_tile_buf<vec, 16x16xf16, count=2>`, 'level2')).toEqual([]);
  });

  it('pto.tassign only at level3', () => {
    const body = `${placed(0)}\n    %u = pto.tassign %t, %a : ${VEC} -> ${VEC}`;
    expect(errors(body, 'level3')).toEqual([]);
    expect(errors(body.replace('addr = %a ', ''), 'level1')).toEqual(['E0431 pto.tassign is only supported when --pto-level=level3']);
  });
});
