/**
 * The direct semantic model on small cases computed by hand from the seeds and reference/ascendc.md (not
 * taken from the conformance file), and fast-check properties the semantics imply.
 */
import fc from 'fast-check';
import {
  BitMask,
  CopyParams,
  DType,
  Mask,
  ModelError,
  Problem,
  Product,
  adder,
  blockReduceSum,
  copy,
  laneEnables,
  maskProblems,
  pairTree,
  tikMask,
  validateBlockReduceSum,
  validateCopy,
  validateVecReduceAdd,
  validateWholeReduceMin,
  vecReduceAdd,
  vecReduceAddCombine,
  wholeReduceMin,
} from '../../src/ascendc/model';
import { tcolmin } from './tcolmin-model';
import { f16BitsToNumber, numberToF16Bits } from '../../src/numerics/float16';

const FILL = 0xee;

function memory(size = 8192): Uint8Array {
  return new Uint8Array(size).fill(FILL);
}

function view(mem: Uint8Array): DataView {
  return new DataView(mem.buffer, mem.byteOffset, mem.byteLength);
}

function putF16(mem: Uint8Array, addr: number, values: readonly number[]): void {
  values.forEach((v, i) => view(mem).setUint16(addr + 2 * i, numberToF16Bits(v), true));
}

function putF16Bits(mem: Uint8Array, addr: number, bits: readonly number[]): void {
  bits.forEach((b, i) => view(mem).setUint16(addr + 2 * i, b, true));
}

function putF32(mem: Uint8Array, addr: number, values: readonly number[]): void {
  values.forEach((v, i) => view(mem).setFloat32(addr + 4 * i, v, true));
}

const u16 = (mem: Uint8Array, addr: number) => view(mem).getUint16(addr, true);
const u32 = (mem: Uint8Array, addr: number) => view(mem).getUint32(addr, true);
const f16 = (mem: Uint8Array, addr: number) => f16BitsToNumber(u16(mem, addr));
const SENTINEL16 = 0xeeee;

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return Buffer.from(a.buffer, a.byteOffset, a.byteLength).equals(Buffer.from(b.buffer, b.byteOffset, b.byteLength));
}

function thrown(f: () => void): unknown {
  try {
    f();
  } catch (e) {
    return e;
  }
  return undefined;
}

function params(problems: Problem[]): string[] {
  return problems.map((p) => p.param);
}

// ---------------------------------------------------------------------------------------------------
describe('masks', () => {
  test('seed example: mask = [8, 0] enables only lane 3', () => {
    const on = laneEnables([8n, 0n], 2);
    expect(on.flatMap((e, l) => (e ? [l] : []))).toEqual([3]);
  });

  test('mask[1] covers lanes 64..127 for 16-bit types', () => {
    const on = laneEnables([0n, 1n | (1n << 63n)], 2);
    expect(on.flatMap((e, l) => (e ? [l] : []))).toEqual([64, 127]);
  });

  test('TIK [mask_h, mask_l] is converted to AscendC [mask_l, mask_h]', () => {
    expect(tikMask([1n, 2n])).toEqual([2n, 1n]);
  });

  test('range rules per width, with precise messages', () => {
    expect(maskProblems(129, 2, 'half')).toEqual([{ param: 'mask', message: 'mask (contiguous mode)=129 out of range [1, 128] for 16-bit half' }]);
    expect(maskProblems(64, 4, 'float')).toEqual([]);
    expect(maskProblems(65, 4, 'float')[0].message).toBe('mask (contiguous mode)=65 out of range [1, 64] for 32-bit float');
    expect(maskProblems(0, 2, 'half')).toHaveLength(1);
    expect(maskProblems(1.5, 2, 'half')).toHaveLength(1);
    expect(maskProblems([0n, 0n], 2, 'half')[0].message).toBe('bit-mode mask: mask[0] and mask[1] must not both be 0');
    expect(maskProblems([0n, 1n], 2, 'half')).toEqual([]);
    expect(maskProblems([1n, 1n], 4, 'float')[0].message).toBe('bit-mode mask: mask[1]=0x1 must be 0 for 32-bit float (64 lanes)');
    expect(maskProblems([0n, 0n], 4, 'float')[0].message).toBe('bit-mode mask: mask[0] must not be 0 for 32-bit float');
    expect(maskProblems([1n << 64n, 0n], 2, 'half')[0].message).toBe('bit-mode mask: mask[0]=0x10000000000000000 out of range [0, 2^64-1]');
    expect(maskProblems([1n << 32n, 0n], 8, 'int64')[0].message).toBe('bit-mode mask: mask[0]=0x100000000 out of range (0, 2^32-1] for 64-bit int64');
  });

  test('property: contiguous m enables the same lanes as the bit mask of the low m bits', () => {
    fc.assert(
      fc.property(fc.constantFrom(2, 4), fc.integer({ min: 1, max: 128 }), (sz, m0) => {
        const m = Math.min(m0, 256 / sz);
        const bits = (1n << BigInt(m)) - 1n;
        const bitMask: BitMask = [bits & ((1n << 64n) - 1n), bits >> 64n];
        expect(laneEnables(m, sz)).toEqual(laneEnables(bitMask, sz));
      }),
    );
  });
});

