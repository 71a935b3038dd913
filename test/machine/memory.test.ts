/** Tile.columnRun / columnStep (the fast paths' runs along a row) against Tile.elementIndex, their definition. */
import fc from 'fast-check';
import { GENERATED_CHUNK, GlobalBuffer, OnChipMemory, Tile, generatedChunks } from '../../src/machine/memory';
import { OutsideStorage } from '../../src/machine/trap';
import { isa } from '../../src/spec/isa';
import { BLayout, SLayout, TileType } from '../../src/types/type';

const span = { start: 0, end: 0 };

function tileOf(blayout: BLayout, slayout: SLayout, dtype: 'f32' | 'bf16' | 'i8', fractal: number, rows: number, cols: number): Tile {
  const type: TileType = { kind: 'tile', level: 'buf', loc: 'mat', dtype, rows, cols, vRow: rows, vCol: cols, blayout, slayout, fractal, pad: 0, compact: 0 };
  return new OnChipMemory(isa(), 'a5').allocate(type, 'test', span);
}

test('every column of a run is columnStep elements after the one before it, in every layout', () => {
  fc.assert(
    fc.property(
      fc.constantFrom<[BLayout, SLayout]>(
        ['row_major', 'none_box'],
        ['col_major', 'none_box'],
        ['row_major', 'row_major'],
        ['col_major', 'row_major'],
        ['row_major', 'col_major'],
        ['col_major', 'col_major'],
      ),
      fc.constantFrom<'f32' | 'bf16' | 'i8'>('f32', 'bf16', 'i8'),
      fc.constantFrom(512, 1024, 32),
      fc.integer({ min: 1, max: 4 }),
      fc.integer({ min: 1, max: 4 }),
      fc.nat(),
      fc.nat(),
      ([blayout, slayout], dtype, fractal, rowBoxes, colBoxes, rSeed, cSeed) => {
        const [rows, cols] = [32 * rowBoxes, 32 * colBoxes];
        const tile = tileOf(blayout, slayout, dtype, fractal, rows, cols);
        const [r, c] = [rSeed % rows, cSeed % cols];
        const run = Math.min(tile.columnRun(c), cols - c);
        expect(run).toBeGreaterThanOrEqual(1);
        const first = tile.elementIndex(r, c);
        for (let k = 1; k < run; k++) expect(tile.elementIndex(r, c + k)).toBe(first + k * tile.columnStep());
      },
    ),
    { numRuns: 400 },
  );
});

test('an element outside the storage is an OutsideStorage error naming it, not a DataView RangeError', () => {
  // Nz with 16 x 8 f32 boxes: column 40 is in box column 5, 5 x 32 x 8 = 1280 elements in, past the 1024.
  const tile = tileOf('col_major', 'row_major', 'f32', 512, 32, 32);
  expect(() => tile.get(0, 40)).toThrow(new OutsideStorage("element (0, 40) is outside the tile's 4096-byte storage (a 32x32 f32 tile)"));
  expect(() => tile.setBits(0, 40, 1)).toThrow(OutsideStorage);
  expect(() => tile.getBits(-1, 0)).toThrow(OutsideStorage);
  // The last element is inside.
  expect(tile.get(31, 31)).toBe(0);
});

describe('a generated global buffer, made a chunk at a time where touched (issue 36)', () => {
  /** A u8 buffer of `length` elements whose element n is n % 251, counting the elements made. */
  function counted(length: number, chunks = generatedChunks(length, 'own'), bytes: Uint8Array = new Uint8Array(length)) {
    const made: [number, number][] = [];
    const generate = (into: Uint8Array, start: number, end: number) => {
      made.push([start, end]);
      for (let i = start; i < end; i++) into[i] = i % 251;
    };
    return { buffer: new GlobalBuffer('g', 'u8', bytes, undefined, { generate, seed: 0, chunks }), made };
  }

  const C = GENERATED_CHUNK;

  test('a read makes the chunk holding it, once; a store into a chunk not made keeps its neighbours generated', () => {
    const { buffer, made } = counted(4 * C);
    expect(buffer.readElement(C + C / 2)).toBe((C + C / 2) % 251);
    expect(buffer.readElement(C)).toBe(C % 251);
    expect(made).toEqual([[C, 2 * C]]);
    buffer.writeElement(3 * C - 1, 7);
    expect(made).toEqual([
      [C, 2 * C],
      [2 * C, 3 * C],
    ]);
    expect([buffer.readElement(3 * C - 1), buffer.readElement(3 * C - 2)]).toEqual([7, (3 * C - 2) % 251]);
    // A fast path's range over chunks made and not made makes the others, each run of them at once.
    buffer.materialize(C - 10, 3 * C + 10);
    expect(made.slice(2)).toEqual([
      [0, C],
      [3 * C, 4 * C],
    ]);
    // The host's whole bytes: everything made, the store kept.
    const expected = Uint8Array.from({ length: 4 * C }, (_, i) => (i === 3 * C - 1 ? 7 : i % 251));
    expect(buffer.bytes).toEqual(expected);
    expect(made).toHaveLength(4);
    expect(buffer.storedRanges()).toEqual([[0, 4 * C]]);
  });

  test('storedRanges: the chunks stored into (by an element or a range), adjacent ones merged; chunks only read are not', () => {
    const { buffer } = counted(6 * C);
    buffer.writeElement(0, 1);
    buffer.readElement(C);
    buffer.materialize(2 * C + 5, 3 * C + 5, true);
    buffer.copyElementFrom(5 * C, new Uint8Array([9]), 0);
    expect(buffer.storedRanges()).toEqual([
      [0, C],
      [2 * C, 4 * C],
      [5 * C, 6 * C],
    ]);
  });

  test('buffers over the same shared bytes and chunk states make each chunk once (threads of a run)', () => {
    const chunks = generatedChunks(2 * C, 'shared');
    const bytes = new Uint8Array(new SharedArrayBuffer(2 * C));
    const a = counted(2 * C, chunks, bytes);
    const b = counted(2 * C, new Int32Array(chunks.buffer), new Uint8Array(bytes.buffer));
    a.buffer.writeElement(5, 99);
    expect(b.buffer.readElement(5)).toBe(99);
    expect(b.buffer.readElement(C + 3)).toBe((C + 3) % 251);
    expect(a.buffer.isMade(C + 3)).toBe(true);
    expect([a.made, b.made]).toEqual([[[0, C]], [[C, 2 * C]]]);
  });
});
