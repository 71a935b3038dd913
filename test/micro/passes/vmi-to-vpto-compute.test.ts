/**
 * vmi-to-vpto's compute and type rules (src/micro/passes/vmi-to-vpto-compute.ts), each with an input it rejects (code,
 * line:col) and a near one it accepts. The verdicts are worked out by hand from PTOAS's VMIToVPTO.cpp and
 * VMILayoutSupport.cpp: a register holds 64 lanes of 32 bits, 128 of 16, 256 of 8; a reduction needs every lane of
 * its source registers to be a logical lane; the cast table's rows (32 -> 16 bits: deinterleaved = 2 -> contiguous,
 * contiguous -> lane_stride 2, deinterleaved = 4 -> deinterleaved = 2); vcvt's integer pairs (s32 -> s8 is none).
 */
import { DiagnosticBag } from '../../../src/diag/diagnostic';
import { COMPUTE_RULES } from '../../../src/micro/passes/vmi-to-vpto-compute';
import { assemble } from '../../../src/verify/assemble';

const TO_VPTO = ['vmi-to-vpto'];
const UNIFIED = ['vmi-lower-unified-to-legacy', 'vmi-to-vpto'];

/** The errors of `body` in `func.func @k(params)` (line 1 the module, 2 the function, 3 the body's first line). */
function errors(body: string, params = '', passes = TO_VPTO, moduleAttrs = ''): string[] {
  const text = `module${moduleAttrs} {\n  func.func @k(${params}) {\n${body}\n    return\n  }\n}\n`;
  const r = assemble('t.pto', text, { passes });
  return r.diags.sorted().map((d) => {
    const at = r.source.position(d.span.start);
    return `${d.code} ${at.line}:${at.col}`;
  });
}

/** The compute rules alone, as vmi-to-vpto runs them after `before` (whose own checks are not run here). */
function rulesAfter(before: string[], params: string): string[] {
  const r = assemble('t.pto', `func.func @k(${params}) {\n  return\n}\n`, { passes: [] });
  const diags = new DiagnosticBag(r.source);
  for (const rule of COMPUTE_RULES) rule({ program: r.program, types: r.types, diags, passes: [...before, 'vmi-to-vpto'] });
  return diags.sorted().map((d) => String(d.code));
}

const V = (n: number, e: string, l = 'contiguous') => `!pto.vmi.vreg<${n}x${e}, #pto.vmi.layout<${l}>>`;
const M = (n: number, g: string, l = 'contiguous') => `!pto.vmi.mask<${n}x${g}, #pto.vmi.layout<${l}>>`;

describe('the input: layout-assigned VMI types, none where the conversion cannot reach', () => {
  test('a parameter without a layout is rejected at its type, unless layout assignment ran first', () => {
    expect(errors('', '%a: !pto.vmi.vreg<128xf32>')).toEqual(['E0475 2:20']);
    expect(errors('', `%a: ${V(128, 'f32')}`)).toEqual([]);
    expect(rulesAfter([], '%a: !pto.vmi.vreg<128xf32>')).toEqual(['E0475']);
    expect(rulesAfter(['vmi-layout-assignment'], '%a: !pto.vmi.vreg<128xf32>')).toEqual([]);
    // A pred mask carries no layout at all.
    expect(errors('', '%m: !pto.vmi.mask<64xpred>')).toEqual(['E0475 2:20']);
  });

  test('a VMI type inside an attribute is left behind, even a laid-out one', () => {
    expect(errors('', '', TO_VPTO, ` attributes {pto.hidden = [{nested = ${V(128, 'f32')}}]}`)).toEqual(['E0475 1:20']);
    expect(errors('', '', TO_VPTO, ' attributes {pto.hidden = !pto.vreg<64xf32>}')).toEqual([]);
  });

  test('an unrealized_conversion_cast may not carry a VMI type', () => {
    const cast = (to: string) => `    %0 = builtin.unrealized_conversion_cast %x : i32 to ${to}`;
    expect(errors(cast(V(128, 'f32', 'deinterleaved = 2')), '%x: i32')).toEqual(['E0475 3:10']);
    expect(errors(cast('i64'), '%x: i32')).toEqual([]);
  });
});

