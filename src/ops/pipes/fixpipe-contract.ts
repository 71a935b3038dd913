import { DIAGNOSTICS as D } from '../../diag/catalog';
import { Span } from '../../diag/source';
import { OpNode, TypeRef, attrOf } from '../../syntax/ast';
import { ElemType, Type, TileType, elemSize } from '../../types/type';
import { DeclaredCheck } from '../define/declared';
import {
  AccPushEpilogue,
  WrittenElement,
  a5OnlyModes,
  accElementFits,
  consumerElementFits,
  consumerLayoutFits,
  decodeEpilogue,
  quantState,
} from './fixpipe-epilogue';
import {
  LOWERED_FRONTEND_ID,
  LOWERED_INITS,
  PIPE_OP,
  definingOp,
  frontendInitsWithId,
  intAttr,
  isLoweredInit,
  operandIn,
  opsNamed,
  perFunction,
  pipeId,
  stringAttr,
  symbolAttr,
} from './pipe-model';

/**
 * The fixpipe contract of a cube -> vector pipe, as PTOAS's verifiers check it (docs/designs/fixpipe-tpipe-design.md
 * section 10): both ends' initializations carry the same `acc_push_epilogue`, found through the buffer the vector
 * function reserves and the cube function imports; the cube pushes acc tiles of the element type the quant mode
 * converts from, after the quantization state the mode reads; the vector core pops tiles of the element type and
 * layout the mode gives, into slots large enough for them.
 */

/** Reports a breach of the fixpipe contract. */
function fail(c: DeclaredCheck, span: Span, message: string, notes?: { message: string; span: Span }[]): void {
  c.v.error(span, message, notes, D.fixpipeContract);
}

/** The decoded epilogue of an initialization (undefined: none, or not decodable, which its own check reports). */
export function epilogueOf(init: OpNode | undefined): AccPushEpilogue | undefined {
  const a = init && attrOf(init, 'acc_push_epilogue');
  if (a?.kind !== 'dialect') return undefined;
  const decoded = decodeEpilogue(a.text);
  return 'epilogue' in decoded ? decoded.epilogue : undefined;
}

/** The attribute's value is one PTOAS's parser accepts. Returns the decoded epilogue. */
export function checkEpilogueAttr(c: DeclaredCheck): AccPushEpilogue | undefined {
  const a = c.binding.attrs.acc_push_epilogue;
  if (a?.kind !== 'dialect') return undefined;
  const decoded = decodeEpilogue(a.text);
  if ('problem' in decoded) {
    fail(c, a.span, `${c.v.op.name}: acc_push_epilogue ${decoded.problem}`);
    return undefined;
  }
  return decoded.epilogue;
}

/**
 * The rules of a fixpipe initialization on its own (after the pipe configuration's): its consumer buffer is a
 * reserved or imported buffer (the key that finds the peer), and an A5-only mode is used on A5.
 */
export function checkFixpipeInitLocal(c: DeclaredCheck, epilogue: AccPushEpilogue): boolean {
  const { op } = c.v;
  const buf = operandIn(op, 'c2v_consumer_buf');
  if (buf && !isReservedOrImported(definingOp(c.v.function, buf))) {
    fail(c, buf.span, `${op.name} expects fixpipe pipe 'c2v_consumer_buf' to trace to reserve_buffer or import_reserved_buffer for peer contract verification`);
    return false;
  }
  const modes = a5OnlyModes(epilogue.quant);
  if (modes && c.v.target !== 'a5') {
    fail(c, c.binding.attrs.acc_push_epilogue.span, `${op.name} expects ${modes} to be used only on A5 target`);
    return false;
  }
  return true;
}

const isReservedOrImported = (op: OpNode | undefined): boolean => op?.name === PIPE_OP.reserveBuffer || op?.name === PIPE_OP.importReservedBuffer;

/** Where the cube end's consumer buffer comes from: `import_reserved_buffer {name, peer_func}`. */
function importOf(fn: OpNode, init: OpNode): { name: string; peer: string } | undefined {
  const def = definingOp(fn, operandIn(init, 'c2v_consumer_buf'));
  if (def?.name !== PIPE_OP.importReservedBuffer) return undefined;
  const name = stringAttr(def, 'name');
  const peer = symbolAttr(def, 'peer_func');
  return name !== undefined && peer !== undefined ? { name, peer } : undefined;
}

