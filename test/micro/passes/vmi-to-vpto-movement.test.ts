/**
 * vmi-to-vpto's data-movement rules (src/micro/passes/vmi-to-vpto-movement.ts), each with an input it rejects (code,
 * line:col) and a near one it accepts. The verdicts are worked out by hand from PTOAS's VMIToVPTO.cpp
 * (verifySupportedVMIToVPTOOps and its checkSupported*Shape helpers) and VMILayoutSupport.cpp's tables: a register
 * holds 64 lanes of 32 bits or 128 of 16; deinterleaved = 2 deals lanes to two halves (129 lanes: 65 and 64, so 2
 * and 1 registers); ensure_layout has rows deinterleaved = 4 <-> contiguous for 256 lanes of 32 bits only; a slots = 8
 * group access needs the constant stride 1; vsstb's block stride is 16 bits.
 */
import { DiagnosticBag } from '../../../src/diag/diagnostic';
import { MOVEMENT_RULES } from '../../../src/micro/passes/vmi-to-vpto-movement';
import { assemble } from '../../../src/verify/assemble';

const TO_VPTO = ['vmi-to-vpto'];
const UNIFIED = ['vmi-lower-unified-to-legacy', 'vmi-to-vpto'];

/**
 * The movement rules' errors (code line:col) for `body` in `func.func @k(params)`, as vmi-to-vpto runs them in
 * `passes` (line 1 is the function, 2 the body's first line); the other rules of the pass are not run.
 */
function errors(body: string, params = '', passes = TO_VPTO): string[] {
  const r = assemble('t.pto', `func.func @k(${params}) {\n${body}\n  return\n}\n`, { passes: [] });
  expect(r.diags.sorted().map((d) => d.message)).toEqual([]);
  const diags = new DiagnosticBag(r.source);
  for (const rule of MOVEMENT_RULES) rule({ program: r.program, types: r.types, diags, passes });
  return diags.sorted().map((d) => {
    const at = r.source.position(d.span.start);
    return `${d.code} ${at.line}:${at.col}`;
  });
}

const V = (n: number, e: string, l = 'contiguous') => `!pto.vmi.vreg<${n}x${e}, #pto.vmi.layout<${l}>>`;
const M = (n: number, g: string, l = 'contiguous') => `!pto.vmi.mask<${n}x${g}, #pto.vmi.layout<${l}>>`;
const PTR = '%p: !pto.ptr<f32, ub>, %o: index';

describe('compaction: one contiguous register whose lanes are all logical', () => {
  const compress = (n: number, l = 'contiguous') => [
    `  %r = pto.vmi.compress %s, %m : ${V(n, 'f32', l)}, ${M(n, 'b32', l)} -> ${V(n, 'f32', l)}`,
    `%s: ${V(n, 'f32', l)}, %m: ${M(n, 'b32', l)}`,
  ];
  test('compress', () => {
    expect(errors(...(compress(64) as [string, string]))).toEqual([]);
    expect(errors(...(compress(128) as [string, string]))).toEqual(['E0470 2:8']); // two registers
    expect(errors(...(compress(4) as [string, string]))).toEqual(['E0470 2:8']); // 60 padding lanes
    expect(errors(...(compress(64, 'deinterleaved = 2') as [string, string]))).toEqual(['E0470 2:8']);
  });

  test('compress_store and active_prefix_index', () => {
    const store = (n: number) =>
      errors(`  pto.vmi.compress_store %v, %p[%o], %m : ${V(n, 'f32')}, !pto.ptr<f32, ub>, ${M(n, 'b32')}`, `%v: ${V(n, 'f32')}, ${PTR}, %m: ${M(n, 'b32')}`);
    expect(store(64)).toEqual([]);
    expect(store(128)).toEqual(['E0470 2:3']);
    const prefix = (n: number) => errors(`  %i = pto.vmi.active_prefix_index %m : ${M(n, 'b32')} -> ${V(n, 'i32')}`, `%m: ${M(n, 'b32')}`);
    expect(prefix(64)).toEqual([]);
    expect(prefix(32)).toEqual(['E0470 2:8']); // the mask's padding lanes would count
    expect(prefix(128)).toEqual(['E0470 2:8']); // no carry from register to register
  });

  test('expand_load: an all-active mask over whole registers, or a runtime mask over one', () => {
    const load = (n: number, active: number, offset = '%o') =>
      errors(
        [
          `  %c = arith.constant ${active} : index`,
          `  %k = arith.constant -1 : index`,
          `  %m = pto.vmi.create_mask %c : index -> ${M(n, 'b32')}`,
          `  %r = pto.vmi.expand_load %p[${offset}], %m, %t : !pto.ptr<f32, ub>, ${M(n, 'b32')}, ${V(n, 'f32')} -> ${V(n, 'f32')}`,
        ].join('\n'),
        `${PTR}, %t: ${V(n, 'f32')}`,
      );
    expect(load(128, 128)).toEqual([]); // all active, two whole registers
    expect(load(64, 4)).toEqual([]); // a runtime mask over one whole register
    expect(load(128, 4)).toEqual(['E0470 5:8']); // a runtime mask over two registers
    expect(load(100, 100, '%k')).toEqual(['E0470 5:8']); // all active, part of a register, no in-bounds proof
  });
});

