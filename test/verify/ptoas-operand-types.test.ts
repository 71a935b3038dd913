/**
 * Element types and operands as PTOAS e32488c9 verifies them (issue 34), one accepted and one rejected example per
 * rule, derived by hand from lib/PTO/IR/PTO.cpp. MLIR's Type::isInteger(n) matches any signedness, so where PTOAS
 * writes isInteger(32) both i32 and ui32 pass.
 */
import { assemble } from '../../src/verify/assemble';
import { printCanonical } from '../../src/emit/canonical';
import { runFunction, Value } from '../../src/vm/interpreter';
import { GlobalBuffer } from '../../src/machine/memory';
import { runKernel, runValues } from '../ops/instructions/semantics/tile-kernel';
import { at, diagLines, kernel, run, tileBuf } from '../fixtures/verify/helpers';

function program(line: string, types: Record<string, string>): string {
  return kernel([...Object.entries(types).map(([n, t]) => `%${n} = pto.alloc_tile : ${t}`), line, 'return']);
}

describe('tpartargmax/tpartargmin (verifyTPartArgOpCommon): values i32/i16/f16/f32 (A5: also i8/bf16), indexes 32-bit', () => {
  const tile = (dtype: string) => tileBuf({ dtype, rows: 16, cols: 32 });
  const text = (name: string, value: string, index: string) => {
    const [v, i] = [tile(value), tile(index)];
    return program(`pto.${name} ins(%a, %b, %ai, %bi : ${v}, ${v}, ${i}, ${i}) outs(%d, %di : ${v}, ${i})`, { a: v, b: v, ai: i, bi: i, d: v, di: i });
  };
  test.each(['tpartargmax', 'tpartargmin'])('%s: ui16 values with ui32 indexes verify on a2a3, i8 values only on a5', (name) => {
    expect(diagLines(run(text(name, 'u16', 'u32'), 'a2a3'))).toEqual([]);
    expect(diagLines(run(text(name, 'i8', 'i32'), 'a5'))).toEqual([]);
    const i8 = text(name, 'i8', 'i32');
    expect(diagLines(run(i8, 'a2a3'))).toEqual([
      `${at(i8, tile('i8'), 3)}: error[E0505]: pto.${name}: src0 dtype i8 is not supported on a2a3 (allowed: i16, ui16, i32, ui32, f16, f32)`,
      `${at(i8, tile('i8'), 4)}: error[E0505]: pto.${name}: src1 dtype i8 is not supported on a2a3 (allowed: i16, ui16, i32, ui32, f16, f32)`,
      `${at(i8, tile('i8'), 5)}: error[E0505]: pto.${name}: dst dtype i8 is not supported on a2a3 (allowed: i16, ui16, i32, ui32, f16, f32)`,
    ]);
  });
  test('a 16-bit index is an error even with f16 values', () => {
    const i16 = text('tpartargmax', 'f16', 'i16');
    const message = (op: string) => `error[E0505]: pto.tpartargmax: ${op} dtype i16 is not supported on a5 (allowed: i32, ui32)`;
    expect(diagLines(run(i16, 'a5'))).toEqual([
      `${at(i16, tile('i16'), 3)}: ${message('src0Idx')}`,
      `${at(i16, tile('i16'), 4)}: ${message('src1Idx')}`,
      `${at(i16, tile('i16'), 5)}: ${message('dstIdx')}`,
    ]);
  });
  test('the VM traps on values pto-isa does not take', () => {
    const tiles = (dtype: 'i32' | 'f32') => ({
      a: { dtype, rows: 1, cols: 8, data: [1, 5] },
      b: { dtype, rows: 1, cols: 8, data: [2, 4] },
      ai: { dtype: 'i32' as const, rows: 1, cols: 8, data: [10, 11] },
      bi: { dtype: 'i32' as const, rows: 1, cols: 8, data: [20, 21] },
      d: { dtype, rows: 1, cols: 8 },
      di: { dtype: 'i32' as const, rows: 1, cols: 8 },
    });
    const line = 'pto.tpartargmax ins(%a, %b, %ai, %bi : T(a), T(b), T(ai), T(bi)) outs(%d, %di : T(d), T(di))';
    expect(runValues(line, tiles('f32'), 'npu').di.slice(0, 2)).toEqual([20, 11]);
    expect(() => runValues(line, tiles('i32'), 'npu')).toThrow(/^pto\.tpartargmax.* i32 values (is|are) not implemented yet/);
  });
});

