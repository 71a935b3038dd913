import { Span } from '../../diag/source';
import { BoundOp } from '../../ir/bound';
import { CoreKind, Execution, Executor, HappensBefore } from '../../ir/definition';
import { TensorView, Tile } from '../../machine/memory';
import { vmTrap } from '../../machine/trap';
import { PipeHandle, Value } from '../../machine/value';
import { FixpipeConvert, QuantForm, fixpipeConverter } from '../../numerics/fixpipe';
import { Attr, attrOf } from '../../syntax/ast';
import { ElemType, TileType, elemSize } from '../../types/type';
import { DeclaredBinding } from '../define/declared';
import { AccPushEpilogue, decodeEpilogue } from './fixpipe-epilogue';
import { QUANT_TILES, holdsQuantWords, quantWords } from '../instructions/semantics/fixpipe';

/**
 * How the VM runs the pipes between the cube core and the vector cores of a block (docs/pipes.md). Each direction of
 * a pipe is a channel of `slot_num` slots, shared by the cores of one block: the producer waits for a free slot, fills
 * it and pushes it; every consumer pops the slots in FIFO order and frees them. As on the NPU, where the pipe's flags
 * are FFTS signals between the cube core and each vector core of its block, every vector core takes part in every
 * transfer: cube -> vector, each vector core pops each entry (split 0: all of it; split 1/2: its half of the rows /
 * columns) and the slot is free once each has freed it; vector -> cube, each vector core pushes its part (split 0:
 * the whole entry; 1/2: its half) and the cube pops the entry once every part is in. A push hands its core's clock
 * with the slot and the pop takes it in; a free hands the consumer's clock back to the producer that reuses the slot.
 */

type Direction = 'c2v' | 'v2c';

/** What a consumer reads from an entry: its element (r, c), in the entry's own (producer's) element type. */
interface Part {
  rowOffset: number;
  colOffset: number;
  rows: number;
  cols: number;
  values: (number | bigint)[];
  elem: ElemType;
  /** A push from an acc tile: the fixpipe conversion the pipe's epilogue asks for, with the quant words of the push. */
  fixpipe?: { epilogue: AccPushEpilogue; words: bigint[] | bigint | undefined; site: 'tmov' | 'tstore' };
  /** The producer's op (for reports). */
  span: Span;
}

interface Entry {
  /** The producers' parts (tile entries), by producer lane; a GM entry's commit has no part. */
  parts: Map<number, Part | undefined>;
  pushClocks: HappensBefore[];
  frees: number;
  freeClocks: HappensBefore[];
}

/** One direction of one pipe in one block. */
class Channel {
  readonly entries = new Map<number, Entry>();
  /** Per producer lane: the next entry it fills; whether it holds a talloc'd GM slot for it. */
  readonly produced: number[];
  readonly allocated: boolean[];
  /** Per consumer lane: the next entry it pops, and the next it frees. */
  readonly popped: number[];
  readonly freed: number[];
  /** The clocks of the frees of each entry index, for the producer that reuses its slot. */
  readonly released = new Map<number, HappensBefore[]>();

  constructor(
    readonly dir: Direction,
    readonly slotNum: number,
    readonly slotSize: number,
    readonly producers: number,
    readonly consumers: number,
  ) {
    this.produced = new Array<number>(producers).fill(0);
    this.allocated = new Array<boolean>(producers).fill(false);
    this.popped = new Array<number>(consumers).fill(0);
    this.freed = new Array<number>(consumers).fill(0);
  }

  /** Whether entry `index`'s slot is free: its previous occupant was freed by every consumer. */
  slotFree(index: number): boolean {
    const previous = index - this.slotNum;
    return previous < 0 || this.freed.every((f) => f > previous);
  }

  entry(index: number): Entry {
    let e = this.entries.get(index);
    if (!e) this.entries.set(index, (e = { parts: new Map(), pushClocks: [], frees: 0, freeClocks: [] }));
    return e;
  }

  /** Entry `index` is complete: every producer pushed its part. */
  filled(index: number): boolean {
    return (this.entries.get(index)?.parts.size ?? 0) === this.producers;
  }
}

