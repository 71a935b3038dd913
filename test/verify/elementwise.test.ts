/** Verifier rules of the elementwise family beyond the dtype tables (src/verify/checks/elementwise.ts). */
import { diagLines, kernel, run, tileBuf } from '../fixtures/verify/helpers';

const tb = (dtype: string) => tileBuf({ dtype, rows: 8, cols: 32 });

function check(line: string, tiles: Record<string, string>, args = '', target: 'a2a3' | 'a5' = 'a5'): string[] {
  const allocs = Object.entries(tiles).map(([name, dtype]) => `%${name} = pto.alloc_tile : ${tb(dtype)}`);
  return diagLines(run(kernel([...allocs, line, 'return'], args), target));
}

describe('taxpy', () => {
  test('accepts dst of src0 type and f32 dst over f16 src0', () => {
    expect(check(`pto.taxpy ins(%a, %s : ${tb('f16')}, f16) outs(%d : ${tb('f32')})`, { a: 'f16', d: 'f32' }, '%s: f16')).toEqual([]);
    expect(check(`pto.taxpy ins(%a, %s : ${tb('f32')}, f32) outs(%d : ${tb('f32')})`, { a: 'f32', d: 'f32' }, '%s: f32')).toEqual([]);
  });
  test('rejects f16 dst over f32 src0', () => {
    const line = `pto.taxpy ins(%a, %s : ${tb('f32')}, f32) outs(%d : ${tb('f16')})`;
    const col = 4 + line.indexOf(tb('f16')) + 1;
    expect(check(line, { a: 'f32', d: 'f16' }, '%s: f32')).toEqual([
      `5:${col}: error[E0508]: pto.taxpy: dst (f16) must have src0's element type (f32), or be f32 with f16 src0`,
    ]);
  });
});

describe('taddreluconv', () => {
  test('accepts the three narrowing pairs', () => {
    for (const [s, d] of [
      ['f32', 'f16'],
      ['f16', 'i8'],
      ['i16', 'i8'],
    ]) {
      expect(check(`pto.taddreluconv ins(%a, %b : ${tb(s)}, ${tb(s)}) outs(%d : ${tb(d)})`, { a: s, b: s, d })).toEqual([]);
    }
  });
  test('rejects a pair of allowed dtypes that is not one of them', () => {
    const line = `pto.taddreluconv ins(%a, %b : ${tb('f32')}, ${tb('f32')}) outs(%d : ${tb('i8')})`;
    const col = 4 + line.lastIndexOf(tb('i8')) + 1;
    expect(check(line, { a: 'f32', b: 'f32', d: 'i8' })).toEqual([
      `6:${col}: error[E0508]: pto.taddreluconv: converting f32 to i8 is not supported (src0 -> dst: f32 -> f16, f16 -> i8, i16 -> i8)`,
    ]);
  });
});

describe('scalar operands', () => {
  test('a tile in the scalar position is an error', () => {
    const line = `pto.tadds ins(%a, %b : ${tb('f32')}, ${tb('f32')}) outs(%d : ${tb('f32')})`;
    const col = 4 + line.indexOf(tb('f32'), line.indexOf(',', line.indexOf(':'))) + 1;
    expect(check(line, { a: 'f32', b: 'f32', d: 'f32' })).toEqual([
      `6:${col}: error[E0502]: pto.tadds: scalar must be a scalar (index, integer or float), got !pto.tile_buf<vec, 8x32xf32>`,
    ]);
  });
  test('an integer scalar on a float tile and a float scalar on an integer tile are accepted (the API converts)', () => {
    expect(check(`pto.tmuls ins(%a, %s : ${tb('f32')}, i32) outs(%d : ${tb('f32')})`, { a: 'f32', d: 'f32' }, '%s: i32')).toEqual([]);
    expect(check(`pto.tdivs ins(%a, %s : ${tb('i32')}, f32) outs(%d : ${tb('i32')})`, { a: 'i32', d: 'i32' }, '%s: f32')).toEqual([]);
  });
  test('tdivs binds its sources by kind: the scalar may come first (scalar / tile), as PTOAS allows', () => {
    expect(check(`pto.tdivs ins(%s, %a : f32, ${tb('f32')}) outs(%d : ${tb('f32')})`, { a: 'f32', d: 'f32' }, '%s: f32')).toEqual([]);
    // Two scalars are still an error, reported at the operand that must be a tile.
    const r = check(`pto.tdivs ins(%s, %s : f32, f32) outs(%d : ${tb('f32')})`, { d: 'f32' }, '%s: f32');
    expect(r.some((l) => l.includes('pto.tdivs: src must be a tile, got f32'))).toBe(true);
  });
});

describe('optional scratch tiles', () => {
  test('txor and trem accept the PTOAS form without tmp and the manual form with it', () => {
    expect(check(`pto.txor ins(%a, %b : ${tb('i32')}, ${tb('i32')}) outs(%d : ${tb('i32')})`, { a: 'i32', b: 'i32', d: 'i32' }, '', 'a2a3')).toEqual([]);
    expect(
      check(
        `pto.trem ins(%a, %b, %t : ${tb('f32')}, ${tb('f32')}, ${tb('f32')}) outs(%d : ${tb('f32')})`,
        { a: 'f32', b: 'f32', t: 'f32', d: 'f32' },
        '',
        'a2a3',
      ),
    ).toEqual([]);
  });
  test('a2a3 tprelu keeps its mask in a u8 tmp', () => {
    const line = `pto.tprelu ins(%a, %b, %t : ${tb('f16')}, ${tb('f16')}, ${tb('f16')}) outs(%d : ${tb('f16')})`;
    expect(check(line, { a: 'f16', b: 'f16', t: 'f16', d: 'f16' }, '', 'a2a3').join('\n')).toContain(
      'pto.tprelu: tmp dtype f16 is not supported on a2a3 (allowed: ui8)',
    );
  });
});

