/** The tmp contracts of PTOAS's verifiers (src/ops/instructions/checks/tmp-contracts.ts). */
import { TargetName } from '../../src/spec/schema';
import { TileSpec, at, diagLines, kernel, run, tileBuf } from '../fixtures/verify/helpers';

/** A kernel allocating each named tile, then running `op` (which spells `%NAME : TYPE` through `t`). */
function program(tiles: Record<string, TileSpec>, op: (t: (name: string) => string) => string, args = ''): string {
  const allocs = Object.entries(tiles).map(([name, spec]) => `%${name} = pto.alloc_tile : ${tileBuf(spec)}`);
  return kernel([...allocs, op((name) => tileBuf(tiles[name])), 'return'], args);
}

const check = (text: string, target: TargetName) => diagLines(run(text, target));

const f32 = (rows: number, cols: number, v: Partial<TileSpec> = {}): TileSpec => ({ dtype: 'f32', rows, cols, ...v });
const i32 = (rows: number, cols: number): TileSpec => ({ dtype: 'i32', rows, cols });

describe('tpow / tpows', () => {
  const pow = (tiles: Record<string, TileSpec>, attrs = '') =>
    program(
      tiles,
      (t) => `pto.tpow ins(%b, %e${tiles.tmp ? ', %tmp' : ''} : ${t('b')}, ${t('e')}${tiles.tmp ? ', ' + t('tmp') : ''}) outs(%d : ${t('d')})${attrs}`,
    );
  const HP = ' {precisionType = #pto<pow_precision high_precision>}';

  test('a float pow with a tmp of dst size is accepted on both targets', () => {
    const text = pow({ b: f32(1, 16), e: f32(1, 16), tmp: f32(1, 16), d: f32(1, 16) });
    expect(check(text, 'a2a3')).toEqual([]);
    expect(check(text, 'a5')).toEqual([]);
  });
  test('A2/A3 has no high-precision path: reported at the attribute', () => {
    const text = pow({ b: f32(1, 16), e: f32(1, 16), d: f32(1, 16) }, HP);
    expect(check(text, 'a2a3')).toEqual([`${at(text, '#pto<pow_precision')}: error[E0507]: pto.tpow: A2/A3 does not support precisionType=high_precision`]);
    expect(check(text, 'a5')).toEqual([]);
  });
  test("A5's high-precision path takes floats only", () => {
    const text = pow({ b: i32(1, 16), e: i32(1, 16), d: i32(1, 16) }, HP);
    expect(check(text, 'a5')).toEqual([
      `${at(text, tileBuf(i32(1, 16)), 3)}: error[E0505]: pto.tpow: expects A5 tpow element type to be f16/f32/bf16 when precisionType=high_precision, got i32`,
    ]);
  });
  test('an integer pow takes no tmp (its lowering is the three-operand form)', () => {
    const text = pow({ b: i32(1, 16), e: i32(1, 16), tmp: i32(1, 16), d: i32(1, 16) });
    expect(check(text, 'a2a3')).toEqual([
      `${at(text, tileBuf(i32(1, 16)), 6)}: error[E0515]: pto.tpow: does not accept tmp when element type is integer (i32: the integer lowering takes none)`,
    ]);
    const scalar = program(
      { s: i32(1, 16), tmp: i32(1, 16), d: i32(1, 16) },
      (t) => `pto.tpows ins(%s, %c, %tmp : ${t('s')}, i32, ${t('tmp')}) outs(%d : ${t('d')})`,
      '%c: i32',
    );
    expect(check(scalar, 'a2a3')).toEqual([
      `${at(scalar, tileBuf(i32(1, 16)), 4)}: error[E0515]: pto.tpows: does not accept tmp when element type is integer (i32: the integer lowering takes none)`,
    ]);
  });
  test("a float tmp has dst's valid shape, and on A2/A3 at least dst's bytes", () => {
    const narrow = f32(1, 16, { vCol: 8 });
    const text = pow({ b: f32(1, 16), e: f32(1, 16), tmp: narrow, d: f32(1, 16) });
    expect(check(text, 'a2a3')).toEqual([
      `${at(text, tileBuf(narrow), 1)}: error[E0515]: pto.tpow: expects tmp and dst to have the same valid_shape (tmp 1x8, dst 1x16)`,
    ]);
    const small = f32(1, 8);
    const big = f32(2, 8, { vRow: 1 });
    const sized = pow({ b: small, e: small, tmp: small, d: big });
    expect(check(sized, 'a5').filter((l) => l.includes('E0515'))).toEqual([]);
    expect(check(sized, 'a2a3').filter((l) => l.includes('E0515'))).toEqual([
      `${at(sized, tileBuf(small), 5)}: error[E0515]: pto.tpow: tmp (1x8 f32) holds 32 bytes; dst (2x8 f32) needs at least 64`,
    ]);
  });
});