/** One core's end of a pipe: the channels of its directions, its local consumer slots, its GM slots. */
interface PipeEnds {
  channels: Partial<Record<Direction, Channel>>;
  /** Byte offsets of the consumer slot buffers in the consuming core's buffer, per direction. */
  consumerBuffer: Partial<Record<Direction, number>>;
  /** How many local slots the consumer buffer has (`local_slot_num` on a2a3, else slot_num). */
  localSlots: number;
  slotSize: number;
  gmSlots?: TensorView;
  epilogue?: AccPushEpilogue;
  /** The quant parameters the next push applies (set_quant_scalar / set_quant_vector). */
  quant?: bigint[] | bigint;
}

const notModelled = (what: string, span: Span) => vmTrap(`${what} is not implemented yet`, span);

function intAttr(b: DeclaredBinding, name: string): number | undefined {
  const a: Attr | undefined = b.attrs[name];
  return a?.kind === 'int' ? Number(a.value) : undefined;
}

/** This core's kind: pipes join the cube core and the vector cores of a mixed kernel's launch. */
function kindOf(x: Executor, op: BoundOp): CoreKind {
  if (!x.core.kind)
    throw vmTrap(`${op.node.name}: a pipe joins a cube core and vector cores: run a mixed kernel (cube and vector code) as a launch`, op.node.nameSpan);
  return x.core.kind;
}

/** The pipe ends this core's frontend initializations made, by `id`. */
function endsById(x: Executor): Map<number, PipeEnds> {
  return x.shared('launch', `pipe-ends:${x.core.block}:${x.core.kind}:${x.core.subblock}`, () => new Map<number, PipeEnds>());
}

/** Reserved consumer buffers of a block, by `kind:name`: what import_reserved_buffer reads. */
function reservedBuffers(x: Executor): Map<string, number> {
  return x.shared('launch', `reserved-buffers:${x.core.block}`, () => new Map<string, number>());
}

export function reserveBuffer(x: Executor, op: BoundOp, b: DeclaredBinding): void {
  const kind = kindOf(x, op);
  const name = b.attrs.name?.kind === 'string' ? b.attrs.name.value : '';
  const location = locationOf(op);
  const size = intAttr(b, 'size') ?? 0;
  const auto = b.attrs.auto?.kind === 'bool' && b.attrs.auto.value;
  const address = x.storage(op, 'reserved', () => BigInt(x.memory.reserve(location, size, auto ? undefined : intAttr(b, 'base'), op.node.name, op.node.span)));
  reservedBuffers(x).set(`${kind}:${name}`, Number(address));
  x.setResults(op, [address]);
}

/** The address space a reserve_buffer names (`#pto.address_space<vec>`). */
function locationOf(op: BoundOp): string {
  const a = attrOf(op.node, 'location');
  const text = a?.kind === 'dialect' ? a.text : '';
  const m = /(vec|mat)/.exec(text);
  if (!m) throw notModelled(`${op.node.name} in ${text || 'this location'}`, op.node.span);
  return m[1];
}

/** The peer function's reserved buffer: its core reserves it when it starts, so the import waits for that. */
export function* importReservedBuffer(x: Executor, op: BoundOp, b: DeclaredBinding): Execution {
  const peer: CoreKind = kindOf(x, op) === 'cube' ? 'vector' : 'cube';
  const name = b.attrs.name?.kind === 'string' ? b.attrs.name.value : '';
  const buffers = reservedBuffers(x);
  const key = `${peer}:${name}`;
  yield { what: `the ${peer} core to reserve buffer "${name}"`, ready: () => buffers.has(key) };
  x.setResults(op, [BigInt(buffers.get(key)!)]);
}

interface InitSpec {
  dir: number;
  slotSize: number;
  slotNum: number;
  localSlots: number;
  c2vBuffer?: Value;
  v2cBuffer?: Value;
  gmSlots?: Value;
  epilogue?: AccPushEpilogue;
}