// ---------------------------------------------------------------------------------------------------
describe('WholeReduceMin', () => {
  test('half, mask=4: min 1 at lanes 1 and 2 -> smallest index 1; masked lanes (0.0) ignored', () => {
    const mem = memory();
    putF16(mem, 0, [3, 1, 1, 2, ...new Array(124).fill(0)]);
    wholeReduceMin(mem, 4096, 0, { dtype: 'f16', mask: 4, repeat: 1 });
    expect([u16(mem, 4096), u16(mem, 4098)]).toEqual([0x3c00, 1]); // [value, index] as two half slots
    expect(u16(mem, 4100)).toBe(SENTINEL16);
  });

  test('ORDER_INDEX_VALUE writes [index, value]; ORDER_ONLY_INDEX writes a uint32 index also for half', () => {
    const values = Array.from({ length: 128 }, (_, l) => (l === 77 ? -3 : l));
    const mem = memory();
    putF16(mem, 0, values);
    wholeReduceMin(mem, 4096, 0, { dtype: 'f16', mask: 128, repeat: 1, order: 'ORDER_INDEX_VALUE' });
    expect([u16(mem, 4096), u16(mem, 4098)]).toEqual([77, numberToF16Bits(-3)]);
    wholeReduceMin(mem, 4200, 0, { dtype: 'f16', mask: 128, repeat: 1, order: 'ORDER_ONLY_INDEX' });
    expect(u32(mem, 4200)).toBe(77);
    expect(u16(mem, 4204)).toBe(SENTINEL16);
  });

  test('float: [value, index] with the index as uint32 bits in the float slot; dstRepStride unit 8 B', () => {
    const mem = memory();
    putF32(
      mem,
      0,
      Array.from({ length: 128 }, (_, i) => (i === 70 ? -7.25 : i === 5 ? -1 : 10)),
    );
    wholeReduceMin(mem, 4096, 0, { dtype: 'f32', mask: 64, repeat: 2, dstRepStride: 2 });
    expect([view(mem).getFloat32(4096, true), u32(mem, 4100)]).toEqual([-1, 5]);
    expect(u32(mem, 4104)).toBe(0xeeeeeeee); // the gap of dstRepStride = 2
    expect([view(mem).getFloat32(4112, true), u32(mem, 4116)]).toEqual([-7.25, 6]); // lane 70 - 64
  });

  test('srcBlkStride=2: lane 16 (block 1, element 0) is read 64 bytes after src; the index is the lane, not the offset', () => {
    const mem = memory();
    putF16(mem, 0, new Array(512).fill(5));
    putF16(mem, 64, [-1]);
    putF16(mem, 32, [-9]); // skipped: block 1 of the repeat is at 64 with srcBlkStride = 2
    wholeReduceMin(mem, 4096, 0, { dtype: 'f16', mask: 128, repeat: 1, srcBlkStride: 2, srcRepStride: 16 });
    expect([f16(mem, 4096), u16(mem, 4098)]).toEqual([-1, 16]);
  });

  test('ties between +0 and -0 keep the first lane; -inf is selected bit-exactly; the first NaN wins', () => {
    const mem = memory();
    putF16Bits(mem, 0, [0x8000, 0x0000, 0x3c00, ...new Array(125).fill(0x3c00)]);
    wholeReduceMin(mem, 4096, 0, { dtype: 'f16', mask: 3, repeat: 1 });
    expect([u16(mem, 4096), u16(mem, 4098)]).toEqual([0x8000, 0]);
    putF16Bits(mem, 256, [0x3c00, 0xfc00, 0x7e01, 0xfc00]);
    wholeReduceMin(mem, 4104, 256, { dtype: 'f16', mask: 2, repeat: 1 });
    expect([u16(mem, 4104), u16(mem, 4106)]).toEqual([0xfc00, 1]);
    wholeReduceMin(mem, 4112, 256, { dtype: 'f16', mask: 4, repeat: 1 });
    expect([u16(mem, 4112), u16(mem, 4114)]).toEqual([0x7e01, 2]);
  });

  test('validation: product, dtype, order, alignment, ranges', () => {
    const base = { dtype: 'f16' as DType, mask: 128, repeat: 1 };
    expect(validateWholeReduceMin(4096, 0, base)).toEqual([]);
    expect(params(validateWholeReduceMin(4096, 0, { ...base, dtype: 'f32', mask: 64, product: '910' }))).toEqual(['dtype']);
    expect(params(validateWholeReduceMin(4096, 0, { ...base, order: 'ORDER_ONLY_VALUE', product: '310B' }))).toEqual(['order']);
    expect(params(validateWholeReduceMin(4096, 0, { ...base, order: 'ORDER_INDEX_VALUE', product: '310P' }))).toEqual([]);
    expect(params(validateWholeReduceMin(4096, 0, { ...base, product: '310' }))).toEqual(['product']);
    expect(validateWholeReduceMin(4098, 0, base)).toEqual([
      { param: 'dst', message: 'dst address 4098 is not 4-byte aligned (half with ORDER_VALUE_INDEX needs 4-byte alignment)' },
    ]);
    expect(validateWholeReduceMin(4098, 0, { ...base, order: 'ORDER_ONLY_VALUE' })).toEqual([]);
    expect(params(validateWholeReduceMin(4096, 32, base))).toEqual([]);
    expect(validateWholeReduceMin(4096, 48, base)).toEqual([{ param: 'src', message: 'src address 48 is not 32-byte aligned' }]);
    expect(params(validateWholeReduceMin(4096, 0, { ...base, repeat: 256, srcBlkStride: -1, dstRepStride: 0, product: '910' }))).toEqual([
      'repeat',
      'dstRepStride',
      'srcBlkStride',
    ]);
  });

  test('repeat = 0 writes nothing; an access outside the memory is a ModelError with the byte address', () => {
    const mem = memory(1024);
    const before = mem.slice();
    wholeReduceMin(mem, 512, 0, { dtype: 'f16', mask: 128, repeat: 0 });
    expect(sameBytes(mem, before)).toBe(true);
    // Repeat 4 reads bytes 1024..1279: the first outside byte is 1024; repeats 0..3 wrote nothing either.
    const error = thrown(() => wholeReduceMin(mem, 512, 0, { dtype: 'f16', mask: 128, repeat: 5 }));
    expect(error).toBeInstanceOf(ModelError);
    expect((error as ModelError).address).toBe(1024);
    expect(sameBytes(mem, before)).toBe(true);
    expect(thrown(() => wholeReduceMin(mem, 512, -32, { dtype: 'f16', mask: 128, repeat: 1 }))).toBeInstanceOf(ModelError);
  });

  const f16NonNaN = fc.integer({ min: 0, max: 0xffff }).filter((b) => (b & 0x7c00) !== 0x7c00 || (b & 0x3ff) === 0);
  const mask16: fc.Arbitrary<Mask> = fc.oneof(
    fc.integer({ min: 1, max: 128 }),
    fc.tuple(fc.bigInt({ min: 0n, max: (1n << 64n) - 1n }), fc.bigInt({ min: 0n, max: (1n << 64n) - 1n })).filter(([a, b]) => a !== 0n || b !== 0n),
  );

  test('property: the value is <= every enabled lane, and the index is the first enabled lane holding the minimum', () => {
    fc.assert(
      fc.property(fc.array(f16NonNaN, { minLength: 128, maxLength: 128 }), mask16, (bits, mask) => {
        const mem = memory(1024);
        putF16Bits(mem, 0, bits);
        wholeReduceMin(mem, 512, 0, { dtype: 'f16', mask, repeat: 1 });
        const value = f16(mem, 512);
        const index = u16(mem, 514);
        const on = laneEnables(mask, 2);
        expect(on[index]).toBe(true);
        expect(u16(mem, 512)).toBe(bits[index]);
        bits.forEach((b, l) => {
          if (!on[l]) return;
          const x = f16BitsToNumber(b);
          expect(x >= value).toBe(true);
          if (l < index) expect(x > value).toBe(true);
        });
      }),
    );
  });

  test('property: with a NaN among the enabled lanes, the first enabled NaN is returned', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 0xffff }), { minLength: 128, maxLength: 128 }), mask16, (bits, mask) => {
        const on = laneEnables(mask, 2);
        const firstNaN = bits.findIndex((b, l) => on[l] && Number.isNaN(f16BitsToNumber(b)));
        fc.pre(firstNaN >= 0);
        const mem = memory(1024);
        putF16Bits(mem, 0, bits);
        wholeReduceMin(mem, 512, 0, { dtype: 'f16', mask, repeat: 1 });
        expect([u16(mem, 512), u16(mem, 514)]).toEqual([bits[firstNaN], firstNaN]);
      }),
    );
  });
});

