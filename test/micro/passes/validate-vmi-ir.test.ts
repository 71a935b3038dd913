/**
 * pto-validate-vmi-ir and pto-validate-vmi-layout-ir (src/micro/passes/validate-vmi-ir.ts, vmi-layout-support.ts):
 * PTOAS's two VMI gates (PTOValidateVMIIR.cpp), each rule with an input it rejects (code, line:col) and a near one
 * it accepts. The verdicts come from PTOAS's lit tests (test/lit/vmi_new/vmi_producer_boundary_*,
 * vmi_layout_gate_*) and from rows of the tables in VMILayoutSupport.cpp worked out by hand: a group's size is the
 * lane count over num_groups, a 32-byte block holds 8 f32, a register part 64.
 */
import { assemble } from '../../../src/verify/assemble';

const BOUNDARY = ['pto-validate-vmi-ir'];
const GATE = ['pto-validate-vmi-layout-ir'];
/** The gate after vmi-lower-unified-to-legacy, whose legacy ops it checks (the lit cases' pipeline). */
const LOWERED = ['vmi-lower-unified-to-legacy', 'pto-validate-vmi-layout-ir'];

/** The errors of `text` under `passes`, as `code line:col`. */
function errors(text: string, passes: string[]): string[] {
  const r = assemble('t.pto', text, { target: 'a5', passes });
  return r.diags.sorted().map((d) => {
    const at = r.source.position(d.span.start);
    return `${d.code} ${at.line}:${at.col}`;
  });
}

/** A function (line 2) with `params`, its body from line 3 (each line indented by 4). */
const fn = (params: string, ...body: string[]) => `module {\n  func.func @k(${params}) {\n${body.map((l) => '    ' + l + '\n').join('')}    return\n  }\n}\n`;

const V = (lanes: number, layout?: string, elem = 'f32') => `!pto.vmi.vreg<${lanes}x${elem}${layout ? `, #pto.vmi.layout<${layout}>` : ''}>`;
const M = (lanes: number, g: string, layout?: string) => `!pto.vmi.mask<${lanes}x${g}${layout ? `, #pto.vmi.layout<${layout}>` : ''}>`;

describe('pto-validate-vmi-ir: the producer boundary', () => {
  test('takes logical VMI values: no layout, masks of pred granularity', () => {
    const ok = fn(`%a: ${V(128)}, %m: ${M(128, 'pred')}`, `%s = pto.vmi.vsel %m, %a, %a : ${M(128, 'pred')}, ${V(128)}, ${V(128)} -> ${V(128)}`);
    expect(errors(ok, BOUNDARY)).toEqual([]);
    // The parameter's type is at fault (col 20: after `  func.func @k(%a: `).
    expect(errors(fn(`%a: ${V(128, 'contiguous')}`), BOUNDARY)).toEqual(['E0460 2:20']);
    expect(errors(fn(`%m: ${M(128, 'b32')}`), BOUNDARY)).toEqual(['E0460 2:20']);
    expect(errors(fn(`%m: ${M(128, 'b32', 'contiguous')}`), BOUNDARY)).toEqual(['E0460 2:20']);
  });

  test('inner ops are checked first: a helper on laid-out values fails at its operand, as the walk meets it before the function', () => {
    const helper = fn(`%a: ${V(128, 'contiguous')}`, `%r = pto.vmi.ensure_layout %a : ${V(128, 'contiguous')} -> ${V(128, 'deinterleaved = 2')}`);
    expect(errors(helper, BOUNDARY)).toEqual(['E0460 3:32']);
  });

  test('only pto.vmi ops and func/scf/cf ops hold VMI values; physical VPTO types pass through', () => {
    const cast = fn(`%a: ${V(128)}`, `%0 = builtin.unrealized_conversion_cast %a : ${V(128)} to ${V(128)}`);
    expect(errors(cast, BOUNDARY)).toEqual(['E0460 3:10']);
    expect(errors(fn('%a: !pto.vreg<64xf32>', '%m = pto.pset_b32 "PAT_ALL" : !pto.mask<b32>'), BOUNDARY)).toEqual([]);
  });

  test('a VMI type in an attribute is hidden state, surface or not, however deeply nested', () => {
    expect(errors(`module attributes {\n  pto.hidden = {nested = [${V(128)}]}\n} {\n}\n`, BOUNDARY)).toEqual(['E0460 2:3']);
    expect(errors(`module attributes {\n  pto.hidden = ${V(128, 'contiguous')}\n} {\n}\n`, BOUNDARY)).toEqual(['E0460 2:3']);
    expect(errors(`module attributes {\n  pto.hidden = [{nested = !pto.vreg<64xf32>}]\n} {\n}\n`, BOUNDARY)).toEqual([]);
  });
});