describe('reductions', () => {
  const reduce = (op: string, n: number, e: string, g: string, l = 'contiguous', attrs = '') =>
    `    %r = pto.vmi.${op} %s, %m${attrs} : ${V(n, e, l)}, ${M(n, g, l)} -> ${V(1, e)}`;
  const params = (n: number, e: string, g: string, l = 'contiguous') => `%s: ${V(n, e, l)}, %m: ${M(n, g, l)}`;

  test('the source must fill whole registers: 32 or 64 lanes of i32, 64 or 128 of f16', () => {
    expect(errors(reduce('reduce_addi', 32, 'i32', 'b32'), params(32, 'i32', 'b32'))).toEqual(['E0476 3:10']);
    expect(errors(reduce('reduce_addi', 64, 'i32', 'b32'), params(64, 'i32', 'b32'))).toEqual([]);
    expect(errors(reduce('reduce_minf', 64, 'f16', 'b16'), params(64, 'f16', 'b16'))).toEqual(['E0476 3:10']);
    expect(errors(reduce('reduce_minf', 128, 'f16', 'b16'), params(128, 'f16', 'b16'))).toEqual([]);
  });

  test('source, mask and result must be contiguous', () => {
    const d2 = 'deinterleaved = 2';
    expect(errors(reduce('reduce_maxf', 128, 'f32', 'b32', d2), params(128, 'f32', 'b32', d2))).toEqual(['E0476 3:10']);
    expect(errors(reduce('reduce_maxf', 128, 'f32', 'b32'), params(128, 'f32', 'b32'))).toEqual([]);
  });

  test('vcadd / vcmax reach the pass as the legacy reductions when the unified ops are lowered first', () => {
    // reduce_addi sums 32-bit integers only.
    expect(errors(reduce('vcadd', 128, 'i16', 'b16'), params(128, 'i16', 'b16'), UNIFIED)).toEqual(['E0477 3:10']);
    expect(errors(reduce('vcadd', 64, 'i32', 'b32'), params(64, 'i32', 'b32'), UNIFIED)).toEqual([]);
    // 65 lanes of f32 leave 63 padding lanes in the second register.
    expect(errors(reduce('vcmax', 65, 'f32', 'b32'), params(65, 'f32', 'b32'), UNIFIED)).toEqual(['E0476 3:10']);
    expect(errors(reduce('vcmax', 128, 'f32', 'b32'), params(128, 'f32', 'b32'), UNIFIED)).toEqual([]);
  });
});

describe('element types of the legacy ops and of the VPTO instructions', () => {
  test('vmula becomes fma: f16, bf16 or f32 only', () => {
    const vmula = (n: number, e: string) => [
      `    %o = pto.vmi.vmula %c, %a, %b : ${V(n, e)}, ${V(n, e)}, ${V(n, e)} -> ${V(n, e)}`,
      `%a: ${V(n, e)}, %b: ${V(n, e)}, %c: ${V(n, e)}`,
    ];
    expect(errors(...(vmula(256, 'f8E4M3FN') as [string, string]), UNIFIED)).toEqual(['E0477 3:10']);
    expect(errors(...(vmula(128, 'f16') as [string, string]), UNIFIED)).toEqual([]);
  });

  test('a gather takes 32-bit elements by 32-bit indices under a b32 mask', () => {
    const gather = (n: number, e: string, g: string) => [
      `    %o = pto.vmi.vgather %p, %i, %m : !pto.ptr<${e}, ub>, ${V(n, 'i32')}, ${M(n, g)} -> ${V(n, e)}`,
      `%p: !pto.ptr<${e}, ub>, %i: ${V(n, 'i32')}, %m: ${M(n, g)}`,
    ];
    // 64 lanes of f16 by 64 i32 indices: one register each, contiguous; the element types alone are wrong.
    expect(errors(...(gather(64, 'f16', 'b16') as [string, string]), UNIFIED)).toEqual(['E0477 3:10']);
    expect(errors(...(gather(64, 'f32', 'b32') as [string, string]), UNIFIED)).toEqual([]);
  });

  test('an integer narrowing converts with vcvt: i32 -> i8 has no vcvt, ui32 -> ui8 has, si32 -> si8 borrows it', () => {
    const trunci = (from: string, to: string) => [
      `    %o = pto.vmi.trunci %w {saturate = "SAT"} : ${V(256, from, 'deinterleaved = 4')} -> ${V(256, to)}`,
      `%w: ${V(256, from, 'deinterleaved = 4')}`,
    ];
    expect(errors(...(trunci('i32', 'i8') as [string, string]))).toEqual(['E0477 3:10']);
    expect(errors(...(trunci('ui32', 'ui8') as [string, string]))).toEqual([]);
    expect(errors(...(trunci('si32', 'si8') as [string, string]))).toEqual([]);
  });
});

