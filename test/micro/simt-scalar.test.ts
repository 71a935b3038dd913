/**
 * The SIMT level's scalar ops (docs/isa/micro-isa/17-simt.md) and their keyword modifiers (`signed`, `sat`,
 * `round(z)`): lane reductions, conversions, wide products, byte permutes, float math; the verifier rules of
 * lib/PTO/IR/VPTO.cpp (redux signedness, convert controls); printing back as written. Values worked out by hand.
 */
import { GlobalBuffer } from '../../src/machine/memory';
import { printCanonical } from '../../src/emit/canonical';
import { assemble } from '../../src/verify/assemble';
import { runMicroKernel } from '../fixtures/micro';

const HEADER = 'module attributes {pto.target_arch = "a5", pto.kernel_kind = #pto.kernel_kind<vector>} {';

/** A launch of `lanes` threads of @body, which writes through %gm; the results as i32 values. */
function run(lanes: number, body: string, fields: number): number[] {
  const out = new GlobalBuffer('gm', 'i32', new Uint8Array(lanes * fields * 4));
  const text = `${HEADER}
  func.func @k(%gm: !pto.ptr<i32, gm>) attributes {pto.aicore} {
    %x = arith.constant ${lanes} : i32
    %one = arith.constant 1 : i32
    pto.simt_launch @body<<<%x, %one, %one>>>(%gm) : (!pto.ptr<i32, gm>) -> ()
    return
  }
  func.func @body(%gm: !pto.ptr<i32, gm>) attributes {pto.simt_entry} {
    %lane = pto.get_laneid : i32
    %nf = arith.constant ${fields} : i32
    %base = arith.muli %lane, %nf : i32
${body}
    return
  }
}`;
  runMicroKernel(text, 'k', { gm: out });
  return Array.from({ length: out.length }, (_, i) => Number(out.readElement(i)));
}

/** Stores an i32 value at field k of the lane's row. */
const put = (value: string, k: number) => `    %k${k} = arith.constant ${k} : i32
    %a${k} = arith.addi %base, %k${k} : i32
    %i${k} = arith.index_castui %a${k} : i32 to index
    pto.store ${value}, %gm[%i${k}] : !pto.ptr<i32, gm>, i32`;

const errors = (body: string) =>
  assemble('m.pto', `${HEADER}\n  func.func @b() attributes {pto.simt_entry} {\n${body}\n    return\n  }\n}`)
    .diags.sorted()
    .filter((d) => d.severity === 'error')
    .map((d) => `${d.code}: ${d.message}`);

describe('SIMT lane reductions', () => {
  it('reduce i32 lanes signed and unsigned, and f32 lanes, into every lane', () => {
    // 4 lanes, v = lane - 2: -2, -1, 0, 1. Signed: sum -2, max 1, min -2. Unsigned: max is -1 (0xffffffff),
    // min 0. f32 lanes 0.5 * lane: sum 3 (0 + 0.5 + 1 + 1.5), converted by round(z).
    const body = `    %c2 = arith.constant 2 : i32
    %v = arith.subi %lane, %c2 : i32
    %sum = pto.redux_add %v signed : i32 -> i32
    %max = pto.redux_max %v signed : i32 -> i32
    %min = pto.redux_min %v signed : i32 -> i32
    %umax = pto.redux_max %v unsigned : i32 -> i32
    %umin = pto.redux_min %v unsigned : i32 -> i32
    %lf = pto.convert %lane round(r) nosat signed : i32 -> f32
    %half = arith.constant 0.5 : f32
    %f = arith.mulf %lf, %half : f32
    %fs = pto.redux_add %f : f32 -> f32
    %fsi = pto.convert %fs round(z) sat signed : f32 -> i32
${[put('%sum', 0), put('%max', 1), put('%min', 2), put('%umax', 3), put('%umin', 4), put('%fsi', 5)].join('\n')}`;
    const v = run(4, body, 6);
    for (let lane = 0; lane < 4; lane++) expect(v.slice(lane * 6, lane * 6 + 6)).toEqual([-2, 1, -2, -1, 0, 3]);
  });

  it('rejects integer redux_max without signedness and float redux with it (VPTO.cpp verifyReduxSemanticType)', () => {
    expect(errors('    %v = arith.constant 7 : i32\n    %r = pto.redux_max %v : i32 -> i32')).toEqual([
      'E0451: pto.redux_max: requires explicit signedness for integer redux',
    ]);
    expect(errors('    %v = arith.constant 1.0 : f32\n    %r = pto.redux_add %v signed : f32 -> f32')).toEqual([
      'E0451: pto.redux_add: does not accept signedness for floating-point redux',
    ]);
    expect(errors('    %v = arith.constant 7 : i32\n    %r = pto.redux_add %v : i32 -> i32')).toEqual([]);
  });
});

