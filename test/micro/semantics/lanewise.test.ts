/** micro/semantics/lanewise.ts: lane results worked out by hand (floats through Math.fround and the f16 codec). */
import { lanes, maskBit, vregOf } from '../../../src/micro/semantics/core';
import { binary, carry, unary, vecScalar, vlrelu, vprelu } from '../../../src/micro/semantics/lanewise';
import { pattern, plt } from '../../../src/micro/semantics/predicate';
import { f16BitsToNumber } from '../../../src/numerics/float16';

const fail = (message: string): never => {
  throw new Error(message);
};
const all32 = pattern('b32', 'PAT_ALL', fail);
const all16 = pattern('b16', 'PAT_ALL', fail);
const all8 = pattern('b8', 'PAT_ALL', fail);

describe('binary', () => {
  it('f32 add rounds once; inactive lanes are zero', () => {
    const a = vregOf('f32', [1, 0.1, 3]);
    const b = vregOf('f32', [2, 0.2, 4]);
    const r = lanes(binary('vadd', 'f32', a, b, plt('b32', 2).mask, fail), 'f32');
    expect(r.slice(0, 3)).toEqual([3, Math.fround(Math.fround(0.1) + Math.fround(0.2)), 0]);
  });

  it('f16 mul rounds to f16 (1.0009765625 * 1.0009765625 = 1.001953... -> 1.001953125)', () => {
    const x = f16BitsToNumber(0x3c01); // 1 + 2^-10
    const r = lanes(binary('vmul', 'f16', vregOf('f16', [x, 65504]), vregOf('f16', [x, 2]), all16, fail), 'f16');
    expect(r[0]).toBe(1 + 2 ** -9); // 1 + 2^-9 + 2^-20 rounds down to 1 + 2^-9
    expect(r[1]).toBe(Infinity);
  });

  it('integer add, sub wrap; max/min signed and unsigned', () => {
    expect(lanes(binary('vadd', 'i16', vregOf('i16', [32767]), vregOf('i16', [1]), all16, fail), 'i16')[0]).toBe(-32768);
    expect(lanes(binary('vsub', 'u16', vregOf('u16', [0]), vregOf('u16', [1]), all16, fail), 'u16')[0]).toBe(65535);
    expect(lanes(binary('vmax', 'i8', vregOf('i8', [-5, 7]), vregOf('i8', [3, -1]), all8, fail), 'i8').slice(0, 2)).toEqual([3, 7]);
    expect(lanes(binary('vmin', 'u8', vregOf('u8', [200]), vregOf('u8', [100]), all8, fail), 'u8')[0]).toBe(100);
  });

  it('vmin/vmax of floats: NaN propagates, equal zeros keep the first (numpy minimum, as the golden)', () => {
    const r = lanes(binary('vmin', 'f32', vregOf('f32', [NaN, -0, 0, 1]), vregOf('f32', [1, 0, -0, NaN]), all32, fail), 'f32');
    expect(r[0]).toBeNaN();
    expect(Object.is(r[1], -0)).toBe(true);
    expect(Object.is(r[2], 0)).toBe(true);
    expect(r[3]).toBeNaN();
  });

  it('vdiv: float zero denominators give NaN (the vdiv golden), integers truncate and wrap MIN / -1', () => {
    const r = lanes(binary('vdiv', 'f32', vregOf('f32', [1, 0, -7.5, 1]), vregOf('f32', [-0, 0, 2.5, 3]), all32, fail), 'f32');
    expect(r[0]).toBeNaN();
    expect(r[1]).toBeNaN();
    expect(r[2]).toBe(-3);
    expect(r[3]).toBe(Math.fround(1 / 3));
    expect(lanes(binary('vdiv', 'i32', vregOf('i32', [-7, -2147483648]), vregOf('i32', [2, -1]), plt('b32', 2).mask, fail), 'i32').slice(0, 2)).toEqual([
      -3, -2147483648,
    ]);
    expect(() => binary('vdiv', 'i16', vregOf('i16', [1]), vregOf('i16', [0]), all16, fail)).toThrow('division by zero');
  });

  it('bitwise and shifts (counts read as signed lanes of the same width; >> is arithmetic for signed lanes)', () => {
    expect(lanes(binary('vand', 'u16', vregOf('u16', [0xf0f0]), vregOf('u16', [0xff00]), all16, fail), 'u16')[0]).toBe(0xf000);
    expect(lanes(binary('vxor', 'i32', vregOf('i32', [-1]), vregOf('i32', [0x0f]), all32, fail), 'i32')[0]).toBe(-16);
    expect(lanes(binary('vshl', 'u16', vregOf('u16', [0x8001, 1]), vregOf('u16', [1, 15]), all16, fail), 'u16').slice(0, 2)).toEqual([2, 0x8000]);
    expect(lanes(binary('vshr', 'u16', vregOf('u16', [65535, 32768]), vregOf('u16', [6, 5]), all16, fail), 'u16').slice(0, 2)).toEqual([1023, 1024]);
    expect(lanes(binary('vshr', 'i16', vregOf('i16', [-1000]), vregOf('i16', [3]), all16, fail), 'i16')[0]).toBe(-125);
    expect(() => binary('vshl', 'f32', vregOf('f32', [1]), vregOf('f32', [1]), all32, fail)).toThrow('not defined');
  });

  it('vand/vor/vxor of float lanes act on the bits, NaN payloads kept (the vor golden ORs random f16 patterns)', () => {
    // f16 bits: 0x7c01 (a signalling NaN) | 0x0002 = 0x7c03; 0x3c00 (1.0) | 0x8000 = 0xbc00 (-1.0); inactive lane 2 -> 0.
    const lhs = new Uint8Array(256);
    const rhs = new Uint8Array(256);
    new DataView(lhs.buffer).setUint16(0, 0x7c01, true);
    new DataView(rhs.buffer).setUint16(0, 0x0002, true);
    new DataView(lhs.buffer).setUint16(2, 0x3c00, true);
    new DataView(rhs.buffer).setUint16(2, 0x8000, true);
    new DataView(lhs.buffer).setUint16(4, 0x3c00, true);
    const or = binary('vor', 'f16', lhs, rhs, plt('b16', 2).mask, fail);
    expect(lanes(or, 'u16').slice(0, 3)).toEqual([0x7c03, 0xbc00, 0]);
    // f32: 1.5 (0x3fc00000) and 0xffbfffff = 0x3f800000 (1.0); 1.0 xor -0 = -1.0.
    const and = binary('vand', 'f32', vregOf('f32', [1.5]), vregOf('u32', [0xffbfffff]), all32, fail);
    expect(lanes(and, 'f32')[0]).toBe(1);
    expect(lanes(binary('vxor', 'f32', vregOf('f32', [1]), vregOf('f32', [-0]), all32, fail), 'f32')[0]).toBe(-1);
  });
});