// ---------------------------------------------------------------------------------------------------
describe('BlockReduceSum', () => {
  // Seed 001: [60000, 60000, -30000, 100]. Per-add RNE: 60000+60000 overflows -> 65504 (sat); -30000+100 =
  // -29900 -> -29904 (spacing 16); 65504 + -29904 = 35600 -> ties to even at spacing 32 -> 35584.
  test('seed saturation example: 35584 in saturation mode, +inf without', () => {
    const mem = memory();
    putF16(mem, 0, [60000, 60000, -30000, 100, ...new Array(124).fill(0)]);
    blockReduceSum(mem, 4096, 0, { dtype: 'f16', mask: 128, repeat: 1 });
    expect(f16(mem, 4096)).toBe(35584);
    blockReduceSum(mem, 4128, 0, { dtype: 'f16', mask: 128, repeat: 1, sat: false });
    expect(u16(mem, 4128)).toBe(0x7c00);
  });

  // [4096, 1 x 15] (spacing 4 at 4096): level 1 4096+1 -> 4096, 1+1 = 2; level 2 4096+2 -> 4096 (tie, even),
  // 2+2 = 4; level 3 4096+4 = 4100, 4+4 = 8; level 4 4100+8 = 4108. A left fold would stay at 4096.
  test('binary tree order within a block: [4096, 1 x 15] -> 4108', () => {
    const mem = memory();
    putF16(mem, 0, [4096, ...new Array(127).fill(1)]);
    blockReduceSum(mem, 4096, 0, { dtype: 'f16', mask: 128, repeat: 1 });
    expect(f16(mem, 4096)).toBe(4108);
    expect(Array.from({ length: 7 }, (_, b) => f16(mem, 4098 + 2 * b))).toEqual(new Array(7).fill(16));
  });

  test('fully masked blocks: untouched on A2, filled with 0 on 310B (seed 001 restriction)', () => {
    const mem = memory();
    putF32(mem, 0, new Array(64).fill(1.5));
    blockReduceSum(mem, 4096, 0, { dtype: 'f32', mask: 32, repeat: 1 });
    expect(Array.from({ length: 8 }, (_, b) => u32(mem, 4096 + 4 * b))).toEqual([
      ...new Array(4).fill(0x41400000), // 8 x 1.5 = 12
      ...new Array(4).fill(0xeeeeeeee),
    ]);
    blockReduceSum(mem, 4128, 0, { dtype: 'f32', mask: 32, repeat: 1, product: '310B' });
    expect(Array.from({ length: 8 }, (_, b) => u32(mem, 4128 + 4 * b))).toEqual([...new Array(4).fill(0x41400000), ...new Array(4).fill(0)]);
  });

  test('a block of -0 sums to -0 (no masked lane), but a masked lane adds +0', () => {
    const mem = memory();
    putF16Bits(mem, 0, new Array(128).fill(0x8000));
    blockReduceSum(mem, 4096, 0, { dtype: 'f16', mask: 128, repeat: 1 });
    expect(u16(mem, 4096)).toBe(0x8000);
    blockReduceSum(mem, 4128, 0, { dtype: 'f16', mask: 127, repeat: 1 });
    expect([u16(mem, 4128), u16(mem, 4128 + 14)]).toEqual([0x8000, 0x0000]);
  });

  test('validation: dst alignment per dtype, dtype and dstRepStride on 910', () => {
    expect(validateBlockReduceSum(4112, 0, { dtype: 'f16', mask: 128, repeat: 1 })).toEqual([]);
    expect(validateBlockReduceSum(4112, 0, { dtype: 'f32', mask: 64, repeat: 1 })).toEqual([
      { param: 'dst', message: 'dst address 4112 is not 32-byte aligned (float dst needs 32-byte alignment)' },
    ]);
    expect(params(validateBlockReduceSum(4096, 0, { dtype: 'f32', mask: 64, repeat: 1, product: '910' }))).toEqual(['dtype']);
    expect(params(validateBlockReduceSum(4096, 0, { dtype: 'f16', mask: 128, repeat: 1, dstRepStride: 0, product: '910' }))).toEqual(['dstRepStride']);
    expect(params(validateBlockReduceSum(4096, 0, { dtype: 'f16', mask: 128, repeat: 1, dstRepStride: 0 }))).toEqual([]);
  });

  // x + (+0) = x except that -0 + +0 = +0 and, in saturation mode, +-inf saturates to +-65504.
  function soleLaneSum(bits: number): number {
    if (bits === 0x8000) return 0x0000;
    if (bits === 0x7c00) return 0x7bff;
    if (bits === 0xfc00) return 0xfbff;
    return bits;
  }

  test('property: with a single enabled lane per block, each block sum is that lane', () => {
    const f16NonNaN = fc.integer({ min: 0, max: 0xffff }).filter((b) => (b & 0x7c00) !== 0x7c00 || (b & 0x3ff) === 0);
    fc.assert(
      fc.property(
        fc.array(f16NonNaN, { minLength: 128, maxLength: 128 }),
        fc.array(fc.integer({ min: 0, max: 15 }), { minLength: 8, maxLength: 8 }),
        (bits, lanes) => {
          let m0 = 0n;
          let m1 = 0n;
          lanes.forEach((e, b) => {
            const l = 16 * b + e;
            if (l < 64) m0 |= 1n << BigInt(l);
            else m1 |= 1n << BigInt(l - 64);
          });
          const mem = memory(1024);
          putF16Bits(mem, 0, bits);
          blockReduceSum(mem, 512, 0, { dtype: 'f16', mask: [m0, m1], repeat: 1 });
          lanes.forEach((e, b) => expect(u16(mem, 512 + 2 * b)).toBe(soleLaneSum(bits[16 * b + e])));
        },
      ),
    );
  });
});

