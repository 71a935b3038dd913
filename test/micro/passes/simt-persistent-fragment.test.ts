/**
 * pto-analyze-simt-persistent-fragment (src/micro/passes/simt-persistent-fragment.ts): the rules of PTOAS's
 * SIMTPersistentFragmentAnalysis.cpp, each with an input it rejects (code, line:col) and a near one it accepts. The
 * offsets, sizes and slots are worked out by hand from that code: a GEP moves by index x its element type's bytes,
 * an access covers lanes x the fragment's element bytes, 123 slots with 64-bit elements on an even pair.
 */
import { assemble } from '../../../src/verify/assemble';

const PASS = 'pto-analyze-simt-persistent-fragment';

/** The errors of `body` in a kernel (line 1 is the module, 2 the function, 3 the first line of the body; columns are the op name's). */
function errors(body: string, opts: { fnAttrs?: string; params?: string; passes?: string[] } = {}): string[] {
  const text = `module attributes {pto.target_arch = "a5", pto.kernel_kind = #pto.kernel_kind<vector>} {
  func.func @k(${opts.params ?? ''}) ${opts.fnAttrs ?? 'attributes {pto.entry}'} {
${body}
    return
  }
}
`;
  const r = assemble('t.pto', text, { passes: opts.passes ?? [PASS] });
  return r.diags.sorted().map((d) => {
    const at = r.source.position(d.span.start);
    return `${d.code} ${at.line}:${at.col}`;
  });
}

const ALLOC = (n: number, t = 'f32') => `    %n = arith.constant ${n} : i32\n    %f = llvm.alloca %n x ${t} {pto.persistent} : (i32) -> !llvm.ptr`;
const SECTION = (body: string, dims = '32, 1, 1') => `    pto.section.simt<<<${dims}>>> {\n${body}\n    }`;
const STORE0 = '      %z = arith.constant 0.0 : f32\n      llvm.store %z, %f : f32, !llvm.ptr';
/** A GEP %e of `index` elements of `t` from %f. */
const GEP = (index: number, t = 'f32') =>
  `      %i = arith.constant ${index} : i64\n      %e = llvm.getelementptr %f[%i] : (!llvm.ptr, i64) -> !llvm.ptr, ${t}`;
const USE = (v: string) => `      %o = arith.constant 0 : index\n      pto.store ${v}, %dst[%o] : !pto.ptr<f32, ub>, f32`;
const DST = { params: '%dst: !pto.ptr<f32, ub>' };

test('a fragment belongs to a kernel entry (pto.entry, pto.kernel, ...); a helper function is rejected at its alloca', () => {
  const body = [ALLOC(1), SECTION(STORE0)].join('\n');
  expect(errors(body)).toEqual([]);
  expect(errors(body, { fnAttrs: 'attributes {pto.kernel}' })).toEqual([]);
  expect(errors(body, { fnAttrs: '' })).toEqual(['E0480 4:10']);
});

test('every access stands directly in a pto.section.simt body', () => {
  expect(errors([ALLOC(1), STORE0.replace(/^ {6}/gm, '    ')].join('\n'))).toEqual(['E0481 6:5']);
  const nested = [ALLOC(1), SECTION(STORE0), SECTION(`      scf.if %c {\n        %v = llvm.load %f : !llvm.ptr -> f32\n${USE('%v')}\n      }`)].join('\n');
  expect(errors(nested, { params: '%c: i1, %dst: !pto.ptr<f32, ub>' })).toEqual(['E0481 11:14']);
  // Other work in an scf.if of the section is fine (transparent_scf).
  const beside = [ALLOC(1), SECTION(STORE0), SECTION(`      %v = llvm.load %f : !llvm.ptr -> f32\n      scf.if %c {\n${USE('%v')}\n      }`)].join('\n');
  expect(errors(beside, { params: '%c: i1, %dst: !pto.ptr<f32, ub>' })).toEqual([]);
});

