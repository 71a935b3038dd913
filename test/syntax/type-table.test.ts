/** TypeTable: every accepted spelling of PTO types, their errors and warnings, and printType. */
import { TileType, printType } from '../../src/types/type';
import { TypeTable } from '../../src/syntax/type-table';

const table = new TypeTable();

function tile(text: string): { type: TileType; warnings: string[] } {
  const r = table.parse(text);
  expect(r.error).toBeUndefined();
  expect(r.type?.kind).toBe('tile');
  return { type: r.type as TileType, warnings: r.warnings };
}

const F32_16x16: TileType = {
  kind: 'tile',
  level: 'buf',
  loc: 'vec',
  dtype: 'f32',
  rows: 16,
  cols: 16,
  vRow: 16,
  vCol: 16,
  blayout: 'row_major',
  slayout: 'none_box',
  fractal: 512,
  pad: 0,
  compact: 0,
};

const FULL = '!pto.tile_buf<loc=vec, dtype=f32, rows=16, cols=16, v_row=16, v_col=16, blayout=row_major, slayout=none_box, fractal=512, pad=0>';

describe('tile spellings', () => {
  test('keyword !pto.tile_buf with every parameter', () => {
    const { type, warnings } = tile(FULL);
    expect(type).toEqual(F32_16x16);
    expect(warnings).toEqual([]);
  });

  test('keyword spelling with newlines and extra spaces', () => {
    const { type, warnings } = tile(
      '!pto.tile_buf<loc = vec,\n  dtype=f32, rows=16,cols=16, v_row=16, v_col=16,\n  blayout=row_major, slayout=none_box, fractal=512, pad=0>',
    );
    expect(type).toEqual(F32_16x16);
    expect(warnings).toEqual([]);
  });

  test('dynamic valid dims: ? and -1', () => {
    expect(tile(FULL.replace('v_row=16, v_col=16', 'v_row=?, v_col=?')).type).toMatchObject({ vRow: null, vCol: null });
    expect(tile(FULL.replace('v_row=16', 'v_row=-1')).type).toMatchObject({ vRow: null, vCol: 16 });
    expect(tile(FULL.replace('v_row=16', 'v_row=3')).type).toMatchObject({ vRow: 3, vCol: 16 });
  });

  test('keyword !pto.tile is a Level 1 value with the same fields', () => {
    const { type, warnings } = tile(FULL.replace('!pto.tile_buf<', '!pto.tile<'));
    expect(type).toEqual({ ...F32_16x16, level: 'value' });
    expect(warnings).toEqual([]);
  });

  test("positional !pto.tile<loc=vec, f32, 16, 16, RowMajor, NoneBox, None, Zero> (the ISA manual's spelling)", () => {
    const { type, warnings } = tile('!pto.tile<loc=vec, f32, 16, 16, RowMajor, NoneBox, None, Zero>');
    expect(type).toEqual({ ...F32_16x16, level: 'value', pad: 1 });
    expect(warnings).toEqual([]);
  });

  test('positional layouts, fractals and pads by their manual names', () => {
    expect(tile('!pto.tile<loc=vec, f16, 16, 16, ColMajor, NoneBox, None, Max>').type).toMatchObject({
      dtype: 'f16',
      blayout: 'col_major',
      slayout: 'none_box',
      pad: 2,
    });
    expect(tile('!pto.tile<loc=mat, f16, 16, 16, ColMajor, RowMajor, NZ, Null>').type).toMatchObject({
      loc: 'mat',
      blayout: 'col_major',
      slayout: 'row_major',
      fractal: 512,
      pad: 0,
    });
    expect(tile('!pto.tile<loc=acc, f32, 16, 16, ColMajor, RowMajor, NZ, PadMin>').type).toMatchObject({ loc: 'acc', fractal: 1024, pad: 3 });
  });

  test('positional C type names', () => {
    expect(tile('!pto.tile<loc=vec, half, 16, 16>').type.dtype).toBe('f16');
    expect(tile('!pto.tile<loc=vec, float, 16, 16>').type.dtype).toBe('f32');
    expect(tile('!pto.tile<loc=vec, int8, 32, 32>').type.dtype).toBe('i8');
    expect(tile('!pto.tile<loc=vec, uint16, 16, 16>').type.dtype).toBe('u16');
    expect(tile('!pto.tile<loc=vec, bfloat16, 16, 16>').type.dtype).toBe('bf16');
  });

  test('!pto.tile<f32, 16, 16>: a Vec tile with default layout', () => {
    const { type, warnings } = tile('!pto.tile<f32, 16, 16>');
    expect(type).toEqual({ ...F32_16x16, level: 'value' });
    expect(warnings).toEqual([]);
  });

  test('!pto.tile<16x16xf32>: a Vec tile with default layout', () => {
    const { type, warnings } = tile('!pto.tile<16x16xf32>');
    expect(type).toEqual({ ...F32_16x16, level: 'value' });
    expect(warnings).toEqual([]);
  });

  test("PTOAS's compact form: location, shape and element type, then only the keys that differ", () => {
    const { type, warnings } = tile('!pto.tile_buf<vec, 16x16xf16, valid=?x?>');
    expect(type).toEqual({ ...F32_16x16, dtype: 'f16', vRow: null, vCol: null });
    expect(warnings).toEqual([]);
    expect(tile('!pto.tile_buf<vec, 16x16xf32>').type).toEqual(F32_16x16);
    expect(tile('!pto.tile_buf<acc, 16x32xf32, valid=1x16, blayout=col_major, slayout=row_major, fractal=1024, pad=2, compact=1>').type).toEqual({
      ...F32_16x16,
      loc: 'acc',
      cols: 32,
      vRow: 1,
      vCol: 16,
      blayout: 'col_major',
      slayout: 'row_major',
      fractal: 1024,
      pad: 2,
      compact: 1,
    });
  });

  test("the compact form's defaults are the same for every location (not the per-location defaults of the manual's forms)", () => {
    expect(tile('!pto.tile_buf<acc, 16x16xf32>').type).toMatchObject({ blayout: 'row_major', slayout: 'none_box', fractal: 512 });
    expect(tile('!pto.tile_buf<mat, 16x16xf16, slayout=row_major>').type).toMatchObject({ blayout: 'row_major', slayout: 'row_major' });
  });

  test('the compact form prints back as itself, and the keyed form prints compact', () => {
    for (const text of [
      '!pto.tile_buf<vec, 16x16xf32>',
      '!pto.tile_buf<vec, 1x128xi32, valid=?x?>',
      '!pto.tile_buf<mat, 128x32xf8E5M2, valid=128x16, blayout=col_major, slayout=row_major, pad=1>',
      '!pto.tile_buf<scaling, 4x32x!pto.f8E8M0, valid=4x16, blayout=col_major, slayout=col_major, fractal=32>',
      '!pto.tile_buf<left, 16x128xbf16, valid=?x?, blayout=row_major, slayout=row_major, compact=1>'.replace('blayout=row_major, ', ''),
    ])
      expect(printType(tile(text).type)).toBe(text);
    expect(printType(tile(FULL).type)).toBe('!pto.tile_buf<vec, 16x16xf32>');
    expect(printType(tile(FULL.replace('pad=0', 'pad=0, compact=2')).type)).toBe('!pto.tile_buf<vec, 16x16xf32, compact=2>');
  });

  test('default layouts and fractals per location', () => {
    const defaults = (loc: string) => {
      const t = tile(`!pto.tile<loc=${loc}, f16, 16, 16>`).type;
      return [t.blayout, t.slayout, t.fractal];
    };
    expect(defaults('vec')).toEqual(['row_major', 'none_box', 512]);
    expect(defaults('mat')).toEqual(['col_major', 'row_major', 512]);
    expect(defaults('left')).toEqual(['row_major', 'row_major', 512]);
    expect(defaults('right')).toEqual(['row_major', 'col_major', 512]);
    expect(defaults('acc')).toEqual(['col_major', 'row_major', 1024]);
  });

  test('numeric pads and unsigned element types', () => {
    expect(tile(FULL.replace('pad=0', 'pad=3')).type.pad).toBe(3);
    expect(tile(FULL.replace('pad=0', 'pad=min')).type.pad).toBe(3);
    expect(tile(FULL.replace('dtype=f32', 'dtype=ui16')).type.dtype).toBe('u16');
    expect(tile(FULL.replace('dtype=f32', 'dtype=u8')).type.dtype).toBe('u8');
    expect(tile(FULL.replace('dtype=f32', 'dtype=si32')).type.dtype).toBe('i32');
  });
});

