/** Which tokens of a statement header its shape abstracts, and which it keeps as written. */
import { ShapeOptions, statementShape } from '../../src/syntax/statement-shape';

/** The shape's key with its markers written as N (a name), # (a number) and O (an op name). */
function readable(header: string, options?: ShapeOptions): { key: string; tokens: string[] } | undefined {
  const shape = statementShape(header, options);
  if (!shape) return undefined;
  const tokens: string[] = [];
  for (let k = 0; k < shape.tokens.length; k += 2) tokens.push(header.slice(shape.tokens[k], shape.tokens[k + 1]));
  return {
    key: shape.key.split('\u0001').join('N').split('\u0003').join('#').split('\u0004').join('O'),
    tokens,
  };
}

describe('statementShape', () => {
  test('value names, symbols and free-standing numbers are abstracted; the sigils stay', () => {
    expect(readable('%x, %5:2 = pto.op @f(%arg3, %5#1) {n = 16} : index')).toEqual({
      key: '%N, %N:# = pto.op @N(%N, %N##) {n = #} : index',
      tokens: ['x', '5', '2', 'f', 'arg3', '5', '1', '16'],
    });
  });

  test('numbers an identifier character touches stay as written: hex, floats, shapes, widths, dotted names', () => {
    expect(readable('%c = arith.constant 0x10 : i32')?.key).toBe('%N = arith.constant 0x10 : i32');
    expect(readable('%c = arith.constant 1.5e3 : f32')?.key).toBe('%N = arith.constant 1.5e3 : f32');
    expect(readable('%t = pto.alloc_tile : !pto.tile<16x16xf32>')?.key).toBe('%N = pto.alloc_tile : !pto.tile<16x16xf32>');
    expect(readable('pto.t2d ins(%a : memref<?x8xf16>) outs()')?.key).toBe('pto.t2d ins(%N : memref<?x8xf16>) outs()');
    expect(readable('%c = arith.constant -7 : index')?.key).toBe('%N = arith.constant -# : index');
  });

  test('names follow the grammar: `-` and `.` continue one, digits then a letter are no name', () => {
    expect(readable('%x-1 = pto.op %.y, %$')?.tokens).toEqual(['x-1', '.y', '$']);
    expect(readable('%5x = pto.op %')).toEqual({ key: '%5x = pto.op %', tokens: [] });
  });

  test('strings and comments stay as written', () => {
    expect(readable('pto.print ins("%d at 16", %v : i32) // %x 16')).toEqual({
      key: 'pto.print ins("%d at 16", %N : i32) // %x 16',
      tokens: ['v'],
    });
  });

  test('a header holding a marker character has no shape (it is matched as written)', () => {
    expect(statementShape('pto.op "\u0001"')).toBeUndefined();
    expect(statementShape('%a = pto.op \u0003')).toBeUndefined();
  });

  test('headers that differ only in abstracted tokens share a key; any other difference does not', () => {
    const key = (h: string) => statementShape(h)!.key;
    expect(key('%a = arith.addi %b, %c : index')).toBe(key('%long_name = arith.addi %x.1, %y-2 : index'));
    expect(key('%a = arith.addi %b, %c : index')).not.toBe(key('%a = arith.addi %b,%c : index'));
    // `%0` and `%x` are read by different alternatives of `suffixId`, inside the name: no action looks there.
    expect(key('%a = arith.addi %b, %c : index')).toBe(key('%0 = arith.addi %b, %c : index'));
    expect(key('%a = arith.constant 1 : index')).not.toBe(key('%a = arith.constant 1.0 : index'));
  });

  test("the op name is abstracted when asked: the header's first word, when it is that name and starts with a letter", () => {
    expect(readable('%x = pto.tadd ins(%a : f32)', { opName: 'pto.tadd' })).toEqual({ key: '%N = O ins(%N : f32)', tokens: ['x', 'pto.tadd', 'a'] });
    expect(readable('return', { opName: 'return' })).toEqual({ key: 'O', tokens: ['return'] });
    // Only the first word, and only the name asked for.
    expect(readable('pto.tadd ins(%a : f32) pto.tadd', { opName: 'pto.tadd' })?.key).toBe('O ins(%N : f32) pto.tadd');
    expect(readable('pto.tadd_dps ins()', { opName: 'pto.tadd' })?.key).toBe('pto.tadd_dps ins()');
    // `opName` starts with a letter: `_x.y` is no op name, so it is not abstracted with those that are.
    expect(readable('_x.y %a', { opName: '_x.y' })?.key).toBe('_x.y %N');
    expect(readable('%x = pto.tadd ins(%a : f32)')?.key).toBe('%N = pto.tadd ins(%N : f32)');
  });

  test('the sizes of dimension lists are abstracted in a type body; a lone 0 before x, fractions and words stay', () => {
    const dims = (body: string) => readable(body, { dims: true });
    expect(dims('<16x256xbf16>')).toEqual({ key: '<#x#xbf16>', tokens: ['16', '256'] });
    expect(dims('<?x8192x?xf32, 16>')?.key).toBe('<?x#x?xf32, #>');
    expect(dims('<16x512>')?.key).toBe('<#x#>');
    // `0x1F` is a hex number; `0x10` would read alike as a number or a dimension list only if `0` stays written.
    expect(dims('<0x1F>')?.key).toBe('<0x1F>');
    expect(dims('<0x10xf16>')?.key).toBe('<0x#xf16>');
    expect(dims('<16x1.5>')?.key).toBe('<#x1.5>');
    expect(dims('<16x2e3>')?.key).toBe('<#x2e3>');
    expect(dims('<rows=16, cols=16, dtype=f32>')?.key).toBe('<rows=#, cols=#, dtype=f32>');
    expect(dims('<!pto.t<8x8xf16>, i32>')?.key).toBe('<!pto.t<#x#xf16>, i32>');
    // Without `dims`, a size touched by `x` stays written.
    expect(readable('<16x256xbf16>')?.key).toBe('<16x256xbf16>');
  });
});