/** The configuration of an initialization, frontend (`aic_initialize_pipe`) or lowered (`initialize_l2l_pipe`). */
function initSpec(x: Executor, op: BoundOp, b: DeclaredBinding): InitSpec {
  const dir = intAttr(b, 'dir_mask') ?? 0;
  const slotNum = intAttr(b, 'slot_num') ?? (dir === 3 ? 4 : 8);
  const localSlots = x.target === 'a5' ? slotNum : (intAttr(b, 'local_slot_num') ?? slotNum);
  const value = (name: string) => (b.operands[name] ? x.operand(op, b.operands[name][0]) : undefined);
  const epilogueAttr = b.attrs.acc_push_epilogue;
  const decoded = epilogueAttr?.kind === 'dialect' ? decodeEpilogue(epilogueAttr.text) : undefined;
  const epilogue = decoded && 'epilogue' in decoded ? decoded.epilogue : undefined;
  const spec: InitSpec = { dir, slotNum, localSlots, slotSize: intAttr(b, 'slot_size') ?? 0, epilogue };
  if (b.operands.c2v_consumer_buf || b.operands.v2c_consumer_buf || b.operands.gm_slot_tensor || b.operands.gm_slot_buffer) {
    spec.c2vBuffer = value('c2v_consumer_buf');
    spec.v2cBuffer = value('v2c_consumer_buf');
    spec.gmSlots = value('gm_slot_tensor');
    return spec;
  }
  // Lowered: local_addr is the consumer buffer of the pipe's (first) direction, peer_local_addr the V2C one of a two-way pipe.
  const local = value('local_addr');
  const peer = value('peer_local_addr');
  if (dir === 2) spec.v2cBuffer = local;
  else spec.c2vBuffer = local;
  if (dir === 3) spec.v2cBuffer = peer;
  const gm = value('gm_addr');
  if (gm && typeof gm === 'object' && 'kind' in gm && gm.kind === 'tensor_view' && local === undefined) spec.gmSlots = gm;
  return spec;
}

function makeEnds(x: Executor, op: BoundOp, spec: InitSpec): PipeEnds {
  const kind = kindOf(x, op);
  const gm = spec.gmSlots && typeof spec.gmSlots === 'object' && 'kind' in spec.gmSlots && spec.gmSlots.kind === 'tensor_view' ? spec.gmSlots : undefined;
  const ends: PipeEnds = { channels: {}, consumerBuffer: {}, localSlots: spec.localSlots, slotSize: spec.slotSize, gmSlots: gm, epilogue: spec.epilogue };
  const directions: Direction[] = spec.dir === 1 ? ['c2v'] : spec.dir === 2 ? ['v2c'] : spec.dir === 3 ? ['c2v', 'v2c'] : [];
  for (const dir of directions) {
    const buffer = dir === 'c2v' ? spec.c2vBuffer : spec.v2cBuffer;
    // The two ends of a pipe name the same consumer buffer (one reserves it, the other imports it), or the same GM slots.
    let key: string;
    if (typeof buffer === 'bigint') key = `local:${buffer}`;
    else if (gm) key = `gm:${gm.buffer.name}:${gm.offset}`;
    else throw notModelled(`${op.node.name} without a consumer buffer or GM slot tensor for its ${dir} direction`, op.node.span);
    if (typeof buffer === 'bigint' && (dir === 'c2v') === (kind === 'vector')) ends.consumerBuffer[dir] = Number(buffer);
    const vectors = x.core.subblocks;
    const channel = x.shared(
      'launch',
      `pipe:${x.core.block}:${dir}:${key}`,
      () => new Channel(dir, spec.slotNum, spec.slotSize, dir === 'c2v' ? 1 : vectors, dir === 'c2v' ? vectors : 1),
    );
    if (channel.slotNum !== spec.slotNum || channel.slotSize !== spec.slotSize)
      throw vmTrap(
        `${op.node.name}: this end has ${spec.slotNum} slots of ${spec.slotSize} bytes, the other ${channel.slotNum} of ${channel.slotSize}`,
        op.node.span,
      );
    ends.channels[dir] = channel;
  }
  return ends;
}

export function initializeFrontendPipe(x: Executor, op: BoundOp, b: DeclaredBinding): void {
  endsById(x).set(intAttr(b, 'id') ?? 0, makeEnds(x, op, initSpec(x, op, b)));
}

export function initializeLoweredPipe(x: Executor, op: BoundOp, b: DeclaredBinding): void {
  const handle: PipeHandle = { kind: 'pipe', ends: makeEnds(x, op, initSpec(x, op, b)) };
  x.setResults(op, [handle]);
}