describe('legacy and incomplete spellings: accepted with warnings', () => {
  test('loc=ub is the old name of loc=vec', () => {
    const { type, warnings } = tile(FULL.replace('loc=vec', 'loc=ub'));
    expect(type).toEqual(F32_16x16);
    expect(warnings).toEqual(["'loc=ub' is the old name of 'loc=vec'"]);
  });

  test('valid=RxC is the old spelling of v_row, v_col', () => {
    const { type, warnings } = tile('!pto.tile_buf<loc=vec, dtype=f32, rows=16, cols=16, valid=8x16, blayout=row_major, slayout=none_box, fractal=512, pad=0>');
    expect(type).toEqual({ ...F32_16x16, vRow: 8 });
    expect(warnings).toEqual(["'valid=8x16' is the old spelling of 'v_row=8, v_col=16'"]);
  });
});

describe('forms no PTOAS version accepted are errors', () => {
  const error = (text: string) => table.parse(text).error;

  test('the keyed form with keys left out (every PTOAS version requires all of them)', () => {
    expect(error('!pto.tile_buf<loc=vec, dtype=f32, rows=16, cols=16>')).toBe(
      '!pto.tile_buf in the keyed form needs every key: missing v_row, v_col, blayout, slayout, fractal, pad',
    );
    expect(error('!pto.tile_buf<loc=vec, dtype=f32, rows=16, cols=16, blayout=row_major, slayout=none_box, fractal=512, pad=0>')).toMatch(
      /missing v_row, v_col$/,
    );
  });

  test('the keyed form out of order', () => {
    expect(error('!pto.tile_buf<loc=vec, rows=16, dtype=f32, cols=16, v_row=16, v_col=16, blayout=row_major, slayout=none_box, fractal=512, pad=0>')).toBe(
      '!pto.tile_buf keys are out of order (the keyed form is loc, dtype, rows, cols, v_row, v_col, blayout, slayout, fractal, pad[, compact])',
    );
  });

  test("the manual's positional tile_buf", () => {
    expect(error('!pto.tile_buf<f32, 16, 16>')).toMatch(/^malformed !pto.tile_buf/);
  });

  test('compact-form mistakes: duplicate or unknown keys, a one-dimensional valid, a bad fractal or compact mode', () => {
    expect(error('!pto.tile_buf<vec, 16x16xf32, pad=1, pad=2>')).toBe('duplicate pad in !pto.tile_buf');
    expect(error('!pto.tile_buf<vec, 16x16xf32, count=2>')).toMatch(/^unknown key 'count'/);
    expect(error('!pto.tile_buf<vec, 16x16xf32, valid=16>')).toBe("!pto.tile_buf valid must have exactly two dims, got '16'");
    expect(error('!pto.tile_buf<vec, 16x16xf32, fractal=256>')).toBe('unsupported fractal 256 (one of 32, 512, 1024)');
    expect(error('!pto.tile_buf<vec, 16x16xf32, compact=3>')).toMatch(/^unknown compact '3'/);
    expect(error('!pto.tile_buf<vec, 16x16x16xf32>')).toMatch(/exactly two shape dims/);
    expect(error('!pto.tile_buf<vec, 16x16xf32, valid=17x16>')).toBe('!pto.tile_buf valid rows (17) exceed its rows (16)');
    // The element types a tile cannot hold, as in the keyed form.
    expect(error('!pto.tile_buf<vec, 16x16xindex>')).toBe("'index' is not a tile element type");
    expect(error('!pto.tile_buf<vec, 16x16xf64>')).toBe("'f64' is not a tile element type");
  });
});