describe('pto.convert', () => {
  it('rounds a float to an integer by the mode and saturates', () => {
    // 2.5: r -> 2 (ties to even), a -> 3, f -> 2, c -> 3, z -> 2; -2.5 under z -> -2; 3e9 saturates to 2^31 - 1;
    // unsigned -> i32 of -1.5 saturates to 0; i32 -1 read unsigned is 4294967295 -> f32 4294967296 -> sat i32 max.
    const body = `    %x = arith.constant 2.5 : f32
    %nx = arith.constant -2.5 : f32
    %big = arith.constant 3.0e9 : f32
    %neg = arith.constant -1.5 : f32
    %m1 = arith.constant -1 : i32
    %r = pto.convert %x round(r) sat signed : f32 -> i32
    %a = pto.convert %x round(a) sat signed : f32 -> i32
    %f = pto.convert %x round(f) sat signed : f32 -> i32
    %c = pto.convert %x round(c) sat signed : f32 -> i32
    %z = pto.convert %nx round(z) sat signed : f32 -> i32
    %s = pto.convert %big round(z) sat signed : f32 -> i32
    %u = pto.convert %neg round(z) sat unsigned : f32 -> i32
    %uf = pto.convert %m1 round(r) nosat unsigned : i32 -> f32
    %ui = pto.convert %uf round(z) sat signed : f32 -> i32
${[put('%r', 0), put('%a', 1), put('%f', 2), put('%c', 3), put('%z', 4), put('%s', 5), put('%u', 6), put('%ui', 7)].join('\n')}`;
    expect(run(1, body, 8)).toEqual([2, 3, 2, 3, -2, 2147483647, 0, 2147483647]);
  });

  it('checks the controls as verifyConvertControls does', () => {
    const conv = (text: string) => errors(`    %i = arith.constant 1 : i32\n    %f = arith.constant 1.0 : f32\n    %r = pto.convert ${text}`);
    expect(conv('%f round(z) nosat signed : f32 -> i32')).toEqual(['E0451: pto.convert: fp32-to-integer conversion requires saturation enable']);
    expect(conv('%f round(z) sat : f32 -> i32')).toEqual(['E0451: pto.convert: requires signedness when converting to or from integer type']);
    expect(conv('%i round(z) sat signed : i32 -> i32')).toEqual(['E0451: pto.convert: does not support integer-to-integer conversion']);
    expect(conv('%f round(o) sat signed : f32 -> bf16')).toEqual(['E0451: pto.convert: does not accept signedness for floating-to-floating conversion']);
    expect(conv('%f round(o) sat : f32 -> bf16')).toEqual(['E0451: pto.convert: fp32-to-floating conversion supports rounding r/a/f/c/z']);
    expect(conv('%f round(q) sat : f32 -> f16')).toEqual(['E0451: pto.convert: \'rounding\' must be one of r, a, f, c, z, o, h, got "q"']);
    expect(conv('%f round(o) nosat : f32 -> f16')).toEqual([]);
  });

  it('prints its keywords back as written', () => {
    const text = `${HEADER}\n  func.func @b(%f: f32) attributes {pto.simt_entry} {\n    %r = pto.convert %f round(z) sat signed : f32 -> i32\n    %s = pto.redux_add %r unsigned : i32 -> i32\n    return\n  }\n}`;
    const a = assemble('m.pto', text);
    const printed = printCanonical(a.module, a.types);
    expect(printed).toContain('pto.convert %f round(z) sat signed : f32 -> i32');
    expect(printed).toContain('pto.redux_add %r unsigned : i32 -> i32');
  });
});