describe('trem / trems on A2/A3', () => {
  const rem = (tmp: TileSpec) =>
    program(
      { a: f32(16, 64), b: f32(16, 64), tmp, d: f32(16, 64) },
      (t) => `pto.trem ins(%a, %b, %tmp : ${t('a')}, ${t('b')}, ${t('tmp')}) outs(%d : ${t('d')})`,
    );

  test('trem: a tmp of two valid rows covering dst valid columns is accepted; one row is not', () => {
    expect(check(rem(f32(2, 64)), 'a2a3')).toEqual([]);
    const text = rem(f32(1, 64));
    expect(check(text, 'a2a3')).toEqual([
      `${at(text, tileBuf(f32(1, 64)), 1)}: error[E0515]: pto.trem: expects A2/A3 tmp valid_shape[0] to be at least 2, got 1`,
    ]);
    expect(check(text, 'a5')).toEqual([]);
  });
  test('trem: tmp valid columns cover dst valid columns', () => {
    const tmp = f32(2, 64, { vCol: 32 });
    const text = rem(tmp);
    expect(check(text, 'a2a3')).toEqual([
      `${at(text, tileBuf(tmp), 1)}: error[E0515]: pto.trem: expects A2/A3 tmp valid columns (32) to cover dst valid columns (64)`,
    ]);
  });
  test('trems: tmp needs one valid row', () => {
    const tmp = f32(1, 64, { vRow: 0 });
    const text = program(
      { s: f32(16, 64), tmp, d: f32(16, 64) },
      (t) => `pto.trems ins(%s, %c, %tmp : ${t('s')}, f32, ${t('tmp')}) outs(%d : ${t('d')})`,
      '%c: f32',
    );
    expect(check(text, 'a2a3')).toEqual([`${at(text, tileBuf(tmp), 1)}: error[E0515]: pto.trems: expects A2/A3 tmp valid_shape[0] to be at least 1, got 0`]);
  });
});

describe('tprelu on A2/A3', () => {
  const prelu = (tmp: TileSpec, d = f32(16, 64, { vCol: 63 })) =>
    program({ a: d, b: d, tmp, d }, (t) => `pto.tprelu ins(%a, %b, %tmp : ${t('a')}, ${t('b')}, ${t('tmp')}) outs(%d : ${t('d')})`);

  test('a mask tmp of dst valid rows + 1 rows and ceil(cols / 8) valid columns is accepted', () => {
    expect(check(prelu({ dtype: 'u8', rows: 17, cols: 32, vRow: 16, vCol: 8 }), 'a2a3')).toEqual([]);
  });
  test('fewer valid mask columns than ceil(dst valid cols / 8) are rejected at tmp', () => {
    const tmp: TileSpec = { dtype: 'u8', rows: 17, cols: 32, vRow: 16, vCol: 7 };
    const text = prelu(tmp);
    expect(check(text, 'a2a3')).toEqual([
      `${at(text, tileBuf(tmp), 1)}: error[E0515]: pto.tprelu: expects A2/A3 tmp valid_shape[1] (7) to be at least ceil(dst valid_shape[1] / 8) (8)`,
    ]);
    expect(check(text, 'a5').filter((l) => l.includes('E0515'))).toEqual([]);
  });
  test('too few rows for the mask are rejected', () => {
    const tmp: TileSpec = { dtype: 'u8', rows: 16, cols: 32, vCol: 8 };
    const text = prelu(tmp);
    expect(check(text, 'a2a3')).toEqual([
      `${at(text, tileBuf(tmp), 1)}: error[E0515]: pto.tprelu: expects A2/A3 tmp shape[0] (16) to be at least dst valid_shape[0] + 1 (17)`,
    ]);
  });
  test('the four operands are different tiles', () => {
    const d = f32(16, 64, { vCol: 63 });
    const tmp: TileSpec = { dtype: 'u8', rows: 17, cols: 32, vRow: 16, vCol: 8 };
    const text = program({ a: d, tmp, d }, (t) => `pto.tprelu ins(%a, %a, %tmp : ${t('a')}, ${t('a')}, ${t('tmp')}) outs(%d : ${t('d')})`);
    expect(check(text, 'a2a3')).toEqual([
      `${at(text, tileBuf(d), 3)}: error[E0515]: pto.tprelu: expects A3 src0, src1, tmp, and dst to use different storage (src1 is src0)`,
    ]);
  });
});

