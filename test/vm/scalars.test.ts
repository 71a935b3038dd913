/** Scalars outside tiles: float arith, pointers (addptr, load_scalar, store_scalar), view dims, pto.print, pto.bitcast, pto.trap. */
import * as fs from 'fs';
import * as path from 'path';
import { assemble } from '../../src/verify/assemble';
import { formatAll } from '../../src/diag/diagnostic';
import { runFunction, Value } from '../../src/vm/interpreter';
import { GlobalBuffer } from '../../src/machine/memory';

function run(text: string, args: Record<string, Value>) {
  const asm = assemble('t.pto', text);
  if (asm.diags.hasErrors()) throw new Error(formatAll(asm.diags));
  const fn = [...asm.program.functions.values()][0];
  return runFunction(asm.program, asm.types, fn, new Map(Object.entries(args).map(([k, v]) => ['%' + k, v])), { numerics: 'npu', maxSteps: 1e5 });
}

const f32Buffer = (name: string, values: number[]) => new GlobalBuffer(name, 'f32', new Uint8Array(new Float32Array(values).buffer));
const f32Of = (b: GlobalBuffer) => Array.from(new Float32Array(b.bytes.buffer.slice(0)));

test("scalars.pto: y[k + 1] = x[k] * (the view's column count), printed; the tile's bits stored as i32", () => {
  const text = fs.readFileSync(path.join(__dirname, '..', 'fixtures', 'syntax', 'scalars.pto'), 'utf8');
  const xs = Array.from({ length: 32 }, (_, i) => Math.fround(i * 0.731 - 5.5));
  const [x, y] = [f32Buffer('x', xs), f32Buffer('y', new Array(8).fill(0))];
  const bits = new GlobalBuffer('bits', 'i32', new Uint8Array(128));
  const result = run(text, { x, y, bits, k: 3n });
  const w = Math.fround(xs[3] * 8);
  expect(f32Of(y)).toEqual([0, 0, 0, 0, w, 0, 0, 0]);
  expect(result.printed).toEqual([`y[k+1] = ${w.toFixed(3)}`]);
  expect(Array.from(new Int32Array(bits.bytes.buffer.slice(0)))).toEqual(Array.from(new Int32Array(new Float32Array(xs).buffer)));
});

const scalarKernel = (body: string[], args = '%a: f32, %b: f32, %out: !pto.ptr<f32>') => `module {
  func.func @k(${args}) {
    %c0 = arith.constant 0 : index
${body.map((l) => '    ' + l).join('\n')}
    return
  }
}`;

test.each([
  ['arith.addf', 0.1, 0.2, Math.fround(Math.fround(0.1) + Math.fround(0.2))],
  ['arith.subf', 1e8, 1, Math.fround(1e8 - 1)],
  ['arith.mulf', 3.3, 1 / 3, Math.fround(Math.fround(3.3) * Math.fround(1 / 3))],
  ['arith.divf', 1, 3, Math.fround(1 / 3)],
  ['arith.divf', -1, 0, -Infinity],
  ['arith.remf', -7.5, 2, -1.5],
  ['arith.maximumf', NaN, 1, NaN],
  ['arith.maxnumf', NaN, 1, 1],
  ['arith.minimumf', -0, 0, -0],
])('%s(%f, %f) rounds once to f32: %f', (op, a, b, expected) => {
  const out = f32Buffer('out', [7]);
  run(scalarKernel([`%r = ${op} %a, %b : f32`, 'pto.store_scalar %r, %out[%c0] : !pto.ptr<f32>, f32']), { a: Math.fround(a), b: Math.fround(b), out });
  expect(Object.is(f32Of(out)[0], expected)).toBe(true);
});

test.each([
  ['olt', 1, 2, 1],
  ['olt', NaN, 2, 0],
  ['ult', NaN, 2, 1],
  ['une', NaN, NaN, 1],
  ['oeq', -0, 0, 1],
  ['uno', 1, NaN, 1],
])('arith.cmpf %s %f, %f is %i', (pred, a, b, expected) => {
  const out = f32Buffer('out', [7]);
  const body = [
    `%c = arith.cmpf ${pred}, %a, %b : f32`,
    '%one = arith.constant 1.0 : f32',
    '%zero = arith.constant 0.0 : f32',
    '%r = arith.select %c, %one, %zero : f32',
    'pto.store_scalar %r, %out[%c0] : !pto.ptr<f32>, f32',
  ];
  run(scalarKernel(body), { a, b, out });
  expect(f32Of(out)[0]).toBe(expected);
});

test('casts: sitofp rounds to f32, fptosi truncates toward zero, and an out-of-range fptosi is a trap', () => {
  const out = f32Buffer('out', [0, 0]);
  const body = [
    '%big = arith.constant 16777217 : i32',
    '%f = arith.sitofp %big : i32 to f32',
    'pto.store_scalar %f, %out[%c0] : !pto.ptr<f32>, f32',
    '%t = arith.fptosi %a : f32 to i32',
    '%tf = arith.sitofp %t : i32 to f32',
    '%c1 = arith.constant 1 : index',
    'pto.store_scalar %tf, %out[%c1] : !pto.ptr<f32>, f32',
  ];
  run(scalarKernel(body), { a: -2.75, b: 0, out });
  expect(f32Of(out)).toEqual([16777216, -2]);
  expect(() => run(scalarKernel(body), { a: 3e9, b: 0, out })).toThrow(/arith.fptosi: 3000000000 does not fit in i32/);
});