describe('tsort32 (TSort32Op::verify): tmp may have any element type; on a2a3 it holds src bytes', () => {
  const src = tileBuf({ dtype: 'f32', rows: 4, cols: 32 });
  const idx = tileBuf({ dtype: 'u32', rows: 4, cols: 32 });
  const dst = tileBuf({ dtype: 'f32', rows: 4, cols: 64 });
  const text = (tmp: string) => program(`pto.tsort32 ins(%s, %i, %t : ${src}, ${idx}, ${tmp}) outs(%d : ${dst})`, { s: src, i: idx, t: tmp, d: dst });
  test('an i8 tmp of 512 bytes verifies on both targets; one of 256 bytes is too small on a2a3 only', () => {
    const big = tileBuf({ dtype: 'i8', rows: 1, cols: 512 });
    expect(diagLines(run(text(big), 'a2a3'))).toEqual([]);
    expect(diagLines(run(text(big), 'a5'))).toEqual([]);
    const small = tileBuf({ dtype: 'i8', rows: 1, cols: 256 });
    expect(diagLines(run(text(small), 'a5'))).toEqual([]);
    expect(diagLines(run(text(small), 'a2a3'))).toEqual([
      `${at(text(small), small, 1)}: error[E0508]: pto.tsort32: tmp (1x256 i8) holds 256 bytes; src (4x32 f32) needs at least 512`,
    ]);
  });
  test('the VM reads a tmp of another type as src bytes (emitc) and traps under vpto, whose template takes src type only', () => {
    // Row of 40 values (a partial last block of 8): the tail goes through tmp's first 64 f32 elements = 256 bytes.
    const values = Array.from({ length: 40 }, (_, k) => (k * 13) % 40);
    const tiles = (tmp: 'f32' | 'u8') => ({
      src: { dtype: 'f32' as const, rows: 1, cols: 64, data: values, valid: [1, 40] as [number, number] },
      idx: { dtype: 'u32' as const, rows: 1, cols: 64, data: values.map((_, k) => k), valid: [1, 40] as [number, number] },
      dst: { dtype: 'f32' as const, rows: 1, cols: 128 },
      tmp: tmp === 'f32' ? { dtype: 'f32' as const, rows: 1, cols: 64 } : { dtype: 'u8' as const, rows: 1, cols: 256 },
    });
    const line = 'pto.tsort32 ins(%src, %idx, %tmp : T(src), T(idx), T(tmp)) outs(%dst : T(dst))';
    const out = runKernel(line, tiles('u8')).bytes.dst;
    expect(out).toEqual(runKernel(line, tiles('f32')).bytes.dst);
    // The last block by hand: columns 32..39 hold 16, 29, 2, 15, 28, 1, 14, 27; sorted descending with their columns.
    const view = new DataView(out.buffer, out.byteOffset, out.byteLength);
    const record = (k: number) => [view.getFloat32((32 + k) * 8, true), view.getUint32((32 + k) * 8 + 4, true)];
    expect(Array.from({ length: 8 }, (_, k) => record(k))).toEqual([
      [29, 33],
      [28, 36],
      [27, 39],
      [16, 32],
      [15, 35],
      [14, 38],
      [2, 34],
      [1, 37],
    ]);
    expect(() => runKernel(line, tiles('u8'), { backend: 'vpto' })).toThrow(
      "a partial last block under the vpto back end with a ui8 tmp for f32 values is not implemented yet: PTOAS's template takes a tmp of src's type only",
    );
  });
});