describe('pointers', () => {
  test('!pto.ptr<T> points to global memory and prints with its space, as PTOAS prints it', () => {
    const r = table.parse('!pto.ptr<f32>');
    expect(r.type).toEqual({ kind: 'ptr', elem: 'f32', space: 'gm' });
    expect(printType(r.type!)).toBe('!pto.ptr<f32, gm>');
  });

  test('on-chip spaces by either of their names; printed by the hardware name', () => {
    expect(table.parse('!pto.ptr<f16, vec>').type).toEqual({ kind: 'ptr', elem: 'f16', space: 'vec' });
    expect(printType(table.parse('!pto.ptr<f16, vec>').type!)).toBe('!pto.ptr<f16, ub>');
    expect(printType(table.parse('!pto.ptr<f16, l0c>').type!)).toBe('!pto.ptr<f16, l0c>');
    expect(table.parse('!pto.ptr<f32, hbm>').error).toMatch(/^'!pto.ptr' address space must be one of gm\|l1\|mat/);
  });

  test('packed element types whose names hold an x', () => {
    expect(tile('!pto.tile_buf<vec, 16x32x!pto.hif8x2>').type).toMatchObject({ rows: 16, cols: 32, dtype: '!pto.hif8x2' });
    expect(table.parse('!pto.tensor_view<?x16x!pto.bf16x2>').type).toEqual({ kind: 'tensor_view', shape: [null, 16], elem: '!pto.bf16x2' });
  });

  test('the low-precision element types', () => {
    expect(table.parse('!pto.ptr<f8E4M3FN, gm>').type).toEqual({ kind: 'ptr', elem: 'f8E4M3FN', space: 'gm' });
    expect(table.parse('!pto.ptr<!pto.f8E8M0>').type).toEqual({ kind: 'ptr', elem: '!pto.f8E8M0', space: 'gm' });
  });
});

