/**
 * mulberry32: a small, fast generator of numbers in [0, 1). The same seed gives the same numbers on every machine:
 * the VM's generated inputs (src/vm/io/arguments.ts) and its seeded schedules (src/vm/scheduler.ts) come from it.
 *
 * Its state only advances by a constant (a Weyl sequence) and each number is a mix of the state, so a loop that
 * fills millions of elements can step the state itself and call `mulberry32Bits`, which V8 inlines: the closure's
 * result was boxed on every call (a 16.8M-element input made a scavenge every 5 ms).
 */
export const MULBERRY32_STEP = 0x6d2b79f5;

/** The 32 random bits (an unsigned integer) for a state the step has just advanced. */
export function mulberry32Bits(state: number): number {
  let t = Math.imul(state ^ (state >>> 15), state | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return (t ^ (t >>> 14)) >>> 0;
}

export function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + MULBERRY32_STEP) >>> 0;
    return mulberry32Bits(state) / 4294967296;
  };
}
