import { Span } from '../diag/source';
import { Isa } from '../spec/isa';
import { TargetName } from '../spec/schema';
import { ElemType, TileType, elemSize } from '../types/type';
import { innerBox } from '../types/geometry';
import { tileBytes } from '../types/geometry';
import { ElementCodec, Scalar, codec } from '../numerics/elements';
import { kernelBackedBuffer } from '../numerics/wasm/vector';
import { OutsideStorage, vmTrap } from './trap';
import { ElementStore, StridedElements, elementStore } from './element-arrays';

// Hot loops read Math's functions once: a global lookup per call is slow where the code runs in a vm context (jest).
const floor = Math.floor;

/** How a kernel touches an element of global memory; atomic updates (an atomic add) do not race with each other. */
export type GlobalAccess = 'read' | 'write' | 'atomic';

/** Sees every element of global memory a kernel reads or writes (the cross-core race checker, src/vm/sync/cross-core.ts). */
export interface GlobalAccessObserver {
  access(buffer: GlobalBuffer, element: number, how: GlobalAccess): void;
  /** The same for every element of [start, end), in order: a transfer's row copied at once. */
  accessRun(buffer: GlobalBuffer, start: number, end: number, how: GlobalAccess): void;
}

/**
 * Where a buffer's bytes live: memory of its own, or memory the threads of a run share (`--jobs`, src/vm/parallel),
 * which a launch on several threads then runs over in place, without copying it in and out.
 */
export type BufferMemory = 'own' | 'shared';

/** `length` zero bytes in that memory. */
export function allocateBytes(length: number, memory: BufferMemory): Uint8Array {
  return memory === 'shared' ? new Uint8Array(new SharedArrayBuffer(length)) : new Uint8Array(length);
}

/**
 * Makes elements [start, end) of a generated input in `into` (the buffer's whole bytes, indexed by element): the
 * same bytes whatever the order and the ranges asked, so that a buffer can be made a chunk at a time.
 */
export type ElementGenerator = (into: Uint8Array, start: number, end: number) => void;

/**
 * A generated input made where it is first touched (src/vm/io/arguments.ts): a kernel's views may declare far more
 * than it reads (a 419 MB weight of which a block reads 4 MB), and the memory the OS gives is zero until written, so
 * time and memory follow what is touched.
 */
export interface GeneratedContents {
  generate: ElementGenerator;
  /** The seed it was made from: what a thread needs to make the same generator (src/vm/parallel). */
  seed: number;
  /**
   * Each chunk's state (GENERATED_CHUNK bytes): NOT_MADE, BEING_MADE (by another thread), MADE or STORED; in shared memory
   * when the bytes are, so that every thread of a run makes each chunk once and sees it made.
   */
  chunks: Int32Array;
}

/**
 * Bytes a generated input is made by: small enough that a row of a wide view (pypto's gate_proj reads 512 bytes of
 * each 51200-byte row of its weight) makes little more than it reads, large enough that the states stay small.
 */
export const GENERATED_CHUNK = 256;
const NOT_MADE = 0;
const BEING_MADE = 1;
const MADE = 2;
/** Made, and stored into since: the chunks whose `written` marks can be 1 (results.ts counts only those). */
const STORED = 3;

/** The chunk states of a generated input of `byteLength` bytes, none made, in that memory. */
export function generatedChunks(byteLength: number, memory: BufferMemory): Int32Array {
  const n = Math.ceil(byteLength / GENERATED_CHUNK);
  return memory === 'shared' ? new Int32Array(new SharedArrayBuffer(n * 4)) : new Int32Array(n);
}

/**
 * Global memory behind one pointer argument. `written` marks the elements the program stored. A kernel's ops read
 * and write it through the element methods below, so that an observer sees every access, or through `materialize`
 * (the fast paths: a range's bytes made first); `bytes` and `view` are for the host (the run's inputs and outputs),
 * and make a generated input whole.
 */
