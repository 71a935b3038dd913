import { costModelTables } from '../spec/costmodel';
import type { A5VfBodiesData, A5VfBodyCount, A5VfBodyNode } from '../spec/costmodel-schema';
import { noData, OpCost, TileOpInput } from './cost';
import type { VfLoop } from './vf-loops';
import { vfCost, VfOp } from './vf-sim';

/**
 * A5 tile ops without a pto-isa curve, priced as pto-isa's A5 cost model prices them: the vector function the op's
 * implementation issues (spec/costmodel/a5-vf-bodies.json, read from include/pto/npu/a5/*.hpp), unrolled into VfSim
 * micro-ops and run through VfSim's tables (vf-sim.ts). test/timing/a5-vf-bodies.test.ts holds each body to the loop
 * tree pto-isa's CPU mock records and its cycles to VfSim's (test/fixtures/costmodel/vfsim-tileops.json noCurveOps).
 */

type Family = A5VfBodiesData['families'][keyof A5VfBodiesData['families']];
type Path = keyof Family['paths'];
type OpRow = A5VfBodiesData['ops'][string];

/** VfSim's form and the elements of one 256-byte repeat, by the element types the bodies cover. */
const ELEMENTS: Record<string, { form: string; lanes: number }> = { f32: { form: 'fp32', lanes: 64 }, f16: { form: 'fp16', lanes: 128 } };

/** A body made concrete: which family and path, and its micro-ops in program order. */
export interface VfBody {
  family: string;
  path: string;
  ops: VfOp[];
}

/** The loop counts of a body over a valid region of `rows` x `cols`. */
function countsOf(rows: number, cols: number, lanes: number): Record<A5VfBodyCount, number> {
  const repeats = Math.ceil(cols / lanes);
  return {
    rows,
    repeats,
    cells: Math.ceil((rows * cols) / lanes),
    rowRepeats: rows * repeats,
    pairs: Math.floor((rows - 1) / 2),
    oddRest: (rows - 1) % 2,
  };
}

/**
 * Which body of its family the op's default form takes (the conditions are pto-isa's, named in the family's `from`),
 * or why it cannot say.
 */
function pathOf(name: string, input: TileOpInput, lanes: number): Path | { reason: string } {
  const vCols = input.validCols || input.cols;
  // pto-isa's "contiguous" tile: its valid width is the tile's, or it is one row (a static property of the tile).
  const contiguous = vCols === input.cols || input.rows === 1;
  switch (name) {
    case 'rowExpand': {
      if (!(input.cols < lanes && contiguous)) return '2D';
      // The per-row operand is the source whose valid region is not the destination's (pto-isa's src0eqdst).
      const [s0, s1] = input.sources ?? [];
      const same = s0 && s0.validRows === (input.validRows || input.rows) && s0.validCols === vCols;
      const perRow = same ? s1 : s0;
      if (perRow?.rowMajor === undefined) return { reason: `${input.op}: the per-row operand's layout is not known` };
      return perRow.rowMajor ? '1D-rowMajor' : '1D-colMajor';
    }
    case 'binaryScalar':
    case 'fill':
      return contiguous ? '1D' : '2D';
    default:
      return '2D';
  }
}

/** The region a family's loops count over: the destination's valid region or the first source's. */
function regionOf(family: Family, input: TileOpInput): { rows: number; cols: number } | undefined {
  if (family.region === 'destination') return { rows: input.validRows || input.rows, cols: input.validCols || input.cols };
  const src = input.sources?.[0];
  return src && { rows: src.validRows, cols: src.validCols };
}

/** Why an op's row does not apply to this input, or undefined. */
function unsupported(row: OpRow, family: Family, input: TileOpInput): string | undefined {
  if (input.loc !== undefined && input.loc !== 'vec') return `${input.op} on a ${input.loc} tile is not a vector function`;
  if (!(family.dtypes as string[]).includes(input.dtype)) return `pto-isa's A5 ${input.op} body is not modelled for ${input.dtype}`;
  if (input.vfImpl) return `${input.op}: only the default vector-function form's body is modelled, not ${input.vfImpl}`;
  if (row.needsNotBinary && input.binary === undefined) return `${input.op}'s form (isBinary) is not known`;
  if (row.needsNotBinary && input.binary) return `${input.op}'s binary-tree form is not implemented yet`;
  if (row.eitherLayout && !layoutsAgree(input)) {
    return `${input.op}: its loops depend on the destination's layout here, which the cost input does not carry`;
  }
  return undefined;
}