describe('tmrgsort (TMrgSortOp::verify): format 1 is f16/f32; format 2 takes any one element type', () => {
  const row = (dtype: string) => tileBuf({ dtype, rows: 1, cols: 256 });
  const tmp = (dtype: string) => tileBuf({ dtype, rows: 1, cols: 512 });
  const vec = 'vector<4xi16>';
  const format2 = (list: string, scratch: string) =>
    kernel(
      [
        ...Object.entries({ a: list, b: list, d: list, t: scratch }).map(([n, t]) => `%${n} = pto.alloc_tile : ${t}`),
        `pto.tmrgsort ins(%a, %b, %t : ${list}, ${list}, ${scratch}) outs(%d, %x : ${list}, ${vec})`,
        'return',
      ],
      `%x: ${vec}`,
    );
  const format1 = (dtype: string) =>
    kernel(
      [
        `%s = pto.alloc_tile : ${row(dtype)}`,
        `%d = pto.alloc_tile : ${row(dtype)}`,
        `pto.tmrgsort ins(%s, %n : ${row(dtype)}, i32) outs(%d : ${row(dtype)})`,
        'return',
      ],
      '%n: i32',
    );
  test('format 2 of i32 lists verifies on both targets; an f32 tmp beside them is an error', () => {
    expect(diagLines(run(format2(row('i32'), tmp('i32')), 'a2a3'))).toEqual([]);
    expect(diagLines(run(format2(row('u8'), tmp('u8')), 'a5'))).toEqual([]);
    const mixed = format2(row('i32'), tmp('f32'));
    expect(diagLines(run(mixed, 'a5'))).toEqual([
      `${at(mixed, tmp('f32'), 1)}: error[E0505]: pto.tmrgsort: dst (i32) and tmp (f32) must have the same element type`,
    ]);
  });
  test('format 1 of i32 is an error at src and dst', () => {
    expect(diagLines(run(format1('f16'), 'a2a3'))).toEqual([]);
    const text = format1('i32');
    expect(diagLines(run(text, 'a2a3'))).toEqual([
      `${at(text, row('i32'), 2)}: error[E0505]: pto.tmrgsort: src0 dtype i32 is not supported in format 1 (allowed: f16, f32)`,
      `${at(text, row('i32'), 3)}: error[E0505]: pto.tmrgsort: dst dtype i32 is not supported in format 1 (allowed: f16, f32)`,
    ]);
  });
  test('the VM traps on lists pto-isa does not take', () => {
    const line = 'pto.tmrgsort ins(%a, %b, %t : T(a), T(b), T(t)) outs(%d, %x : T(d), vector<4xi16>)';
    const tile = (cols: number) => ({ dtype: 'i32' as const, rows: 1, cols });
    expect(() => runKernel(line, { a: tile(64), b: tile(64), t: tile(128), d: tile(128) }, { scalars: { x: ['vector<4xi16>', 0] } })).toThrow(
      /^pto\.tmrgsort: i32 lists are not implemented yet/,
    );
  });
});

describe('tcvt without satmode/rmode: PTOAS e32488c9 prints none and lowers to TCVT(dst, src, RoundMode::CAST_RINT, SaturationMode::OFF)', () => {
  const line = 'pto.tcvt ins(%s : T(s)) outs(%d : T(d))';
  const tiles = (to: 'f16', value: number) => ({
    s: { dtype: 'f32' as const, rows: 1, cols: 16, data: [value, 2049, 2051] },
    d: { dtype: to, rows: 1, cols: 16 },
  });
  test('a5 emitc: 1e5 to f16 overflows to +inf unsaturated (it saturated to 65504); 2049 and 2051 round to even (CAST_RINT)', () => {
    expect(runValues(line, tiles('f16', 1e5), 'npu').d.slice(0, 3)).toEqual([Infinity, 2048, 2052]);
    expect(runValues(line.replace('%s :', '%s {satmode = #pto<saturation_mode ON>} :'), tiles('f16', 1e5), 'npu').d.slice(0, 3)).toEqual([65504, 2048, 2052]);
  });
  test('the canonical form, as PTOAS prints it, adds neither attribute', () => {
    const [f32, f16] = [tileBuf({ dtype: 'f32', rows: 1, cols: 16 }), tileBuf({ dtype: 'f16', rows: 1, cols: 16 })];
    const text = program(`pto.tcvt ins(%s : ${f32}) outs(%d : ${f16})`, { s: f32, d: f16 });
    const asm = assemble('t.pto', text, { target: 'a5' });
    expect(printCanonical(asm.module, asm.types)).toContain('pto.tcvt ins(%s : !pto.tile_buf<vec, 1x16xf32>) outs(%d : !pto.tile_buf<vec, 1x16xf16>)\n');
  });
  test('a2a3 without a tmp saturates f32 -> f16 whatever is asked (pto-isa A2/A3 TCVT_IMPL), so absent and OFF agree', () => {
    expect(runValues(line, tiles('f16', 1e5), 'npu', 'a2a3').d.slice(0, 1)).toEqual([65504]);
    const off = line.replace('%s :', '%s {satmode = #pto<saturation_mode OFF>} :');
    expect(runValues(off, tiles('f16', 1e5), 'npu', 'a2a3').d.slice(0, 1)).toEqual([65504]);
  });
});

