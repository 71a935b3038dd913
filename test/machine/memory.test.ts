/** Tile.columnRun / columnStep (the fast paths' runs along a row) against Tile.elementIndex, their definition. */
import fc from 'fast-check';
import { OnChipMemory, Tile } from '../../src/machine/memory';
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