// ---------------------------------------------------------------------------------------------------
describe('vec_reduce_add', () => {
  const orderOf: Record<'tree' | 'a2' | 'oddeven', Product> = { tree: '910', a2: 'A2', oddeven: '310B' };

  function run(product: Product, lane0: readonly number[], extra: Partial<{ mask: Mask; srcRepStride: number }> = {}): number {
    const mem = memory(65536);
    const S = extra.srcRepStride ?? 8;
    putF16(mem, 0, new Array(((lane0.length - 1) * S * 32 + 256) / 2).fill(0));
    lane0.forEach((v, r) => putF16(mem, r * S * 32, [v]));
    vecReduceAdd(mem, 65000, 0, 60000, { dtype: 'f16', mask: extra.mask ?? 128, repeat: lane0.length, srcRepStride: S, product });
    return f16(mem, 65000);
  }

  // Repeat sums [2048, 1, 1, 1] (spacing 2 at 2048, so 2048 + 1 ties to 2048):
  // tree (2048+1)+(1+1) = 2048+2 = 2050; a2 ((2048+1)+1)+1 = 2048; oddeven A = 2048+1 -> 2048, B = 1+1 = 2, D = 2050.
  test('the three product orders on repeat sums [2048, 1, 1, 1]', () => {
    expect(run(orderOf.tree, [2048, 1, 1, 1])).toBe(2050);
    expect(run(orderOf.a2, [2048, 1, 1, 1])).toBe(2048);
    expect(run(orderOf.oddeven, [2048, 1, 1, 1])).toBe(2050);
    expect(run('310', [2048, 1, 1, 1])).toBe(2050);
    expect(run('310P', [2048, 1, 1, 1])).toBe(2050);
  });

  // A2 chunks of 255: rs_0 = 2048, rs_1..rs_256 = 1. Chunk 0 (rs_0..rs_254) stays 2048, chunk 1 = 1 + 1 = 2,
  // result 2048 + 2 = 2050. (Chunks of 256 would give 2048 and then 2048 + 1 -> 2048.)
  test('A2 order: sequential chunks of 255 repeat sums, then a tree over the chunks', () => {
    expect(run('A2', [2048, ...new Array(256).fill(1)], { mask: 1, srcRepStride: 1 })).toBe(2050);
  });

  // R = 5, lane 0 = [2048, 1, 1, 1, 1]: oddeven A = 2048+1 -> 2048, B = 1+1 = 2, D = 2050, D + 1 = 2051 -> 2052.
  test('310B order with an odd repeat count adds the last repeat after A + B', () => {
    expect(run('310B', [2048, 1, 1, 1, 1])).toBe(2052);
    expect(run('A2', [2048, 1, 1, 1, 1])).toBe(2048);
  });

  test('saturation: 40000 + 40000 -> 65504, or +inf with sat = false', () => {
    for (const product of ['910', 'A2', '310B'] as const) {
      expect(run(product, [40000, 40000])).toBe(65504);
    }
    const mem = memory(65536);
    putF16(mem, 0, [40000, ...new Array(127).fill(0), 40000, ...new Array(127).fill(0)]);
    vecReduceAdd(mem, 65000, 0, 60000, { dtype: 'f16', mask: 128, repeat: 2, sat: false });
    expect(u16(mem, 65000)).toBe(0x7c00);
  });

  test('only dst[0] is written; work is neither read nor written', () => {
    const mem = memory(65536);
    putF16(mem, 0, new Array(128).fill(0.5));
    const before = mem.slice();
    vecReduceAdd(mem, 65000, 0, 60000, { dtype: 'f16', mask: 128, repeat: 1 });
    expect(f16(mem, 65000)).toBe(64);
    mem.set(before.subarray(65000, 65002), 65000);
    expect(sameBytes(mem, before)).toBe(true);
  });

  test('validation: ranges, alignment, work size and overlaps', () => {
    const base = { dtype: 'f16' as DType, mask: 128, repeat: 2 };
    expect(validateVecReduceAdd(8192, 0, 4096, base)).toEqual([]);
    expect(params(validateVecReduceAdd(8192, 0, 4096, { ...base, repeat: 0 }))).toEqual(['repeat']);
    expect(params(validateVecReduceAdd(8193, 0, 4096, base))).toEqual(['dst']);
    expect(params(validateVecReduceAdd(8192, 0, 4100, base))).toEqual(['work']);
    expect(params(validateVecReduceAdd(8192, 0, 4096, { ...base, workElems: 1 }))).toEqual(['workElems']);
    expect(validateVecReduceAdd(8192, 0, 480, base)).toEqual([
      { param: 'work', message: 'vec_reduce_add: src and work_tensor overlap (src bytes [0, 512), work_tensor bytes [480, 484))' },
    ]);
    expect(params(validateVecReduceAdd(100, 0, 4096, base))).toEqual(['dst']);
    // mask = 16: repeat 1 reads only bytes 256..287, so a work tensor at 480 is clear of src.
    expect(validateVecReduceAdd(8192, 0, 480, { ...base, mask: 16 })).toEqual([]);
  });

  const small = fc.integer({ min: -8, max: 8 });

  test('property: on small integers every order gives the exact sum', () => {
    fc.assert(
      fc.property(fc.array(fc.array(small, { minLength: 128, maxLength: 128 }), { minLength: 1, maxLength: 6 }), (v) => {
        const exact = v.flat().reduce((a, b) => a + b, 0);
        for (const order of ['tree', 'a2', 'oddeven'] as const) {
          expect(vecReduceAddCombine(v, order, adder('f16', true))).toBe(exact);
        }
      }),
    );
  });

  const anyF16 = fc.integer({ min: 0, max: 0xffff }).map(f16BitsToNumber);

  test('property: R = 1 gives the same result in all orders; R = 2 the same in tree and a2', () => {
    fc.assert(
      fc.property(fc.array(fc.array(anyF16, { minLength: 128, maxLength: 128 }), { minLength: 1, maxLength: 2 }), fc.boolean(), (v, sat) => {
        const add = adder('f16', sat);
        const tree = vecReduceAddCombine(v, 'tree', add);
        expect(Object.is(vecReduceAddCombine(v, 'a2', add), tree) || [tree, vecReduceAddCombine(v, 'a2', add)].every(Number.isNaN)).toBe(true);
        if (v.length === 1) {
          const odd = vecReduceAddCombine(v, 'oddeven', add);
          expect(Object.is(odd, tree) || [odd, tree].every(Number.isNaN)).toBe(true);
        }
      }),
    );
  });
});