describe('texpands/tsetval/tgetval scalars (ODS ScalarType: a signless integer or a float; offsets index)', () => {
  const tile = (dtype: string) => tileBuf({ dtype, rows: 16, cols: 32 });
  const expands = (dtype: string, scalar: string) =>
    kernel([`%d = pto.alloc_tile : ${tile(dtype)}`, `pto.texpands ins(%s : ${scalar}) outs(%d : ${tile(dtype)})`, 'return'], `%s: ${scalar}`);
  test('texpands (TExpandsOp::verify): i16 on a2a3, i8 only on a5, no 64-bit type; the scalar is exactly dst type', () => {
    expect(diagLines(run(expands('i16', 'i16'), 'a2a3'))).toEqual([]);
    expect(diagLines(run(expands('i8', 'i8'), 'a5'))).toEqual([]);
    const i8 = expands('i8', 'i8');
    expect(diagLines(run(i8, 'a2a3'))).toEqual([
      `${at(i8, tile('i8'), 1)}: error[E0505]: pto.texpands: dst dtype i8 is not supported on a2a3 (allowed: i16, ui16, i32, ui32, f16, bf16, f32)`,
    ]);
    const i64 = expands('i64', 'i64');
    expect(diagLines(run(i64, 'a5'))).toEqual([
      `${at(i64, tile('i64'), 1)}: error[E0505]: pto.texpands: dst dtype i64 is not supported on a5 (allowed: i8, ui8, i16, ui16, i32, ui32, f16, bf16, f32)`,
    ]);
    const unsigned = expands('u16', 'i16');
    expect(diagLines(run(unsigned, 'a5'))).toEqual([
      `${at(unsigned, 'i16)', 1)}: error[E0505]: pto.texpands: dst (ui16) and scalar (i16) must have the same element type`,
    ]);
  });
  const setval = (dtype: string, value: string, offset = 'index') =>
    kernel(
      [`%d = pto.alloc_tile : ${tile(dtype)}`, `pto.tsetval ins(%o, %v : ${offset}, ${value}) outs(%d : ${tile(dtype)})`, 'return'],
      `%o: ${offset}, %v: ${value}`,
    );
  test('tsetval (TSetValOp::verify): any signless or float value, whatever dst holds; an index offset', () => {
    expect(diagLines(run(setval('i32', 'f32'), 'a5'))).toEqual([]);
    expect(diagLines(run(setval('i64', 'i64'), 'a2a3'))).toEqual([]);
    const unsigned = setval('u16', 'ui16');
    expect(diagLines(run(unsigned, 'a5'))).toEqual([
      `${at(unsigned, 'ui16)', 1)}: error[E0505]: pto.tsetval: value must be a signless integer or a float, not ui16`,
    ]);
    const offset = setval('f32', 'f32', 'i32');
    expect(diagLines(run(offset, 'a5'))).toEqual([`${at(offset, 'i32,', 1)}: error[E0505]: pto.tsetval: offset must be index, not i32`]);
  });
  test('tsetval in the VM: an i16 value into a ui16 tile keeps its bits (-5 -> 65531); f32 into i32 traps', () => {
    const line = 'pto.tsetval ins(%o, %v : index, VT) outs(%d : T(d))';
    const run16 = runKernel(line.replace('VT', 'i16'), { d: { dtype: 'u16', rows: 1, cols: 16 } }, { scalars: { o: ['index', 2n], v: ['i16', -5n] } });
    expect(run16.values.d.slice(0, 4)).toEqual([0, 0, 65531, 0]);
    expect(() => runKernel(line.replace('VT', 'f32'), { d: { dtype: 'i32', rows: 1, cols: 8 } }, { scalars: { o: ['index', 0n], v: ['f32', 1.5] } })).toThrow(
      /^pto\.tsetval: f32 values into i32 tiles are not implemented yet/,
    );
  });
  test('tgetval (TGetValOp::verify): any vec tile, 64-bit ones on a2a3 too; the result is signless, so not ui16', () => {
    const getval = (dtype: string, result: string) =>
      kernel([`%t = pto.alloc_tile : ${tile(dtype)}`, `%v = pto.tgetval ins(%t, %o : ${tile(dtype)}, index) outs : ${result}`, 'return'], '%o: index');
    expect(diagLines(run(getval('i64', 'i64'), 'a2a3'))).toEqual([]);
    const unsigned = getval('u16', 'ui16');
    expect(diagLines(run(unsigned, 'a5'))).toEqual([
      `${at(unsigned, 'ui16\n')}: error[E0505]: pto.tgetval: dst must be a signless integer or a float, not ui16`,
    ]);
  });
});