/** The pipe a data op uses: by `id` (frontend) or its `!pto.pipe` operand (lowered). */
function endsOf(x: Executor, op: BoundOp, b: DeclaredBinding): PipeEnds {
  kindOf(x, op);
  if (b.operands.pipe_handle) {
    const v = x.operand(op, b.operands.pipe_handle[0]);
    if (typeof v === 'object' && 'kind' in v && v.kind === 'pipe') return v.ends as PipeEnds;
    throw vmTrap(`${op.node.name}: the pipe operand is not a pipe`, op.node.operands[b.operands.pipe_handle[0]].span);
  }
  const id = intAttr(b, 'id') ?? 0;
  const ends = endsById(x).get(id);
  if (!ends) throw vmTrap(`${op.node.name}: pipe ${id} is not initialized on this core (its initialize_pipe has not run)`, op.node.span);
  return ends;
}

/** The direction this core's op takes part in: a producer pushes away from its kind, a consumer pops towards it. */
function channelOf(x: Executor, op: BoundOp, ends: PipeEnds, role: 'producer' | 'consumer'): { channel: Channel; lane: number } {
  const kind = kindOf(x, op);
  const dir: Direction = (kind === 'cube') === (role === 'producer') ? 'c2v' : 'v2c';
  const channel = ends.channels[dir];
  if (!channel) throw vmTrap(`${op.node.name}: the pipe has no ${dir === 'c2v' ? 'cube -> vector' : 'vector -> cube'} direction`, op.node.span);
  const lane = kind === 'vector' ? x.core.subblock : 0;
  if (lane >= (role === 'producer' ? channel.producers : channel.consumers))
    throw vmTrap(`${op.node.name}: vector core ${lane} has no lane in the pipe`, op.node.span);
  return { channel, lane };
}

const split = (b: DeclaredBinding): number => intAttr(b, 'split') ?? 0;

function checkSplit(op: BoundOp, b: DeclaredBinding, x: Executor): number {
  const s = split(b);
  if (s === 3 || s === 4) throw notModelled(`${op.node.name} with an odd split (split = ${s})`, op.node.span);
  if (s !== 0 && x.core.subblocks !== 2)
    throw notModelled(`${op.node.name} with split = ${s} on a launch of ${x.core.subblocks} vector cores per block`, op.node.span);
  return s;
}

/** Waits for the slot of the producer lane's next entry to be free, and takes in the clocks of the frees. */
function* waitForSlot(x: Executor, op: BoundOp, channel: Channel, lane: number): Execution {
  const index = channel.produced[lane];
  const full = () => Math.min(channel.slotNum, index - Math.min(...channel.freed));
  yield { what: `a free slot of the pipe (${full()} of ${channel.slotNum} slots in use)`, ready: () => channel.slotFree(index) };
  for (const clock of channel.released.get(index - channel.slotNum) ?? []) x.acquire(clock);
  channel.released.delete(index - channel.slotNum);
  void op;
}

function isTensorView(v: Value): v is TensorView {
  return typeof v === 'object' && 'kind' in v && v.kind === 'tensor_view';
}

function isTile(v: Value): v is Tile {
  return typeof v === 'object' && 'kind' in v && v.kind === 'tile';
}

/** The view of GM slot `index` (a global entry). */
function gmSlotView(op: BoundOp, ends: PipeEnds, index: number, slotNum: number): TensorView {
  const gm = ends.gmSlots;
  if (!gm) throw vmTrap(`${op.node.name}: a GM (tensor_view) entry needs a pipe with GM slots (gm_slot_tensor)`, op.node.span);
  const elements = ends.slotSize / elemSize(gm.buffer.elem);
  return { ...gm, shape: [...gm.shape], strides: [...gm.strides], offset: gm.offset + (index % slotNum) * elements };
}

/** talloc: the producer takes the next free GM slot and gets a view of it to fill. */
export function* allocEntry(x: Executor, op: BoundOp, b: DeclaredBinding): Execution {
  const ends = endsOf(x, op, b);
  const { channel, lane } = channelOf(x, op, ends, 'producer');
  if (split(b) !== 0) throw notModelled(`${op.node.name} of a split GM entry (split = ${split(b)})`, op.node.span);
  if (channel.allocated[lane]) throw vmTrap(`${op.node.name}: this core already holds a slot it has not pushed`, op.node.span);
  yield* waitForSlot(x, op, channel, lane);
  channel.allocated[lane] = true;
  const view = gmSlotView(op, ends, channel.produced[lane], channel.slotNum);
  if (b.operands.entry) Object.assign(x.operand(op, b.operands.entry[0]) as TensorView, view);
  else x.setResults(op, [view]);
}