describe('memory: gather, scatter and stores', () => {
  const gather = (n: number, l = 'contiguous') =>
    errors(
      `  %r = pto.vmi.vgather %p, %i, %m : !pto.ptr<f32, ub>, ${V(n, 'i32', l)}, ${M(n, 'b32', l)} -> ${V(n, 'f32', l)}`,
      `%p: !pto.ptr<f32, ub>, %i: ${V(n, 'i32', l)}, %m: ${M(n, 'b32', l)}`,
      UNIFIED,
    );
  test('gather takes contiguous whole registers', () => {
    expect(gather(64)).toEqual([]);
    expect(gather(32)).toEqual(['E0471 2:8']);
    expect(gather(64, 'deinterleaved = 2')).toEqual(['E0471 2:8']);
  });

  test('scatter takes contiguous whole registers', () => {
    const scatter = (n: number) =>
      errors(
        `  pto.vmi.vscatter %v, %p, %i, %m : ${V(n, 'f32')}, !pto.ptr<f32, ub>, ${V(n, 'i32')}, ${M(n, 'b32')}`,
        `%v: ${V(n, 'f32')}, %p: !pto.ptr<f32, ub>, %i: ${V(n, 'i32')}, %m: ${M(n, 'b32')}`,
        UNIFIED,
      );
    expect(scatter(128)).toEqual([]);
    expect(scatter(32)).toEqual(['E0471 2:3']);
  });

  test('a partly used deinterleaved = 2 store needs halves of as many registers', () => {
    const D2 = 'deinterleaved = 2';
    const store = (n: number) => errors(`  pto.vmi.vstore %v, %p[%o] : ${V(n, 'f32', D2)}, !pto.ptr<f32, ub>`, `%v: ${V(n, 'f32', D2)}, ${PTR}`, UNIFIED);
    expect(store(129)).toEqual(['E0471 2:3']); // 65 and 64 lanes: 2 and 1 registers
    expect(store(130)).toEqual([]); // 65 and 65 lanes: 2 and 2 registers
    const masked = (n: number) =>
      errors(
        `  pto.vmi.vstore %v, %p[%o], %m : ${V(n, 'f32', D2)}, !pto.ptr<f32, ub>, ${M(n, 'b32', D2)}`,
        `%v: ${V(n, 'f32', D2)}, ${PTR}, %m: ${M(n, 'b32', D2)}`,
        UNIFIED,
      );
    expect(masked(129)).toEqual(['E0471 2:3']);
    expect(masked(130)).toEqual([]);
  });
});

describe('layout changes', () => {
  test('ensure_layout and ensure_mask_layout need a row of their tables', () => {
    const data = (n: number) =>
      errors(`  %d = pto.vmi.ensure_layout %v : ${V(n, 'f32', 'deinterleaved = 4')} -> ${V(n, 'f32')}`, `%v: ${V(n, 'f32', 'deinterleaved = 4')}`);
    expect(data(256)).toEqual([]);
    expect(data(128)).toEqual(['E0472 2:8']);
    const mask = (n: number) =>
      errors(`  %d = pto.vmi.ensure_mask_layout %m : ${M(n, 'b32', 'deinterleaved = 4')} -> ${M(n, 'b32')}`, `%m: ${M(n, 'b32', 'deinterleaved = 4')}`);
    expect(mask(256)).toEqual([]);
    expect(mask(128)).toEqual(['E0472 2:8']);
  });

  test('a width-changing bitcast stays in the contiguous layout', () => {
    const cast = (n: number, l: string) =>
      errors(`  %r = pto.vmi.vinterpret_cast %v : ${V(n, 'f32', l)} -> ${V(2 * n, 'i16', l)}`, `%v: ${V(n, 'f32', l)}`, UNIFIED);
    expect(cast(64, 'contiguous')).toEqual([]);
    expect(cast(65, 'deinterleaved = 2')).toEqual(['E0472 2:8']);
  });

  test('channel_split and channel_merge: 2 or 4 channels over whole registers', () => {
    const split = (n: number, k: number) =>
      errors(
        `  ${Array.from({ length: k }, (_, i) => `%c${i}`).join(', ')} = "pto.vmi.channel_split"(%v) : (${V(n, 'f32')}) -> (${Array(k)
          .fill(V(n / k, 'f32'))
          .join(', ')})`,
        `%v: ${V(n, 'f32')}`,
      );
    expect(split(128, 2)).toEqual([]);
    expect(split(192, 3)).toEqual(['E0472 2:19']);
    expect(split(4, 2)).toEqual(['E0472 2:14']); // two channel registers against one
    const merge = (n: number) =>
      errors(`  %r = "pto.vmi.channel_merge"(%a, %b) : (${V(n, 'f32')}, ${V(n, 'f32')}) -> ${V(2 * n, 'f32')}`, `%a: ${V(n, 'f32')}, %b: ${V(n, 'f32')}`);
    expect(merge(64)).toEqual([]);
    expect(merge(2)).toEqual(['E0472 2:8']);
  });
});

