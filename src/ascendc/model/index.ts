/**
 * Direct semantic model of the AscendC / TIK seed instructions over raw bytes (issue 3):
 * WholeReduceMin, BlockReduceSum, vec_reduce_add and Copy. It transcribes the seeds and
 * reference/ascendc.md and is the oracle a lowering to PTO tile ops is checked against.
 *
 * Every instruction function validates its parameters first (ModelError listing the problems), then
 * reads and writes the given memory only through a bounds-checked accessor (ModelError with the first
 * out-of-bounds byte address). A call that throws leaves the memory unchanged.
 */
export * from './params';
export * from './errors';
export { ModelMemory, TileOperands, atomically } from './memory';
export type { MemoryAccess, TileRegion } from './memory';
export { laneEnables, maskProblems, tikMask } from './mask';
export { adder, pairTree, sequentialSum, bitsToNumber, numberToBits } from './numerics';
export * from './validate';
export { wholeReduceMin } from './whole-reduce-min';
export { blockReduceSum } from './block-reduce-sum';
export { vecReduceAdd, vecReduceAddCombine, vecReduceAddOrder, A2_CHUNK } from './vec-reduce-add';
export type { VecReduceAddOrder } from './vec-reduce-add';
export { copy } from './copy';