/** tpush: a tile entry is copied into the next free slot; a GM entry (filled after talloc) is committed. */
export function* pushEntry(x: Executor, op: BoundOp, b: DeclaredBinding): Execution {
  const ends = endsOf(x, op, b);
  const { channel, lane } = channelOf(x, op, ends, 'producer');
  const s = checkSplit(op, b, x);
  const source = x.operand(op, b.operands.tile[0]);
  if (b.operands.aiv_subblockid) throw notModelled(`${op.node.name} with aiv_subblockid`, op.node.span);
  let part: Part | undefined;
  if (isTensorView(source)) {
    if (!channel.allocated[lane]) throw vmTrap(`${op.node.name}: a GM entry is pushed after its talloc, which has not run`, op.node.span);
    if (s !== 0) throw notModelled(`${op.node.name} of a split GM entry (split = ${s})`, op.node.span);
    channel.allocated[lane] = false;
  } else if (isTile(source)) {
    yield* waitForSlot(x, op, channel, lane);
    part = partOf(x, op, source, channel, lane, s, ends);
  } else throw vmTrap(`${op.node.name}: the entry is not a tile or a tensor view`, op.node.span);
  const index = channel.produced[lane]++;
  const entry = channel.entry(index);
  entry.parts.set(lane, part);
  entry.pushClocks.push(x.release());
}

/** What a push puts in its slot: the tile's valid region (vector -> cube split: at its half of the entry). */
function partOf(x: Executor, op: BoundOp, tile: Tile, channel: Channel, lane: number, s: number, ends: PipeEnds): Part {
  const rows = tile.vRow;
  const cols = tile.vCol;
  const bytes = rows * cols * elemSize(tile.type.dtype) * (channel.dir === 'v2c' && s !== 0 ? 2 : 1);
  if (bytes > channel.slotSize && !ends.epilogue)
    throw vmTrap(
      `${op.node.name}: a ${rows}x${cols} ${tile.type.dtype} entry (${bytes} bytes) does not fit the pipe's ${channel.slotSize}-byte slots`,
      op.node.span,
    );
  const values: (number | bigint)[] = [];
  for (let r = 0; r < rows; r++) for (let c = 0; c < cols; c++) values.push(tile.get(r, c));
  const v2cSplit = channel.dir === 'v2c' && s !== 0;
  const part: Part = {
    rowOffset: v2cSplit && s === 1 ? lane * rows : 0,
    colOffset: v2cSplit && s === 2 ? lane * cols : 0,
    rows,
    cols,
    values,
    elem: tile.type.dtype,
    span: op.node.span,
  };
  if (tile.type.loc === 'acc') {
    if (!ends.epilogue && channel.dir === 'c2v') return part;
    if (ends.epilogue) part.fixpipe = { epilogue: ends.epilogue, words: ends.quant, site: x.target === 'a5' ? 'tmov' : 'tstore' };
  }
  return part;
}

