/**
 * vmi-mask-granularity-assignment and vmi-layout-assignment (src/micro/passes/vmi-layout-assignment.ts), and what the
 * layouts they pick leave vmi-to-vpto unable to lower (vmi-layout-lowering.ts): each rule with an input it rejects
 * (code, line:col) and a near one it accepts. The limits come from PTOAS's VMILayoutAssignment.cpp,
 * VMIMaskGranularityAssignment.cpp, VMILayoutSupport.cpp's tables (group block classes, preferred casts, ensure_layout
 * rows, vselr rows) and VMIToVPTO.cpp's support checks; the inputs are PTOAS's lit cases cut down.
 */
import { assemble } from '../../../src/verify/assemble';

/** pto-test-opt's pipeline up to layout assignment, and with the lowering after it. */
const ASSIGN = ['vmi-lower-unified-to-legacy', 'vmi-mask-granularity-assignment', 'vmi-layout-assignment'];
const LOWER = [...ASSIGN, 'vmi-to-vpto'];

function errors(text: string, passes: string[] = ASSIGN): string[] {
  const r = assemble('t.pto', text, { passes });
  return r.diags.sorted().map((d) => {
    const at = r.source.position(d.span.start);
    return `${d.code} ${at.line}:${at.col}`;
  });
}

/** A function `@k(params)` of `body` lines (line 1 is the signature, 2 the first line of the body). */
const fn = (params: string, body: string[], result = '') => `func.func @k(${params})${result} {\n${body.join('\n')}\n  return\n}\n`;

test('a VMI-typed function declaration has no external ABI plan; one without VMI types is fine', () => {
  const decl = 'func.func private @ext(!pto.vmi.vreg<128xf32>) -> !pto.vmi.vreg<128xf32>\n';
  expect(errors(decl)).toEqual(['E0465 1:1']);
  expect(errors(decl, ['vmi-mask-granularity-assignment'])).toEqual(['E0465 1:1']);
  expect(errors('func.func private @ext(i32) -> i32\n' + fn('%a: !pto.vmi.vreg<128xf32>', []))).toEqual([]);
});

test('channel_split and channel_merge take 2 or 4 channels', () => {
  const V = '!pto.vmi.vreg<64xf32>';
  const merge = (n: number) =>
    fn(Array.from({ length: n }, (_, i) => `%c${i}: ${V}`).join(', '), [
      `  %m = "pto.vmi.channel_merge"(${Array.from({ length: n }, (_, i) => `%c${i}`).join(', ')}) : (${Array(n).fill(V).join(', ')}) -> !pto.vmi.vreg<${64 * n}xf32>`,
    ]);
  expect(errors(merge(3))).toEqual(['E0465 2:8']);
  expect(errors(merge(2))).toEqual([]);
  expect(errors(merge(4))).toEqual([]);
  const split = fn('%s: !pto.vmi.vreg<192xf32>', [`  %a, %b, %c = "pto.vmi.channel_split"(%s) : (!pto.vmi.vreg<192xf32>) -> (${V}, ${V}, ${V})`]);
  expect(errors(split)).toEqual(['E0465 2:16']);
});

/** A grouped load of 8 groups of 128 / 8 = 16 f32 (or 256 / 8 = 32) with row stride `stride`, reduced and stored. */
const groupLoad = (stride: number, lanes = 128, mask = 'arg') =>
  fn(
    `%base: !pto.ptr<f32, ub>, %dst: !pto.ptr<f32, ub>, %off: index${mask === 'arg' ? `, %mask: !pto.vmi.mask<${lanes}xpred>` : ''}`,
    [
      '  %c1 = arith.constant 1 : index',
      `  %s = arith.constant ${stride} : index`,
      mask === 'arg' ? '' : `  %n = arith.constant ${lanes} : index\n  %mask = pto.vmi.create_mask %n : index -> !pto.vmi.mask<${lanes}xpred>`,
      `  %x = pto.vmi.vload %base[%off], %s {group = 8} : !pto.ptr<f32, ub> -> !pto.vmi.vreg<${lanes}xf32>`,
      `  %sum = pto.vmi.vcadd %x, %mask {group = 8, reassoc} : !pto.vmi.vreg<${lanes}xf32>, !pto.vmi.mask<${lanes}xpred> -> !pto.vmi.vreg<8xf32>`,
      '  pto.vmi.vstore %sum, %dst[%off], %c1 {group = 8} : !pto.vmi.vreg<8xf32>, !pto.ptr<f32, ub>',
    ].filter((l) => l !== ''),
  );

