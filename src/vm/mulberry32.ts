/**
 * mulberry32: a small, fast generator of numbers in [0, 1). The same seed gives the same numbers on every machine:
 * the VM's generated inputs (src/vm/io/arguments.ts) and its seeded schedules (src/vm/scheduler.ts) come from it.
 */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