/** tpop: the consumer lane's next entry, once every producer has pushed its part: a tile in a local slot, or a GM view. */
export function* popEntry(x: Executor, op: BoundOp, b: DeclaredBinding): Execution {
  const ends = endsOf(x, op, b);
  const { channel, lane } = channelOf(x, op, ends, 'consumer');
  const s = checkSplit(op, b, x);
  if (b.operands.aiv_subblockid) throw notModelled(`${op.node.name} with aiv_subblockid`, op.node.span);
  const index = channel.popped[lane];
  yield {
    what: `an entry of the pipe (${channel.producers > 1 ? 'every vector core to push' : 'the cube core to push'} entry ${index})`,
    ready: () => channel.filled(index),
  };
  const entry = channel.entries.get(index)!;
  for (const clock of entry.pushClocks) x.acquire(clock);
  channel.popped[lane]++;
  const parts = [...entry.parts.values()];
  const resultType = op.results.length > 0 ? op.resultTypes[0] : undefined;
  const declared = b.operands.tile ? x.operand(op, b.operands.tile[0]) : undefined;
  const wantsView = resultType?.kind === 'tensor_view' || (declared !== undefined && isTensorView(declared));
  if (wantsView) {
    if (s !== 0) throw notModelled(`${op.node.name} of a split GM entry (split = ${s})`, op.node.span);
    const view = gmSlotView(op, ends, index, channel.slotNum);
    if (declared) Object.assign(declared as TensorView, view);
    else x.setResults(op, [view]);
    return;
  }
  if (parts.some((p) => p === undefined)) throw vmTrap(`${op.node.name}: the entry was pushed as a GM entry; pop it as a tensor_view`, op.node.span);
  const tile = consumerTile(x, op, b, ends, channel, index, resultType, declared);
  const rowOffset = channel.dir === 'c2v' && s === 1 ? lane * tile.vRow : 0;
  const colOffset = channel.dir === 'c2v' && s === 2 ? lane * tile.vCol : 0;
  fill(x, op, tile, parts as Part[], rowOffset, colOffset);
  if (!declared) x.setResults(op, [tile]);
}

/** The popped tile: in its slot of the consumer buffer (a pop's result), or the declared tile of a lowered pop. */
function consumerTile(
  x: Executor,
  op: BoundOp,
  b: DeclaredBinding,
  ends: PipeEnds,
  channel: Channel,
  index: number,
  resultType: BoundOp['resultTypes'][number] | undefined,
  declared: Value | undefined,
): Tile {
  if (declared !== undefined) {
    if (!isTile(declared)) throw vmTrap(`${op.node.name}: the entry is not a tile`, op.node.span);
    return declared;
  }
  if (resultType?.kind !== 'tile') throw vmTrap(`${op.node.name}: the result is not a tile`, op.node.span);
  const base = ends.consumerBuffer[channel.dir];
  const type = resultType as TileType;
  const tile =
    base === undefined
      ? x.storage(op, 'popped', () => x.memory.allocate(type, op.node.name, op.node.span))
      : x.memory.place(type, base + (index % ends.localSlots) * ends.slotSize, op.node.name, op.node.span);
  if (b.operands.valid_row) {
    tile.vRow = x.index(op, b.operands.valid_row[0]);
    tile.vCol = x.index(op, b.operands.valid_col[0]);
  }
  return tile;
}

/** Writes the entry's elements (from `rowOffset`, `colOffset` of it) into the tile's valid region, converting as the pipe says. */
function fill(x: Executor, op: BoundOp, tile: Tile, parts: Part[], rowOffset: number, colOffset: number): void {
  const to = tile.type.dtype;
  const converters = new Map<Part, (v: number | bigint, c: number) => number | bigint>();
  const converterOf = (part: Part) => {
    let f = converters.get(part);
    if (!f) converters.set(part, (f = converter(x, op, part, to)));
    return f;
  };
  if (parts.length > 1 && parts.every((p) => p.rowOffset === 0 && p.colOffset === 0) && parts.some((p) => p.values.some((v, i) => v !== parts[0].values[i])))
    x.note(`${op.node.name}: the vector cores pushed different whole (split 0) entries into one slot; the cube reads the last one`);
  tile.forEachValid((r, c) => {
    const er = r + rowOffset;
    const ec = c + colOffset;
    let part: Part | undefined;
    for (const p of parts) if (er >= p.rowOffset && er < p.rowOffset + p.rows && ec >= p.colOffset && ec < p.colOffset + p.cols) part = p;
    if (!part) {
      throw vmTrap(
        `${op.node.name}: the ${tile.vRow}x${tile.vCol} tile reads element (${er}, ${ec}) of the entry, which the push did not fill (${parts.map((p) => `${p.rows}x${p.cols}`).join(', ')})`,
        op.node.span,
      );
    }
    const value = part.values[(er - part.rowOffset) * part.cols + (ec - part.colOffset)];
    tile.set(r, c, converterOf(part)(value, ec));
  });
}

const QUANT_FORM: Record<string, QuantForm> = { scalar: 'scalar', vec: 'vector' };