describe('errors', () => {
  const error = (text: string) => {
    const r = table.parse(text);
    expect(r.type).toBeUndefined();
    return r.error;
  };

  test('unknown location', () => {
    expect(error(FULL.replace('loc=vec', 'loc=gm'))).toBe("unknown tile location 'gm' (expected one of vec, mat, left, right, acc, bias, scaling)");
  });

  test('unknown key', () => {
    expect(error(FULL.replace('pad=0', 'padding=0'))).toBe(
      "unknown !pto.tile_buf parameter 'padding' (expected one of loc, dtype, rows, cols, v_row, v_col, blayout, slayout, fractal, pad, compact)",
    );
  });

  test('a key given twice', () => {
    expect(error(FULL.replace('pad=0', 'pad=0, rows=8'))).toBe("!pto.tile_buf parameter 'rows' is given twice");
  });

  test('valid=RxC together with v_row is a duplicate whichever comes first', () => {
    expect(error('!pto.tile_buf<loc=vec, dtype=f32, rows=16, cols=16, valid=8x16, v_row=4>')).toMatch(/given twice/);
    expect(error('!pto.tile_buf<loc=vec, dtype=f32, rows=16, cols=16, v_row=4, valid=8x16>')).toMatch(/given twice/);
  });

  test('unknown layouts, fractal and pad', () => {
    expect(error(FULL.replace('blayout=row_major', 'blayout=zigzag'))).toBe("unknown blayout 'zigzag' (expected row_major or col_major)");
    expect(error(FULL.replace('slayout=none_box', 'slayout=diag'))).toBe("unknown slayout 'diag' (expected none_box, row_major or col_major)");
    expect(error(FULL.replace('fractal=512', 'fractal=huge'))).toBe("unknown fractal 'huge'");
    expect(error(FULL.replace('pad=0', 'pad=7'))).toBe(
      "unknown pad '7' (expected 0..3, null, zero, max, min, or a custom value 0x1XXXXXXXX: bit 32 set, the element's bits below)",
    );
    expect(error(FULL.replace('pad=0', 'pad=nan'))).toBe(
      "unknown pad 'nan' (expected 0..3, null, zero, max, min, or a custom value 0x1XXXXXXXX: bit 32 set, the element's bits below)",
    );
  });

  test('element types that are not tile element types', () => {
    expect(error(FULL.replace('dtype=f32', 'dtype=index'))).toBe("'index' is not a tile element type");
    expect(error(FULL.replace('dtype=f32', 'dtype=f64'))).toBe("'f64' is not a tile element type");
    expect(error(FULL.replace('dtype=f32', 'dtype=q7'))).toBe("'q7' is not a tile element type");
    expect(error('!pto.tile_buf<loc=vec, rows=16, cols=16>')).toMatch(/^!pto.tile_buf in the keyed form needs every key: missing dtype/);
  });

  test('rows, cols and valid dims', () => {
    expect(error(FULL.replace('rows=16', 'rows=0'))).toBe("!pto.tile_buf: 'rows' must be a positive integer, got '0'");
    expect(error(FULL.replace('cols=16', 'cols=?'))).toBe("!pto.tile_buf: 'cols' must be a positive integer, got '?'");
    expect(error('!pto.tile_buf<loc=vec, dtype=f32, cols=16>')).toMatch(/^!pto.tile_buf in the keyed form needs every key: missing rows/);
    expect(error(FULL.replace('v_col=16', 'v_col=-4'))).toBe("!pto.tile_buf: 'v_col' must be a non-negative integer or '?', got '-4'");
  });

  test('shaped tiles need two static dims', () => {
    expect(error('!pto.tile<?x16xf32>')).toBe("'!pto.tile<?x16xf32>' needs two static dims and an element type");
    expect(error('!pto.tile<16xf32>')).toBe("'!pto.tile<16xf32>' needs two static dims and an element type");
  });

  test('too many positional parameters', () => {
    expect(error('!pto.tile<loc=vec, f32, 16, 16, RowMajor, NoneBox, None, Zero, Extra>')).toBe("too many parameters in '!pto.tile<...>'");
  });

  test('missing or malformed parameter lists', () => {
    expect(error('!pto.tile_buf')).toBe("'!pto.tile_buf' needs parameters '<...>'");
    expect(error('!pto.tile_buf<loc=vec,, dtype=f32>')).toBe("malformed parameters of '!pto.tile_buf'");
    expect(error('!pto.ptr<>')).toBe("'!pto.ptr' expects an element type and an optional address space, e.g. '!pto.ptr<f32, gm>'");
    expect(error('!pto.tensor_view<f32>')).toBe("'!pto.tensor_view' expects a shape and element type, e.g. '!pto.tensor_view<16x16xf32>'");
    expect(error('!pto.partition_tensor_view<16x16xf9E4M3>')).toBe("unknown element type in '!pto.partition_tensor_view<16x16xf9E4M3>'");
  });
});

