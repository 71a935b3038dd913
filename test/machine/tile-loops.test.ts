/**
 * readValues (the cube's decoding of its inputs) against Tile.get, in every layout, row by row and transposed; and
 * the property the window copies rely on (move.ts copyWindowBits): an element's index is a part of its row plus a
 * part of its column.
 */
import fc from 'fast-check';
import { OnChipMemory, Tile } from '../../src/machine/memory';
import { readValues } from '../../src/machine/tile-loops';
import { isa } from '../../src/spec/isa';
import { BLayout, SLayout, TileType } from '../../src/types/type';

const LAYOUTS: [BLayout, SLayout][] = [
  ['row_major', 'none_box'],
  ['col_major', 'none_box'],
  ['row_major', 'row_major'],
  ['col_major', 'row_major'],
  ['row_major', 'col_major'],
  ['col_major', 'col_major'],
];

function tileOf(blayout: BLayout, slayout: SLayout, dtype: 'f32' | 'bf16' | 'i8', fractal: number, rows: number, cols: number): Tile {
  const type: TileType = { kind: 'tile', level: 'buf', loc: 'mat', dtype, rows, cols, vRow: rows, vCol: cols, blayout, slayout, fractal, pad: 0, compact: 0 };
  return new OnChipMemory(isa(), 'a5').allocate(type, 'test', { start: 0, end: 0 });
}

const anyTile = fc
  .tuple(
    fc.constantFrom(...LAYOUTS),
    fc.constantFrom<'f32' | 'bf16' | 'i8'>('f32', 'bf16', 'i8'),
    fc.constantFrom(512, 1024, 32),
    fc.constantFrom(1, 2, 16, 32, 64),
    fc.constantFrom(32, 64),
  )
  .map(([[blayout, slayout], dtype, fractal, rows, cols]) => tileOf(blayout, slayout, dtype, fractal, rows, cols));

test('readValues gives Tile.get of every element of the region, row by row or column by column, in every layout', () => {
  fc.assert(
    fc.property(anyTile, fc.nat(), fc.nat(), fc.boolean(), (tile, rSeed, cSeed, transposed) => {
      // Distinct finite values (small integers are exact in every dtype here).
      const [rows, cols] = [1 + (rSeed % tile.type.rows), 1 + (cSeed % tile.type.cols)];
      for (let r = 0; r < tile.type.rows; r++) for (let c = 0; c < tile.type.cols; c++) tile.set(r, c, ((r * 7 + c * 3) % 100) - 50);
      const out = readValues(tile, rows, cols, transposed);
      for (let r = 0; r < rows; r++) for (let c = 0; c < cols; c++) expect(out[transposed ? c * rows + r : r * cols + c]).toBe(tile.get(r, c));
    }),
    { numRuns: 300 },
  );
});

test('elementIndex(r, c) is elementIndex(r, 0) + elementIndex(0, c) in every layout (what window copies add up)', () => {
  fc.assert(
    fc.property(anyTile, fc.nat(), fc.nat(), (tile, rSeed, cSeed) => {
      const [r, c] = [rSeed % tile.type.rows, cSeed % tile.type.cols];
      expect(tile.elementIndex(0, 0)).toBe(0);
      expect(tile.elementIndex(r, c)).toBe(tile.elementIndex(r, 0) + tile.elementIndex(0, c));
    }),
    { numRuns: 500 },
  );
});