test('the pointer may only be the base of a GEP, loaded from or stored to: storing it or casting it is rejected at the use', () => {
  const cast = [
    ALLOC(1),
    SECTION(
      `${STORE0}\n      %a = llvm.ptrtoint %f : !llvm.ptr to i64\n      %o = arith.constant 0 : index\n      pto.store %a, %d[%o] : !pto.ptr<i64, ub>, i64`,
    ),
  ].join('\n');
  expect(errors(cast, { params: '%d: !pto.ptr<i64, ub>' })).toEqual(['E0481 8:26']);
  // A cast nothing uses is dropped by the canonicalizer before the analysis runs.
  expect(errors([ALLOC(1), SECTION(`${STORE0}\n      %a = llvm.ptrtoint %f : !llvm.ptr to i64`)].join('\n'))).toEqual([]);
});

test('a GEP index is a compile-time constant: a kernel argument is rejected at the index, a folded constant is not', () => {
  const dyn = (idx: string) =>
    [
      ALLOC(4),
      SECTION(
        `      %z = arith.constant 0.0 : f32\n      %e = llvm.getelementptr %f[${idx}] : (!llvm.ptr, i64) -> !llvm.ptr, f32\n      llvm.store %z, %e : f32, !llvm.ptr`,
      ),
    ].join('\n');
  expect(errors(dyn('%x'), { params: '%x: i64' })).toEqual(['E0481 7:34']);
  // 1 + 2 folds to 3: element 3 of 4, stored in the only section (its init section).
  expect(errors(`    %one = arith.constant 1 : i64\n    %two = arith.constant 2 : i64\n    %x = arith.addi %one, %two : i64\n${dyn('%x')}`)).toEqual([]);
});

test('offsets: a byte offset that is not an element start, or past the end (8 bytes of two f32), is rejected at the access', () => {
  const at = (index: number, t: string) =>
    [ALLOC(2), SECTION(`${GEP(index, t)}\n      %z = arith.constant 0.0 : f32\n      llvm.store %z, %e : f32, !llvm.ptr`)].join('\n');
  expect(errors(at(4, 'i8'))).toEqual([]); // byte 4: element 1
  expect(errors(at(2, 'i8'))).toEqual(['E0482 9:7']); // byte 2
  expect(errors(at(1, 'f32'))).toEqual([]); // byte 4
  expect(errors(at(2, 'f32'))).toEqual(['E0482 9:7']); // byte 8 of 8
});

test('vectors: 2 or 4 lanes of the fragment element type, all inside it', () => {
  const store = (n: number, lanes: number, t = 'f32') =>
    [ALLOC(n), SECTION(`      %v = arith.constant dense<1.0> : vector<${lanes}x${t}>\n      llvm.store %v, %f : vector<${lanes}x${t}>, !llvm.ptr`)].join('\n');
  expect(errors(store(2, 2))).toEqual([]);
  expect(errors(store(4, 4))).toEqual([]);
  expect(errors(store(3, 3))).toEqual(['E0482 7:7']);
  expect(errors(store(1, 2))).toEqual(['E0482 7:7']); // 8 bytes from 0 in a 4-byte fragment
  expect(errors(store(2, 2, 'f16'))).toEqual(['E0482 7:7']); // f16 lanes in an f32 fragment
});

test('the init section (the accessing section before all others) stores an element before it loads it', () => {
  const load = `      %v = llvm.load %f : !llvm.ptr -> f32\n${USE('%v')}`;
  expect(errors([ALLOC(1), SECTION(load)].join('\n'), DST)).toEqual(['E0483 6:12']);
  // read-modify-write after the init section is fine.
  expect(errors([ALLOC(1), SECTION(STORE0), SECTION(`${load}\n      llvm.store %v, %f : f32, !llvm.ptr`)].join('\n'), DST)).toEqual([]);
});