export class GlobalBuffer {
  readonly written: Uint8Array;
  readonly codec: ElementCodec;
  readonly byteLength: number;
  /** Set while several cores run (a launch of more than one core): sees every access. */
  observer?: GlobalAccessObserver;
  /**
   * In a run of several ranks: the rank whose memory holds this buffer, and the same argument's buffer on every
   * rank (memory laid out alike on each rank, src/machine/windows.ts), so that an address moved by whole rank
   * windows reaches a peer's copy.
   */
  placement?: { rank: number; byRank: GlobalBuffer[] };
  /**
   * The bytes it was bound with, made again (or kept), with no element written: a launch that ran over it in place
   * on several threads starts again from them when it must run one core after another (src/vm/parallel).
   */
  initialBytes?: () => Uint8Array;
  /** The bytes as they are (chunks of a generated input not yet made are zero). */
  private readonly raw: Uint8Array;
  private readonly rawView: DataView;
  /** Until every chunk is seen made: how to make the rest. */
  private pending?: GeneratedContents;

  constructor(
    readonly name: string,
    readonly elem: ElemType,
    bytes: Uint8Array,
    /** Where to mark the stored elements (one byte each), when not an array of its own: one in shared memory (src/vm/parallel). */
    written?: Uint8Array,
    /** Contents made on first touch (`bytes` zero where not made yet). */
    readonly generated?: GeneratedContents,
  ) {
    this.raw = bytes;
    this.byteLength = bytes.byteLength;
    this.rawView = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    this.codec = codec(elem);
    this.written = written ?? new Uint8Array(this.length);
    this.pending = generated;
  }

  get length(): number {
    return Math.floor(this.byteLength / elemSize(this.elem));
  }

  /** All the bytes, made: for the host. */
  get bytes(): Uint8Array {
    return this.materialize(0, this.byteLength);
  }

  /** The bytes as a DataView, for the host like `bytes`. */
  get view(): DataView {
    this.materialize(0, this.byteLength);
    return this.rawView;
  }

  /** The bytes as they are, made or not: for handing the memory to threads with `generated` (src/vm/parallel). */
  get storage(): Uint8Array {
    return this.raw;
  }

  /** Takes `bytes` as its whole contents (made): the memory a run on several threads leaves, or starts from again. */
  assign(bytes: Uint8Array): void {
    this.raw.set(bytes);
    this.pending?.chunks.fill(MADE);
    this.pending = undefined;
  }

  /**
   * The ranges of elements [start, end) that may have been stored to: a generated input's chunks stored into (a
   * store makes its chunk first and marks it), merged; all of a buffer not generated, or made whole by the host.
   */
  storedRanges(): [number, number][] {
    if (!this.pending) return [[0, this.length]];
    const chunks = this.pending.chunks;
    const per = GENERATED_CHUNK / this.codec.size;
    const ranges: [number, number][] = [];
    for (let c = 0; c < chunks.length; c++) {
      if (chunks[c] !== STORED) continue;
      const start = c * per;
      const end = Math.min(start + per, this.length);
      const last = ranges[ranges.length - 1];
      if (last && last[1] === start) last[1] = end;
      else ranges.push([start, end]);
    }
    return ranges;
  }

  /** Whether the chunk holding byte `at` is made (always, for an input not generated): nothing was stored where it is not. */
  isMade(at: number): boolean {
    return !this.pending || Atomics.load(this.pending.chunks, Math.floor(at / GENERATED_CHUNK)) >= MADE;
  }

  /**
   * Makes bytes [start, end) (a generated input's chunks there not made yet) and gives the whole bytes, indexed as
   * the buffer is: what a fast path reads and writes in that range. `store`: the range is about to be stored to
   * (its chunks are marked, see storedRanges).
   */
  materialize(start: number, end: number, store = false): Uint8Array {
    const pending = this.pending;
    if (pending && end > start) this.make(pending, start, end, store);
    return this.raw;
  }

