/**
 * Error recovery (issue 35): one mistake is one diagnostic, at the mistake. A misspelt op is reported at its name,
 * with the known name it is closest to, in every dialect; an undefined value once; and what a failed statement
 * defines is of an unknown type, so that its uses cause no follow-on errors (as clang's invalid declarations and
 * MLIR's error recovery do).
 */
import { assemble } from '../../src/verify/assemble';
import { formatAll } from '../../src/diag/diagnostic';

const TILE = '!pto.tile_buf<loc=vec, dtype=f32, rows=16, cols=16, v_row=16, v_col=16, blayout=row_major, slayout=none_box, fractal=512, pad=0>';

/** The `file:line:col: severity[CODE]: message` lines of a file's diagnostics (the excerpts left out). */
function reported(text: string): string[] {
  return formatAll(assemble('t.pto', text).diags)
    .split('\n')
    .filter((l) => l.startsWith('t.pto:'));
}

describe('a misspelt op is reported at its name, once, in every dialect', () => {
  test.each([
    ['arith', '  %c0 = arith.consant 0 : index', "t.pto:2:9: error[E0301]: unknown op 'arith.consant'; did you mean 'arith.constant'?"],
    ['func', '  func.retrun', "t.pto:2:3: error[E0301]: unknown op 'func.retrun'; did you mean 'func.return'?"],
    ['the default dialect', '  retrun', "t.pto:2:3: error[E0301]: unknown op 'retrun'; did you mean 'return'?"],
    [
      'pto, in a form the generic syntax does not take',
      '  %v = pto.make_tensorview %p, shape = [%c, %c], strides = [%c, %c] : !pto.tensor_view<?x?xf32>',
      "t.pto:2:8: error[E0301]: unknown op 'pto.make_tensorview'; did you mean 'pto.make_tensor_view'?",
    ],
    [
      'pto, in the generic syntax',
      `  pto.tcolmni ins(%t : ${TILE}) outs(%t : ${TILE})`,
      "t.pto:2:3: error[E0301]: unknown op 'pto.tcolmni'; did you mean 'pto.tcolmin'?",
    ],
  ])('%s', (_dialect, line, expected) => {
    const text = `func.func @k(%p: !pto.ptr<f32>, %c: index, %t: ${TILE}) {\n${line}\n  return\n}\n`;
    expect(reported(text)).toEqual([expected]);
  });

  test("a misspelt op with a region: its body is the op's, not the function's, and nothing follows from it", () => {
    const text = [
      'func.func @k(%n: index) {',
      '  %c0 = arith.constant 0 : index',
      '  %c1 = arith.constant 1 : index',
      '  scf.fro %i = %c0 to %n step %c1 {',
      '    %x = arith.addi %i, %c1 : index',
      '  }',
      '  return',
      '}',
    ].join('\n');
    expect(reported(text)).toEqual(["t.pto:4:3: error[E0301]: unknown op 'scf.fro'; did you mean 'scf.for'?"]);
  });

  test('the results of a misspelt op are defined, of a type that its uses say', () => {
    const text = [
      'func.func @k(%p: !pto.ptr<f32>) {',
      '  %c16 = arith.consant 16 : index',
      '  %c1 = arith.constant 1 : index',
      '  %v = pto.make_tensorview %p, shape = [%c16, %c16], strides = [%c16, %c1] : !pto.tensor_view<?x?xf32>',
      '  %s = pto.partition_view %v, offsets = [%c1, %c1], sizes = [%c16, %c16] : !pto.tensor_view<?x?xf32> -> !pto.partition_tensor_view<16x16xf32>',
      '  %y = arith.addi %c16, %c1 : index',
      '  return',
      '}',
    ].join('\n');
    expect(reported(text)).toEqual([
      "t.pto:2:10: error[E0301]: unknown op 'arith.consant'; did you mean 'arith.constant'?",
      "t.pto:4:8: error[E0301]: unknown op 'pto.make_tensorview'; did you mean 'pto.make_tensor_view'?",
    ]);
  });

  test('a name far from every known one gets no suggestion', () => {
    const text = 'func.func @k(%a: index) {\n  %x = pto.tfrobnicate %a : index -> index\n  return\n}\n';
    expect(reported(text)).toEqual(["t.pto:2:8: error[E0301]: unknown op 'pto.tfrobnicate'"]);
  });
});

