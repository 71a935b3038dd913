/**
 * Adjacent-pair binary tree ((x0+x1)+(x2+x3))+((x4+x5)+(x6+x7))...: the order of the vector unit's
 * reductions within a repeat (vcadd) or a data block (vcgadd). The values are first padded with +0 up
 * to the next power of two, as these fixed-width trees take inactive or missing lanes as +0 in their
 * positions. One value needs no add and is returned unchanged; no values sum to +0.
 *
 * The levels are Float64Arrays: a JS array of doubles may canonicalize a NaN it stores (V8 does, depending on the
 * array's element kind, which depends on the JIT's feedback), so a NaN's sign would not survive reliably.
 */
export function pairTree(values: ArrayLike<number>, add: (a: number, b: number) => number): number {
  if (values.length === 0) return 0;
  let width = 1;
  while (width < values.length) width *= 2;
  const level = new Float64Array(width);
  for (let i = 0; i < values.length; i++) level[i] = values[i];
  for (let n = width; n > 1; n >>= 1) for (let i = 0; i < n; i += 2) level[i >> 1] = add(level[i], level[i + 1]);
  return level[0];
}