  private make(pending: GeneratedContents, start: number, end: number, store: boolean): void {
    const chunks = pending.chunks;
    const shared = chunks.buffer instanceof SharedArrayBuffer;
    // Shared chunks are claimed by one thread, which makes them; another waits for a chunk being made (it may be
    // stored to once made). Reading MADE atomically orders the chunk's bytes before what follows.
    const claim = (c: number) => (shared ? Atomics.compareExchange(chunks, c, NOT_MADE, BEING_MADE) === NOT_MADE : chunks[c] === NOT_MADE);
    const first = Math.max(Math.floor(start / GENERATED_CHUNK), 0);
    const last = Math.min(Math.floor((end - 1) / GENERATED_CHUNK), chunks.length - 1);
    const size = this.codec.size;
    for (let c = first; c <= last;) {
      if ((shared ? Atomics.load(chunks, c) : chunks[c]) >= MADE) {
        c++;
        continue;
      }
      if (!claim(c)) {
        while (Atomics.load(chunks, c) < MADE) Atomics.wait(chunks, c, BEING_MADE, 1000);
        c++;
        continue;
      }
      // The run of chunks not made from c on, made at once.
      let next = c + 1;
      while (next <= last && claim(next)) next++;
      pending.generate(this.raw, (c * GENERATED_CHUNK) / size, Math.min((next * GENERATED_CHUNK) / size, this.length));
      for (let k = c; k < next; k++) {
        if (shared) {
          Atomics.store(chunks, k, MADE);
          Atomics.notify(chunks, k);
        } else chunks[k] = MADE;
      }
      c = next;
    }
    if (store) {
      for (let c = first; c <= last; c++) {
        if (chunks[c] === STORED) continue;
        if (shared) Atomics.store(chunks, c, STORED);
        else chunks[c] = STORED;
      }
    } else if (start === 0 && end >= this.byteLength) this.pending = undefined;
  }

  /**
   * The same bytes as elements of another type (`pto.castptr` from one GM pointer type to another): a buffer that
   * shares this one's storage, made whole first, so that neither makes a generated chunk over the other's stores.
   * Its stores mark the elements of this buffer they overlap as written; an observer (the race checker of a launch
   * of several cores) sees its accesses under the alias, not under this buffer.
   */
  retyped(elem: ElemType): GlobalBuffer {
    if (elem === this.elem) return this;
    this.materialize(0, this.byteLength);
    const sameSize = elemSize(elem) === this.codec.size;
    const alias = new GlobalBuffer(this.name, elem, this.raw, sameSize ? this.written : undefined);
    if (!sameSize) alias.writtenAlso = { buffer: this, ratio: elemSize(elem) / this.codec.size };
    alias.observer = this.observer;
    alias.placement = this.placement;
    return alias;
  }

  /** The buffer this one is a retyped alias of, whose elements its stores also mark (`ratio`: our size over its). */
  private writtenAlso?: { buffer: GlobalBuffer; ratio: number };

  private markWritten(index: number): void {
    this.written[index] = 1;
    const also = this.writtenAlso;
    if (also) {
      const first = Math.floor(index * also.ratio);
      const last = Math.ceil((index + 1) * also.ratio);
      for (let i = first; i < last && i < also.buffer.length; i++) also.buffer.written[i] = 1;
    }
  }

  /** The value of element `index` (decoded by its type). */
  readElement(index: number): Scalar {
    this.observer?.access(this, index, 'read');
    const at = index * this.codec.size;
    if (this.pending) this.materialize(at, at + this.codec.size);
    return this.codec.read(this.rawView, at);
  }

  /** Stores a value (already rounded to the element type) at element `index`. */
  writeElement(index: number, value: Scalar): void {
    this.observer?.access(this, index, 'write');
    const at = index * this.codec.size;
    if (this.pending) this.materialize(at, at + this.codec.size, true);
    this.codec.write(this.rawView, at, value);
    this.markWritten(index);
  }

  /** An atomic read-modify-write of element `index` (atomic add/max/min): `combine` gets the old value. */
  updateElement(index: number, combine: (old: Scalar) => Scalar): void {
    this.observer?.access(this, index, 'atomic');
    const at = index * this.codec.size;
    if (this.pending) this.materialize(at, at + this.codec.size, true);
    this.codec.write(this.rawView, at, combine(this.codec.read(this.rawView, at)));
    this.markWritten(index);
  }

  /** Copies the bits of element `index` to `to` at byte `at` (a transfer copies bits, never values: NaN payloads survive). */
  copyElementTo(index: number, to: Uint8Array, at: number): void {
    this.observer?.access(this, index, 'read');
    const size = this.codec.size;
    const from = index * size;
    if (this.pending) this.materialize(from, from + size);
    for (let k = 0; k < size; k++) to[at + k] = this.raw[from + k];
  }

  /** Copies an element's bits from `from` at byte `at` into element `index`. */
  copyElementFrom(index: number, from: Uint8Array, at: number): void {
    this.observer?.access(this, index, 'write');
    const size = this.codec.size;
    const to = index * size;
    if (this.pending) this.materialize(to, to + size, true);
    for (let k = 0; k < size; k++) this.raw[to + k] = from[at + k];
    this.markWritten(index);
  }
}

