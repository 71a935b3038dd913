/**
 * The dominator tree of a region's blocks (block 0 is the entry), by Cooper, Harvey and Kennedy's iterative
 * algorithm: a value defined in a block is visible in the blocks that block dominates, as MLIR's dominance rule
 * says. `successors[b]` lists the blocks b may branch to. Returns each block's immediate dominator: -1 for the
 * entry, undefined for a block the entry cannot reach.
 */
export function immediateDominators(successors: number[][]): (number | undefined)[] {
  const n = successors.length;
  const order: number[] = [];
  const seen = new Array<boolean>(n).fill(false);
  const visit = (b: number): void => {
    seen[b] = true;
    for (const s of successors[b]) if (!seen[s]) visit(s);
    order.push(b);
  };
  if (n > 0) visit(0);
  const reversePostorder = order.reverse();
  const rank = new Map(reversePostorder.map((b, i) => [b, i]));
  const predecessors: number[][] = Array.from({ length: n }, () => []);
  successors.forEach((targets, b) => {
    if (rank.has(b)) for (const t of targets) predecessors[t].push(b);
  });
  const idom = new Array<number | undefined>(n).fill(undefined);
  if (n === 0) return idom;
  idom[0] = 0;
  const intersect = (a: number, b: number): number => {
    while (a !== b) {
      while (rank.get(a)! > rank.get(b)!) a = idom[a]!;
      while (rank.get(b)! > rank.get(a)!) b = idom[b]!;
    }
    return a;
  };
  for (let changed = true; changed;) {
    changed = false;
    for (const b of reversePostorder.slice(1)) {
      let next: number | undefined;
      for (const p of predecessors[b]) if (idom[p] !== undefined) next = next === undefined ? p : intersect(p, next);
      if (next !== undefined && idom[b] !== next) {
        idom[b] = next;
        changed = true;
      }
    }
  }
  idom[0] = -1;
  return idom;
}
