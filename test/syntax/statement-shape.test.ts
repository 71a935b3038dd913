/** Which tokens of a statement header its shape abstracts, and which it keeps as written. */
import { statementShape } from '../../src/syntax/statement-shape';

/** The shape's key with its markers written as N (a name) and # (a number). */
function readable(header: string): { key: string; tokens: string[] } | undefined {
  const shape = statementShape(header);
  if (!shape) return undefined;
  const tokens: string[] = [];
  for (let k = 0; k < shape.tokens.length; k += 2) tokens.push(header.slice(shape.tokens[k], shape.tokens[k + 1]));
  return {
    key: shape.key.split('\u0001').join('N').split('\u0003').join('#'),
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
});