/** The initial bytes of a tile passed as an argument: the VM places the tile in its on-chip buffer when the run starts. */
export interface TileContents {
  kind: 'tile_contents';
  bytes: Uint8Array;
}

/** A pointer into global memory: `pto.addptr` moves it by whole elements. */
export interface Pointer {
  kind: 'pointer';
  buffer: GlobalBuffer;
  offset: number;
}

/** `make_tensor_view`: shape and strides in elements over a global buffer, from element `offset` on. */
export interface TensorView {
  kind: 'tensor_view';
  buffer: GlobalBuffer;
  shape: number[];
  strides: number[];
  offset: number;
}

/** `partition_view`: a box of a tensor view; `offset` is its first element in the buffer. */
export interface PartitionView {
  kind: 'partition_view';
  buffer: GlobalBuffer;
  shape: number[];
  strides: number[];
  offset: number;
}

/** A tile: its type, its bytes in an on-chip buffer, and its current valid region. */
export class Tile {
  readonly kind = 'tile';
  readonly codec: ElementCodec;
  readonly view: DataView;
  private readonly box: { rows: number; cols: number };
  /** Element strides of a none_box tile or window, precomputed for elementIndex; undefined for boxed layouts. */
  private readonly linear?: { row: number; col: number };
  /** The elements as a typed array (for the fast paths; undefined when the dtype has none or they are off). */
  readonly store?: ElementStore;
  /** The store with row and column strides, for a none_box tile or window. */
  private readonly strided?: StridedElements;

  constructor(
    readonly type: TileType,
    readonly buffer: string,
    readonly address: number,
    readonly bytes: Uint8Array,
    public vRow: number,
    public vCol: number,
    /** Element strides of a window (`pto.subset`) that keeps its parent's layout; none for a whole tile. */
    readonly strides?: { row: number; col: number },
    /**
     * A window of a boxed (fractal) tile keeps its parent's box grid: the parent's shape, which the layout of the
     * window's elements follows (its first element is at `address`, a whole number of boxes into the parent).
     */
    readonly frame?: { rows: number; cols: number },
    /** Whether the instructions' fast paths may use the elements as a typed array (off: every access takes get/set). */
    readonly fastPaths = true,
  ) {
    this.codec = codec(type.dtype);
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    if (strides) this.linear = strides;
    else if (type.slayout === 'none_box') this.linear = type.blayout === 'row_major' ? { row: type.cols, col: 1 } : { row: 1, col: type.rows };
    const store = fastPaths ? elementStore(type.dtype, bytes) : undefined;
    this.store = store;
    if (store && this.linear) {
      const { row, col } = this.linear;
      this.strided = { data: store.data, decode: store.decode, encode: store.encode, integer: store.integer, base: 0, row, col };
    }
    // A tile shorter than its box (a one-row GEMV Left, a one-row MX scale tile, which pto-isa allows) lays its
    // rows as boxes of its own height: the elements stay inside the tile's rows x cols.
    const box = innerBox(type);
    const rows = (frame ?? type).rows;
    this.box = rows < box.rows ? { rows, cols: box.cols } : box;
  }

  /** Element index of (r, c) in the tile's storage, per its layout (pto-isa GetTileOffset). */
  elementIndex(r: number, c: number): number {
    const linear = this.linear;
    if (linear) return r * linear.row + c * linear.col;
    const t = this.type;
    const { rows: ir, cols: ic } = this.box;
    const br = floor(r / ir);
    const bc = floor(c / ic);
    const inR = r % ir;
    const inC = c % ic;
    const boxSize = ir * ic;
    const { rows, cols } = this.frame ?? t;
    // Box columns (N*) or box rows (Z*) are laid one after another; a tile may be narrower than one box (a 1-row GEMV Left).
    const inner = t.slayout === 'col_major' ? inC * ir + inR : inR * ic + inC;
    if (t.blayout === 'col_major') return bc * rows * ic + br * boxSize + inner; // Nz : Nn
    return br * cols * ir + bc * boxSize + inner; // Zz : Zn
  }