test('a later access reads only elements the init section stored (vector lanes each count)', () => {
  const later = (access: string) => [ALLOC(2), SECTION(STORE0), SECTION(access)].join('\n');
  expect(errors(later(`${GEP(1)}\n      %v = llvm.load %e : !llvm.ptr -> f32\n${USE('%v')}`), DST)).toEqual(['E0483 12:12']);
  expect(errors(later(`${GEP(0)}\n      %v = llvm.load %e : !llvm.ptr -> f32\n${USE('%v')}`), DST)).toEqual([]);
  expect(
    errors(later(`      %v = llvm.load %f : !llvm.ptr -> vector<2xf32>\n      llvm.store %v, %p : vector<2xf32>, !llvm.ptr`), { params: '%p: !llvm.ptr' }),
  ).toEqual(['E0483 10:12']);
});

test('one init section must come before every accessing section: two in the branches of an scf.if have none', () => {
  const branches = [ALLOC(1), `    scf.if %c {\n${SECTION(STORE0)}\n    } else {\n${SECTION(STORE0)}\n    }`].join('\n');
  expect(errors(branches, { params: '%c: i1' })).toEqual(['E0480 4:10']);
  // Both sections in one branch: the first dominates the second (nested_init).
  const oneBranch = [ALLOC(1), `    scf.if %c {\n${SECTION(STORE0)}\n${SECTION(STORE0)}\n    }`].join('\n');
  expect(errors(oneBranch, { params: '%c: i1' })).toEqual([]);
});

test('every section after the init section runs its launch dimensions, accessing the fragment or not', () => {
  const two = (dims: string) => [ALLOC(1), SECTION(STORE0), SECTION('      %u = arith.constant 1 : i32', dims)].join('\n');
  expect(errors(two('32, 1, 1'))).toEqual([]);
  expect(errors(two('64, 1, 1'))).toEqual(['E0483 9:5']);
});

test('slots: 123 a kernel, in fragment order; an i64 element takes an even pair (worked out by hand)', () => {
  const stores = (count: number, t: string, ptr: string) =>
    Array.from(
      { length: count },
      (_, k) =>
        `      %${ptr}c${k} = arith.constant ${k} : i64\n      %${ptr}e${k} = llvm.getelementptr %${ptr}[%${ptr}c${k}] : (!llvm.ptr, i64) -> !llvm.ptr, ${t}\n      llvm.store %${ptr}z, %${ptr}e${k} : ${t}, !llvm.ptr`,
    ).join('\n');
  /** `f32s` elements of %a (line 5) stored, then, with `wide`, the one i64 of %b (line 6). */
  const kernel = (f32s: number, wide: boolean) =>
    [
      `    %n = arith.constant ${f32s + 1} : i32\n    %one = arith.constant 1 : i32`,
      `    %a = llvm.alloca %n x f32 {pto.persistent} : (i32) -> !llvm.ptr\n    %b = llvm.alloca %one x i64 {pto.persistent} : (i32) -> !llvm.ptr`,
      SECTION(`      %az = arith.constant 0.0 : f32\n      %bz = arith.constant 0 : i64\n${stores(f32s, 'f32', 'a')}\n${wide ? stores(1, 'i64', 'b') : ''}`),
    ].join('\n');
  expect(errors(kernel(123, false))).toEqual([]); // slots 0..122
  expect(errors(kernel(124, false))).toEqual(['E0480 5:10']); // element 123 would take slot 123
  expect(errors(kernel(120, true))).toEqual([]); // 0..119, then the pair 120-121
  expect(errors(kernel(119, true))).toEqual([]); // 0..118, then the pair 120-121 (119 is odd)
  expect(errors(kernel(121, true))).toEqual(['E0480 6:10']); // 0..120, the pair would start at 122
});

test("ptoas's vpto back end runs the analysis: a vpto module is checked without --passes", () => {
  const body = [ALLOC(1), '    %z = arith.constant 0.0 : f32\n    llvm.store %z, %f : f32, !llvm.ptr'].join('\n');
  const text = `module attributes {pto.target_arch = "a5", pto.backend = "vpto"} {\n  func.func @k() attributes {pto.entry} {\n${body}\n    return\n  }\n}\n`;
  expect(assemble('t.pto', text).diags.items.map((d) => d.code)).toEqual(['E0481']);
  expect(assemble('t.pto', text.replace('"vpto"', '"emitc"')).diags.items.map((d) => d.code)).toEqual([]);
});