test('a grouped load of 16- or 32-element f32 groups needs a row stride of the group size or a constant multiple of 8', () => {
  expect(errors(groupLoad(20))).toEqual(['E0465 4:35']);
  expect(errors(groupLoad(12))).toEqual(['E0465 4:35']);
  expect(errors(groupLoad(34, 256))).toEqual(['E0465 4:35']);
  expect(errors(groupLoad(16))).toEqual([]);
  expect(errors(groupLoad(24))).toEqual([]);
  expect(errors(groupLoad(40, 256))).toEqual([]);
  // Before vmi-lower-unified-to-legacy a vload is no group_load yet.
  expect(errors(groupLoad(20), ['vmi-layout-assignment'])).toEqual([]);
});

test('a load in 8-element blocks: its reduction cannot take a mask from outside, a conversion cannot take it at all', () => {
  expect(errors(groupLoad(24), LOWER)).toEqual(['E0468 5:28']);
  expect(errors(groupLoad(40, 256), LOWER)).toEqual(['E0468 5:28']);
  // A mask made in the function is made in blocks directly; rows back to back load contiguous.
  expect(errors(groupLoad(24, 128, 'made'), LOWER)).toEqual([]);
  expect(errors(groupLoad(16), LOWER)).toEqual([]);
  const cast = groupLoad(24, 128, 'made')
    .replace('%off: index)', '%off: index, %half: !pto.ptr<f16, ub>)')
    .replace(
      '  return',
      '  %h = pto.vmi.vcvt %x {saturate = "SAT"} : !pto.vmi.vreg<128xf32> -> !pto.vmi.vreg<128xf16>\n  pto.vmi.vstore %h, %half[%off] : !pto.vmi.vreg<128xf16>, !pto.ptr<f16, ub>\n  return',
    );
  expect(errors(cast, LOWER)).toEqual(['E0468 9:21']);
  expect(errors(cast)).toEqual([]);
});

test('masks joined by an scf.if must come from comparisons of one element width', () => {
  const branch = (t: string) => [
    '    %seed = pto.vmi.pset "PAT_ALL" : !pto.vmi.mask<128xpred>',
    `    %m = pto.vmi.vcmp %${t}, %${t}, %seed {cmp = "olt"} : !pto.vmi.vreg<128x${t}>, !pto.vmi.vreg<128x${t}>, !pto.vmi.mask<128xpred> -> !pto.vmi.mask<128xpred>`,
    '    scf.yield %m : !pto.vmi.mask<128xpred>',
  ];
  const joined = (a: string, b: string) =>
    fn('%c: i1, %f16: !pto.vmi.vreg<128xf16>, %f32: !pto.vmi.vreg<128xf32>', [
      '  %mask = scf.if %c -> !pto.vmi.mask<128xpred> {',
      ...branch(a),
      '  } else {',
      ...branch(b),
      '  }',
    ]);
  expect(errors(joined('f16', 'f32'))).toEqual(['E0466 2:11']);
  expect(errors(joined('f16', 'f32'), ['vmi-mask-granularity-assignment'])).toEqual(['E0466 2:11']);
  expect(errors(joined('f32', 'f32'))).toEqual([]);
});

test('the returns of a function must agree on the layout of a result: widening by 2 and by 4 do not', () => {
  const returns = (lanes: number, b: string) =>
    `func.func @k(%c: i1, %a: !pto.vmi.vreg<${lanes}xf16>, %b: !pto.vmi.vreg<${lanes}x${b}>) -> !pto.vmi.vreg<${lanes}xf32> {\n` +
    '  cf.cond_br %c, ^then, ^else\n' +
    `^then:\n  %ea = pto.vmi.vcvt %a : !pto.vmi.vreg<${lanes}xf16> -> !pto.vmi.vreg<${lanes}xf32>\n  return %ea : !pto.vmi.vreg<${lanes}xf32>\n` +
    `^else:\n  %eb = pto.vmi.vcvt %b : !pto.vmi.vreg<${lanes}x${b}> -> !pto.vmi.vreg<${lanes}xf32>\n  return %eb : !pto.vmi.vreg<${lanes}xf32>\n}\n`;
  expect(errors(returns(128, 'f8E4M3FN'))).toEqual(['E0466 8:10']);
  expect(errors(returns(128, 'f16'))).toEqual([]);
  // 64 f32 lanes fill one register: both conversions prefer a contiguous result.
  expect(errors(returns(64, 'f8E4M3FN'))).toEqual([]);
});