describe('SIMT integer and float math', () => {
  it('mulhi, mul_i32toi64, prmt and float ops', () => {
    // mulhi signed of -2^31 * 3 = -6442450944 -> high word -2; unsigned 0x80000000 * 3 = 0x1_8000_0000 -> 1.
    // mul_i32toi64 unsigned of -1 * -1 = (2^32 - 1)^2, its low word 1. prmt(0x11223344, 0xaabbccdd, 0x7654) = lhs
    // = 0x11223344 = 287454020; selector 0x3210 gives rhs = 0xaabbccdd = -1430532899.
    // fma(1.5, 2, 0.25) = 3.25 -> floor 3; sqrt(2) * 1000 truncated: f32 sqrt(2) = 1.41421353816986083984375, times
    // 1000 rounded to f32 = 1414.2135009765625 -> 1414; fmin(-0, +0) is -0, its 1 / x -> -inf -> sat i32 min.
    const body = `    %min = arith.constant -2147483648 : i32
    %three = arith.constant 3 : i32
    %m1 = arith.constant -1 : i32
    %hs = pto.mulhi %min, %three signed : i32, i32 -> i32
    %hu = pto.mulhi %min, %three unsigned : i32, i32 -> i32
    %w = pto.mul_i32toi64 %m1, %m1 unsigned : i32, i32 -> i64
    %wl = arith.trunci %w : i64 to i32
    %pa = arith.constant 287454020 : i32
    %pb = arith.constant -1430532899 : i32
    %s7654 = arith.constant 30292 : i32
    %s3210 = arith.constant 12816 : i32
    %p1 = pto.prmt %pa, %pb, %s7654 : i32, i32, i32 -> i32
    %p2 = pto.prmt %pa, %pb, %s3210 : i32, i32, i32 -> i32
    %x = arith.constant 1.5 : f32
    %y = arith.constant 2.0 : f32
    %q = arith.constant 0.25 : f32
    %fma = pto.fma %x, %y, %q : f32, f32, f32 -> f32
    %fl = pto.floor %fma : f32 -> f32
    %fli = pto.convert %fl round(z) sat signed : f32 -> i32
    %two = arith.constant 2.0 : f32
    %k = arith.constant 1000.0 : f32
    %sq = pto.sqrt %two : f32 -> f32
    %sqk = arith.mulf %sq, %k : f32
    %sqi = pto.convert %sqk round(z) sat signed : f32 -> i32
    %nz = arith.constant -0.0 : f32
    %pz = arith.constant 0.0 : f32
    %one = arith.constant 1.0 : f32
    %mn = pto.fmin %pz, %nz : f32, f32 -> f32
    %inv = arith.divf %one, %mn : f32
    %invi = pto.convert %inv round(z) sat signed : f32 -> i32
${[put('%hs', 0), put('%hu', 1), put('%wl', 2), put('%p1', 3), put('%p2', 4), put('%fli', 5), put('%sqi', 6), put('%invi', 7)].join('\n')}`;
    expect(run(1, body, 8)).toEqual([-2, 1, 1, 287454020, -1430532899, 3, 1414, -2147483648]);
  });
});

describe('pto.get_ctrl', () => {
  it('reads 0 at reset (pto-isa cpu_stub.hpp) and then what pto.set_ctrl wrote', () => {
    const gm = new GlobalBuffer('gm', 'i64', new Uint8Array(16).fill(0xff));
    const text = `${HEADER}
  func.func @k(%gm: !pto.ptr<i64, gm>) attributes {pto.aicore} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %first = pto.get_ctrl : i64
    pto.store %first, %gm[%c0] : !pto.ptr<i64, gm>, i64
    %v = arith.constant 1152921504606846981 : i64
    pto.set_ctrl %v : i64
    %second = pto.get_ctrl : i64
    pto.store %second, %gm[%c1] : !pto.ptr<i64, gm>, i64
    return
  }
}`;
    runMicroKernel(text, 'k', { gm });
    // 1152921504606846981 = 2^60 + 5
    expect([gm.readElement(0), gm.readElement(1)]).toEqual([0n, 1152921504606846981n]);
  });
});

describe('llvm.bitcast', () => {
  it('is arith.bitcast: f16 1.5 is 0x3e00 (15872) as i16', () => {
    const body = `    %h = arith.constant 1.5 : f16
    %b = llvm.bitcast %h : f16 to i16
    %w = arith.extsi %b : i16 to i32
${put('%w', 0)}`;
    expect(run(1, body, 1)).toEqual([15872]);
  });
});