/** The name of the buffer the vector end reserves for the slots (`reserve_buffer {name}`). */
function reservedNameOf(fn: OpNode, init: OpNode): string | undefined {
  const def = definingOp(fn, operandIn(init, 'c2v_consumer_buf'));
  return def?.name === PIPE_OP.reserveBuffer ? stringAttr(def, 'name') : undefined;
}

const FIELDS = ['layout', 'quant', 'relu'] as const;

/** Both ends carry the same epilogue, field by field. */
function compareEpilogues(c: DeclaredCheck, mine: AccPushEpilogue, peer: AccPushEpilogue, me: string, them: string): boolean {
  for (const f of FIELDS) {
    if (mine[f] !== peer[f]) {
      fail(
        c,
        c.binding.attrs.acc_push_epilogue.span,
        `${c.v.op.name} expects acc_push_epilogue.${f} to match peer ${them} (${me} has ${mine[f]}, ${them} has ${peer[f]})`,
      );
      return false;
    }
  }
  return true;
}

/** The cube end: the vector function it imports the slot buffer from has one matching initialization, with the same epilogue. */
export function checkProducerPeer(c: DeclaredCheck, epilogue: AccPushEpilogue): void {
  const { op } = c.v;
  const imported = importOf(c.v.function, op);
  const peerFn = imported && c.v.peerFunction(imported.peer);
  const matches = peerFn ? opsNamed(peerFn, PIPE_OP.aivInit).filter((o) => reservedNameOf(peerFn, o) === imported!.name) : [];
  if (matches.length !== 1) {
    fail(c, op.nameSpan, `${op.name} expects peer consumer function to contain a matching aiv_initialize_pipe with the same consumer buffer contract`);
    return;
  }
  const peer = epilogueOf(matches[0]);
  if (!peer) {
    fail(c, op.nameSpan, `${op.name} expects peer consumer pipe init to also have 'acc_push_epilogue' for fixpipe contract consistency`);
    return;
  }
  compareEpilogues(c, epilogue, peer, 'producer', 'consumer');
}

/**
 * The vector end: one function imports its reserved buffer, and there one cube initialization uses it, with the
 * same epilogue; the pops of the pipe agree on one tile type, which the mode gives and the slots hold; and the
 * cube's pushes convert from an element type that, with the mode, gives the popped one.
 */