test('addptr moves by elements; a scalar access outside the buffer is a located trap', () => {
  const out = f32Buffer('out', [1, 2, 3]);
  const body = [
    '%c2 = arith.constant 2 : index',
    '%p = pto.addptr %out, %c2 : !pto.ptr<f32> -> !pto.ptr<f32>',
    '%v = pto.load_scalar %p[%c0] : !pto.ptr<f32> -> f32',
    'pto.store_scalar %v, %out[%c0] : !pto.ptr<f32>, f32',
    'pto.store_scalar %v, %p[%c2] : !pto.ptr<f32>, f32',
  ];
  expect(() => run(scalarKernel(body), { a: 0, b: 0, out })).toThrow(
    /pto.store_scalar: element 4 of %out is out of bounds \(the buffer has 3 elements of f32\)/,
  );
  expect(f32Of(out)).toEqual([3, 2, 3]);
});

test('pto.trap stops the run where it stands; pto.print refuses a conversion it cannot format exactly', () => {
  expect(() => run(scalarKernel(['pto.trap']), { a: 0, b: 0, out: f32Buffer('out', [0]) })).toThrow(/pto.trap: the program stopped itself/);
  expect(() => run(scalarKernel(['pto.print ins("%g", %a : f32)']), { a: 1, b: 0, out: f32Buffer('out', [0]) })).toThrow(
    /the conversion '%g' is not supported/,
  );
  expect(
    run(scalarKernel(['pto.print ins("%d%% done", %a : f32)', 'pto.print ins("%.2e", %a : f32)']), { a: 12.5, b: 0, out: f32Buffer('out', [0]) }).printed,
  ).toEqual(['12% done', '1.25e+01']);
  expect(() => run(scalarKernel(['pto.print ins("%d and %d", %a : f32)']), { a: 1, b: 0, out: f32Buffer('out', [0]) })).toThrow(/has more than one conversion/);
});

test('the verifier checks pointer and scalar types', () => {
  const text = scalarKernel([
    '%v = pto.load_scalar %out[%c0] : !pto.ptr<f32> -> i32',
    'pto.store_scalar %a, %out[%a] : !pto.ptr<f32>, f32',
    '%x = arith.addf %c0, %a : f32',
    '%b2 = pto.bitcast %a : f32 -> f32',
  ]);
  const errors = formatAll(assemble('t.pto', text).diags)
    .split('\n')
    .filter((l) => /error\[E\d{4}\]:/.test(l));
  expect(errors).toEqual([
    "t.pto:4:55: error[E0406]: the value must be the pointer's element type f32, got i32",
    't.pto:5:31: error[E0406]: the offset must be an index, got f32',
    "t.pto:6:21: error[E0403]: 'arith.addf' needs floating-point operands",
    't.pto:6:31: error[E0203]: type of %c0 is index, but this use says f32',
    't.pto:7:5: error[E0405]: pto.bitcast needs a tile and gives a tile',
  ]);
});

test('pto.print %u and %x read the bits unsigned at the value type width: -7 as i32 is 4294967289 and fffffff9', () => {
  const text = [
    'func.func @p() {',
    '  %i = arith.constant -7 : i32',
    '  %b = arith.constant -1 : i8',
    '  pto.print ins("%u", %i : i32)',
    '  pto.print ins("%x", %i : i32)',
    '  pto.print ins("%d", %i : i32)',
    '  pto.print ins("%u", %b : i8)',
    '  %u = builtin.unrealized_conversion_cast %i : i32 to ui32',
    '  pto.print ins("%u", %u : ui32)',
    '  return',
    '}',
  ].join('\n');
  // 2^32 - 7 = 4294967289 = 0xfffffff9; 2^8 - 1 = 255.
  expect(run(text, {}).printed).toEqual(['4294967289', 'fffffff9', '-7', '255', '4294967289']);
});

describe('arith.constant dense<...> : vector<4xi16> (tmrgsort executed counts)', () => {
  const row = (cols: number) =>
    `!pto.tile_buf<loc=vec, dtype=f32, rows=1, cols=${cols}, v_row=1, v_col=${cols}, blayout=row_major, slayout=none_box, fractal=512, pad=0>`;
  const merge = (body: string) => `module {
  func.func @k() {
    %ex = arith.constant dense<[128, 64, 0, 0]> : vector<4xi16>
    %a = pto.alloc_tile : ${row(64)}
    %b = pto.alloc_tile : ${row(64)}
    %t = pto.alloc_tile : ${row(128)}
    %d = pto.alloc_tile : ${row(128)}
    ${body}
    return
  }
}`;

  test('tmrgsort without exhausted does not read it, so the program runs', () => {
    const line = `pto.tmrgsort ins(%a, %b, %t {exhausted = false} : ${row(64)}, ${row(64)}, ${row(128)}) outs(%d, %ex : ${row(128)}, vector<4xi16>)`;
    expect(() => run(merge(line), {})).not.toThrow();
  });

  test('it has no run-time value: an op that reads it reports that, at the use', () => {
    const text = `module {
  func.func @k() -> vector<4xi16> {
    %ex = arith.constant dense<0> : vector<4xi16>
    return %ex : vector<4xi16>
  }
}`;
    expect(() => run(text, {})).toThrow('%ex has no value here');
  });
});
