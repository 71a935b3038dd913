/**
 * The micro level's pass checks ask what an op is (a comparison, a conversion that widens, a grouped store, a helper
 * only a pass inserts) of its row in spec/micro, through its definition (microRowOf), not of a list of names. Here
 * the rows are a copy: each test takes an input a check rejects (or accepts), changes the fact on the copied row, and
 * sees the check follow; a check that went back to a name list would not. The inputs are those of
 * vmi-layout-assignment.test.ts and validate-vmi-ir.test.ts, where the verdicts are worked out.
 */
import type { MicroOpRowData } from '../../../src/spec/micro-schema';
import { MicroOpRow } from '../../../src/spec/micro-schema';

jest.mock('../../../src/spec/tables', () => {
  const actual = jest.requireActual('../../../src/spec/tables');
  // Copied on first use: the tables' validation itself loads modules that read them.
  let copy: ReturnType<typeof actual.specTables> | undefined;
  return { ...actual, specTables: () => (copy ??= structuredClone(actual.specTables())) };
});

import { specTables } from '../../../src/spec/tables';
import { assemble } from '../../../src/verify/assemble';

const ASSIGN = ['vmi-lower-unified-to-legacy', 'vmi-mask-granularity-assignment', 'vmi-layout-assignment'];
const LOWER = [...ASSIGN, 'vmi-to-vpto'];

function errors(text: string, passes: string[]): string[] {
  const r = assemble('t.pto', text, { target: 'a5', passes });
  return r.diags.sorted().map((d) => {
    const at = r.source.position(d.span.start);
    return `${d.code} ${at.line}:${at.col}`;
  });
}

/** Runs `check` with the copied row of `name` changed by `change` (undefined deletes a field), then restores it. */
function withRow(name: string, change: Partial<MicroOpRowData>, check: () => void): void {
  const row = specTables().micro.find((r) => r.name === name)!;
  const saved = { ...row };
  Object.assign(row, change);
  for (const [k, v] of Object.entries(change)) if (v === undefined) delete (row as Record<string, unknown>)[k];
  try {
    check();
  } finally {
    for (const k of Object.keys(change)) delete (row as Record<string, unknown>)[k];
    Object.assign(row, saved);
  }
}

const fn = (params: string, body: string[], result = '') => `func.func @k(${params})${result} {\n${body.join('\n')}\n  return\n}\n`;

test('the schema takes only the values it knows for each fact', () => {
  const row = specTables().micro.find((r) => r.name === 'pto.vmi.vcvt')!;
  expect(MicroOpRow.safeParse(row).success).toBe(true);
  expect(MicroOpRow.safeParse({ ...row, conversion: 'sideways' }).success).toBe(false);
  expect(MicroOpRow.safeParse({ ...row, compares: 'yes' }).success).toBe(false);
  expect(MicroOpRow.safeParse({ ...row, storesGroups: 'sometimes' }).success).toBe(false);
  expect(MicroOpRow.safeParse({ ...row, vmiHelper: 'cleanup' }).success).toBe(false);
});

test('a comparison fixes its mask granularity (compares): masks of f16 and f32 comparisons joined by scf.if conflict', () => {
  const branch = (t: string) => [
    '    %seed = pto.vmi.pset "PAT_ALL" : !pto.vmi.mask<128xpred>',
    `    %m = pto.vmi.vcmp %${t}, %${t}, %seed {cmp = "olt"} : !pto.vmi.vreg<128x${t}>, !pto.vmi.vreg<128x${t}>, !pto.vmi.mask<128xpred> -> !pto.vmi.mask<128xpred>`,
    '    scf.yield %m : !pto.vmi.mask<128xpred>',
  ];
  const joined = fn('%c: i1, %f16: !pto.vmi.vreg<128xf16>, %f32: !pto.vmi.vreg<128xf32>', [
    '  %mask = scf.if %c -> !pto.vmi.mask<128xpred> {',
    ...branch('f16'),
    '  } else {',
    ...branch('f32'),
    '  }',
  ]);
  expect(errors(joined, ASSIGN)).toEqual(['E0466 2:11']);
  withRow('pto.vmi.vcmp', { compares: undefined }, () => expect(errors(joined, ASSIGN)).toEqual([]));
});