/** The conversion from the entry's elements to the consumer's: none, or the fixpipe's under the pipe's epilogue. */
function converter(x: Executor, op: BoundOp, part: Part, to: ElemType): (v: number | bigint, c: number) => number | bigint {
  const fixpipe = part.fixpipe;
  if (!fixpipe) {
    if (part.elem !== to) throw notModelled(`${op.node.name} from a ${part.elem} entry into a ${to} tile without an acc_push_epilogue`, op.node.span);
    return (v) => v;
  }
  const { quant, relu, layout } = fixpipe.epilogue;
  void layout; // the layouts (nz2nd, nz2dn, nz2nz) are the consumer tile's own: elements are copied by position.
  const form: QuantForm = quant === 'no_convert' ? 'none' : (QUANT_FORM[quant.replace(/.*_/, '')] ?? 'none');
  if (quant !== 'no_convert' && form === 'none') throw notModelled(`${op.node.name} with quant = ${quant}`, op.node.span);
  const words = fixpipe.words;
  if (form === 'scalar' && typeof words !== 'bigint')
    throw vmTrap(`${op.node.name}: quant = ${quant} needs a pto.set_quant_scalar on the pipe before the push`, part.span);
  if (form === 'vector' && !Array.isArray(words))
    throw vmTrap(`${op.node.name}: quant = ${quant} needs a pto.set_quant_vector on the pipe before the push`, part.span);
  const convert: FixpipeConvert | string = fixpipeConverter({
    from: part.elem,
    to,
    form,
    relu: relu === 'normal_relu',
    profile: x.numerics,
    site: form === 'vector' && fixpipe.site === 'tmov' ? 'tmov.fp' : fixpipe.site,
  });
  if (typeof convert === 'string') throw notModelled(`${op.node.name} from ${part.elem} to ${to} (${convert})`, op.node.span);
  return (v, c) => {
    const word = form === 'scalar' ? (words as bigint) : form === 'vector' ? ((words as bigint[])[c] ?? 0n) : 0n;
    return convert(Number(v), word);
  };
}

/** tfree: the consumer lane gives back its oldest popped entry; the slot is free once every consumer has. */
export function freeEntry(x: Executor, op: BoundOp, b: DeclaredBinding): void {
  const ends = endsOf(x, op, b);
  const { channel, lane } = channelOf(x, op, ends, 'consumer');
  checkSplit(op, b, x);
  const index = channel.freed[lane];
  if (index >= channel.popped[lane]) throw vmTrap(`${op.node.name}: this core has no popped entry of the pipe to free`, op.node.span);
  channel.freed[lane]++;
  const entry = channel.entries.get(index)!;
  entry.freeClocks.push(x.release());
  if (++entry.frees === channel.consumers) {
    channel.released.set(index, entry.freeClocks);
    channel.entries.delete(index);
  }
}

/** set_quant_scalar / set_quant_vector: the quant parameters the pipe's next pushes apply. */
export function setQuant(x: Executor, op: BoundOp, b: DeclaredBinding, state: 'scalar' | 'vector'): void {
  const ends = endsOf(x, op, b);
  if (state === 'scalar') {
    const bits = new DataView(new ArrayBuffer(4));
    bits.setFloat32(0, x.float(op, b.operands.scale[0]));
    ends.quant = BigInt(bits.getUint32(0));
    return;
  }
  const tile = x.operand(op, b.operands.scaling_tile[0]);
  if (!isTile(tile)) throw notModelled(`${op.node.name} with a GM scaling tensor`, op.node.span);
  if (!holdsQuantWords(tile)) throw notModelled(`${op.node.name} with a ${tile.type.dtype} scaling tile (${QUANT_TILES})`, op.node.span);
  ends.quant = quantWords(tile);
}

/** declare_tile / declare_global: the entry a lowered pop (or talloc) binds; a tile gets storage of its own here. */
export function declareEntry(x: Executor, op: BoundOp): void {
  const type = op.resultTypes[0];
  if (type?.kind === 'tile') x.setResults(op, [x.storage(op, 'declared', () => x.memory.allocate(type, op.node.name, op.node.span))]);
  else if (type?.kind === 'tensor_view') x.setResults(op, [{ kind: 'tensor_view', buffer: undefined as never, shape: [], strides: [], offset: 0 }]);
  else throw notModelled(`${op.node.name} of this type`, op.node.span);
}