describe('other types', () => {
  test('scalars', () => {
    expect(table.parse('index').type).toEqual({ kind: 'scalar', elem: 'index' });
    expect(table.parse('i1').type).toEqual({ kind: 'scalar', elem: 'i1' });
    expect(table.parse('ui8').type).toEqual({ kind: 'scalar', elem: 'u8' });
    expect(table.parse('bf16').type).toEqual({ kind: 'scalar', elem: 'bf16' });
  });

  test('C names are not scalar types outside tile parameters', () => {
    expect(table.parse('float').type).toEqual({ kind: 'opaque', text: 'float' });
    expect(table.parse('int8').type).toEqual({ kind: 'opaque', text: 'int8' });
  });

  test('pointers and views', () => {
    expect(table.parse('!pto.ptr<f16>')).toEqual({ type: { kind: 'ptr', elem: 'f16', space: 'gm' }, warnings: [] });
    expect(table.parse('!pto.tensor_view<?x?xf32>').type).toEqual({ kind: 'tensor_view', shape: [null, null], elem: 'f32' });
    expect(table.parse('!pto.partition_tensor_view<1x2x16xbf16>').type).toEqual({ kind: 'partition_view', shape: [1, 2, 16], elem: 'bf16' });
  });

  test('an on-chip memref is a row-major tile: all but the last dimension are its rows', () => {
    const t = table.parse('memref<4x8x16xf16, #pto.address_space<vec>>').type;
    expect(t).toMatchObject({ kind: 'tile', loc: 'vec', dtype: 'f16', rows: 32, cols: 16, vRow: 32, vCol: 16, blayout: 'row_major', slayout: 'none_box' });
    expect(table.parse('memref<1024xi32, #pto.address_space<mat>>').type).toMatchObject({ kind: 'tile', loc: 'mat', rows: 1, cols: 1024 });
  });

  test('a memref without an address space is global memory (PTOAS lowers it as __gm__), printed without one', () => {
    const t = table.parse('memref<4x8xf32>').type!;
    expect(t).toEqual({ kind: 'partition_view', shape: [4, 8], elem: 'f32', memref: { shape: [4, 8], layout: undefined, space: 'gm', spaceless: true } });
    expect(printType(t)).toBe('memref<4x8xf32>');
  });

  test('a global memref is a view, with its layout kept for printing', () => {
    expect(table.parse('memref<32x32xi32, strided<[1024, 1], offset: ?>, #pto.address_space<gm>>').type).toEqual({
      kind: 'partition_view',
      shape: [32, 32],
      elem: 'i32',
      memref: { shape: [32, 32], layout: 'strided<[1024, 1], offset: ?>', space: 'gm' },
    });
  });

  // PTOAS's cube and DMA micro-ops take buffer-like operands: a pointer or a memref, whose shape may be dynamic.
  test('an on-chip memref of a dynamic shape is a pointer into its space, printed as written', () => {
    const t = table.parse('memref<?xf16, #pto.address_space<mat>>').type!;
    expect(t).toEqual({ kind: 'ptr', elem: 'f16', space: 'mat', memref: { shape: [null], layout: undefined, space: 'mat' } });
    expect(printType(t)).toBe('memref<?xf16, #pto.address_space<mat>>');
    expect(printType(table.parse('memref<?x4xui16, #pto.address_space<vec>>').type!)).toBe('memref<?x4xui16, #pto.address_space<vec>>');
  });

  test.each([
    ['memref<4xf32, #pto.address_space<l9>>', "unknown address space 'l9' (expected gm or one of vec, mat, left, right, acc, bias, scaling)"],
    [
      'memref<4xf32, affine_map<(d0) -> (d0)>, #pto.address_space<vec>>',
      "unsupported memref parameter 'affine_map<(d0) -> (d0)>' (expected strided<...> or #pto.address_space<...>)",
    ],
  ])('memref error: %s', (text, error) => {
    expect(table.parse(text).error).toBe(error);
  });

  test('types of other dialects are opaque', () => {
    expect(table.parse('!llvm.ptr').type).toEqual({ kind: 'opaque', text: '!llvm.ptr' });
  });

  // PTOAS registers the pto dialect, whose type parser refuses a name it does not define (PTOTypeDefs.td lists them):
  // `!pto.foobar<1x2xf32>` was opaque, and a signature spelling it was accepted.
  test.each([
    ['!pto.foobar<1x2xf32>', "unknown type 'foobar' in the pto dialect"],
    ['!pto.tilebuf<vec, 16x16xf32>', "unknown type 'tilebuf' in the pto dialect"],
    ['!pto.event', "unknown type 'event' in the pto dialect"],
    // VMI types parse (src/syntax/micro-types.ts); VMITypeDefs.td's verifier refuses 64-bit elements.
    ['!pto.vmi.vreg<64xi64>', "'!pto.vmi.vreg<64xi64>' expected an 8-bit, 16-bit, or 32-bit logical element type"],
  ])('%s is an error', (text, error) => {
    expect(table.parse(text).error).toBe(error);
  });

  test('each distinct text is parsed once', () => {
    const t = new TypeTable();
    expect(t.parse(FULL)).toBe(t.parse(FULL));
  });
});

