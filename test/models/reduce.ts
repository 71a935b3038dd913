/**
 * Row reductions in the order each profile documents (docs/numerics.md, trowsum): cpu-sim adds along the row from +0;
 * npu reduces one repeat (256 bytes of lanes) by the vector unit's adjacent-pair tree, after folding a longer row
 * lane-wise repeat after repeat. Every add is rounded in f32.
 */
import { f32 } from './float';

export type Profile = 'npu' | 'cpu-sim';

export function rowSum(row: number[], profile: Profile, lanes = 64): number {
  if (profile === 'cpu-sim') return row.reduce((sum, x) => f32(sum + x), 0);
  let folded = row.slice(0, lanes);
  for (let start = lanes; start < row.length; start += lanes) {
    folded = folded.map((x, l) => (start + l < row.length ? f32(x + row[start + l]) : x));
  }
  let level = folded;
  let width = 1;
  while (width < level.length) width *= 2;
  level = [...level, ...new Array(width - level.length).fill(0)];
  while (level.length > 1) level = Array.from({ length: level.length / 2 }, (_, i) => f32(level[2 * i] + level[2 * i + 1]));
  return level[0];
}

export const rowMax = (row: number[]): number => row.reduce((m, x) => (x > m ? x : m), -Infinity);
