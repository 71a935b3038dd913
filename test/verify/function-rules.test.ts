/**
 * PTOAS's rules over functions before it emits code: kernel entries return nothing, a struct lives and dies in the
 * function (and the scope) that declares it, and its C++ emission has no recursion.
 */
import { assemble } from '../../src/verify/assemble';
import { formatAll } from '../../src/diag/diagnostic';

const errorsOf = (text: string) => formatAll(assemble('f.pto', text).diags);
const S = '!pto.struct<f32, i8>';

describe('entry functions', () => {
  test('an entry returns nothing; a helper may return values', () => {
    expect(errorsOf('func.func @k(%x: i32) -> i32 attributes {pto.entry} {\n  return %x : i32\n}\n')).toContain(
      'error[E0427]: PTO entry functions must return void',
    );
    expect(errorsOf('func.func @k(%x: i32) attributes {pto.entry} {\n  return\n}\nfunc.func @h(%x: i32) -> i32 {\n  return %x : i32\n}\n')).toBe('');
  });

  test('the older entry markers count too, and a declaration cannot be an entry', () => {
    expect(errorsOf('func.func @k(%x: i32) -> i32 attributes {pto.kernel} {\n  return %x : i32\n}\n')).toContain('PTO entry functions must return void');
    expect(errorsOf('func.func private @k() attributes {pto.entry}\n')).toContain('`pto.entry` is only valid on function definitions');
  });
});

describe('struct provenance', () => {
  test('a struct declared, set and read in one function is fine', () => {
    const text = `func.func @k(%v: f32) {\n  %s = pto.declare_struct -> ${S}\n  pto.struct_set %s[0], %v : ${S}, f32\n  %g = pto.struct_get %s[0] : ${S} -> f32\n  return\n}\n`;
    expect(errorsOf(text)).toBe('');
  });

  test('no function takes or returns a struct', () => {
    expect(errorsOf(`func.func private @h(%s: ${S})\n`)).toContain(
      'argument 0 of @h has type !pto.struct<f32, i8>, but a stack-local struct must not be a function argument',
    );
    expect(errorsOf(`func.func private @h() -> ${S}\n`)).toContain('but a stack-local struct must not be returned');
  });

  test('returning or yielding a declared struct is reported at the declaration, with the terminator as a note', () => {
    const text = `func.func @k(%c: i1) {\n  scf.if %c {\n    %a = pto.declare_struct -> ${S}\n    scf.yield %a : ${S}\n  }\n  return\n}\n`;
    const errors = errorsOf(text);
    expect(errors).toContain("f.pto:3:10: error[E0426]: stack-local struct must not escape the scope that declares it, but its value is passed to 'scf.yield'");
    expect(errors).toContain('f.pto:4:15: note: passed here');
  });

  test('only the declaration gives a struct value: a select of two is refused', () => {
    const text =
      `func.func @k(%c: i1) {\n  %a = pto.declare_struct -> ${S}\n  %b = pto.declare_struct -> ${S}\n` + `  %x = arith.select %c, %a, %b : ${S}\n  return\n}\n`;
    expect(errorsOf(text)).toContain(
      "f.pto:4:8: error[E0426]: arith.select: result 0 has type !pto.struct<f32, i8>, but only 'pto.declare_struct' may produce a !pto.struct result",
    );
  });

  test('a field the C++ cannot name exactly (i1, index, f8) is not storable; nested structs are', () => {
    const declare = (t: string) => errorsOf(`func.func @k() {\n  %s = pto.declare_struct -> ${t}\n  return\n}\n`);
    expect(declare('!pto.struct<f32, i1>')).toContain("'!pto.struct' field 1 type i1 is not scalar-storable");
    expect(declare('!pto.struct<index>')).toContain("'!pto.struct' field 0 type index is not scalar-storable");
    expect(declare('!pto.struct<f8E4M3FN>')).toContain('is not scalar-storable');
    expect(declare('!pto.struct<ui8, bf16, f64, !pto.struct<i64>>')).toBe('');
  });
});

describe('recursion', () => {
  const selfCall = 'func.func @k() {\n  func.call @k() : () -> ()\n  return\n}\n';
  test("is an error for PTOAS's default C++ emission, at the call", () => {
    expect(errorsOf(selfCall)).toContain('f.pto:2:3: error[E0428]: @k calls itself: recursive function calls are not supported for EmitC C++ emission');
  });
  test('through another function too, reported at each call of the cycle', () => {
    const text = 'func.func @a() {\n  func.call @b() : () -> ()\n  return\n}\nfunc.func @b() {\n  func.call @a() : () -> ()\n  return\n}\n';
    const errors = errorsOf(text);
    expect(errors).toContain('f.pto:2:3: error[E0428]: @b calls back into @a: recursive function calls are not supported');
    expect(errors).toContain('f.pto:6:3: error[E0428]: @a calls back into @b');
    expect(errorsOf('func.func @a() {\n  func.call @b() : () -> ()\n  return\n}\nfunc.func @b() {\n  return\n}\n')).toBe('');
  });
  test('stays a warning under the vpto back end', () => {
    const errors = errorsOf(`module attributes {pto.backend = "vpto"} {\n${selfCall}}\n`);
    expect(errors).toContain('warning[W0410]');
    expect(errors).not.toContain('error');
  });
});