/**
 * Whether a fill's loops are the same for a row-major destination and a column-major one, which pto-isa runs as the
 * transposed row-major tile (TExpandS.hpp): the same path, and the same counts.
 */
function layoutsAgree(input: TileOpInput): boolean {
  const vRows = input.validRows || input.rows;
  const vCols = input.validCols || input.cols;
  const rowMajor = vCols === input.cols || input.rows === 1;
  const colMajor = vRows === input.rows || input.cols === 1;
  // Both one loop over every element (the same count), or both 2-D over the same rows and widths.
  return rowMajor && colMajor ? true : !rowMajor && !colMajor && vRows === vCols;
}

/**
 * The body `input`'s op issues, unrolled, or why there is none; its registers as VfSim renames them, or, with
 * `asWritten`, as pto-isa's source writes them (what the mock records).
 */
export function a5VfBody(input: TileOpInput, asWritten = false, t: A5VfBodiesData = costModelTables().a5VfBodies): VfBody | { reason: string } {
  const row = t.ops[input.op];
  if (!row) return { reason: `pto-isa's A5 vector-function bodies (a5-vf-bodies.json) have no ${input.op}` };
  const family = t.families[row.family];
  const why = unsupported(row, family, input);
  if (why) return { reason: why };
  const { form, lanes } = ELEMENTS[input.dtype];
  const region = regionOf(family, input);
  if (!region || region.rows <= 0 || region.cols <= 0) return { reason: `${input.op}: no valid region to loop over` };
  const path = pathOf(row.family, input, lanes);
  if (typeof path !== 'string') return path;
  const nodes = family.paths[path];
  if (!nodes) throw new Error(`spec/costmodel/a5-vf-bodies.json: the ${row.family} family has no ${path} body`);
  return { family: row.family, path, ops: unroll(asWritten ? nodes : asVfSimNames(nodes), row.roles, countsOf(region.rows, region.cols, lanes), form) };
}

type Inst = Extract<A5VfBodyNode, { op: string }>;

/**
 * The body with its registers named as VfSim runs it. The mock names registers reg0, reg1, ... in the order the body
 * first uses them; VfSim then re-allocates the registers of every loop whose body is instructions alone
 * (ProgramVregLiveRangeNormalization.cpp, before anything else runs): each write of such a body goes to a free slot
 * (one whose value has had its last read in the body, or a source read for the last time by this instruction), so a
 * value the body carries to its next iteration or past its end (an accumulator) is no longer read there: VfSim prices
 * a row reduction's or a column reduction's combines without their chain. The hardware keeps the chain; this
 * reproduces pto-isa's estimate, which is then a lower bound.
 */
function asVfSimNames(nodes: readonly A5VfBodyNode[]): A5VfBodyNode[] {
  const mock = new Map<string, string>();
  const name = (r: string): string => {
    if (!mock.has(r)) mock.set(r, `reg${mock.size}`);
    return mock.get(r)!;
  };
  const rename = (body: readonly A5VfBodyNode[]): A5VfBodyNode[] =>
    body.map((n) => ('op' in n ? { op: n.op, dst: n.dst.map(name), src: n.src.map(name) } : { ...n, body: rename(n.body) }));
  const normalize = (body: readonly A5VfBodyNode[]): A5VfBodyNode[] =>
    body.map((n) => ('op' in n ? n : { ...n, body: 'loop' in n && n.body.every((b) => 'op' in b) ? normalizeFlat(n.body as Inst[]) : normalize(n.body) }));
  return normalize(rename(nodes));
}

