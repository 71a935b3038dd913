import { Instruction } from '../../spec/isa';
import { ModelError, Problem } from '../../ascendc/model/errors';
import { ModelMemory, TileOperands, TileRegion } from '../../ascendc/model/memory';
import { BlockReduceSumParams, CopyParams, DTYPE_SIZE, VecReduceAddParams, WholeReduceMinParams } from '../../ascendc/model/params';
import { validateBlockReduceSum, validateCopy, validateVecReduceAdd, validateWholeReduceMin } from '../../ascendc/model/validate';
import { blockReduceSum } from '../../ascendc/model/block-reduce-sum';
import { copy } from '../../ascendc/model/copy';
import { vecReduceAdd } from '../../ascendc/model/vec-reduce-add';
import { wholeReduceMin } from '../../ascendc/model/whole-reduce-min';
import { AscendcParams } from './ascendc-text-form';

/** The tiles of an AscendC op in the text form, by operand name. */
export interface AscendcTiles {
  src: Uint8Array;
  dst: Uint8Array;
  work?: Uint8Array;
  /** When two roles share one tile (in place), pass the same array: they then share a base. */
}

/** Distinct, 32-byte aligned bases: separate tiles never overlap in the model's address space. */
const BASES = { src: 0, dst: 1 << 24, work: 2 << 24 };

function regions(tiles: AscendcTiles): { src: TileRegion; dst: TileRegion; work?: TileRegion; bases: { src: number; dst: number; work: number } } {
  const baseOf = (role: 'src' | 'dst' | 'work', bytes: Uint8Array): number => (bytes === tiles.src ? BASES.src : bytes === tiles.dst ? BASES.dst : BASES[role]);
  const region = (role: 'src' | 'dst' | 'work', bytes: Uint8Array): TileRegion => ({ memory: new ModelMemory(bytes, `%${role}`), base: baseOf(role, bytes) });
  const src = region('src', tiles.src);
  const dst = region('dst', tiles.dst);
  const work = tiles.work ? region('work', tiles.work) : undefined;
  return { src, dst, work, bases: { src: src.base, dst: dst.base, work: work?.base ?? BASES.work } };
}

/**
 * The work tensor is never read or written; in the text form it is optional. A work tile must hold
 * `repeat` elements; without one the toolchain provides the scratch, so nothing limits repeat.
 */
function noWorkLimit(params: AscendcParams, tiles: AscendcTiles): AscendcParams {
  const workElems = tiles.work ? Math.floor(tiles.work.length / DTYPE_SIZE[params.dtype]) : Number.MAX_SAFE_INTEGER;
  return { ...params, workElems };
}

/** The model's checks of the parameter values (ranges, alignment, product tables), for the verifier. */
export function ascendcProblems(spec: Instruction, params: AscendcParams, tiles: AscendcTiles): Problem[] {
  const { bases } = regions(tiles);
  switch (spec.opName) {
    case 'ascendc.whole_reduce_min':
      return validateWholeReduceMin(bases.dst, bases.src, params as unknown as WholeReduceMinParams);
    case 'ascendc.block_reduce_sum':
      return validateBlockReduceSum(bases.dst, bases.src, params as unknown as BlockReduceSumParams);
    case 'tik.vec_reduce_add':
      return validateVecReduceAdd(bases.dst, bases.src, bases.work, noWorkLimit(params, tiles) as unknown as VecReduceAddParams);
    case 'ascendc.copy':
      return validateCopy(bases.dst, bases.src, params as unknown as CopyParams);
    default:
      return [{ param: 'op', message: `${spec.opName} has no AscendC model` }];
  }
}

/**
 * Runs the direct model on the tiles' bytes. Throws ModelError: with `problems` for invalid
 * parameters, or with `address` (relative to the offending tile) for an access outside a tile.
 */
export function runAscendc(spec: Instruction, params: AscendcParams, tiles: AscendcTiles): void {
  const r = regions(tiles);
  const operands = new TileOperands(r.src, r.dst, r.work);
  switch (spec.opName) {
    case 'ascendc.whole_reduce_min':
      return wholeReduceMin(operands, r.bases.dst, r.bases.src, params as unknown as WholeReduceMinParams);
    case 'ascendc.block_reduce_sum':
      return blockReduceSum(operands, r.bases.dst, r.bases.src, params as unknown as BlockReduceSumParams);
    case 'tik.vec_reduce_add':
      return vecReduceAdd(operands, r.bases.dst, r.bases.src, r.bases.work, noWorkLimit(params, tiles) as unknown as VecReduceAddParams);
    case 'ascendc.copy':
      return copy(operands, r.bases.dst, r.bases.src, params as unknown as CopyParams);
  }
  throw new ModelError(`${spec.opName} has no AscendC model`);
}