describe('printType', () => {
  test.each([
    [FULL, '!pto.tile_buf<vec, 16x16xf32>'],
    [FULL.replace('pad=0', 'pad=1'), '!pto.tile_buf<vec, 16x16xf32, pad=1>'],
    ['!pto.tile<loc=vec, f32, 16, 16, RowMajor, NoneBox, None, Zero>', '!pto.tile<vec, 16x16xf32, pad=1>'],
    ['!pto.tile<16x16xf32>', '!pto.tile<vec, 16x16xf32>'],
    ['!pto.tile_buf<vec, 16x16xf16, valid=?x?>', '!pto.tile_buf<vec, 16x16xf16, valid=?x?>'],
    [FULL.replace('loc=vec', 'loc=ub'), '!pto.tile_buf<vec, 16x16xf32>'],
    [
      '!pto.tile_buf<loc=acc, dtype=f32, rows=16, cols=16, v_row=?, v_col=16, blayout=col_major, slayout=row_major, fractal=1024, pad=0>',
      '!pto.tile_buf<acc, 16x16xf32, valid=?x16, blayout=col_major, slayout=row_major, fractal=1024>',
    ],
    [FULL.replace('dtype=f32', 'dtype=u8'), '!pto.tile_buf<vec, 16x16xui8>'],
    ['!pto.ptr<f32>', '!pto.ptr<f32, gm>'],
    ['!pto.ptr<f32, vec>', '!pto.ptr<f32, ub>'],
    ['!pto.tensor_view<?x16xf16>', '!pto.tensor_view<?x16xf16>'],
    ['!pto.partition_tensor_view<16x16xui8>', '!pto.partition_tensor_view<16x16xui8>'],
    ['si32', 'i32'],
    ['index', 'index'],
    ['memref<4x16xf32, #pto.address_space<vec>>', 'memref<4x16xf32, #pto.address_space<vec>>'],
    ['memref<4x16xf32, #pto.address_space<ub>>', 'memref<4x16xf32, #pto.address_space<vec>>'],
    ['memref<32x32xf32, strided<[?,  1], offset: ?>, #pto.address_space<gm>>', 'memref<32x32xf32, strided<[?, 1], offset: ?>, #pto.address_space<gm>>'],
    ['!pto.tile_view<32x32xf32>', '!pto.partition_tensor_view<32x32xf32>'],
  ])('%s', (text, printed) => {
    const t = table.parse(text).type!;
    expect(printType(t)).toBe(printed);
    // The printed form is canonical: it parses to the same type, without warnings, and prints the same.
    const again = table.parse(printed);
    expect(again.warnings).toEqual([]);
    expect(again.type).toEqual(t);
    expect(printType(again.type!)).toBe(printed);
  });
});