describe('trsqrt', () => {
  const V = f32(1, 16);
  test('high precision needs a tmp: reported at the attribute', () => {
    const text = program({ a: V, d: V }, (t) => `pto.trsqrt ins(%a : ${t('a')}) outs(%d : ${t('d')}) {precisionType = #pto<rsqrt_precision high_precision>}`);
    expect(check(text, 'a5')).toEqual([`${at(text, '#pto<rsqrt_precision')}: error[E0515]: pto.trsqrt: expects tmp when precisionType is high_precision`]);
  });
  test('a tmp of 32 bytes is enough', () => {
    const text = program({ a: V, tmp: f32(1, 8), d: V }, (t) => `pto.trsqrt ins(%a, %tmp : ${t('a')}, ${t('tmp')}) outs(%d : ${t('d')})`);
    expect(check(text, 'a5')).toEqual([]);
  });
});

describe('arg reductions with a tmp on A2/A3', () => {
  // f32: a repeat is 64 elements, a block 8; 127 valid columns are 2 repeats: (ceil(4/8) + ceil(2/8)) * 8 = 16 columns.
  const rowArg = (tmp: TileSpec) => {
    const src = f32(16, 128, { vRow: 13, vCol: 127 });
    const dst: TileSpec = { dtype: 'u32', rows: 16, cols: 1, vRow: 13, blayout: 'col_major' };
    return program({ s: src, tmp, d: dst }, (t) => `pto.trowargmax ins(%s, %tmp : ${t('s')}, ${t('tmp')}) outs(%d : ${t('d')})`);
  };
  test('trowargmax: the tmp row holds the per-repeat stride', () => {
    expect(check(rowArg(f32(16, 16, { vRow: 13 })), 'a2a3')).toEqual([]);
    const tmp = f32(16, 8, { vRow: 13 });
    const text = rowArg(tmp);
    expect(check(text, 'a2a3')).toEqual([
      `${at(text, tileBuf(tmp), 1)}: error[E0515]: pto.trowargmax: expects A2/A3 tmp valid_shape[1] (8) to be at least 16 for src valid_shape[1] = 127`,
    ]);
    expect(check(text, 'a5').filter((l) => l.includes('E0515'))).toEqual([]);
  });
  test('tcolargmax: 255 valid f32 columns are 4 repeats: (ceil(8/8) + ceil(4/8)) * 8 = 16 columns', () => {
    const src = f32(16, 256, { vRow: 15, vCol: 255 });
    const dst: TileSpec = { dtype: 'i32', rows: 1, cols: 256, vCol: 255 };
    const col = (tmp: TileSpec) => program({ s: src, tmp, d: dst }, (t) => `pto.tcolargmax ins(%s, %tmp : ${t('s')}, ${t('tmp')}) outs(%d : ${t('d')})`);
    expect(check(col(f32(1, 16)), 'a2a3')).toEqual([]);
    const text = col(f32(1, 8));
    expect(check(text, 'a2a3')).toEqual([
      `${at(text, tileBuf(f32(1, 8)), 1)}: error[E0515]: pto.tcolargmax: expects A2/A3 tmp valid_shape[1] (8) to be at least 16 for src valid_shape[1] = 255`,
    ]);
  });
});

describe('tgather index form', () => {
  const gather = (indices: TileSpec, tmp: TileSpec) =>
    program({ s: f32(1, 64), i: indices, tmp, d: f32(1, 64) }, (t) => `pto.tgather ins(%s, %i, %tmp : ${t('s')}, ${t('i')}, ${t('tmp')}) outs(%d : ${t('d')})`);
  test("A2/A3: tmp has the indices' element type and valid shape", () => {
    expect(check(gather(i32(1, 64), i32(1, 64)), 'a2a3')).toEqual([]);
    const unsigned: TileSpec = { dtype: 'u32', rows: 1, cols: 64 };
    const text = gather(i32(1, 64), unsigned);
    expect(check(text, 'a2a3')).toEqual([`${at(text, tileBuf(unsigned), 1)}: error[E0505]: pto.tgather: tmp (ui32) must have the element type of src1 (i32)`]);
    const short: TileSpec = { dtype: 'i32', rows: 1, cols: 64, vCol: 8 };
    const shorter = gather(i32(1, 64), short);
    expect(check(shorter, 'a2a3')).toEqual([`${at(shorter, tileBuf(short), 1)}: error[E0506]: pto.tgather: tmp's valid shape 1x8 must equal src1's 1x64`]);
  });
  test('A5 takes any tmp beside i16 indices', () => {
    expect(check(gather({ dtype: 'i16', rows: 1, cols: 64 }, { dtype: 'i32', rows: 1, cols: 8, vCol: 1 }), 'a5')).toEqual([]);
  });
});