  /**
   * How elementIndex moves along a row from column c: the next `columnRun(c)` columns (c among them) lie
   * `columnStep()` elements apart. A none_box tile's whole row is one run; a boxed tile's runs end with each box.
   */
  columnRun(c: number): number {
    if (this.linear) return Infinity;
    const width = this.box.cols;
    return width - (c % width);
  }

  columnStep(): number {
    if (this.linear) return this.linear.col;
    return this.type.slayout === 'col_major' ? this.box.rows : 1;
  }

  /**
   * The elements as a typed array with row and column strides, for the instruction fast paths: a none_box tile or
   * window of a dtype with a native array (f32, f16/bf16 as bits, 8- to 32-bit integers); undefined for boxed
   * layouts, the other dtypes and a run without fast paths, which take the general path.
   */
  elements(): StridedElements | undefined {
    return this.strided;
  }

  /** Element strides of a none_box tile or window. */
  elementStrides(): { row: number; col: number } {
    if (this.linear) return this.linear;
    const t = this.type;
    return t.blayout === 'row_major' ? { row: t.cols, col: 1 } : { row: 1, col: t.rows };
  }

  /** Whether the tile's elements fill one run of bytes in its own layout's order (so it can be reshaped). */
  isContiguous(): boolean {
    const t = this.type;
    if (this.frame) return t.blayout === 'col_major' ? this.frame.rows === t.rows : this.frame.cols === t.cols;
    if (!this.strides) return true;
    const natural = t.blayout === 'row_major' ? { row: t.cols, col: 1 } : { row: 1, col: t.rows };
    return (t.rows === 1 || this.strides.row === natural.row) && (t.cols === 1 || this.strides.col === natural.col);
  }

  get(r: number, c: number): number | bigint {
    return this.codec.read(this.view, this.byteOffset(r, c));
  }

  set(r: number, c: number, v: number | bigint): void {
    this.codec.write(this.view, this.byteOffset(r, c), v);
  }

  /** Element (r, c)'s first byte, checked against the tile's storage. */
  private byteOffset(r: number, c: number): number {
    const size = this.codec.size;
    const offset = this.elementIndex(r, c) * size;
    if (!(offset >= 0 && offset + size <= this.bytes.length)) {
      throw new OutsideStorage(
        `element (${r}, ${c}) is outside the tile's ${this.bytes.length}-byte storage (a ${this.type.rows}x${this.type.cols} ${this.type.dtype} tile)`,
      );
    }
    return offset;
  }

  /** Calls `f` for every position of the valid region, row by row. */
  forEachValid(f: (r: number, c: number) => void): void {
    for (let r = 0; r < this.vRow; r++) {
      for (let c = 0; c < this.vCol; c++) f(r, c);
    }
  }

  /** The raw bits of a 2- or 4-byte element: NaN payloads survive, which a decoded number may not keep. */
  getBits(r: number, c: number): number {
    const offset = this.byteOffset(r, c);
    return this.codec.size === 2 ? this.view.getUint16(offset, true) : this.view.getUint32(offset, true);
  }

  setBits(r: number, c: number, bits: number): void {
    const offset = this.byteOffset(r, c);
    if (this.codec.size === 2) this.view.setUint16(offset, bits, true);
    else this.view.setUint32(offset, bits >>> 0, true);
  }
}

/** pto-isa npu/a5/utils.hpp: a scale tile's address is its Left/Right tile's address >> SHIFT_MX_ADDR. */
export const SHIFT_MX_ADDR = 4;

/** The scale space beside a Left/Right tile's buffer (see OnChipMemory.placeMxScale). */
export const mxScaleBuffer = (buffer: string): string => `${buffer}_MX`;

/**
 * A function's tiles as memory planning laid them out (src/verify/memory-plan.ts): in each buffer, one region of
 * `extents` bytes that the VM places once, and each tile at its offset in it. A tile whose space was a dead tile's
 * shares those bytes; tiles live at the same time never do.
 */
export interface PlannedFrame {
  /** The function's name, for messages. */
  name: string;
  /** Bytes of each buffer the function's planned tiles need, by buffer (`UB`). */
  extents: ReadonlyMap<string, number>;
  /** Buffers whose tiles fit when counted but could not be laid out without overlapping live ones. */
  unplaced: ReadonlySet<string>;
}