describe('layouts of compute ops', () => {
  test('a cast needs a row of the cast table: f32 -> f16 from deinterleaved = 2 to contiguous, not from deinterleaved = 4', () => {
    const truncf = (l: string) => [`    %o = pto.vmi.truncf %x {saturate = "SAT"} : ${V(256, 'f32', l)} -> ${V(256, 'f16')}`, `%x: ${V(256, 'f32', l)}`];
    expect(errors(...(truncf('deinterleaved = 4') as [string, string]))).toEqual(['E0478 3:10']);
    expect(errors(...(truncf('deinterleaved = 2') as [string, string]))).toEqual([]);
    // The unified vcvt is the same truncf.
    const vcvt = `    %o = pto.vmi.vcvt %x {saturate = "SAT"} : ${V(256, 'f32', 'deinterleaved = 4')} -> ${V(256, 'f16')}`;
    expect(errors(vcvt, `%x: ${V(256, 'f32', 'deinterleaved = 4')}`, UNIFIED)).toEqual(['E0478 3:10']);
  });

  test('vmull lowers for contiguous or deinterleaved = 2/4 data, not block_deinterleaved', () => {
    const vmull = (l: string) => [
      `    %lo, %hi = pto.vmi.vmull %a, %b, %m : ${V(256, 'i32', l)}, ${V(256, 'i32', l)}, ${M(256, 'b32', l)} -> ${V(256, 'i32', l)}, ${V(256, 'i32', l)}`,
      `%a: ${V(256, 'i32', l)}, %b: ${V(256, 'i32', l)}, %m: ${M(256, 'b32', l)}`,
    ];
    expect(errors(...(vmull('block_deinterleaved = 2') as [string, string]))).toEqual(['E0478 3:16']);
    expect(errors(...(vmull('deinterleaved = 2') as [string, string]))).toEqual([]);
  });

  test('vselr lowers within one contiguous register of lane_stride 1 (64 lanes of f32)', () => {
    const vselr = (n: number, l: string) => [
      `    %o = pto.vmi.vselr %s, %i : ${V(n, 'f32', l)}, ${V(n, 'i32', l)} -> ${V(n, 'f32', l)}`,
      `%s: ${V(n, 'f32', l)}, %i: ${V(n, 'i32', l)}`,
    ];
    expect(errors(...(vselr(32, 'contiguous, lane_stride = 2') as [string, string]))).toEqual(['E0478 3:10']);
    expect(errors(...(vselr(128, 'contiguous') as [string, string]))).toEqual(['E0478 3:10']);
    expect(errors(...(vselr(64, 'contiguous') as [string, string]))).toEqual([]);
  });

  test('a shuffle forwards registers, splats lane 0, or selects one register per full result register in order', () => {
    const shuffle = (n: number, indices: number[]) =>
      `    %o = "pto.vmi.shuffle"(%s) {indices = array<i64: ${indices.join(', ')}>} : (${V(128, 'f32')}) -> ${V(n, 'f32')}`;
    const range = (from: number, n: number, step = 1) => Array.from({ length: n }, (_, i) => from + i * step);
    const src = `%s: ${V(128, 'f32')}`;
    // Result lanes 0..3 read source lanes 1..4: not the same lanes, not lane 0, and the result register is not full.
    expect(errors(shuffle(4, [1, 2, 3, 4]), src)).toEqual(['E0478 3:10']);
    expect(errors(shuffle(4, [0, 0, 0, 0]), src)).toEqual([]);
    expect(errors(shuffle(64, range(64, 64)), src)).toEqual([]); // the second register as it is
    expect(errors(shuffle(64, range(127, 64, -1)), src)).toEqual([]); // the second register reversed: a vselr
    expect(errors(shuffle(64, range(0, 64, 2)), src)).toEqual(['E0478 3:10']); // every other lane of both registers
  });
});

test('a constant lowers only as a splat', () => {
  const constant = (value: string) => `    %c = "pto.vmi.constant"() {value = ${value} : tensor<4xf32>} : () -> ${V(4, 'f32')}`;
  expect(errors(constant('dense<[1.0, 2.0, 3.0, 4.0]>'))).toEqual(['E0479 3:40']);
  expect(errors(constant('dense<[2.0, 2.0, 2.0, 2.0]>'))).toEqual([]);
  expect(errors(constant('dense<2.0>'))).toEqual([]);
});
