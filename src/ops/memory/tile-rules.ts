import { Isa } from '../../spec/isa';
import { LayoutRule, TargetName } from '../../spec/schema';
import { TileLoc, TileType, elemSize } from '../../types/type';
import { innerBox, layoutName } from '../../types/geometry';

/** Well-formedness of a tile type (the static_asserts of pto-isa's Tile template). */
export function tileTypeProblems(t: TileType, target: TargetName, spec: Isa): string[] {
  const problems: string[] = [];
  const size = elemSize(t.dtype);
  if (t.vRow !== null && t.vRow > t.rows) problems.push(`valid rows ${t.vRow} exceed rows ${t.rows}`);
  if (t.vCol !== null && t.vCol > t.cols) problems.push(`valid cols ${t.vCol} exceed cols ${t.cols}`);
  if (![32, 512, 1024].includes(t.fractal)) problems.push(`fractal size must be 32, 512 or 1024, got ${t.fractal}`);
  const buffer = spec.locationBuffer[t.loc];
  const capacity = spec.typeLimits[target][buffer];
  const bytes = t.rows * t.cols * size;
  if (capacity !== undefined && bytes > capacity) {
    problems.push(`a ${t.rows}x${t.cols} ${t.dtype} tile needs ${bytes} bytes, more than the ${capacity}-byte ${buffer} of ${target}`);
  }
  return problems;
}

/**
 * The layout rules of a tile that is allocated (pto.alloc_tile's result, a multi-tile buffer's slot), as PTOAS's
 * verifier checks them there rather than on every use of the type: a none_box tile's rows (row-major) or columns
 * (col-major) are whole 32-byte units (16 for packed 4-bit floats); a boxed tile is whole boxes.
 */
export function allocatedTileProblems(t: TileType): string[] {
  const size = elemSize(t.dtype);
  const unit = t.dtype === '!pto.f4E1M2x2' || t.dtype === '!pto.f4E2M1x2' ? 16 : 32;
  if (t.slayout === 'none_box') {
    const [dim, what] = t.blayout === 'row_major' ? [t.cols, 'row'] : [t.rows, 'column'];
    return (dim * size) % unit === 0
      ? []
      : [
          `a ${t.blayout === 'row_major' ? 'row' : 'column'}-major none_box tile needs its ${what} byte size to be a multiple of ${unit}, got ${dim} x ${size} = ${dim * size} bytes`,
        ];
  }
  const problems: string[] = [];
  const box = innerBox(t);
  if (t.cols % box.cols !== 0) problems.push(`cols ${t.cols} must be a multiple of the fractal box width ${box.cols}`);
  if (t.loc !== 'vec' && t.fractal !== 32 && t.rows !== 1 && t.rows % box.rows !== 0) {
    problems.push(`rows ${t.rows} must be a multiple of the fractal box height ${box.rows}`);
  }
  return problems;
}

/** Null when the tile satisfies the rule, else what is required. */
export function layoutProblem(rule: LayoutRule, t: TileType): string | null {
  const nd = t.blayout === 'row_major' && t.slayout === 'none_box';
  switch (rule) {
    case 'any':
      return null;
    case 'nd':
      return nd ? null : `must be ND (blayout=row_major, slayout=none_box), not ${layoutName(t)}`;
    case 'row-major':
      return t.blayout === 'row_major' ? null : 'must be row-major (blayout=row_major)';
    case 'none-box':
      return t.slayout === 'none_box' ? null : `must be ND or DN (slayout=none_box), not ${layoutName(t)}`;
    case 'nd-or-dn-column':
      return nd || (t.blayout === 'col_major' && t.slayout === 'none_box' && t.cols === 1)
        ? null
        : `must be ND, or DN with one column, not ${layoutName(t)}${t.cols !== 1 && t.blayout === 'col_major' ? ` with ${t.cols} columns` : ''}`;
  }
}

/**
 * A constant address a tile is placed at (alloc_tile, alloc_multi_tile, tassign) is non-negative and aligned as
 * PTOAS's verifier requires: 32 bytes in the vector, matrix, bias and scaling buffers (pto-isa's TASSIGN baseline),
 * 512 in the L0 buffers (left, right, acc).
 */
export function localAddressProblem(loc: TileLoc, addr: bigint): string | undefined {
  const alignment = ['left', 'right', 'acc'].includes(loc) ? 512n : 32n;
  if (addr < 0n) return `addr must be non-negative, got ${addr}`;
  if (addr % alignment !== 0n) return `addr must be aligned to ${alignment} bytes for local tile memory space, got ${addr}`;
  return undefined;
}