/** The on-chip buffers of a target (UB, L1, L0A/B/C, ...), each with its real capacity. */
export class OnChipMemory {
  private readonly memories = new Map<string, Uint8Array>();
  private readonly used = new Map<string, number>();
  /** Where each function's planned tiles begin in each buffer (placed once, at the function's first tile there). */
  private readonly frames = new Map<PlannedFrame, Map<string, number>>();
  /** Bytes given to tiles without planned storage so far, by buffer (see `unplanned`). */
  private readonly outside = new Map<string, number>();

  constructor(
    private readonly spec: Isa,
    readonly target: TargetName,
    /** Whether the tiles' element accesses may take the typed-array fast path (RunOptions.fastPaths). */
    private readonly fastPaths = true,
    /**
     * Whether the vector buffer lives in a WebAssembly memory, where the vector kernels run on its tiles in place
     * (RunOptions.fastPaths true); it falls back to plain bytes when the host cannot give one.
     */
    private readonly kernelBacked = false,
  ) {}

  capacity(buffer: string): number {
    return this.spec.buffers[this.target][buffer] ?? 0;
  }

  /** Places a tile after the ones already placed (32-byte aligned); overflow is a trap naming the op. */
  allocate(type: TileType, opName: string, span: Span): Tile {
    const buffer = this.spec.locationBuffer[type.loc];
    const size = tileBytes(type);
    const capacity = this.capacity(buffer);
    const start = Math.ceil((this.used.get(buffer) ?? 0) / this.spec.alignment) * this.spec.alignment;
    if (start + size > capacity) {
      throw vmTrap(
        `${opName}: out of ${buffer} memory: this ${type.rows}x${type.cols} ${type.dtype} tile needs ${size} bytes at offset ${start}, ` +
          `but the ${buffer} of ${this.target} has ${capacity} bytes (${start} already allocated)`,
        span,
      );
    }
    this.used.set(buffer, start + size);
    return this.tileAt(type, buffer, start);
  }

  /**
   * Places a tile where memory planning put it (src/verify/memory-plan.ts): at its offset in its function's planned
   * region of the buffer, which is placed after what is placed already the first time one of its tiles is (aligned
   * as planning aligns). Tiles the plan gave the same bytes share them: planning saw that they are never live at once.
   */
  placePlanned(type: TileType, frame: PlannedFrame, offset: number, opName: string, span: Span): Tile {
    const buffer = this.spec.locationBuffer[type.loc];
    if (frame.unplaced.has(buffer)) {
      throw vmTrap(
        `${opName}: laying out the ${buffer} tiles of @${frame.name} so that no two live at once overlap is not implemented yet ` +
          `(they fit when counted, but not in the order this planner places them)`,
        span,
      );
    }
    let bases = this.frames.get(frame);
    if (!bases) this.frames.set(frame, (bases = new Map()));
    let base = bases.get(buffer);
    if (base === undefined) {
      const extent = frame.extents.get(buffer) ?? 0;
      const align = this.spec.planning.alignment[buffer] ?? this.spec.alignment;
      const capacity = this.capacity(buffer);
      base = Math.ceil((this.used.get(buffer) ?? 0) / align) * align;
      if (base + extent > capacity) {
        throw vmTrap(
          `${opName}: out of ${buffer} memory: the tiles of @${frame.name} need ${extent} bytes at once (as planned, reusing dead tiles' space) at offset ${base}, ` +
            `but the ${buffer} of ${this.target} has ${capacity} bytes (${base} already allocated)`,
          span,
        );
      }
      this.used.set(buffer, base + extent);
      bases.set(buffer, base);
    }
    return this.tileAt(type, buffer, base + offset);
  }

  /**
   * Storage for a tile planning gives none (PTOAS leaves it without an address: nothing uses it, or only as a scratch
   * operand its target never touches): bytes of its own, at an address past the buffer's end, where it overlaps no
   * tile and the synchronization checker sees none of its accesses.
   */
  unplanned(type: TileType): Tile {
    const buffer = this.spec.locationBuffer[type.loc];
    const at = this.outside.get(buffer) ?? 0;
    this.outside.set(buffer, at + Math.ceil(tileBytes(type) / this.spec.alignment) * this.spec.alignment);
    const bytes = new Uint8Array(tileBytes(type));
    return new Tile(type, buffer, this.capacity(buffer) + at, bytes, type.vRow ?? type.rows, type.vCol ?? type.cols, undefined, undefined, this.fastPaths);
  }