// ---------------------------------------------------------------------------------------------------
describe('Copy', () => {
  function halves(mem: Uint8Array, addr: number, n: number): number[] {
    return Array.from({ length: n }, (_, i) => u16(mem, addr + 2 * i));
  }

  test('bit mask [0b1010, 0]: only lanes 1 and 3 move, bit-exactly', () => {
    const mem = memory();
    putF16Bits(mem, 0, [0x7c01, 0xfe00, 0x8000, 0x0001, ...new Array(124).fill(0x1234)]);
    copy(mem, 4096, 0, { dtype: 'f16', mask: [0b1010n, 0n], repeat: 1 });
    expect(halves(mem, 4096, 5)).toEqual([SENTINEL16, 0xfe00, SENTINEL16, 0x0001, SENTINEL16]);
  });

  test('srcStride = 0 broadcasts block 0; dstRepeatSize = 0 keeps the last repeat', () => {
    const mem = memory();
    putF16(
      mem,
      0,
      Array.from({ length: 256 }, (_, i) => i),
    );
    copy(mem, 4096, 0, { dtype: 'u16', mask: 128, repeat: 1, srcStride: 0 });
    for (let b = 0; b < 8; b++) expect(halves(mem, 4096 + 32 * b, 16)).toEqual(halves(mem, 0, 16));
    copy(mem, 6144, 0, { dtype: 'f16', mask: 128, repeat: 2, dstRepeatSize: 0 });
    expect(halves(mem, 6144, 128)).toEqual(halves(mem, 256, 128));
  });

  test('dstStride = 0 is rejected, or last-block-wins with allowDstStride0', () => {
    const p: CopyParams = { dtype: 'f16', mask: 128, repeat: 1, dstStride: 0 };
    expect(params(validateCopy(4096, 0, p))).toEqual(['dstStride']);
    const mem = memory();
    putF16(
      mem,
      0,
      Array.from({ length: 128 }, (_, i) => i),
    );
    copy(mem, 4096, 0, { ...p, allowDstStride0: true });
    expect(halves(mem, 4096, 16)).toEqual(halves(mem, 7 * 32, 16));
    expect(u16(mem, 4128)).toBe(SENTINEL16);
  });

  test('validation: products, dtypes, strides, alignment', () => {
    const base: CopyParams = { dtype: 'f16', mask: 128, repeat: 1 };
    expect(validateCopy(4096, 0, base)).toEqual([]);
    expect(params(validateCopy(4096, 0, { ...base, product: '310P' }))).toEqual(['product']);
    expect(params(validateCopy(4096, 0, { ...base, dtype: 'bf16', product: 'A2' }))).toEqual(['dtype']);
    expect(validateCopy(4096, 0, { ...base, dtype: 'bf16', product: '310B' })).toEqual([]);
    expect(params(validateCopy(4096, 0, { ...base, dstRepeatSize: 4096, srcStride: 65536 }))).toEqual(['srcStride', 'dstRepeatSize']);
    expect(params(validateCopy(4112, 16, base))).toEqual(['dst', 'src']);
    expect(params(validateCopy(4096, 0, { ...base, dtype: 'i32', mask: 65 }))).toEqual(['mask']);
  });

  test('property: full mask, unit block strides and repeat size 8 is a memcpy of R*256 bytes', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 6 }),
        fc.constantFrom<DType>('f16', 'u16', 'i16', 'f32', 'u32', 'i32'),
        fc.uint8Array({ minLength: 6 * 256, maxLength: 6 * 256 }),
        fc.integer({ min: 0, max: 16 }),
        (R, dtype, bytes, gap) => {
          const mem = memory(4 * 6 * 256);
          mem.set(bytes, 0);
          const dst = 6 * 256 + 32 * gap;
          const expected = mem.slice();
          expected.copyWithin(dst, 0, R * 256);
          copy(mem, dst, 0, { dtype, mask: dtype.endsWith('32') ? 64 : 128, repeat: R });
          expect(sameBytes(mem, expected)).toBe(true);
        },
      ),
    );
  });

  test('property: an access past the end is a ModelError at the first out-of-bounds byte, and nothing is written', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 8 }), fc.integer({ min: 1, max: 4 }), (blocksOut, repeat) => {
        const size = 4096;
        const mem = memory(size);
        putF16(
          mem,
          0,
          Array.from({ length: 1024 }, (_, i) => i),
        );
        // The last repeat's final `blocksOut` blocks fall outside the memory.
        const dst = size - (repeat - 1) * 256 - 256 + 32 * blocksOut;
        const before = mem.slice();
        const error = thrown(() => copy(mem, dst, 0, { dtype: 'f16', mask: 128, repeat }));
        expect(error).toBeInstanceOf(ModelError);
        expect((error as ModelError).address).toBe(size);
        expect(sameBytes(mem, before)).toBe(true);
      }),
    );
  });
});