describe('tadds/tsubs/tmuls/tdivs/tmaxs/tmins tile types (verifyArithmeticElemTypeForArch, TDivSOp::verify)', () => {
  const tile = (dtype: string) => tileBuf({ dtype, rows: 16, cols: 32 });
  const text = (name: string, dtype: string, scalar: string) =>
    kernel(
      [
        `%a = pto.alloc_tile : ${tile(dtype)}`,
        `%d = pto.alloc_tile : ${tile(dtype)}`,
        `pto.${name} ins(%a, %s : ${tile(dtype)}, ${scalar}) outs(%d : ${tile(dtype)})`,
        'return',
      ],
      `%s: ${scalar}`,
    );
  const a5 = 'i8, ui8, i16, ui16, i32, ui32, f16, bf16, f32';
  test.each(['tadds', 'tsubs', 'tmuls', 'tmaxs', 'tmins'])('%s: ui16 on a2a3 and i8 on a5 verify; i64 on a5 is an error', (name) => {
    expect(diagLines(run(text(name, 'u16', 'i16'), 'a2a3'))).toEqual([]);
    expect(diagLines(run(text(name, 'i8', 'i8'), 'a5'))).toEqual([]);
    const i64 = text(name, 'i64', 'i64');
    expect(diagLines(run(i64, 'a5'))).toEqual([
      `${at(i64, tile('i64'), 2)}: error[E0505]: pto.${name}: src dtype i64 is not supported on a5 (allowed: ${a5})`,
      `${at(i64, tile('i64'), 3)}: error[E0505]: pto.${name}: dst dtype i64 is not supported on a5 (allowed: ${a5})`,
    ]);
  });
  test('tdivs: ui32 on a2a3 and ui8 on a5 verify; bf16 on a5 is an error', () => {
    expect(diagLines(run(text('tdivs', 'u32', 'i32'), 'a2a3'))).toEqual([]);
    expect(diagLines(run(text('tdivs', 'u8', 'i8'), 'a5'))).toEqual([]);
    const bf16 = text('tdivs', 'bf16', 'bf16');
    const allowed = 'i8, ui8, i16, ui16, i32, ui32, f16, f32';
    expect(diagLines(run(bf16, 'a5'))).toEqual([
      `${at(bf16, tile('bf16'), 2)}: error[E0505]: pto.tdivs: src dtype bf16 is not supported on a5 (allowed: ${allowed})`,
      `${at(bf16, tile('bf16'), 3)}: error[E0505]: pto.tdivs: dst dtype bf16 is not supported on a5 (allowed: ${allowed})`,
    ]);
  });
  test('the VM: a5 tmuls of i8 runs under vpto (7 * -3 = -21) and traps under emitc; a2a3 ui16 traps', () => {
    const line = 'pto.tmuls ins(%a, %s : T(a), i8) outs(%d : T(d))';
    const tiles = { a: { dtype: 'i8' as const, rows: 1, cols: 32, data: [7, -2] }, d: { dtype: 'i8' as const, rows: 1, cols: 32 } };
    expect(runKernel(line, tiles, { backend: 'vpto', scalars: { s: ['i8', -3n] } }).values.d.slice(0, 2)).toEqual([-21, 6]);
    expect(() => runKernel(line, tiles, { scalars: { s: ['i8', -3n] } })).toThrow(/^pto\.tmuls: i8 tiles on a5 are not implemented yet: .*pto-isa's A5 TMULS/);
    const u16 = { a: { dtype: 'u16' as const, rows: 1, cols: 16, data: [7] }, d: { dtype: 'u16' as const, rows: 1, cols: 16 } };
    expect(() => runKernel(line.replace('i8)', 'i16)'), u16, { target: 'a2a3', scalars: { s: ['i16', 3n] } })).toThrow(
      /^pto\.tmuls: ui16 tiles on a2a3 are not implemented yet/,
    );
  });
  test("the VM: a5 tdivs of i16 runs under emitc (pto-isa's TDIVS takes it: -7 / 2 = -3) and traps under vpto (its template has f16/f32/i32)", () => {
    const line = 'pto.tdivs ins(%a, %s : T(a), i16) outs(%d : T(d))';
    const tiles = { a: { dtype: 'i16' as const, rows: 1, cols: 16, data: [-7, 9] }, d: { dtype: 'i16' as const, rows: 1, cols: 16 } };
    expect(runKernel(line, tiles, { scalars: { s: ['i16', 2n] } }).values.d.slice(0, 2)).toEqual([-3, 4]);
    expect(() => runKernel(line, tiles, { backend: 'vpto', scalars: { s: ['i16', 2n] } })).toThrow(
      /^pto\.tdivs: i16 tiles on a5 are not implemented yet: .*vpto template/,
    );
  });
});

describe('sync ops as PTOAS e32488c9 parses and verifies them', () => {
  const vector = (lines: string[], args = '') =>
    [
      'module {',
      `  func.func @k(${args}) attributes {pto.kernel_kind = #pto.kernel_kind<vector>} {`,
      ...lines.map((l) => `    ${l}`),
      '    return',
      '  }',
      '}',
      '',
    ].join('\n');
  test('get_buf/rls_buf verify on a2a3 too (verifyBufSyncOp checks no target); the VM traps there', () => {
    const text = vector(['pto.get_buf [#pto.pipe_event_type<TVEC>, 3]', 'pto.rls_buf [#pto.pipe_event_type<TVEC>, 3]']);
    expect(diagLines(run(text, 'a2a3'))).toEqual([]);
    const bad = vector(['pto.get_buf [#pto.pipe_event_type<TVEC>, 32]']);
    expect(diagLines(run(bad, 'a2a3'))).toEqual([`${at(bad, '32]')}: error[E0701]: pto.get_buf: buf_id: must be in 0..31, got 32`]);
    const asm = run(text, 'a2a3');
    const fn = [...asm.program.functions.values()][0];
    expect(() => runFunction(asm.program, asm.types, fn, new Map(), { numerics: 'npu', maxSteps: 1e6 })).toThrow(/pto\.get_buf on a2a3 is not implemented yet/);
  });
  test('record_event/wait_event: the event may be short (<EVENT_ID0>), an op type may not (PTO_PipeEventTypeLikeAttr is AnyAttrOf)', () => {
    const ok = vector([
      'pto.record_event [#pto.sync_op_type<TLOAD>, #pto.pipe_event_type<TVEC>, <EVENT_ID0>]',
      'pto.wait_event [#pto.sync_op_type<TLOAD>, #pto.pipe_event_type<TVEC>, <EVENT_ID0>]',
    ]);
    expect(diagLines(run(ok, 'a5'))).toEqual([]);
    const short = vector(['pto.record_event [<TLOAD>, #pto.pipe_event_type<TVEC>, <EVENT_ID0>]']);
    expect(diagLines(run(short, 'a5'))).toEqual([
      `${at(short, '<TLOAD>')}: error[E0701]: pto.record_event: src_op: expected #pto.pipe_event_type<OP_TYPE> or #pto.sync_op_type<OP_TYPE>, got <TLOAD>`,
    ]);
  });
  test('sync.set/sync.wait on a2a3 take event id 16 (no range there); the VM traps on it (FFTS flags 0..15)', () => {
    const text = vector(['pto.set_ffts %ffts : !pto.ptr<i64>', 'pto.sync.set <PIPE_MTE3>, 16', 'pto.sync.wait <PIPE_MTE3>, 16'], '%ffts: !pto.ptr<i64>');
    expect(diagLines(run(text, 'a2a3'))).toEqual([]);
    const asm = run(text, 'a2a3');
    const fn = [...asm.program.functions.values()][0];
    const ffts = new Map<string, Value>([['%ffts', new GlobalBuffer('ffts', 'i64', new Uint8Array(8))]]);
    expect(() => runFunction(asm.program, asm.types, fn, ffts, { numerics: 'npu', maxSteps: 1e6 })).toThrow(
      /pto\.sync\.set with event id 16 on a2a3 is not implemented yet/,
    );
  });
});
