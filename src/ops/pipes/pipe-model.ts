import { Attr, OpNode, Operand, attrOf } from '../../syntax/ast';

/**
 * The ops of the cube <-> vector pipes by role, and how the rules that relate them find each other: in one function
 * (a data op and the initialization its `id` names), and across the two functions of a pipe (a buffer reserved by
 * one and imported by the other). The definitions are in pipes.ts; this is the one place their names are spelled.
 */
export const PIPE_OP = {
  aicInit: 'pto.aic_initialize_pipe',
  aivInit: 'pto.aiv_initialize_pipe',
  l2g2lInit: 'pto.initialize_l2g2l_pipe',
  l2lInit: 'pto.initialize_l2l_pipe',
  pushToAiv: 'pto.tpush_to_aiv',
  pushToAic: 'pto.tpush_to_aic',
  popFromAic: 'pto.tpop_from_aic',
  popFromAiv: 'pto.tpop_from_aiv',
  freeFromAic: 'pto.tfree_from_aic',
  freeFromAiv: 'pto.tfree_from_aiv',
  allocToAiv: 'pto.talloc_to_aiv',
  allocToAic: 'pto.talloc_to_aic',
  reserveBuffer: 'pto.reserve_buffer',
  importReservedBuffer: 'pto.import_reserved_buffer',
  setQuantScalar: 'pto.set_quant_scalar',
  setQuantVector: 'pto.set_quant_vector',
} as const;

export const isFrontendInit = (op: OpNode): boolean => op.name === PIPE_OP.aicInit || op.name === PIPE_OP.aivInit;
/** The lowered initializations' names. */
export const LOWERED_INITS: readonly string[] = [PIPE_OP.l2g2lInit, PIPE_OP.l2lInit];
export const isLoweredInit = (op: OpNode): boolean => LOWERED_INITS.includes(op.name);

/** PTOAS's lowering keeps the frontend `id` of a pipe on the lowered initialization under this attribute. */
export const LOWERED_FRONTEND_ID = '__pto.frontend_id';

/**
 * What `build` finds in a function, once per function and cache: the pipe rules ask again for every op they check,
 * and a function can hold thousands of pipe ops.
 */
export function perFunction<T>(cache: WeakMap<OpNode, T>, fn: OpNode, build: () => T): T {
  let found = cache.get(fn);
  if (found === undefined) cache.set(fn, (found = build()));
  return found;
}

const opsCache = new WeakMap<OpNode, OpNode[]>();

/** Every op of a function, nested ones included, in program order. */
export function opsOf(fn: OpNode): OpNode[] {
  return perFunction(opsCache, fn, () => {
    const all: OpNode[] = [];
    const walk = (list: OpNode[]): void => {
      for (const op of list) {
        all.push(op);
        for (const r of op.regions) for (const b of r.blocks) walk(b.ops);
      }
    };
    for (const r of fn.regions) for (const b of r.blocks) walk(b.ops);
    return all;
  });
}

const definersCache = new WeakMap<OpNode, Map<string, OpNode>>();

/** The op of `fn` that defines the value an operand names; undefined for a block argument or an unknown name. */
export function definingOp(fn: OpNode, operand: Operand | undefined): OpNode | undefined {
  const ref = operand?.value;
  if (!ref) return undefined;
  const definers = perFunction(definersCache, fn, () => {
    const byName = new Map<string, OpNode>();
    for (const op of opsOf(fn)) {
      for (const r of op.results) {
        if (r.count === 1) byName.set(r.name, op);
        else for (let i = 0; i < r.count; i++) byName.set(`${r.name}#${i}`, op);
      }
    }
    return byName;
  });
  return definers.get(ref.index !== undefined ? `${ref.name}#${ref.index}` : ref.name) ?? definers.get(ref.name);
}

/** The first operand of a named segment (`c2v_consumer_buf = %b`), if written. */
export function operandIn(op: OpNode, segment: string): Operand | undefined {
  const i = op.segments[segment]?.[0];
  return i === undefined ? undefined : op.operands[i];
}

export function intAttr(op: OpNode, key: string): number | undefined {
  const a = attrOf(op, key);
  return a?.kind === 'int' ? Number(a.value) : undefined;
}

export function boolAttr(op: OpNode, key: string): boolean | undefined {
  const a = attrOf(op, key);
  return a?.kind === 'bool' ? a.value : undefined;
}

export function stringAttr(op: OpNode, key: string): string | undefined {
  const a = attrOf(op, key);
  return a?.kind === 'string' ? a.value : undefined;
}

export function symbolAttr(op: OpNode, key: string): string | undefined {
  const a: Attr | undefined = attrOf(op, key);
  return a?.kind === 'symbol' ? a.name : undefined;
}

/** A frontend pipe op's `id` (PTOAS's parser makes a missing one 0). */
export const pipeId = (op: OpNode): number => intAttr(op, 'id') ?? 0;

/** Appends `value` to the list `map` holds at `key` (in place: lists of thousands are built this way). */
export function appendAt<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

/**
 * The ops of `fn` by `keyOf` (ops it gives no key left out), in program order, indexed once per function and cache:
 * a rule that looked through the whole function for each op it checks was quadratic in a function of thousands.
 */
function indexed<K>(cache: WeakMap<OpNode, Map<K, OpNode[]>>, fn: OpNode, keyOf: (op: OpNode) => K | undefined): Map<K, OpNode[]> {
  return perFunction(cache, fn, () => {
    const index = new Map<K, OpNode[]>();
    for (const op of opsOf(fn)) {
      const key = keyOf(op);
      if (key !== undefined) appendAt(index, key, op);
    }
    return index;
  });
}

const byName = new WeakMap<OpNode, Map<string, OpNode[]>>();

/** The ops of a function with this name, nested ones included, in program order. */
export function opsNamed(fn: OpNode, name: string): OpNode[] {
  return indexed(byName, fn, (op) => op.name).get(name) ?? [];
}

const frontendInitsById = new WeakMap<OpNode, Map<number, OpNode[]>>();

/** The frontend initializations of `fn` with this id. */
export function frontendInitsWithId(fn: OpNode, id: number): OpNode[] {
  return indexed(frontendInitsById, fn, (op) => (isFrontendInit(op) ? pipeId(op) : undefined)).get(id) ?? [];
}