export function checkConsumerPeer(c: DeclaredCheck, epilogue: AccPushEpilogue): void {
  const { op } = c.v;
  const fn = c.v.function;
  const buf = operandIn(op, 'c2v_consumer_buf');
  if (!buf) {
    fail(c, op.nameSpan, `${op.name} expects fixpipe consumer pipe to have 'c2v_consumer_buf'`);
    return;
  }
  const def = definingOp(fn, buf);
  if (def?.name === PIPE_OP.importReservedBuffer) {
    fail(c, buf.span, `${op.name} expects consumer-side fixpipe pipe to use reserve_buffer, not import_reserved_buffer`);
    return;
  }
  const name = def && stringAttr(def, 'name');
  if (name === undefined) return; // not traceable: reported by checkFixpipeInitLocal
  const imports = c.v
    .functions()
    .flatMap((f) => opsNamed(f, PIPE_OP.importReservedBuffer).map((o) => ({ f, o })))
    .filter(({ o }) => stringAttr(o, 'name') === name && symbolAttr(o, 'peer_func') === fn.symbol);
  if (imports.length !== 1) {
    const what = imports.length === 0 ? 'cannot find peer' : 'finds multiple peer';
    fail(c, buf.span, `${op.name} ${what} import_reserved_buffer ${imports.length === 0 ? 'for' : 'ops for'} consumer buffer '${name}'`);
    return;
  }
  const producerFn = imports[0].f;
  const producers = opsNamed(producerFn, PIPE_OP.aicInit).filter((o) => {
    const imported = importOf(producerFn, o);
    return imported?.name === name && imported.peer === fn.symbol;
  });
  if (producers.length !== 1) {
    fail(c, op.nameSpan, `${op.name} expects peer producer function to contain a matching aic_initialize_pipe with the same consumer buffer contract`);
    return;
  }
  const producer = producers[0];
  const peer = epilogueOf(producer);
  if (!peer) {
    fail(c, op.nameSpan, `${op.name} expects peer producer pipe init to also have 'acc_push_epilogue' for fixpipe contract consistency`);
    return;
  }
  if (!compareEpilogues(c, epilogue, peer, 'consumer', 'producer')) return;
  const entry = resolvedConsumerEntry(c, pipeId(op));
  if (!entry) return;
  const { tile, element } = entry;
  if (!consumerElementFits(epilogue.quant, element)) {
    fail(c, op.nameSpan, `${op.name} expects consumer element type to match acc_push_epilogue.quant ${epilogue.quant}`);
    return;
  }
  if (!consumerLayoutFits(epilogue.layout, tile)) {
    fail(c, op.nameSpan, `${op.name} expects consumer tile layout to match acc_push_epilogue.layout ${epilogue.layout}`);
    return;
  }
  const needed = tile.rows * tile.cols * elemSize(tile.dtype);
  if ((intAttr(op, 'slot_size') ?? 0) < needed) {
    fail(c, op.nameSpan, `${op.name} expects consumer-side fixpipe slot_size to be at least ${needed} bytes for the resolved post-fixpipe consumer entry`);
    return;
  }
  if ((intAttr(producer, 'slot_size') ?? 0) < needed) {
    fail(c, op.nameSpan, `${op.name} expects peer producer fixpipe slot_size to be at least ${needed} bytes for the resolved post-fixpipe consumer entry`);
    return;
  }
  for (const push of opsNamed(producerFn, PIPE_OP.pushToAiv)) {
    if (pipeId(push) !== pipeId(producer)) continue;
    const source = writtenTileOperand(c, push);
    if (source && !(accElementFits(epilogue.quant, source.dtype) && consumerElementFits(epilogue.quant, element, source.dtype))) {
      fail(
        c,
        op.nameSpan,
        `${op.name} expects producer source element type and consumer tpop result element type to satisfy acc_push_epilogue.quant ${epilogue.quant}`,
        [{ message: 'the push, in the cube function', span: push.span }],
      );
      return;
    }
  }
}

function writtenTileOperand(c: DeclaredCheck, op: OpNode): TileType | undefined {
  const ref = op.operands[0]?.type;
  const t = ref && c.v.type(ref);
  return t?.kind === 'tile' ? t : undefined;
}

/** The tile type every pop of the pipe gives, with its element as written. */
function resolvedConsumerEntry(c: DeclaredCheck, id: number): { tile: TileType; element: WrittenElement } | undefined {
  const { op } = c.v;
  const pops = opsNamed(c.v.function, PIPE_OP.popFromAic).filter((o) => pipeId(o) === id && o.resultTypes[0]);
  if (pops.length === 0) {
    fail(c, op.nameSpan, `${op.name} expects at least one tpop_from_aic for fixpipe pipe id = ${id} to resolve the consumer entry type`);
    return undefined;
  }
  const typed = pops.map((p) => popType(c, p.resultTypes[0]));
  if (typed.some((t) => t.key !== typed[0].key)) {
    fail(c, op.nameSpan, `${op.name} expects all tpop_from_aic results for fixpipe pipe id = ${id} to use the same tile type`);
    return undefined;
  }
  const { type, element } = typed[0];
  if (type?.kind !== 'tile') {
    fail(c, op.nameSpan, `${op.name} expects fixpipe consumer tpop result to be !pto.tile_buf`);
    return undefined;
  }
  return { tile: type, element: element! };
}

const popKeysCache = new WeakMap<OpNode, Map<number, Set<string>>>();

/** The types (`popType` keys) the tpop_from_aic results of each pipe id use in the function, found once per function. */
function popKeysById(c: DeclaredCheck): Map<number, Set<string>> {
  const fn = c.v.function;
  return perFunction(popKeysCache, fn, () => {
    const keys = new Map<number, Set<string>>();
    for (const o of opsNamed(fn, PIPE_OP.popFromAic)) {
      const ref = o.resultTypes[0];
      if (!ref) continue;
      const id = pipeId(o);
      keys.set(id, (keys.get(id) ?? new Set<string>()).add(popType(c, ref).key));
    }
    return keys;
  });
}