describe('vector-scalar', () => {
  it('adds, muls, max, shifts a scalar', () => {
    expect(lanes(vecScalar('vadds', 'f32', vregOf('f32', [1.5, -2]), 0.1, all32, fail), 'f32').slice(0, 2)).toEqual([
      Math.fround(1.5 + Math.fround(0.1)),
      Math.fround(-2 + Math.fround(0.1)),
    ]);
    expect(lanes(vecScalar('vmaxs', 'f32', vregOf('f32', [0.25, 3]), 0.5, all32, fail), 'f32').slice(0, 2)).toEqual([0.5, 3]);
    expect(lanes(vecScalar('vmuls', 'i16', vregOf('i16', [300]), 300, all16, fail), 'i16')[0]).toBe(90000 - 65536); // 90000 wraps to 24464
    expect(lanes(vecScalar('vshls', 'i32', vregOf('i32', [3]), 4, all32, fail), 'i32')[0]).toBe(48);
  });
  it('vlrelu and vprelu scale the negative lanes', () => {
    expect(lanes(vlrelu('f32', vregOf('f32', [-2, 3, -0]), 0.1, all32, fail), 'f32').slice(0, 3)).toEqual([Math.fround(-2 * Math.fround(0.1)), 3, -0]);
    expect(lanes(vprelu('f32', vregOf('f32', [-2, 3]), vregOf('f32', [0.5, 9]), all32, fail), 'f32').slice(0, 2)).toEqual([-1, 3]);
  });
});