describe('pto-validate-vmi-layout-ir: layout-assigned IR', () => {
  test('every VMI value carries a layout, every mask a b8/b16/b32 granularity too', () => {
    const d2 = 'deinterleaved = 2';
    const ok = fn(
      `%m: ${M(128, 'b32', d2)}, %a: ${V(128, d2)}`,
      `%s = pto.vmi.vsel %m, %a, %a : ${M(128, 'b32', d2)}, ${V(128, d2)}, ${V(128, d2)} -> ${V(128, d2)}`,
    );
    expect(errors(ok, GATE)).toEqual([]);
    expect(errors(fn(`%a: ${V(128)}`), GATE)).toEqual(['E0461 2:20']);
    expect(errors(fn(`%m: ${M(128, 'pred')}`), GATE)).toEqual(['E0461 2:20']);
    expect(errors(`module attributes {\n  pto.hidden = ${M(128, 'pred')}\n} {\n}\n`, GATE)).toEqual(['E0461 2:3']);
  });

  test('pack/unpack belong to VMI -> VPTO: not yet in layout-assigned IR', () => {
    const unpack = fn(`%a: ${V(64, 'contiguous')}`, `%r = "pto.vmi.unpack"(%a) : (${V(64, 'contiguous')}) -> !pto.vreg<64xf32>`);
    expect(errors(unpack, GATE)).toEqual(['E0461 3:10']);
  });

  test('arith.select of VMI values is not a VMI op, unless vmi-legalize-arith-select turned it into scf.if first', () => {
    const c = 'contiguous';
    const select = fn(`%c: i1, %a: ${V(128, c)}, %b: ${V(128, c)}`, `%s = arith.select %c, %a, %b : ${V(128, c)}`);
    expect(errors(select, GATE)).toEqual(['E0461 3:10']);
    expect(errors(select, ['vmi-legalize-arith-select', ...GATE])).toEqual([]);
  });
});