/** A pop's result type with its element as written; `key` tells two apart as PTOAS's type equality does. */
function popType(c: DeclaredCheck, ref: TypeRef): { type: Type | undefined; element?: WrittenElement; key: string } {
  const type = c.v.type(ref);
  if (type?.kind !== 'tile') return { type, key: ref.text };
  const element = writtenElement(type, ref.text);
  return { type, element, key: `${JSON.stringify({ ...type, memref: undefined })}/${element.signedness ?? ''}` };
}

/** The tile's element type with the signedness its text spells for an 8-bit integer (si8, ui8, or signless i8). */
export function writtenElement(tile: TileType, text: string): WrittenElement {
  if (tile.dtype !== 'i8' && tile.dtype !== 'u8') return { elem: tile.dtype };
  const spelled = /dtype\s*=\s*(\w+)/.exec(text)?.[1] ?? /x(s?i8|ui8|u8|int8|uint8)\b/.exec(text)?.[1];
  const signedness = spelled === 'i8' ? 'signless' : spelled === 'ui8' || spelled === 'u8' || spelled === 'uint8' ? 'unsigned' : 'signed';
  return { elem: tile.dtype, signedness };
}

/** The cube end's aic initialization with a fixpipe epilogue, for the op's id (undefined: not a fixpipe pipe). */
export function fixpipeOf(init: OpNode | undefined, name: string): AccPushEpilogue | undefined {
  return init?.name === name ? epilogueOf(init) : undefined;
}

/** A fixpipe pipe moves whole entries: its data ops have split = 0. */
export function checkFixpipeSplit(c: DeclaredCheck, what: string): boolean {
  if ((c.int('split') ?? 0) === 0) return true;
  fail(c, c.binding.attrs.split?.span ?? c.v.op.span, `${c.v.op.name} expects fixpipe ${what} to have split = 0`);
  return false;
}

/**
 * A push on a fixpipe pipe: an acc tile, split 0, of the element type the mode converts from, and, for a mode
 * with quantization state, a set_quant op of that state and id before it in the same block.
 */
export function checkFixpipePush(c: DeclaredCheck, epilogue: AccPushEpilogue, source: Type | undefined): void {
  const { op } = c.v;
  const span = c.span('tile');
  if (source && source.kind !== 'tile') {
    fail(c, span, `${op.name} expects fixpipe TPUSH source tile to be a tile type`);
    return;
  }
  if (source && source.loc !== 'acc') {
    fail(c, span, `${op.name} expects fixpipe TPUSH source tile to use loc=acc`);
    return;
  }
  if (!checkFixpipeSplit(c, 'TPUSH')) return;
  if (source && !accElementFits(epilogue.quant, source.dtype)) {
    fail(c, span, `${op.name} expects fixpipe TPUSH source element type to match acc_push_epilogue.quant mode requirements`);
    return;
  }
  const state = quantState(epilogue.quant);
  if (!state) return;
  const setter = state === 'scalar' ? PIPE_OP.setQuantScalar : PIPE_OP.setQuantVector;
  const block = blockOf(c.v.function, op);
  const before = block ? block.slice(0, block.indexOf(op)) : [];
  const id = c.int('id') ?? 0;
  if (!before.some((o) => o.name === setter && pipeId(o) === id)) {
    fail(c, op.nameSpan, `${op.name} expects a preceding ${setter} with id = ${id} in the same block`);
  }
}

/** The ops of the block that holds `op`. */
function blockOf(fn: OpNode, op: OpNode): OpNode[] | undefined {
  const search = (holder: OpNode): OpNode[] | undefined => {
    for (const r of holder.regions) {
      for (const b of r.blocks) {
        if (b.ops.includes(op)) return b.ops;
        for (const inner of b.ops) {
          const found = search(inner);
          if (found) return found;
        }
      }
    }
    return undefined;
  };
  return search(fn);
}

