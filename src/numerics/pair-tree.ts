/**
 * Adjacent-pair binary tree ((x0+x1)+(x2+x3))+((x4+x5)+(x6+x7))...: the order of the vector unit's
 * reductions within a repeat (vcadd) or a data block (vcgadd). The values are first padded with +0 up
 * to the next power of two, as these fixed-width trees take inactive or missing lanes as +0 in their
 * positions. One value needs no add and is returned unchanged; no values sum to +0.
 */
export function pairTree(values: readonly number[], add: (a: number, b: number) => number): number {
  if (values.length === 0) return 0;
  let width = 1;
  while (width < values.length) width *= 2;
  let level: number[] = [...values];
  while (level.length < width) level.push(0);
  while (level.length > 1) {
    const next: number[] = [];
    for (let i = 0; i < level.length; i += 2) next.push(add(level[i], level[i + 1]));
    level = next;
  }
  return level[0];
}