test('a conversion that may widen prefers a deinterleaved result (conversion): two returns widening by 2 and by 4 conflict', () => {
  const returns =
    'func.func @k(%c: i1, %a: !pto.vmi.vreg<128xf16>, %b: !pto.vmi.vreg<128xf8E4M3FN>) -> !pto.vmi.vreg<128xf32> {\n' +
    '  cf.cond_br %c, ^then, ^else\n' +
    '^then:\n  %ea = pto.vmi.vcvt %a : !pto.vmi.vreg<128xf16> -> !pto.vmi.vreg<128xf32>\n  return %ea : !pto.vmi.vreg<128xf32>\n' +
    '^else:\n  %eb = pto.vmi.vcvt %b : !pto.vmi.vreg<128xf8E4M3FN> -> !pto.vmi.vreg<128xf32>\n  return %eb : !pto.vmi.vreg<128xf32>\n}\n';
  expect(errors(returns, ASSIGN)).toEqual(['E0466 8:10']);
  withRow('pto.vmi.vcvt', { conversion: 'narrowing' }, () => expect(errors(returns, ASSIGN)).toEqual([]));
  withRow('pto.vmi.vcvt', { conversion: 'widening' }, () => expect(errors(returns, ASSIGN)).toEqual(['E0466 8:10']));
});

/** A grouped load of 8 groups of 16 f32 with row stride 24 (loaded in 8-element blocks), reduced, stored, and converted. */
const blockLoad = fn('%base: !pto.ptr<f32, ub>, %dst: !pto.ptr<f32, ub>, %off: index, %half: !pto.ptr<f16, ub>', [
  '  %c1 = arith.constant 1 : index',
  '  %s = arith.constant 24 : index',
  '  %n = arith.constant 128 : index',
  '  %mask = pto.vmi.create_mask %n : index -> !pto.vmi.mask<128xpred>',
  '  %x = pto.vmi.vload %base[%off], %s {group = 8} : !pto.ptr<f32, ub> -> !pto.vmi.vreg<128xf32>',
  '  %sum = pto.vmi.vcadd %x, %mask {group = 8, reassoc} : !pto.vmi.vreg<128xf32>, !pto.vmi.mask<128xpred> -> !pto.vmi.vreg<8xf32>',
  '  pto.vmi.vstore %sum, %dst[%off], %c1 {group = 8} : !pto.vmi.vreg<8xf32>, !pto.ptr<f32, ub>',
  '  %h = pto.vmi.vcvt %x {saturate = "SAT"} : !pto.vmi.vreg<128xf32> -> !pto.vmi.vreg<128xf16>',
  '  pto.vmi.vstore %h, %half[%off] : !pto.vmi.vreg<128xf16>, !pto.ptr<f16, ub>',
]);

test('no conversion takes a value loaded in 8-element blocks (conversion, whatever its kind)', () => {
  expect(errors(blockLoad, LOWER)).toEqual(['E0468 9:21']);
  withRow('pto.vmi.vcvt', { conversion: undefined }, () => expect(errors(blockLoad, LOWER)).toEqual([]));
  withRow('pto.vmi.vcvt', { conversion: 'float-int' }, () => expect(errors(blockLoad, LOWER)).toEqual(['E0468 9:21']));
});

/** vcadd over 96 f32 lanes in 8 groups of 12 (no layout-table row), its result stored by `store`. */
const reduce = (store: string) =>
  fn('%x: !pto.vmi.vreg<96xf32>, %mask: !pto.vmi.mask<96xpred>, %dst: !pto.ptr<f32, ub>, %off: index', [
    '  %c1 = arith.constant 1 : index',
    '  %sum = pto.vmi.vcadd %x, %mask {group = 8, reassoc} : !pto.vmi.vreg<96xf32>, !pto.vmi.mask<96xpred> -> !pto.vmi.vreg<8xf32>',
    `  ${store}`,
  ]);

