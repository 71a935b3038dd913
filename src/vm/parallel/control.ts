/**
 * The shared counters of a parallel run (an Int32Array over a SharedArrayBuffer): the next position of the cores'
 * order to claim, and the limit: positions at or past it are not started (a trap at position p sets it to p + 1,
 * since the sequential run would stop there; a report that makes the parallel run void sets it to 0). Then one mark
 * per worker thread, set as it starts to claim: once the main thread has found no position left, a worker thread
 * that has not set its mark will not run a core (claims only fail from then on), so it need not be waited for.
 */
const NEXT = 0;
const LIMIT = 1;
const MARKS = 2;

export function newControl(positions: number, workerThreads: number): SharedArrayBuffer {
  const buffer = new SharedArrayBuffer(4 * (MARKS + workerThreads));
  const control = new Int32Array(buffer);
  control[NEXT] = 0;
  control[LIMIT] = positions;
  return buffer;
}

/** The next position to run, or -1 when none is left. */
export function claim(control: Int32Array, positions: number): number {
  if (Atomics.load(control, LIMIT) <= Atomics.load(control, NEXT)) return -1;
  const position = Atomics.add(control, NEXT, 1);
  return position < Math.min(positions, Atomics.load(control, LIMIT)) ? position : -1;
}

/** Positions from `limit` on are not started. */
export function lowerLimit(control: Int32Array, limit: number): void {
  for (;;) {
    const current = Atomics.load(control, LIMIT);
    if (limit >= current || Atomics.compareExchange(control, LIMIT, current, limit) === current) return;
  }
}

/** How many positions are left to claim. */
export function unclaimed(control: Int32Array, positions: number): number {
  return Math.max(0, Math.min(positions, Atomics.load(control, LIMIT)) - Atomics.load(control, NEXT));
}

/** Worker thread `thread` is about to claim its first position. */
export function markClaiming(control: Int32Array, thread: number): void {
  Atomics.store(control, MARKS + thread, 1);
}

/** Whether worker thread `thread` has begun to claim positions. */
export function isClaiming(control: Int32Array, thread: number): boolean {
  return Atomics.load(control, MARKS + thread) === 1;
}