/** A pop of a fixpipe pipe: split 0, a tile, of the type the other pops of the pipe give, which the mode gives. */
export function checkFixpipePop(c: DeclaredCheck, epilogue: AccPushEpilogue): void {
  const { op } = c.v;
  if (!checkFixpipeSplit(c, 'TPOP')) return;
  const ref = op.resultTypes[0];
  if (!ref) return;
  const mine = popType(c, ref);
  if (mine.type?.kind !== 'tile') {
    fail(c, ref.span, `${op.name} expects fixpipe TPOP result to be a tile type`);
    return;
  }
  const id = c.int('id') ?? 0;
  // Another pop of the id with another type exists exactly when the pops of the id use more than one.
  if ((popKeysById(c).get(id)?.size ?? 0) > 1) {
    fail(c, ref.span, `${op.name} expects all tpop_from_aic results for fixpipe pipe id = ${id} to use the same tile type`);
    return;
  }
  if (!consumerElementFits(epilogue.quant, mine.element!)) {
    fail(c, ref.span, `${op.name} expects consumer element type to match acc_push_epilogue.quant ${epilogue.quant}`);
    return;
  }
  if (!consumerLayoutFits(epilogue.layout, mine.type))
    fail(c, ref.span, `${op.name} expects consumer tile layout to match acc_push_epilogue.layout ${epilogue.layout}`);
}

/**
 * `set_quant_scalar` / `set_quant_vector {id}`: the id names the cube end of a fixpipe pipe (a frontend
 * initialization, or a lowered one that kept its frontend id) whose mode reads this kind of state. A vector
 * payload is a scaling tile of the target's element types (A5: f16, bf16, f32; A2/A3: packed i64/ui64).
 */
export function checkSetQuant(c: DeclaredCheck, state: 'scalar' | 'vector'): void {
  const { op } = c.v;
  const id = c.int('id') ?? 0;
  const idSpan = attrOf(op, 'id')?.span ?? op.span;
  const init = producerInitForQuant(c, id, idSpan);
  if (!init) return;
  if (init.name !== PIPE_OP.aicInit && !isLoweredInit(init)) {
    fail(c, idSpan, `${op.name} expects 'id' = ${id} to reference an aic_initialize_pipe or lowered producer pipe`);
    return;
  }
  const epilogue = epilogueOf(init);
  if (!epilogue) {
    fail(c, idSpan, `${op.name} expects 'id' = ${id} to reference a fixpipe pipe (with acc_push_epilogue)`);
    return;
  }
  if (quantState(epilogue.quant) !== state) {
    fail(c, idSpan, `${op.name} expects 'id' = ${id} to reference a pipe with ${state} quantization mode, but found non-${state} mode`);
    return;
  }
  if (state === 'vector') checkQuantPayload(c);
}

function producerInitForQuant(c: DeclaredCheck, id: number, span: Span): OpNode | undefined {
  const { op } = c.v;
  const frontend = frontendInitsWithId(c.v.function, id);
  if (frontend.length === 1) return frontend[0];
  if (frontend.length > 1) {
    fail(c, span, `${op.name} expects 'id' = ${id} to match exactly one frontend initialize_pipe op in the same function`);
    return undefined;
  }
  const lowered = LOWERED_INITS.flatMap((name) => opsNamed(c.v.function, name)).filter((o) => intAttr(o, LOWERED_FRONTEND_ID) === id);
  if (lowered.length === 1) return lowered[0];
  const how = lowered.length === 0 ? 'a' : 'exactly one';
  fail(c, span, `${op.name} expects 'id' = ${id} to match ${how} frontend or lowered initialize_pipe op in the same function`);
  return undefined;
}

const PAYLOAD: Record<'a5' | 'a2a3', { elems: ElemType[]; message: string }> = {
  a5: { elems: ['f16', 'bf16', 'f32'], message: 'f16, bf16, or f32 on A5' },
  a2a3: { elems: ['i64', 'u64'], message: 'packed i64/ui64 on A3' },
};

function checkQuantPayload(c: DeclaredCheck): void {
  const { op } = c.v;
  const tile = c.type('scaling_tile');
  const span = c.span('scaling_tile');
  if (!tile) return;
  if (tile.kind !== 'tile') {
    fail(c, span, `${op.name} expects 'scaling_tile' to be a tile type`);
    return;
  }
  if (tile.loc !== 'scaling') {
    fail(c, span, `${op.name} expects 'scaling_tile' to use loc=scaling`);
    return;
  }
  const payload = PAYLOAD[c.v.target];
  if (!payload.elems.includes(tile.dtype)) fail(c, span, `${op.name} expects 'scaling_tile' element type to be ${payload.message}`);
}
