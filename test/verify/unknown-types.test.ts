/**
 * A type of the pto dialect that PTOAS does not define is an error wherever it is written, located at the type (MLIR's
 * dialect type parser: "unknown type `foobar` in dialect `pto`"). Before, `!pto.foobar<...>` was an opaque type: a
 * function taking one assembled with no diagnostic.
 */
import { assemble } from '../../src/verify/assemble';

/** Each diagnostic as `line:col code message`. */
function diagnostics(text: string): string[] {
  const asm = assemble('t.pto', text);
  return asm.diags.items.map((d) => {
    const at = asm.source.position(d.span.start);
    return `${at.line}:${at.col} ${d.code} ${d.message}`;
  });
}

test('a function parameter of an unknown pto type', () => {
  expect(diagnostics('module {\n  func.func @f(%a: !pto.foobar<1x2xf32>) {\n    return\n  }\n}\n')).toEqual([
    "2:20 E0201 unknown type 'foobar' in the pto dialect",
  ]);
});

test('a declaration, a function result, loop-carried values, branch and block arguments and a call', () => {
  const text = [
    'module {',
    '  func.func private @decl(%a: !pto.p1) -> !pto.p2',
    '  func.func @f(%n: index) -> !pto.p3 {',
    '    %c0 = arith.constant 0 : index',
    '    %r = scf.for %i = %c0 to %n step %n iter_args(%x = %n) -> (!pto.p4) {',
    '      scf.yield %x : index',
    '    }',
    '    %q = func.call @decl(%n) : (!pto.p5) -> !pto.p6',
    '    cf.br ^bb1(%n : index)',
    '  ^bb1(%y: !pto.p7):',
    '    return %y : index',
    '  }',
    '}',
  ].join('\n');
  const unknown = diagnostics(text).filter((d) => d.includes('in the pto dialect'));
  expect(unknown).toEqual([
    // A declaration's result type is read before its parameters.
    "2:43 E0201 unknown type 'p2' in the pto dialect",
    "2:31 E0201 unknown type 'p1' in the pto dialect",
    "3:30 E0201 unknown type 'p3' in the pto dialect",
    "5:64 E0201 unknown type 'p4' in the pto dialect",
    "8:33 E0201 unknown type 'p5' in the pto dialect",
    "8:45 E0201 unknown type 'p6' in the pto dialect",
    "10:12 E0201 unknown type 'p7' in the pto dialect",
  ]);
});

test('a type alias is read where it is defined, used or not, and reported once', () => {
  const text = ['!unused = !pto.foobar<1>', '!t = !pto.other', 'module {', '  func.func @f(%a: !t, %b: !t) {', '    return', '  }', '}'].join('\n');
  expect(diagnostics(text)).toEqual(["1:11 E0201 unknown type 'foobar' in the pto dialect", "2:6 E0201 unknown type 'other' in the pto dialect"]);
});

test("another dialect's type stays opaque: PTOAS allows unregistered dialects", () => {
  expect(diagnostics('module {\n  func.func private @f(%a: !llvm.ptr)\n}\n')).toEqual([]);
});