// ---------------------------------------------------------------------------------------------------
describe('invalid calls', () => {
  test('an instruction called with invalid parameters throws a ModelError listing every problem, and writes nothing', () => {
    const mem = memory();
    const before = mem.slice();
    const error = thrown(() => wholeReduceMin(mem, 4097, 16, { dtype: 'f16', mask: 0, repeat: 300 }));
    expect(error).toBeInstanceOf(ModelError);
    expect(params([...(error as ModelError).problems])).toEqual(['mask', 'repeat', 'src', 'dst']);
    expect((error as ModelError).message).toContain('mask: mask (contiguous mode)=0 out of range [1, 128] for 16-bit half');
    expect(sameBytes(mem, before)).toBe(true);
  });
});

describe('TCOLMIN', () => {
  test('column minima over the valid rows: ties keep the first row, a NaN once reached stays', () => {
    const mem = memory();
    // 3 x 16 f16: column 0 = [2, 1, 1], column 1 = [+0, -0, -0], column 2 = [1, NaN, -5], the rest 7.
    const rows = [
      [2, 0x0000, 1],
      [1, 0x8000, 0x7e00],
      [1, 0x8000, -5],
    ];
    rows.forEach((r, i) =>
      putF16Bits(mem, 32 * i, [numberToF16Bits(r[0]), r[1], i === 1 ? 0x7e00 : numberToF16Bits(r[2]), ...new Array(13).fill(numberToF16Bits(7))]),
    );
    const src = { addr: 0, dtype: 'f16' as DType, rows: 3, cols: 16, validRow: 3, validCol: 3 };
    tcolmin(mem, { addr: 4096, dtype: 'f16', rows: 1, cols: 16, validRow: 1, validCol: 3 }, src);
    expect([u16(mem, 4096), u16(mem, 4098), u16(mem, 4100), u16(mem, 4102)]).toEqual([0x3c00, 0x0000, 0x7e00, SENTINEL16]);
  });
});

// ---------------------------------------------------------------------------------------------------
describe('pairTree', () => {
  test('pads to a power of two with +0 and adds adjacent pairs level by level', () => {
    const trace: string[] = [];
    const add = (a: number, b: number) => {
      trace.push(`${a}+${b}`);
      return a + b;
    };
    expect(pairTree([1, 2, 3, 4, 5], add)).toBe(15);
    expect(trace).toEqual(['1+2', '3+4', '5+0', '0+0', '3+7', '5+0', '10+5']);
    expect(pairTree([7], add)).toBe(7);
    expect(pairTree([], add)).toBe(0);
  });
});