describe('unary', () => {
  it('abs and neg wrap for integers', () => {
    expect(lanes(unary('vabs', 'i8', vregOf('i8', [-128, -5, 5]), all8, fail), 'i8').slice(0, 3)).toEqual([-128, 5, 5]);
    expect(lanes(unary('vneg', 'i32', vregOf('i32', [-2147483648, 7]), all32, fail), 'i32').slice(0, 2)).toEqual([-2147483648, -7]);
    expect(lanes(unary('vabs', 'f32', vregOf('f32', [-0, -1.5]), all32, fail), 'f32').slice(0, 2)).toEqual([0, 1.5]);
  });
  it('exp, ln, sqrt round once; relu keeps NaN and zeroes negatives; not complements', () => {
    expect(lanes(unary('vexp', 'f32', vregOf('f32', [1]), all32, fail), 'f32')[0]).toBe(Math.fround(Math.E));
    expect(lanes(unary('vln', 'f32', vregOf('f32', [1, -1]), all32, fail), 'f32').slice(0, 2)).toEqual([0, NaN]);
    expect(lanes(unary('vsqrt', 'f16', vregOf('f16', [2]), all16, fail), 'f16')[0]).toBe(f16BitsToNumber(0x3da8)); // sqrt 2 = 1.4140625 in f16
    const relu = lanes(unary('vrelu', 'f32', vregOf('f32', [-3, 2, NaN]), all32, fail), 'f32');
    expect(relu.slice(0, 2)).toEqual([0, 2]);
    expect(relu[2]).toBeNaN();
    expect(lanes(unary('vnot', 'u8', vregOf('u8', [0x0f]), all8, fail), 'u8')[0]).toBe(0xf0);
    expect(() => unary('vexp', 'i32', vregOf('i32', [1]), all32, fail)).toThrow('not defined');
  });
});

describe('carry', () => {
  it('vaddc carries out of 32 bits; vsubc carries when no borrow', () => {
    const a = vregOf('u32', [0xffffffff, 5]);
    const b = vregOf('u32', [2, 6]);
    const add = carry('vaddc', 'u32', a, b, all32, fail);
    expect(lanes(add.result, 'u32').slice(0, 2)).toEqual([1, 11]);
    expect([maskBit(add.carry, 0), maskBit(add.carry, 4)]).toEqual([true, false]);
    const sub = carry('vsubc', 'u32', a, b, all32, fail);
    expect(lanes(sub.result, 'u32').slice(0, 2)).toEqual([0xfffffffd, 0xffffffff]);
    expect([maskBit(sub.carry, 0), maskBit(sub.carry, 4)]).toEqual([true, false]);
  });
  it('vaddcs adds the carry-in; vsubcs subtracts the borrow (1 - carry-in)', () => {
    const a = vregOf('i32', [-1, 10]);
    const b = vregOf('i32', [0, 10]);
    const cin = plt('b32', 1).mask; // lane 0 carries in, lane 1 does not
    const add = carry('vaddcs', 'i32', a, b, all32, fail, cin);
    expect(lanes(add.result, 'i32').slice(0, 2)).toEqual([0, 20]);
    expect(maskBit(add.carry, 0)).toBe(true);
    const sub = carry('vsubcs', 'i32', a, b, all32, fail, cin);
    expect(lanes(sub.result, 'i32').slice(0, 2)).toEqual([-1, -1]);
    expect([maskBit(sub.carry, 0), maskBit(sub.carry, 4)]).toEqual([true, false]);
  });
});