describe('tables share what a type text means, unless they define aliases', () => {
  test('two tables without aliases give one type object for one text', () => {
    const [a, b] = [new TypeTable(), new TypeTable()];
    expect(a.parse(FULL).type).toBe(b.parse(FULL).type);
    expect(a.parse(FULL).type).toEqual(F32_16x16);
  });

  test("a table with aliases reads a text through its own aliases, not another table's meaning", () => {
    // Read first without aliases (so the shared meaning is there), then with them.
    const plain = new TypeTable();
    expect(plain.parse('!t').type).toEqual({ kind: 'opaque', text: '!t' });
    expect(plain.parse('!pto.struct<!t>').error).toMatch(/not scalar-storable/);
    const aliased = new TypeTable();
    aliased.defineAlias('!t', 'i32');
    expect(aliased.parse('!t').type).toEqual({ kind: 'scalar', elem: 'i32' });
    // A struct whose field is the alias: the field is read through it.
    expect(aliased.parse('!pto.struct<!t>')).toEqual({ type: { kind: 'struct', fields: [{ kind: 'scalar', elem: 'i32' }] }, warnings: [] });
    // And a table without aliases still means what it meant.
    expect(new TypeTable().parse('!pto.struct<!t>').error).toMatch(/not scalar-storable/);
  });
});
