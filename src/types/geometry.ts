import { TileType, elemSize } from './type';

/** Tile geometry: sizes in bytes and the boxes of fractal layouts, shared by the verifier, the ops and the VM. */

/** The bytes of a tile's whole (physical) extent. */
export const tileBytes = (t: TileType): number => t.rows * t.cols * elemSize(t.dtype);

/** The inner box (fractal) of a boxed layout, in elements. */
export function innerBox(t: TileType): { rows: number; cols: number } {
  if (t.slayout === 'none_box') return { rows: 1, cols: 1 };
  if (t.fractal === 1024) return { rows: 16, cols: 16 };
  if (t.fractal === 32) return t.slayout === 'row_major' ? { rows: 16, cols: 2 } : { rows: 2, cols: 16 };
  const perBlock = 32 / elemSize(t.dtype);
  return t.slayout === 'row_major' ? { rows: 16, cols: perBlock } : { rows: perBlock, cols: 16 };
}

export function layoutName(t: TileType): string {
  const names: Record<string, string> = {
    'row_major/none_box': 'ND',
    'col_major/none_box': 'DN',
    'row_major/row_major': 'Zz',
    'col_major/row_major': 'Nz',
    'row_major/col_major': 'Zn',
    'col_major/col_major': 'Nn',
  };
  return names[`${t.blayout}/${t.slayout}`];
}