test('a reduction by groups (reducesGroups) whose groups have no layout cannot feed a grouped store (storesGroups)', () => {
  const grouped = reduce('pto.vmi.vstore %sum, %dst[%off], %c1 {group = 8} : !pto.vmi.vreg<8xf32>, !pto.ptr<f32, ub>');
  expect(errors(grouped, ASSIGN)).toEqual(['E0465 3:10']);
  withRow('pto.vmi.vcadd', { reducesGroups: undefined }, () => expect(errors(grouped, ASSIGN)).toEqual([]));
  withRow('pto.vmi.vstore', { storesGroups: undefined }, () => expect(errors(grouped, ASSIGN)).toEqual([]));
  // A vstore stores groups only with a `group`; one whose row said it always did would be taken without.
  const plain = reduce('pto.vmi.vstore %sum, %dst[%off] : !pto.vmi.vreg<8xf32>, !pto.ptr<f32, ub>');
  expect(errors(plain, ASSIGN)).toEqual([]);
  withRow('pto.vmi.vstore', { storesGroups: 'always' }, () => expect(errors(plain, ASSIGN)).toEqual(['E0465 3:10']));
});

test('a slot load that a broadcast reads (broadcasts) keeps its slots packed: no stride rule', () => {
  const slots = fn('%src: !pto.ptr<f32, ub>, %off: index, %dyn: index', [
    '  %out = pto.vmi.group_slot_load %src[%off], %dyn {num_groups = 8} : !pto.ptr<f32, ub> -> !pto.vmi.vreg<8xf32>',
    '  %b = pto.vmi.vbrc %out {group = 8} : !pto.vmi.vreg<8xf32> -> !pto.vmi.vreg<128xf32>',
  ]);
  expect(errors(slots, LOWER)).toEqual([]);
  withRow('pto.vmi.vbrc', { broadcasts: undefined }, () => expect(errors(slots, LOWER)).toEqual(['E0468 2:46']));
});

test('a merging vector-scalar op (vectorScalar) has no lowering', () => {
  const vmuls = fn('%s: !pto.vmi.vreg<64xf32>, %x: f32, %m: !pto.vmi.mask<64xpred>', [
    '  %r = pto.vmi.vmuls %s, %x, %m {pmode = "merge"} : !pto.vmi.vreg<64xf32>, f32, !pto.vmi.mask<64xpred> -> !pto.vmi.vreg<64xf32>',
  ]);
  expect(errors(vmuls, LOWER)).toEqual(['E0469 2:34']);
  withRow('pto.vmi.vmuls', { vectorScalar: undefined }, () => expect(errors(vmuls, LOWER)).toEqual([]));
});

describe('helpers only a pass inserts (vmiHelper)', () => {
  const fnModule = (params: string, ...body: string[]) =>
    `module {\n  func.func @k(${params}) {\n${body.map((l) => '    ' + l + '\n').join('')}    return\n  }\n}\n`;
  const V = (lanes: number, layout?: string) => `!pto.vmi.vreg<${lanes}xf32${layout ? `, #pto.vmi.layout<${layout}>` : ''}>`;

  test('a physical helper (unpack) may not stand in layout-assigned IR; as a layout helper it may', () => {
    const unpack = fnModule(`%a: ${V(64, 'contiguous')}`, `%r = "pto.vmi.unpack"(%a) : (${V(64, 'contiguous')}) -> !pto.vreg<64xf32>`);
    expect(errors(unpack, ['pto-validate-vmi-layout-ir'])).toEqual(['E0461 3:10']);
    withRow('pto.vmi.unpack', { vmiHelper: 'layout' }, () => expect(errors(unpack, ['pto-validate-vmi-layout-ir'])).toEqual([]));
  });

  test('a layout helper without a lowering rule is blamed on its one user, who asked for the layout', () => {
    const [d4, c] = [V(128, 'deinterleaved = 4'), V(128, 'contiguous')];
    const once = fnModule(`%a: ${d4}, %b: ${c}`, `%r = pto.vmi.ensure_layout %a : ${d4} -> ${c}`, `%s = pto.vmi.vadd %r, %b : ${c}, ${c} -> ${c}`);
    expect(errors(once, ['pto-validate-vmi-layout-ir'])).toEqual(['E0462 4:10']);
    withRow('pto.vmi.ensure_layout', { vmiHelper: undefined }, () => expect(errors(once, ['pto-validate-vmi-layout-ir'])).toEqual(['E0462 3:10']));
  });
});