describe('group memory and group layouts', () => {
  test('slots = 8 group stores and slot loads need the constant stride 1', () => {
    const G8 = 'num_groups = 8, slots = 8';
    const one = '  %one = arith.constant 1 : index\n';
    const store = (stride: string) =>
      errors(
        `${one}  pto.vmi.vstore %v, %p[%o], ${stride} {group = 8} : ${V(8, 'f32', G8)}, !pto.ptr<f32, ub>`,
        `%v: ${V(8, 'f32', G8)}, ${PTR}, %s: index`,
        UNIFIED,
      );
    expect(store('%one')).toEqual([]);
    expect(store('%s')).toEqual(['E0473 3:3']);
    const load = (stride: string) =>
      errors(`${one}  %r = pto.vmi.group_slot_load %p[%o], ${stride} {num_groups = 8} : !pto.ptr<f32, ub> -> ${V(8, 'f32', G8)}`, `${PTR}, %s: index`);
    expect(load('%one')).toEqual([]);
    expect(load('%s')).toEqual(['E0473 3:8']);
  });

  test("a one-block group store's block stride fits vsstb's 16 bits", () => {
    // 128 bf16 in 8 groups: 16 elements, one 32-byte block per group; block stride = row_stride / 16.
    const store = (rowStride: number) =>
      errors(
        `  %c = arith.constant ${rowStride} : index\n  pto.vmi.group_store %v, %p[%o], %c {num_groups = 8 : i64} : ${V(128, 'bf16')}, !pto.ptr<bf16, ub>`,
        `%v: ${V(128, 'bf16')}, %p: !pto.ptr<bf16, ub>, %o: index`,
      );
    expect(store(16 * 0xffff)).toEqual([]);
    expect(store(16 * 0x10000)).toEqual(['E0473 3:3']);
  });

  test('group_broadcast_load: a split result needs a constant stride', () => {
    const load = (stride: string) =>
      errors(
        `  %one = arith.constant 1 : index\n  %r = pto.vmi.group_broadcast_load %p[%o], ${stride} {num_groups = 8} : !pto.ptr<bf16, ub> -> ${V(256, 'bf16', 'deinterleaved = 2')}`,
        '%p: !pto.ptr<bf16, ub>, %o: index, %s: index',
      );
    expect(load('%one')).toEqual([]);
    expect(load('%s')).toEqual(['E0473 3:8']);
  });

  test('a group reduction returns num_groups with slots = 1 or 8', () => {
    const reduce = (result: string) =>
      errors(
        `  %r = pto.vmi.vcadd %s, %m {group = 8, reassoc} : ${V(64, 'f32')}, ${M(64, 'b32')} -> ${V(8, 'f32', result)}`,
        `%s: ${V(64, 'f32')}, %m: ${M(64, 'b32')}`,
        UNIFIED,
      );
    expect(reduce('num_groups = 8, slots = 8')).toEqual([]);
    expect(reduce('num_groups = 8')).toEqual(['E0474 2:8']);
  });
});

describe('what layout assignment chose is not judged', () => {
  test('after a layout-choosing pass, or with a unified op the rewrite was not asked for, no rule applies', () => {
    const params = `%s: ${V(128, 'f32')}, %m: ${M(128, 'b32')}`;
    const body = `  %r = pto.vmi.compress %s, %m : ${V(128, 'f32')}, ${M(128, 'b32')} -> ${V(128, 'f32')}`;
    expect(errors(body, params, ['vmi-layout-assignment', 'vmi-to-vpto'])).toEqual([]);
    expect(errors(body, params, UNIFIED)).toEqual(['E0470 2:8']);
    const gather = `  %r = pto.vmi.vgather %p, %i, %m : !pto.ptr<f32, ub>, ${V(32, 'i32')}, ${M(32, 'b32')} -> ${V(32, 'f32')}`;
    expect(errors(gather, `%p: !pto.ptr<f32, ub>, %i: ${V(32, 'i32')}, %m: ${M(32, 'b32')}`, TO_VPTO)).toEqual([]);
  });
});