  /**
   * Places a tile at a given byte offset of its buffer (`alloc_tile addr = %a`, manual placement):
   * tiles may alias each other; automatic placement does not avoid them.
   */
  place(type: TileType, address: number, opName: string, span: Span): Tile {
    const buffer = this.spec.locationBuffer[type.loc];
    const size = tileBytes(type);
    const capacity = this.capacity(buffer);
    if (!Number.isInteger(address) || address < 0 || address % this.spec.alignment !== 0) {
      throw vmTrap(`${opName}: address ${address} is not a ${this.spec.alignment}-byte aligned offset in the ${buffer}`, span);
    }
    if (address + size > capacity) {
      throw vmTrap(`${opName}: a ${size}-byte tile at address ${address} ends past the ${capacity}-byte ${buffer} of ${this.target}`, span);
    }
    return this.tileAt(type, buffer, address);
  }

  /**
   * Reserves `size` bytes of a buffer (`pto.reserve_buffer`): at `base` when given (the author placed it), else
   * after what is placed already (32-byte aligned). Its byte offset.
   */
  reserve(loc: string, size: number, base: number | undefined, opName: string, span: Span): number {
    const buffer = this.spec.locationBuffer[loc as TileType['loc']];
    const capacity = this.capacity(buffer);
    const start = base ?? Math.ceil((this.used.get(buffer) ?? 0) / this.spec.alignment) * this.spec.alignment;
    if (start + size > capacity) throw vmTrap(`${opName}: ${size} bytes at offset ${start} end past the ${capacity}-byte ${buffer} of ${this.target}`, span);
    if (base === undefined) this.used.set(buffer, start + size);
    return start;
  }

  /**
   * The scale tile of an MX matmul input (pto.tget_scale_addr): A5 keeps the E8M0 scales of a Left (Right) tile in
   * a scale space beside L0A (L0B), at the input's address shifted right by SHIFT_MX_ADDR (pto-isa
   * npu/a5/utils.hpp GetScaleAddr, 4), where the cube's mad_mx finds them. The VM models that space as a buffer of
   * its own, `L0A_MX` / `L0B_MX`, of the input buffer's capacity shifted alike.
   */
  placeMxScale(type: TileType, of: Tile, opName: string, span: Span): Tile {
    const buffer = mxScaleBuffer(of.buffer);
    const address = of.address >> SHIFT_MX_ADDR;
    const capacity = this.capacity(of.buffer) >> SHIFT_MX_ADDR;
    const size = tileBytes(type);
    if (address + size > capacity) {
      throw vmTrap(`${opName}: a ${size}-byte scale tile at ${buffer} address ${address} ends past the ${capacity}-byte scale space of ${of.buffer}`, span);
    }
    return this.tileAt(type, buffer, address, capacity);
  }

  /** The buffer of a tile location (`vec`: the UB). */
  bufferOf(loc: TileType['loc']): string {
    return this.spec.locationBuffer[loc];
  }

  /** The bytes [start, start + length) of a buffer, read or written in place by the micro-level ops; outside it traps. */
  bytesAt(buffer: string, start: number, length: number, opName: string, span: Span): Uint8Array {
    const capacity = this.capacity(buffer);
    if (!Number.isInteger(start) || start < 0 || start + length > capacity) {
      throw vmTrap(`${opName}: bytes ${start}..${start + length} are outside the ${capacity}-byte ${buffer} of ${this.target}`, span);
    }
    let memory = this.memories.get(buffer);
    if (!memory) this.memories.set(buffer, (memory = new Uint8Array(capacity)));
    return memory.subarray(start, start + length);
  }

  private tileAt(type: TileType, buffer: string, start: number, capacity = this.capacity(buffer)): Tile {
    let memory = this.memories.get(buffer);
    if (!memory) {
      const backed = this.kernelBacked && buffer === this.spec.locationBuffer.vec ? kernelBackedBuffer(capacity) : undefined;
      memory = backed ?? new Uint8Array(capacity);
      this.memories.set(buffer, memory);
    }
    const bytes = memory.subarray(start, start + tileBytes(type));
    return new Tile(type, buffer, start, bytes, type.vRow ?? type.rows, type.vCol ?? type.cols, undefined, undefined, this.fastPaths);
  }
}