test('a reduction over groups without a layout-table row cannot feed a grouped store', () => {
  const reduce = (lanes: number, groups: number, store = true, param = true) =>
    fn(`%x: !pto.vmi.vreg<${lanes}xf32>, %mask: !pto.vmi.mask<${lanes}xpred>, %dst: !pto.ptr<f32, ub>, %off: index`, [
      '  %c1 = arith.constant 1 : index',
      `  %sum = pto.vmi.vcadd %x, %mask {group = ${groups}, reassoc} : !pto.vmi.vreg<${lanes}xf32>, !pto.vmi.mask<${lanes}xpred> -> !pto.vmi.vreg<${groups}xf32>`,
      store && param ? `  pto.vmi.vstore %sum, %dst[%off], %c1 {group = ${groups}} : !pto.vmi.vreg<${groups}xf32>, !pto.ptr<f32, ub>` : '',
    ]);
  expect(errors(reduce(96, 8))).toEqual(['E0465 3:10']);
  expect(errors(reduce(96, 8, false))).toEqual([]);
  expect(errors(reduce(128, 8))).toEqual([]);
  // Groups of 32 f32 are reduced from deinterleaved = 4; a contiguous argument converts to it at 256 lanes only.
  expect(errors(reduce(192, 6), LOWER)).toEqual(['E0468 3:24']);
  expect(errors(reduce(256, 8), LOWER)).toEqual([]);
  expect(errors(reduce(192, 6))).toEqual([]);
});

test('a slot load with a stride other than 1 has one slot per group, loaded 32-byte aligned', () => {
  const slots = (stride: string, use = '') =>
    fn('%src: !pto.ptr<f32, ub>, %off: index, %dyn: index', [
      '  %c = arith.constant 2 : index',
      '  %c8 = arith.constant 8 : index',
      '  %c1 = arith.constant 1 : index',
      `  %out = pto.vmi.group_slot_load %src[%off], ${stride} {num_groups = 8} : !pto.ptr<f32, ub> -> !pto.vmi.vreg<8xf32>`,
      use,
    ]);
  expect(errors(slots('%c'), LOWER)).toEqual(['E0468 5:46']);
  expect(errors(slots('%dyn'), LOWER)).toEqual(['E0468 5:46']);
  expect(errors(slots('%c8'), LOWER)).toEqual([]);
  expect(errors(slots('%c1'), LOWER)).toEqual([]);
  expect(errors(slots('%c'))).toEqual([]);
  // Broadcast, the slots are taken eight to a block.
  expect(errors(slots('%dyn', '  %b = pto.vmi.vbrc %out {group = 8} : !pto.vmi.vreg<8xf32> -> !pto.vmi.vreg<128xf32>'), LOWER)).toEqual([]);
});

test('vselr lowers within one contiguous register', () => {
  const vselr = (s: string, i: string, r: string) =>
    fn(`%s: !pto.vmi.vreg<${s}>, %i: !pto.vmi.vreg<${i}>`, [`  %r = pto.vmi.vselr %s, %i : !pto.vmi.vreg<${s}>, !pto.vmi.vreg<${i}> -> !pto.vmi.vreg<${r}>`]);
  expect(errors(vselr('128xf32', '128xi32', '128xf32'), LOWER)).toEqual(['E0468 2:8']);
  expect(errors(vselr('128xf32', '64xi32', '64xf32'), LOWER)).toEqual(['E0468 2:8']);
  expect(errors(vselr('4xf16', '4xi16', '4xf16'), LOWER)).toEqual(['E0468 2:8']);
  expect(errors(vselr('64xf32', '64xi32', '64xf32'), LOWER)).toEqual([]);
  expect(errors(vselr('128xf16', '128xi16', '128xf16'), LOWER)).toEqual([]);
  expect(errors(vselr('128xf32', '128xi32', '128xf32'))).toEqual([]);
});

test('no lowering for a merging vector-scalar op or an integer vmula', () => {
  const vmuls = (attrs: string) =>
    fn('%s: !pto.vmi.vreg<64xf32>, %x: f32, %m: !pto.vmi.mask<64xpred>', [
      `  %r = pto.vmi.vmuls %s, %x, %m ${attrs}: !pto.vmi.vreg<64xf32>, f32, !pto.vmi.mask<64xpred> -> !pto.vmi.vreg<64xf32>`,
    ]);
  expect(errors(vmuls('{pmode = "merge"} '), LOWER)).toEqual(['E0469 2:34']);
  expect(errors(vmuls(''), LOWER)).toEqual([]);
  expect(errors(vmuls('{pmode = "merge"} '))).toEqual([]);
  const vmula = (t: string) =>
    fn(`%a: !pto.vmi.vreg<64x${t}>, %m: !pto.vmi.mask<64xpred>`, [
      `  %r = pto.vmi.vmula %a, %a, %a, %m : !pto.vmi.vreg<64x${t}>, !pto.vmi.vreg<64x${t}>, !pto.vmi.vreg<64x${t}>, !pto.vmi.mask<64xpred> -> !pto.vmi.vreg<64x${t}>`,
    ]);
  expect(errors(vmula('i32'), LOWER)).toEqual(['E0469 2:8']);
  expect(errors(vmula('f32'), LOWER)).toEqual([]);
});

test('no VMI type may hide in an attribute', () => {
  expect(errors('module attributes {pto.hidden = !pto.vmi.vreg<128xf32>} {\n}\n')).toEqual(['E0467 1:20']);
  expect(errors('module attributes {pto.hidden = f32} {\n}\n')).toEqual([]);
});