describe('follow-on errors', () => {
  test('an undefined value is reported once, at its first use', () => {
    const text = 'func.func @k() -> index {\n  %a = arith.addi %u, %u : index\n  %b = arith.addi %u, %a : index\n  return %b : index\n}\n';
    expect(reported(text)).toEqual(['t.pto:2:19: error[E0302]: use of undefined value %u']);
  });

  test("a statement with a syntax error still defines its results: their uses are not 'undefined'", () => {
    const text = 'func.func @k(%a: index) -> index {\n  %x = arith.addi %a, : index\n  %y = arith.addi %x, %a : index\n  return %y : index\n}\n';
    expect(reported(text)).toEqual(["t.pto:2:23: error[E0101]: syntax error: unexpected ':'; expected an SSA value like %x"]);
  });

  test('the results of an op that failed to verify cause no type errors at their uses', () => {
    const text = [
      'func.func @k(%a: index, %f: f32) -> index {',
      '  %x = arith.index_cast %f : f32 to i32',
      '  %y = arith.addi %x, %a : index',
      '  %s = arith.constant 1.5 : i32',
      '  %w = arith.muli %s, %s : i64',
      '  func.call @g(%x) : (index) -> ()',
      '  return %y : index',
      '}',
      'func.func private @g(index)',
    ].join('\n');
    expect(reported(text)).toEqual([
      "t.pto:2:3: error[E0403]: 'arith.index_cast' converts between integer and index types",
      't.pto:4:23: error[E0403]: a float literal cannot have type i32',
    ]);
  });

  test("an error inside a region is not its owner's: the owner's results keep their type", () => {
    const text = [
      'func.func @k(%a: index, %b: i32) -> index {',
      '  %c1 = arith.constant 1 : index',
      '  %r = scf.for %i = %a to %a step %c1 iter_args(%x = %a) -> (index) {',
      '    %bad = arith.constant 1.5 : i32',
      '    scf.yield %x : index',
      '  }',
      '  %z = arith.addi %r, %b : i32',
      '  return %r : index',
      '}',
    ].join('\n');
    expect(reported(text)).toEqual([
      't.pto:4:27: error[E0403]: a float literal cannot have type i32',
      't.pto:7:28: error[E0203]: type of %r is index, but this use says i32',
      't.pto:3:3: note: %r defined here',
    ]);
  });

  test("a broken 'return' is the function's end: no 'must end with return' after its syntax error", () => {
    const text = 'func.func @k(%a: index) -> index {\n  return %a index\n}\n';
    expect(reported(text)).toHaveLength(1);
    expect(reported(text)[0]).toMatch(/^t\.pto:2:13: error\[E0101\]: syntax error/);
  });
});

describe('input that is not a program', () => {
  /** All the output: the excerpt lines too, which must hold no raw byte. */
  const output = (text: string) => formatAll(assemble('t.pto', text).diags);

  test('a NUL byte: one error naming the file, the excerpt without raw bytes', () => {
    expect(output('func.func @k() {\n  return\u0000\u0001\u001b[31m\n}\n')).toBe(
      ['t.pto:2:9: error[E0108]: t.pto is not a text file: it holds a NUL byte', '  return???[31m', '        ^'].join('\n'),
    );
  });

  test('bytes that are not UTF-8 (as the tools read them: U+FFFD), here UTF-16 text with its byte order mark', () => {
    const utf16 = Buffer.from('\uFEFFfunc.func @k() {\n}\n', 'utf16le').toString('utf8');
    expect(reported(utf16)).toEqual(['t.pto:1:1: error[E0108]: t.pto is not a text file: it holds bytes that are not UTF-8 (read as U+FFFD)']);
  });

  test.each([
    ['an empty file', ''],
    ['blanks', '\n  \n\t\n'],
    ['comments', '// a kernel, some day\n\n// nothing yet\n'],
  ])('%s: a warning', (_what, text) => {
    expect(reported(text)).toEqual(['t.pto:1:1: warning[W0109]: empty input: no module or function']);
  });

  test('a file whose only statement is broken gets its error alone', () => {
    expect(reported('func.func @k( {\n}\n')).toEqual([expect.stringMatching(/^t\.pto:1:\d+: error\[E0101\]/)]);
  });
});