/** VfSim's slot allocation over one flat loop body (normalizeFlatLoopVregs), step for step. */
function normalizeFlat(body: readonly Inst[]): Inst[] {
  // Each write is a version of its register; each read names the version current at it, or none (from outside).
  const generation = new Map<string, number>();
  const current = new Map<string, string>();
  const lastUse = new Map<string, number>();
  const srcVersions = body.map((inst, i) =>
    inst.src.map((r) => {
      const v = current.get(r);
      if (v !== undefined) lastUse.set(v, i);
      return v;
    }),
  );
  const dstVersions = body.map((inst) =>
    inst.dst.map((r) => {
      const g = (generation.get(r) ?? 0) + 1;
      generation.set(r, g);
      current.set(r, `${r}#${g}`);
      return `${r}#${g}`;
    }),
  );
  const slotOf = new Map<string, string>();
  const slotByRegister = new Map<string, string>();
  const occupant = new Map<string, string>();
  const pool: string[] = [];
  // VfSim orders candidate slots by the number after a name's first letter, names without one last, by name.
  const sortKey = (n: string): [number, string] => [/^.\d+$/.test(n) ? Number(n.slice(1)) : Number.MAX_SAFE_INTEGER, n];
  const byKey = (a: string, b: string): number => {
    const [x, y] = [sortKey(a), sortKey(b)];
    return x[0] - y[0] || (x[1] < y[1] ? -1 : x[1] > y[1] ? 1 : 0);
  };
  return body.map((inst, i) => {
    const src = inst.src.map((r, k) => {
      const v = srcVersions[i][k];
      return (v !== undefined ? slotOf.get(v) : undefined) ?? slotByRegister.get(v ? v.slice(0, v.indexOf('#')) : r) ?? r;
    });
    if (inst.dst.length !== 1) return { op: inst.op, dst: [...inst.dst], src };
    const candidates = pool.filter((slot) => {
      const v = occupant.get(slot);
      return v === undefined || (lastUse.get(v) ?? -1) < i;
    });
    srcVersions[i].forEach((v, k) => {
      if (v !== undefined && lastUse.get(v) === i && !candidates.includes(src[k])) candidates.push(src[k]);
    });
    const wanted = inst.dst[0];
    let slot: string;
    if (src.length === 1 && candidates.includes(src[0])) slot = src[0];
    else if (candidates.length > 0) slot = [...candidates].sort(byKey)[0];
    else if (!pool.includes(wanted)) slot = wanted;
    else {
      const top = Math.max(-1, ...pool.map((n) => sortKey(n)[0]).filter((k) => k !== Number.MAX_SAFE_INTEGER));
      let k = top + 1;
      while (pool.includes(`v${k}`)) k++;
      slot = `v${k}`;
    }
    if (!pool.includes(slot)) pool.push(slot);
    slotOf.set(dstVersions[i][0], slot);
    slotByRegister.set(wanted, slot);
    occupant.set(slot, dstVersions[i][0]);
    return { op: inst.op, dst: [slot], src };
  });
}

/**
 * The body's instructions as they run: loops unrolled (each op knowing its loops' runs and iterations, for VfSim's
 * loop gate), each register write a new value, each read the register's current value; a role is the op's VfSim op.
 */
function unroll(nodes: readonly A5VfBodyNode[], roles: Record<string, string>, n: Record<A5VfBodyCount, number>, form: string): VfOp[] {
  const out: VfOp[] = [];
  const registers = new Map<string, number>();
  const current = new Map<string, number>();
  let next = 0;
  let runs = 0;
  const register = (r: string): number => {
    if (!registers.has(r)) registers.set(r, registers.size);
    return registers.get(r)!;
  };
  const walk = (body: readonly A5VfBodyNode[], loops: VfLoop[]): void => {
    for (const node of body) {
      if ('loop' in node) {
        // VfSim replaces a loop of one iteration whose body is instructions alone by its body
        // (canonicalizeSingleSuperIterationLoops, ProgramCanonicalization.cpp): no loop opens for it.
        if (n[node.loop] === 1 && node.body.every((b) => 'op' in b)) {
          walk(node.body, loops);
          continue;
        }
        const run = runs++;
        for (let i = 0; i < n[node.loop]; i++) walk(node.body, [...loops, { run, iteration: i }]);
      } else if ('if' in node) {
        if (n[node.if] > 0) walk(node.body, loops);
      } else {
        const op = /^[a-z]/.test(node.op) ? roles[node.op] : node.op;
        if (!op) throw new Error(`spec/costmodel/a5-vf-bodies.json: no op for the role ${node.op}`);
        const srcs = node.src.flatMap((r) => (current.has(r) ? [current.get(r)!] : []));
        const dsts = node.dst.map((r) => (current.set(r, next), next++));
        out.push({ op, form, srcs, dsts, names: node.dst.map(register), loops });
      }
    }
  };
  walk(nodes, []);
  return out;
}

const cache = new Map<string, OpCost>();

/** The cycles of the op's body on VfSim's tables; no data, with the reason, where there is no body. */
export function a5VfBodyCost(input: TileOpInput): OpCost {
  // Every field of the input may change the body (a field left out of the key once let a mat tile take a vec tile's).
  const key = JSON.stringify(input);
  const hit = cache.get(key);
  if (hit) return hit;
  const body = a5VfBody(input);
  let cost: OpCost;
  if ('reason' in body) cost = noData(body.reason, 'vector');
  else {
    const c = vfCost(body.ops);
    cost = c.kind === 'cycles' ? { ...c, basis: `pto-isa's A5 ${body.family} body (${body.path}) on ${c.basis}` } : c;
  }
  cache.set(key, cost);
  return cost;
}
