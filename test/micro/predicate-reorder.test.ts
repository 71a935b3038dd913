/**
 * pge_b*, pltm_b*, pintlv_b*, pdintlv_b*, ppack, punpack and pbitcast of spec/micro/vector.json: verification and a
 * run storing each mask's 32-byte image (psts NORM), every byte derived by hand.
 */
import { GlobalBuffer } from '../../src/machine/memory';
import { microErrors as errors, runMicroKernel } from '../fixtures/micro';

test('verification: ppack narrows by at most one step, punpack widens; pltm takes i16 and i32', () => {
  const params = '%m8: !pto.mask<b8>, %m16: !pto.mask<b16>, %m32: !pto.mask<b32>, %l: i16, %b: i32';
  expect(errors('  %a = pto.ppack %m16, "LOWER" : !pto.mask<b16> -> !pto.mask<b8>\n  %c = pto.pltm_b16 %l, %b : i16, i32 -> !pto.mask<b16>', params)).toEqual(
    [],
  );
  expect(errors('  %a = pto.ppack %m32, "LOWER" : !pto.mask<b32> -> !pto.mask<b8>', params)).toEqual([
    'E0451: pto.ppack: requires result mask granularity to match the input or narrow by one step',
  ]);
  expect(errors('  %a = pto.punpack %m16, "HIGHER" : !pto.mask<b16> -> !pto.mask<b8>', params)).toEqual([
    'E0451: pto.punpack: requires result mask granularity to match the input or widen by one step',
  ]);
  expect(errors('  %a, %h = pto.pintlv_b16 %m16, %m8 : !pto.mask<b16>, !pto.mask<b8> -> !pto.mask<b16>, !pto.mask<b16>', params)).toEqual([
    "E0451: pto.pintlv_b16: 'rhs' must be a !pto.mask<b16>, got !pto.mask<b8>",
  ]);
});

test('pge, pltm, pintlv, pdintlv, ppack, punpack and pbitcast images', () => {
  const stores = [
    ['vl8', '!pto.mask<b16>'],
    ['tail', '!pto.mask<b32>'],
    ['il', '!pto.mask<b16>'],
    ['ih', '!pto.mask<b16>'],
    ['dl', '!pto.mask<b16>'],
    ['dh', '!pto.mask<b16>'],
    ['pl', '!pto.mask<b8>'],
    ['ph', '!pto.mask<b16>'],
    ['up', '!pto.mask<b8>'],
    ['cast', '!pto.mask<b32>'],
  ];
  const kernel = `module attributes {pto.target_arch = "a5", pto.kernel_kind = #pto.kernel_kind<vector>} {
  func.func @k(%out: !pto.ptr<ui8, gm>) attributes {pto.kernel} {
    %c0_i64 = arith.constant 0 : i64
    %c1_i64 = arith.constant 1 : i64
    %n = arith.constant ${stores.length * 32} : i64
    %loop = arith.constant 1 : i16
    %bound = arith.constant 70 : i32
    %o = pto.castptr %c0_i64 : i64 -> !pto.ptr<ui8, ub>
    pto.vecscope {
      %vl8 = pto.pge_b16 "PAT_VL8" : !pto.mask<b16>
      %all = pto.pge_b16 "PAT_ALL" : !pto.mask<b16>
      %vl4 = pto.pge_b8 "PAT_VL4" : !pto.mask<b8>
      %tail = pto.pltm_b32 %loop, %bound : i16, i32 -> !pto.mask<b32>
      %il, %ih = pto.pintlv_b16 %vl8, %all : !pto.mask<b16>, !pto.mask<b16> -> !pto.mask<b16>, !pto.mask<b16>
      %dl, %dh = pto.pdintlv_b16 %vl8, %all : !pto.mask<b16>, !pto.mask<b16> -> !pto.mask<b16>, !pto.mask<b16>
      %pl = pto.ppack %vl8, "LOWER" : !pto.mask<b16> -> !pto.mask<b8>
      %ph = pto.ppack %vl8, "HIGHER" : !pto.mask<b16> -> !pto.mask<b16>
      %up = pto.punpack %vl4, "LOWER" : !pto.mask<b8> -> !pto.mask<b8>
      %cast = pto.pbitcast %vl8 : !pto.mask<b16> -> !pto.mask<b32>
${stores.map(([name, type], k) => `      %c${k} = arith.constant ${k * 32} : index\n      pto.psts %${name}, %o[%c${k}], "NORM" : ${type}, !pto.ptr<ui8, ub>, index`).join('\n')}
    }
    pto.set_flag["PIPE_V", "PIPE_MTE3", "EVENT_ID0"]
    pto.wait_flag["PIPE_V", "PIPE_MTE3", "EVENT_ID0"]
    pto.mte_ub_gm %o, %out, %n nburst(%c1_i64, %n, %n) : !pto.ptr<ui8, ub>, !pto.ptr<ui8, gm>, i64, i64, i64, i64
    return
  }
}
`;
  const buffers = { out: new GlobalBuffer('out', 'u8', new Uint8Array(stores.length * 32)) };
  runMicroKernel(kernel, 'k', buffers);
  const image = (k: number) => Array.from(buffers.out.bytes.slice(k * 32, k * 32 + 32));
  const bytes = (...runs: [number, number][]) => runs.flatMap(([value, count]) => Array(count).fill(value));
  // b16 lane i is bit 2i: lanes 0..7 are bits 0, 2, ..., 14 (bytes 0 and 1 = 0x55).
  expect(image(0)).toEqual(bytes([0x55, 2], [0, 30]));
  // pltm_b32 (loop 1, bound 70): lanes i + 64 < 70, i.e. 0..5, bits 0, 4, ..., 20.
  expect(image(1)).toEqual(bytes([0x11, 3], [0, 29]));
  // pintlv: a0 b0 a1 b1 ...; lanes 0..15 of low all on (a on below 8, b always), later only the odd (b) lanes: bits
  // 2 and 6 of a byte (0x44). high: a is off, b on in the odd lanes.
  expect(image(2)).toEqual(bytes([0x55, 4], [0x44, 28]));
  expect(image(3)).toEqual(bytes([0x44, 32]));
  // pdintlv: a ++ b; low the even lanes 0, 2, 4, ... (a's 0, 2, 4, 6 on: low lanes 0..3; b's all on: lanes 64..127),
  // high the odd ones (a's 1, 3, 5, 7 on): the same image.
  expect(image(4)).toEqual(bytes([0x55, 1], [0, 15], [0x55, 16]));
  expect(image(5)).toEqual(bytes([0x55, 1], [0, 15], [0x55, 16]));
  // ppack: bit 2i to bit i of the half: bits 0..7 (LOWER), 128..135 (HIGHER).
  expect(image(6)).toEqual(bytes([0xff, 1], [0, 31]));
  expect(image(7)).toEqual(bytes([0, 16], [0xff, 1], [0, 15]));
  // punpack LOWER of bits 0..3: bits 0, 2, 4, 6.
  expect(image(8)).toEqual(bytes([0x55, 1], [0, 31]));
  // pbitcast keeps the 256 bits.
  expect(image(9)).toEqual(image(0));
});