describe('a caret under the part of a type at fault, not the whole type', () => {
  /** The diagnostics' lines: message, excerpt and caret. */
  const shown = (line: string) => formatAll(assemble('t.pto', `func.func @k() {\n${line}\n  return\n}\n`).diags);

  test.each([
    [
      'an unknown key',
      'blayout=row_major',
      'slyout=none_box',
      'slyout',
      "unknown !pto.tile_buf parameter 'slyout' (expected one of loc, dtype, rows, cols, v_row, v_col, blayout, slayout, fractal, pad, compact)",
    ],
    ['an unknown layout', 'slayout=none_box', 'slayout=nonebox', 'nonebox', "unknown slayout 'nonebox' (expected none_box, row_major or col_major)"],
    ['a bad row count', 'rows=16', 'rows=0', '0', "!pto.tile_buf: 'rows' must be a positive integer, got '0'"],
    ['valid rows past the rows', 'v_row=16', 'v_row=32', '32', '!pto.tile_buf valid rows (32) exceed its rows (16)'],
    ['an element type that is not one of a tile', 'dtype=f32', 'dtype=f64', 'f64', "'f64' is not a tile element type"],
  ])('%s', (_what, good, bad, part, message) => {
    const line = `  %t = pto.alloc_tile : ${TILE.replace(good, bad)}`;
    const at = line.indexOf(bad) + bad.indexOf(part);
    expect(shown(line)).toBe([`t.pto:2:${at + 1}: error[E0201]: ${message}`, line, ' '.repeat(at) + '^' + '~'.repeat(part.length - 1)].join('\n'));
  });

  test("the compact form's keys, and a pointer's address space", () => {
    const compact = '  %t = pto.alloc_tile : !pto.tile_buf<vec, 16x16xf32, blayout=row_major, slayot=none_box>';
    expect(shown(compact).split('\n')[0]).toBe(
      `t.pto:2:${compact.indexOf('slayot') + 1}: error[E0201]: unknown key 'slayot' in !pto.tile_buf (expected one of valid, blayout, slayout, fractal, pad, compact)`,
    );
    const text = 'func.func @k(%p: !pto.ptr<f32, hbm>) {\n  return\n}\n';
    expect(formatAll(assemble('t.pto', text).diags).split('\n')).toEqual([
      "t.pto:1:32: error[E0201]: '!pto.ptr' address space must be one of gm|l1|mat|l0a|left|l0b|right|l0c|acc|ub|vec|bt|bias|fb|scaling, got 'hbm'",
      text.split('\n')[0],
      ' '.repeat(31) + '^~~',
    ]);
  });

  test('a list of values longer than its types: the values without a type, not the whole list', () => {
    const line = `  pto.tcolmin ins(%t, %u : ${TILE}) outs(%u : ${TILE})`;
    const head = shown(`  %t = pto.alloc_tile : ${TILE}\n  %u = pto.alloc_tile : ${TILE}\n${line}`).split('\n');
    const k = head.findIndex((l) => l.includes('E0104'));
    expect(head.slice(k, k + 3)).toEqual(['t.pto:4:23: error[E0104]: 2 value(s) but 1 type(s)', line, ' '.repeat(22) + '^~']);
  });

  test('through an alias the whole type is underlined where the alias is defined', () => {
    const text = `!t = ${TILE.replace('rows=16', 'rows=0')}\nfunc.func @k() {\n  %t = pto.alloc_tile : !t\n  return\n}\n`;
    expect(reported(text)).toEqual(["t.pto:1:6: error[E0201]: !pto.tile_buf: 'rows' must be a positive integer, got '0'"]);
  });
});

test('a misspelt op outside a function is reported once: as unknown, not also as misplaced', () => {
  expect(reported('arith.consant 0 : index\nfunc.func @k() {\n  return\n}\n')).toEqual([
    "t.pto:1:1: error[E0301]: unknown op 'arith.consant'; did you mean 'arith.constant'?",
  ]);
});