describe('pto-validate-vmi-layout-ir: each layout has a VMI -> VPTO lowering rule', () => {
  const ensure = (lanes: number, from: string, to: string) =>
    fn(`%a: ${V(lanes, from)}`, `%r = pto.vmi.ensure_layout %a : ${V(lanes, from)} -> ${V(lanes, to)}`);

  test('ensure_layout: 32-bit deinterleaved = 4 <-> contiguous only at 256 lanes; 1 lane <-> one group of one slot', () => {
    expect(errors(ensure(128, 'deinterleaved = 4', 'contiguous'), GATE)).toEqual(['E0462 3:10']);
    expect(errors(ensure(256, 'deinterleaved = 4', 'contiguous'), GATE)).toEqual([]);
    expect(errors(ensure(8, 'contiguous', 'num_groups = 8, slots = 8'), GATE)).toEqual(['E0462 3:10']);
    expect(errors(ensure(1, 'contiguous', 'num_groups = 1, slots = 1'), GATE)).toEqual([]);
  });

  test('a helper whose result one op uses is blamed on that op (it asked for the layout), with a note at the helper', () => {
    const d4 = V(128, 'deinterleaved = 4');
    const c = V(128, 'contiguous');
    const used = fn(`%a: ${d4}`, `%r = pto.vmi.ensure_layout %a : ${d4} -> ${c}`, `%s = pto.vmi.vadd %r, %r : ${c}, ${c} -> ${c}`);
    // %r is used twice by the add: two uses, so the helper itself is blamed.
    expect(errors(used, GATE)).toEqual(['E0462 3:10']);
    const once = fn(`%a: ${d4}, %b: ${c}`, `%r = pto.vmi.ensure_layout %a : ${d4} -> ${c}`, `%s = pto.vmi.vadd %r, %b : ${c}, ${c} -> ${c}`);
    expect(errors(once, GATE)).toEqual(['E0462 4:10']);
    const r = assemble('t.pto', once, { target: 'a5', passes: GATE });
    expect(r.diags.sorted()[0].notes?.map((n) => r.source.position(n.span.start))).toEqual([expect.objectContaining({ line: 3, col: 10 })]);
  });

  test('ensure_mask_layout: b32 deinterleaved = 4 <-> contiguous only at 256 lanes', () => {
    const ensureMask = (lanes: number) =>
      fn(
        `%m: ${M(lanes, 'b32', 'deinterleaved = 4')}`,
        `%r = pto.vmi.ensure_mask_layout %m : ${M(lanes, 'b32', 'deinterleaved = 4')} -> ${M(lanes, 'b32', 'contiguous')}`,
      );
    expect(errors(ensureMask(128), GATE)).toEqual(['E0462 3:10']);
    expect(errors(ensureMask(256), GATE)).toEqual([]);
  });

  test('group_slot_load makes one slot per group or eight', () => {
    const load = (slots: number) =>
      fn(
        '%src: !pto.ptr<f32, ub>, %off: index, %st: index',
        `%o = pto.vmi.group_slot_load %src[%off], %st {num_groups = 8} : !pto.ptr<f32, ub> -> ${V(8, `num_groups = 8, slots = ${slots}`)}`,
      );
    expect(errors(load(2), GATE)).toEqual(['E0462 3:10']);
    expect(errors(load(8), GATE)).toEqual([]);
    expect(errors(load(1), GATE)).toEqual([]);
  });

  test('a contiguous store takes contiguous, lane-strided and deinterleaved values, not block-deinterleaved ones', () => {
    const store = (layout: string) =>
      fn(`%v: ${V(128, layout)}, %dst: !pto.ptr<f32, ub>, %o: index`, `pto.vmi.vstore %v, %dst[%o] : ${V(128, layout)}, !pto.ptr<f32, ub>`);
    expect(errors(store('block_deinterleaved = 2'), LOWERED)).toEqual(['E0462 3:5']);
    expect(errors(store('deinterleaved = 2'), LOWERED)).toEqual([]);
    // Unlowered, it is the unified vstore, which the gate has no rule for.
    expect(errors(store('block_deinterleaved = 2'), GATE)).toEqual([]);
  });

  test("a grouped store's group-slot value has as many groups as the store", () => {
    const store = (group: number) =>
      fn(
        `%v: ${V(8, 'num_groups = 8, slots = 8')}, %dst: !pto.ptr<f32, ub>, %o: index, %rs: index`,
        `pto.vmi.vstore %v, %dst[%o], %rs {group = ${group}} : ${V(8, 'num_groups = 8, slots = 8')}, !pto.ptr<f32, ub>`,
      );
    expect(errors(store(4), LOWERED)).toEqual(['E0462 3:5']);
    expect(errors(store(8), LOWERED)).toEqual([]);
  });

  test('a grouped reduction: groups of 8 f32 (one block) reduce contiguous to eight slots, of 32 (four blocks) from deinterleaved = 4', () => {
    const reduce = (lanes: number, src: string, slots: number) =>
      fn(
        `%s: ${V(lanes, src)}, %m: ${M(lanes, 'b32', src)}`,
        `%o = pto.vmi.vcadd %s, %m {group = 8, reassoc} : ${V(lanes, src)}, ${M(lanes, 'b32', src)} -> ${V(8, `num_groups = 8, slots = ${slots}`)}`,
      );
    expect(errors(reduce(64, 'contiguous', 8), LOWERED)).toEqual([]);
    // 96 / 8 = 12 lanes a group: no block class.
    expect(errors(reduce(96, 'contiguous', 8), LOWERED)).toEqual(['E0462 3:10']);
    expect(errors(reduce(256, 'contiguous', 1), LOWERED)).toEqual(['E0462 3:10']);
    expect(errors(reduce(256, 'deinterleaved = 4', 8), LOWERED)).toEqual([]);
    expect(errors(reduce(128, 'contiguous', 2), LOWERED)).toEqual(['E0462 3:10']);
  });

  test('a grouped broadcast reads eight slots (or one) a group', () => {
    const brc = (slots: number) =>
      fn(
        `%s: ${V(8, `num_groups = 8, slots = ${slots}`)}`,
        `%o = pto.vmi.vbrc %s {group = 8} : ${V(8, `num_groups = 8, slots = ${slots}`)} -> ${V(128, 'contiguous')}`,
      );
    expect(errors(brc(4), LOWERED)).toEqual(['E0462 3:10']);
    // 128 / 8 = 16 lanes a group, two blocks: slots 8 -> contiguous is a row.
    expect(errors(brc(8), LOWERED)).toEqual([]);
  });

  test('a grouped load of one-block groups is contiguous, with a constant row stride of one group', () => {
    const load = (layout: string, stride: string) =>
      fn(
        '%src: !pto.ptr<f32, ub>, %off: index, %st: index',
        '%c8 = arith.constant 8 : index',
        `%o = pto.vmi.vload %src[%off], ${stride} {group = 8} : !pto.ptr<f32, ub> -> ${V(64, layout)}`,
      );
    expect(errors(load('block_deinterleaved = 2', '%st'), LOWERED)).toEqual(['E0462 4:10']);
    expect(errors(load('contiguous', '%c8'), LOWERED)).toEqual([]);
    // The row stride must be known to equal the group's size.
    expect(errors(load('contiguous', '%st'), LOWERED)).toEqual(['E0462 4:10']);
  });

  test('a group broadcast load of groups narrower than a register part reads one scalar a group at a constant unit stride', () => {
    const load = (stride: string, groups: number, layout: string) =>
      fn(
        '%src: !pto.ptr<f32, ub>, %off: index, %st: index',
        '%c1 = arith.constant 1 : index',
        `%o = pto.vmi.group_broadcast_load %src[%off], ${stride} {num_groups = ${groups}} : !pto.ptr<f32, ub> -> ${V(64, layout)}`,
      );
    // 64 / 8 = 8 lanes a group: one 32-byte block.
    expect(errors(load('%c1', 8, 'contiguous'), GATE)).toEqual([]);
    expect(errors(load('%st', 8, 'contiguous'), GATE)).toEqual(['E0462 4:10']);
    // One group of a whole part: any stride, and deinterleaved too.
    expect(errors(load('%st', 1, 'deinterleaved = 2'), GATE)).toEqual([]);
    expect(errors(load('%c1', 8, 'deinterleaved = 2'), GATE)).toEqual(['E0462 4:10']);
  });

  test('extf widens contiguous f16 into deinterleaved = 2 f32 (each half of a register to its own part)', () => {
    const cvt = (to: string) => fn(`%s: ${V(128, 'contiguous', 'f16')}`, `%o = pto.vmi.vcvt %s : ${V(128, 'contiguous', 'f16')} -> ${V(128, to)}`);
    expect(errors(cvt('contiguous'), LOWERED)).toEqual(['E0462 3:10']);
    expect(errors(cvt('deinterleaved = 2'), LOWERED)).toEqual([]);
  });

  test('a bitcast that changes the element width keeps a contiguous layout; one that does not keeps any', () => {
    const cast = (from: string, to: string) => fn(`%s: ${from}`, `%o = pto.vmi.vinterpret_cast %s : ${from} -> ${to}`);
    expect(errors(cast(V(65, 'deinterleaved = 2'), V(130, 'deinterleaved = 2', 'i16')), LOWERED)).toEqual(['E0462 3:10']);
    expect(errors(cast(V(64, 'contiguous'), V(128, 'contiguous', 'i16')), LOWERED)).toEqual([]);
    expect(errors(cast(V(8, 'num_groups = 8, slots = 8'), V(8, 'num_groups = 8, slots = 8', 'i32')), LOWERED)).toEqual([]);
  });
});
