import { GlobalBuffer, PartitionView, Pointer, TensorView, Tile, TileContents } from './memory';

/** Run-time values: integers (index, iN) as bigint, floats as number, and memory objects. */
export type Value = bigint | number | GlobalBuffer | Pointer | TensorView | PartitionView | Tile | TileContents;
