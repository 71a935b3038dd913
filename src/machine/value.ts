import { GlobalBuffer, PartitionView, Pointer, TensorView, Tile, TileContents } from './memory';

/** Run-time values: integers (index, iN) as bigint, floats as number, and memory objects. */
export type Value =
  | bigint
  | number
  | GlobalBuffer
  | Pointer
  | TensorView
  | PartitionView
  | Tile
  | TileContents
  | Cells
  | MultiTile
  | PipeHandle
  | Handle
  | Register
  | LocalPointer;

/** A `!pto.pipe`: the ends of a pipe between cores that an initialization gave (its state is the pipe ops' business). */
export interface PipeHandle {
  kind: 'pipe';
  ends: unknown;
}

/**
 * A core's own scalar storage: a local array, an event-id array or a struct, as cells that hold scalars (or, for a
 * struct's struct fields, nested cells). A cell never written holds undefined.
 */
export interface Cells {
  kind: 'cells';
  values: (Value | undefined)[];
}

/** The tiles of a `!pto.multi_tile_buf`, one per slot. */
export interface MultiTile {
  kind: 'multi_tile';
  tiles: Tile[];
}

/**
 * An opaque handle a program passes around (an async session, an async event, a prefetch context): `state` is what
 * the ops that made it keep for the ops that use it.
 */
export interface Handle {
  kind: 'handle';
  handle: string;
  state: Record<string, unknown>;
}

/** A register of the micro-op level: a vector register (256 bytes), a predicate (32 bytes: a bit per byte) or alignment state. */
export interface Register {
  kind: 'vreg' | 'mask' | 'align';
  bytes: Uint8Array;
}

/** A `!pto.ptr<T, ub>` made from an address (`pto.castptr`): a byte address in an on-chip buffer. */
export interface LocalPointer {
  kind: 'local_pointer';
  /** The buffer (`UB`), as spec/targets.json names it. */
  buffer: string;
  address: number;
}
