import { Instruction } from '../../spec/isa';
import { ModelError, Problem } from '../../ascendc/model/errors';
import { FootprintRecorder, InstructionMemory, ModelMemory, RecordedAccess, TileOperands, TileRegion } from '../../ascendc/model/memory';
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
  const bases = basesOf(shapeOf(tiles));
  const region = (role: 'src' | 'dst' | 'work', bytes: Uint8Array): TileRegion => ({ memory: new ModelMemory(bytes, `%${role}`), base: bases[role] });
  return { src: region('src', tiles.src), dst: region('dst', tiles.dst), work: tiles.work ? region('work', tiles.work) : undefined, bases };
}

/** Which roles share one tile (in place), and how many bytes the work tile has (absent: no work tile). */
export interface AscendcShape {
  dstIsSrc: boolean;
  workIsSrc: boolean;
  workIsDst: boolean;
  workBytes?: number;
}

function shapeOf(tiles: AscendcTiles): AscendcShape {
  return { dstIsSrc: tiles.dst === tiles.src, workIsSrc: tiles.work === tiles.src, workIsDst: tiles.work === tiles.dst, workBytes: tiles.work?.length };
}

/** Each role's base: a tile used for two roles has one. */
function basesOf(shape: AscendcShape): { src: number; dst: number; work: number } {
  const dst = shape.dstIsSrc ? BASES.src : BASES.dst;
  return { src: BASES.src, dst, work: shape.workIsSrc ? BASES.src : shape.workIsDst ? dst : BASES.work };
}

/**
 * The work tensor is never read or written; in the text form it is optional. A work tile must hold
 * `repeat` elements; without one the toolchain provides the scratch, so nothing limits repeat.
 */
function workElemsOf(params: AscendcParams, shape: AscendcShape): number {
  return shape.workBytes !== undefined ? Math.floor(shape.workBytes / DTYPE_SIZE[params.dtype]) : Number.MAX_SAFE_INTEGER;
}

/** The model's checks of the parameter values (ranges, alignment, product tables), for the verifier. */
export function ascendcProblems(spec: Instruction, params: AscendcParams, shape: AscendcShape): Problem[] {
  const bases = basesOf(shape);
  switch (spec.opName) {
    case 'ascendc.whole_reduce_min':
      return validateWholeReduceMin(bases.dst, bases.src, params as unknown as WholeReduceMinParams);
    case 'ascendc.block_reduce_sum':
      return validateBlockReduceSum(bases.dst, bases.src, params as unknown as BlockReduceSumParams);
    case 'tik.vec_reduce_add':
      return validateVecReduceAdd(bases.dst, bases.src, bases.work, { ...params, workElems: workElemsOf(params, shape) } as unknown as VecReduceAddParams);
    case 'ascendc.copy':
      return validateCopy(bases.dst, bases.src, params as unknown as CopyParams);
    default:
      return [{ param: 'op', message: `${spec.opName} has no AscendC model` }];
  }
}

/** Runs one instruction of the model on its memory (tiles, or a footprint recorder) at the given bases. */
function dispatch(
  spec: Instruction,
  params: AscendcParams,
  memory: InstructionMemory,
  bases: { src: number; dst: number; work: number },
  workElems: number,
): void {
  switch (spec.opName) {
    case 'ascendc.whole_reduce_min':
      return wholeReduceMin(memory, bases.dst, bases.src, params as unknown as WholeReduceMinParams);
    case 'ascendc.block_reduce_sum':
      return blockReduceSum(memory, bases.dst, bases.src, params as unknown as BlockReduceSumParams);
    case 'tik.vec_reduce_add':
      return vecReduceAdd(memory, bases.dst, bases.src, bases.work, { ...params, workElems } as unknown as VecReduceAddParams);
    case 'ascendc.copy':
      return copy(memory, bases.dst, bases.src, params as unknown as CopyParams);
  }
  throw new ModelError(`${spec.opName} has no AscendC model`);
}

/**
 * Runs the direct model on the tiles' bytes. Throws ModelError: with `problems` for invalid
 * parameters, or with `address` (relative to the offending tile) for an access outside a tile.
 */
export function runAscendc(spec: Instruction, params: AscendcParams, tiles: AscendcTiles): void {
  const r = regions(tiles);
  dispatch(spec, params, new TileOperands(r.src, r.dst, r.work), r.bases, workElemsOf(params, shapeOf(tiles)));
}

/**
 * The footprint of a call with valid parameters: each access, in order, relative to its operand's first byte, with
 * its repeat (the model's own address walk, recorded; no tile bytes are made and no data is computed on).
 */
export function ascendcFootprint(spec: Instruction, params: AscendcParams, shape: AscendcShape): RecordedAccess[] {
  const bases = basesOf(shape);
  const recorder = new FootprintRecorder({ src: bases.src, dst: bases.dst, work: shape.workBytes !== undefined ? bases.work : undefined });
  dispatch(spec, params, recorder, bases, workElemsOf(params, shape));
  return recorder.accesses;
}