describe('the bitwise family per target (PTOAS TAndOp ... TNotOp verifiers)', () => {
  const scalarLine = (op: string, e: string) => `pto.${op} ins(%a, %s : ${tb(e)}, ${e}) outs(%d : ${tb(e)})`;
  const typeCols = (line: string, e: string) => [line.indexOf(tb(e)), line.lastIndexOf(tb(e))].map((i) => 4 + i + 1);
  test.each(['tands', 'tors'])('a2a3 %s takes 8- and 16-bit integers only; A5 also 32-bit ones', (op) => {
    const line = scalarLine(op, 'i32');
    const [src, dst] = typeCols(line, 'i32');
    expect(check(line, { a: 'i32', d: 'i32' }, '%s: i32', 'a2a3')).toEqual([
      `5:${src}: error[E0505]: pto.${op}: src dtype i32 is not supported on a2a3 (allowed: i8, ui8, i16, ui16)`,
      `5:${dst}: error[E0505]: pto.${op}: dst dtype i32 is not supported on a2a3 (allowed: i8, ui8, i16, ui16)`,
    ]);
    expect(check(scalarLine(op, 'i16'), { a: 'i16', d: 'i16' }, '%s: i16', 'a2a3')).toEqual([]);
    expect(check(scalarLine(op, 'i8'), { a: 'i8', d: 'i8' }, '%s: i8', 'a2a3')).toEqual([]);
    expect(check(line, { a: 'i32', d: 'i32' }, '%s: i32', 'a5')).toEqual([]);
  });
  test('a2a3 txors too, its tmp of the same type', () => {
    const line = `pto.txors ins(%a, %s, %t : ${tb('i32')}, i32, ${tb('i32')}) outs(%d : ${tb('i32')})`;
    expect(check(line, { a: 'i32', t: 'i32', d: 'i32' }, '%s: i32', 'a2a3')).toHaveLength(3);
    expect(check(line.replaceAll('i32', 'i16'), { a: 'i16', t: 'i16', d: 'i16' }, '%s: i16', 'a2a3')).toEqual([]);
    expect(check(line, { a: 'i32', t: 'i32', d: 'i32' }, '%s: i32', 'a5')).toEqual([]);
  });
  test('the tile-tile forms take 8-, 16- and 32-bit integers on both targets', () => {
    for (const target of ['a2a3', 'a5'] as const)
      for (const op of ['tand', 'tor', 'txor'])
        expect(check(`pto.${op} ins(%a, %b : ${tb('u32')}, ${tb('u32')}) outs(%d : ${tb('u32')})`, { a: 'u32', b: 'u32', d: 'u32' }, '', target)).toEqual([]);
  });
  test('a2a3 tnot takes 16-bit integers only; A5 8-, 16- and 32-bit ones', () => {
    const line = (e: string) => `pto.tnot ins(%a : ${tb(e)}) outs(%d : ${tb(e)})`;
    for (const e of ['i8', 'u32']) {
      const [src, dst] = typeCols(line(e), e);
      const name = e === 'i8' ? 'i8' : 'ui32';
      expect(check(line(e), { a: e, d: e }, '', 'a2a3')).toEqual([
        `5:${src}: error[E0505]: pto.tnot: src dtype ${name} is not supported on a2a3 (allowed: i16, ui16)`,
        `5:${dst}: error[E0505]: pto.tnot: dst dtype ${name} is not supported on a2a3 (allowed: i16, ui16)`,
      ]);
      expect(check(line(e), { a: e, d: e }, '', 'a5')).toEqual([]);
    }
    expect(check(line('u16'), { a: 'u16', d: 'u16' }, '', 'a2a3')).toEqual([]);
  });
});

describe('scalar operand types (PTOAS ScalarType: a signless integer or a float)', () => {
  // The op line is line 5 (two allocations); the error points at the scalar's type in the ins list.
  const at = (line: string, type: string) => `5:${4 + line.indexOf(`, ${type})`) + 3}`;
  const scalarOp = (op: string, e: string, s: string) => `pto.${op} ins(%a, %s : ${tb(e)}, ${s}) outs(%d : ${tb(e)})`;
  test.each([
    ['tmaxs', 'u8', 'ui8', 'scalar', 'a signless integer or a float'],
    ['tmins', 'i32', 'index', 'scalar', 'a signless integer or a float'],
    ['tadds', 'f32', 'ui32', 'scalar', 'a signless integer or a float'],
    ['tands', 'i16', 'f16', 'scalar', 'a signless integer'],
    ['tshls', 'u16', 'ui16', 'scalar', 'a signless integer'],
    ['tdivs', 'f32', 'index', 'scalar', 'an integer or a float'],
    ['tlrelu', 'f16', 'f16', 'slope', 'f32'],
  ])('%s on %s data with a scalar of type %s is an error', (op, e, s, operand, words) => {
    const line = scalarOp(op, e, s);
    expect(check(line, { a: e, d: e }, `%s: ${s}`)).toEqual([`${at(line, s)}: error[E0505]: pto.${op}: ${operand} must be ${words}, not ${s}`]);
  });
  test.each([
    ['tmaxs', 'u8', 'i8'],
    ['tmins', 'i32', 'f32'],
    ['tands', 'u16', 'i16'],
    ['tdivs', 'f32', 'ui32'],
    ['tlrelu', 'f16', 'f32'],
  ])('%s on %s data with a scalar of type %s is accepted', (op, e, s) => {
    expect(check(scalarOp(op, e, s), { a: e, d: e }, `%s: ${s}`)).toEqual([]);
  });
});
