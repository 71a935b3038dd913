import { VmiLayout, parseVmiLayout, printVmiLayout } from '../../syntax/vmi-layout';
import { VmiMaskType, VmiVregType, elemBits } from '../../types/type';

/**
 * The layout relations PTOAS's VMI -> VPTO lowering has a rule for (the rule tables of
 * lib/PTO/Transforms/VMILayoutSupport.cpp, as PTOValidateVMILayoutIR queries them): which layouts a helper can
 * convert between, which layouts a store, a grouped load or store, a grouped reduction or broadcast, a float cast or
 * a bitcast can lower from. Each function says why a relation has no rule (undefined: it has one). Layouts compare
 * by their canonical text, as PTOAS compares its uniqued attributes.
 */

/** A layout of a table row: contiguous, a lane stride, (block) deinterleaved, or group slots (its num_groups comes
 *  from the value the row is matched against). */
type Row = { k: 'c'; ls?: number } | { k: 'd' | 'bd'; f: number } | { k: 'gs'; slots: number; ls?: number };
const c: Row = { k: 'c' };
const ls = (n: number): Row => ({ k: 'c', ls: n });
const d = (f: number): Row => ({ k: 'd', f });
const bd = (f: number): Row => ({ k: 'bd', f });
const gs = (slots: number, stride?: number): Row => ({ k: 'gs', slots, ls: stride });

/** A row's layout as canonical text; undefined for group slots when the value has no num_groups. */
function rowText(row: Row, numGroups = 0): string | undefined {
  const kind = { c: 'contiguous', d: 'deinterleaved', bd: 'block_deinterleaved', gs: 'num_groups' } as const;
  if (row.k === 'gs' && numGroups <= 0) return undefined;
  const l: VmiLayout = {
    kind: kind[row.k],
    factor: row.k === 'gs' ? numGroups : row.k === 'c' ? 1 : row.f,
    slots: row.k === 'gs' ? row.slots : 0,
    laneStride: row.k === 'c' || row.k === 'gs' ? (row.ls ?? 1) : 1,
  };
  return printVmiLayout(l);
}

const matches = (row: Row, layout: string | undefined, numGroups = 0) => layout !== undefined && rowText(row, numGroups) === layout;

export function layoutOf(text: string | undefined): VmiLayout | undefined {
  if (text === undefined) return undefined;
  const l = parseVmiLayout(text);
  return 'error' in l ? undefined : l;
}

const groupsOf = (text: string | undefined) => {
  const l = layoutOf(text);
  return l?.kind === 'num_groups' ? l.factor : 0;
};

/** An element count set; undefined: any. */
type Counts = number[] | undefined;
const inCounts = (counts: Counts, n: number) => counts === undefined || counts.includes(n);

// ---- helpers: ensure_layout, ensure_mask_layout --------------------------------------------------------------

/** kEnsureLayoutPatterns: element bits, element counts, source layout, result layout. */
const ENSURE_LAYOUT: [number[], Counts, Row, Row][] = [
  [[8, 16, 32, 64], [1], c, gs(1)],
  [[8, 16, 32, 64], [1], gs(1), c],
  [[16], [256], c, d(2)],
  [[32], [128, 256], c, d(2)],
  [[64], [64, 128, 256], c, d(2)],
  [[16], [256], d(2), c],
  [[32], [128, 256], d(2), c],
  [[64], [64, 128, 256], d(2), c],
  [[32], [256], c, d(4)],
  [[64], [128, 256], c, d(4)],
  [[32], [256], d(4), c],
  [[64], [128, 256], d(4), c],
  [[32], [256, 512], d(2), d(4)],
  [[64], [128, 256], d(2), d(4)],
  [[32], [256, 512], d(4), d(2)],
  [[64], [128, 256], d(4), d(2)],
  [[8, 16], undefined, c, ls(2)],
  [[8, 16], undefined, ls(2), c],
  [[8], undefined, c, ls(4)],
  [[8], undefined, ls(4), c],
  [[8, 16], undefined, gs(8), gs(8, 2)],
  [[8, 16], undefined, gs(8, 2), gs(8)],
  [[8], undefined, gs(8), gs(8, 4)],
  [[8], undefined, gs(8, 4), gs(8)],
  [[8], undefined, gs(8, 2), gs(8, 4)],
  [[8], undefined, gs(8, 4), gs(8, 2)],
];

/** kEnsureMaskLayoutPatterns: granularity, element counts, source layout, result layout. */
const ENSURE_MASK_LAYOUT: [string, Counts, Row, Row][] = [
  ['b16', [256], c, d(2)],
  ['b32', [128, 256, 512], c, d(2)],
  ['b32', [128], c, bd(2)],
  ['b16', [256], d(2), c],
  ['b32', [128, 256, 512], d(2), c],
  ['b32', [128], bd(2), c],
  ['b32', [256], c, d(4)],
  ['b32', [256], c, bd(4)],
  ['b32', [256], d(4), c],
  ['b32', [256], bd(4), c],
  ['b8', [1, 2, 4, 8, 64, 128], c, ls(2)],
  ['b16', [1, 2, 4, 8, 64], c, ls(2)],
  ['b32', [1, 2, 4, 8, 64], c, ls(2)],
  ['b8', [1, 2, 4, 8, 64, 128], ls(2), c],
  ['b16', [1, 2, 4, 8, 64], ls(2), c],
  ['b32', [1, 2, 4, 8, 64], ls(2), c],
  ['b8', [1, 2, 4, 8, 64], c, ls(4)],
  ['b16', [1, 2, 4, 8], c, ls(4)],
  ['b32', [1, 2, 4, 8], c, ls(4)],
  ['b8', [1, 2, 4, 8, 64], ls(4), c],
  ['b16', [1, 2, 4, 8], ls(4), c],
  ['b32', [1, 2, 4, 8], ls(4), c],
];

export function ensureLayoutProblem(source: VmiVregType, result: VmiVregType): string | undefined {
  if (!source.layout || !result.layout) return 'both layouts must be assigned';
  if (source.layout === result.layout) return undefined;
  const groups = groupsOf(source.layout) || groupsOf(result.layout);
  const bits = elemBits(source.elem);
  const ok = ENSURE_LAYOUT.some(
    ([b, n, s, r]) => b.includes(bits) && inCounts(n, source.lanes) && matches(s, source.layout, groups) && matches(r, result.layout, groups),
  );
  return ok ? undefined : 'no rule converts the source layout to the result layout for this element width and lane count';
}

export function ensureMaskLayoutProblem(source: VmiMaskType, result: VmiMaskType): string | undefined {
  if (!source.layout || !result.layout) return 'both layouts must be assigned';
  if (source.layout === result.layout) return undefined;
  const ok = ENSURE_MASK_LAYOUT.some(
    ([g, n, s, r]) => g === source.granularity && inCounts(n, source.lanes) && matches(s, source.layout) && matches(r, result.layout),
  );
  return ok ? undefined : 'no rule converts the source mask layout to the result mask layout for this granularity and lane count';
}

// ---- dense and grouped memory ---------------------------------------------------------------------------------

/** kDenseStoreLayoutPatterns: element bits, layout, element counts. */
const DENSE_STORE: [number[], Row, Counts][] = [
  [[8, 16, 32], c, undefined],
  [[8], ls(4), [64]],
  [[8], ls(2), [128]],
  [[16], ls(2), [64]],
  [[8, 16, 32], ls(2), undefined],
  [[8], ls(4), undefined],
  [[8, 16, 32], d(2), undefined],
  [[8, 16, 32], d(4), undefined],
];

/** A contiguous-memory store of a value whose layout is not plain contiguous. */
export function storeProblem(value: VmiVregType): string | undefined {
  const bits = elemBits(value.elem);
  const ok = DENSE_STORE.some(([b, row, n]) => b.includes(bits) && inCounts(n, value.lanes) && matches(row, value.layout));
  return ok ? undefined : 'no dense store rule takes a value of this layout and element width';
}

/** kGroupSlotMemoryLayoutPatterns: the layouts a group_slot_load makes and a group_store of group slots takes. */
const GROUP_SLOT_MEMORY: Row[] = [gs(1), gs(8), gs(8, 2), gs(8, 4)];

export function groupSlotMemoryProblem(type: VmiVregType, numGroups: number, what: string): string | undefined {
  const l = layoutOf(type.layout);
  const ok = l?.kind === 'num_groups' && l.factor === numGroups && l.slots > 0 && GROUP_SLOT_MEMORY.some((row) => matches(row, type.layout, numGroups));
  return ok ? undefined : `the ${what} layout must be num_groups = ${numGroups} with slots 1, or slots 8 at lane stride 1, 2 or 4`;
}

/** A group's size against the 32-byte blocks of one register part (GroupLayoutKey). */
interface GroupKey {
  groupSize: number;
  lanesPerPart: number;
  blockElems: number;
}

/** Block classes of a group: a fraction or multiple of one 32-byte block, or whole parts (`full` times). */
type Block = { n: number; den?: number } | { full: number };
const gb = (n: number, den?: number): Block => ({ n, den });
const gbFull = (full = 1): Block => ({ full });

function groupKey(type: VmiVregType, numGroups: number, what: string): GroupKey | string {
  if (numGroups <= 0) return 'num_groups must be positive';
  if (type.lanes % numGroups !== 0) return 'num_groups must divide the lane count';
  const lanesPerPart = 2048 / elemBits(type.elem);
  const blockElems = lanesPerPart / 8;
  const key = { groupSize: type.lanes / numGroups, lanesPerPart, blockElems };
  const classes = [gb(1, 4), gb(1, 2), gb(1), gb(2), gb(4), gbFull()];
  return classes.some((b) => blockMatches(b, key)) ? key : `${what} has no rule for groups of ${key.groupSize} lanes`;
}

function blockMatches(b: Block, key: GroupKey): boolean {
  if ('full' in b) return key.groupSize >= key.lanesPerPart * b.full && key.groupSize % (key.lanesPerPart * b.full) === 0;
  const num = key.blockElems * b.n;
  const den = b.den ?? 1;
  return num % den === 0 && key.groupSize === num / den;
}

/** kGroupLoadLayoutPatterns: element bits, block class, memory (row stride), result layout. */
const GROUP_LOAD: [number[], Block, 'any' | 'contiguous' | 'block', Row][] = [
  [[8, 16, 32], gb(1, 4), 'contiguous', c],
  [[8, 16, 32], gb(1, 2), 'contiguous', c],
  [[8, 16, 32], gb(1), 'contiguous', c],
  [[8, 16, 32], gb(2), 'contiguous', c],
  [[8, 16, 32], gb(4), 'contiguous', c],
  [[8, 16, 32], gbFull(), 'any', c],
  [[32], gb(2), 'block', bd(2)],
  [[32], gb(4), 'block', bd(4)],
];

/** `rowStride`: the row stride when it is a constant. */
export function groupLoadProblem(result: VmiVregType, numGroups: number, rowStride: number | undefined): string | undefined {
  const key = groupKey(result, numGroups, 'group_load');
  if (typeof key === 'string') return key;
  const bits = elemBits(result.elem);
  const memory = (m: 'any' | 'contiguous' | 'block') =>
    m === 'any' || (rowStride !== undefined && (m === 'contiguous' ? rowStride === key.groupSize : rowStride > 0 && rowStride % (256 / bits) === 0));
  const ok = GROUP_LOAD.some(([b, block, m, row]) => b.includes(bits) && blockMatches(block, key) && memory(m) && matches(row, result.layout));
  return ok
    ? undefined
    : 'no group_load rule has this result layout for this group size and row stride (a block-deinterleaved result needs a constant row stride of whole 32-byte blocks)';
}

/** kGroupBroadcastLoadLayoutPatterns: block class, contiguous groups in memory (unit stride) or any, result layout,
 *  and whether the row needs a single group. */
const GROUP_BROADCAST_LOAD: [Block, 'contiguous' | 'any', Row, boolean][] = [
  [gb(1, 4), 'contiguous', ls(4), false],
  [gb(1, 2), 'contiguous', ls(2), false],
  [gb(1), 'contiguous', c, false],
  [gb(2), 'contiguous', c, false],
  [gb(2), 'contiguous', d(2), false],
  [gb(4), 'contiguous', c, false],
  [gb(4), 'contiguous', d(4), false],
  [gbFull(), 'any', c, false],
  [gbFull(), 'any', d(2), true],
  [gbFull(), 'any', d(4), true],
];

/** `stride`: the source group stride when it is a constant. */
export function groupBroadcastLoadProblem(result: VmiVregType, numGroups: number, stride: number | undefined): string | undefined {
  if (!result.layout) return 'the result layout must be assigned';
  const key = groupKey(result, numGroups, 'group_broadcast_load');
  if (typeof key === 'string') return key;
  const ok = GROUP_BROADCAST_LOAD.some(
    ([block, memory, row, single]) =>
      blockMatches(block, key) && (!single || numGroups === 1) && (memory === 'any' || stride === 1) && matches(row, result.layout, numGroups),
  );
  return ok
    ? undefined
    : `no group_broadcast_load rule has this result layout for groups of ${key.groupSize} lanes (groups narrower than a register part need a constant unit source group stride)`;
}

// ---- grouped reductions and broadcasts ------------------------------------------------------------------------

/** kGroupReduceLayoutPatterns: block class, source (and mask) layout, result layout. */
const GROUP_REDUCE: [Block, Row, Row][] = [
  [gb(1, 4), ls(4), gs(8)],
  [gb(1, 2), ls(2), gs(8)],
  [gb(1), c, gs(8)],
  [gb(2), d(2), gs(8)],
  [gb(2), bd(2), gs(8)],
  [gb(4), d(4), gs(8)],
  [gb(4), bd(4), gs(8)],
  [gbFull(), c, gs(1)],
  [gbFull(2), d(2), gs(1)],
  [gbFull(4), d(4), gs(1)],
];

export function groupReduceProblem(source: VmiVregType, mask: VmiMaskType, result: VmiVregType, numGroups: number): string | undefined {
  if (!source.layout || !mask.layout || !result.layout) return 'the source, mask and result layouts must be assigned';
  const key = groupKey(source, numGroups, 'group_reduce');
  if (typeof key === 'string') return key;
  const ok = GROUP_REDUCE.some(
    ([block, s, r]) => blockMatches(block, key) && matches(s, source.layout) && matches(s, mask.layout) && matches(r, result.layout, numGroups),
  );
  return ok ? undefined : `no group_reduce rule for groups of ${key.groupSize} lanes has these source, mask and result layouts`;
}

/** kGroupBroadcastLayoutPatterns: block class, source layout, result layout. */
const GROUP_BROADCAST: [Block, Row, Row][] = [
  [gb(1, 4), gs(8), ls(4)],
  [gb(1, 2), gs(8), ls(2)],
  [gb(1), gs(8), c],
  [gb(1), gs(8), ls(2)],
  [gb(1), gs(8, 2), c],
  [gb(1), gs(8, 4), c],
  [gb(2), gs(8), c],
  [gb(2), gs(8), d(2)],
  [gb(2), gs(8), bd(2)],
  [gb(2), gs(1), c],
  [gb(4), gs(8), c],
  [gb(4), gs(8), d(4)],
  [gb(4), gs(8), bd(4)],
  [gb(4), gs(1), c],
  [gbFull(), gs(8), c],
  [gbFull(), gs(1), c],
  [gbFull(2), gs(1), d(2)],
  [gbFull(4), gs(1), d(4)],
];

export function groupBroadcastProblem(source: VmiVregType, result: VmiVregType, numGroups: number): string | undefined {
  if (!source.layout || !result.layout) return 'both layouts must be assigned';
  const key = groupKey(result, numGroups, 'group_broadcast');
  if (typeof key === 'string') return key;
  const ok = GROUP_BROADCAST.some(([block, s, r]) => blockMatches(block, key) && matches(s, source.layout, numGroups) && matches(r, result.layout, numGroups));
  return ok ? undefined : `no group_broadcast rule for groups of ${key.groupSize} lanes has these source and result layouts`;
}

// ---- casts ----------------------------------------------------------------------------------------------------

/** kLegalCastLayoutPatterns: source bits, result bits, source layout, result layout. */
const LEGAL_CAST: [number, number, Row, Row][] = [
  [16, 16, c, c],
  [8, 16, c, d(2)],
  [8, 16, ls(2), c],
  [8, 16, d(2), d(4)],
  [16, 32, c, d(2)],
  [16, 32, ls(2), c],
  [16, 32, d(2), d(4)],
  [16, 8, d(2), c],
  [16, 8, c, ls(2)],
  [16, 8, d(4), d(2)],
  [32, 16, d(2), c],
  [32, 16, c, ls(2)],
  [32, 16, d(4), d(2)],
  [8, 32, c, d(4)],
  [8, 32, ls(2), d(2)],
  [8, 32, ls(4), c],
  [32, 8, d(4), c],
  [32, 8, c, ls(4)],
  [32, 8, d(2), ls(2)],
  ...(
    [
      [8, 16, 2],
      [16, 32, 2],
      [8, 32, 4],
    ] as const
  ).flatMap(([s, r, stride]): [number, number, Row, Row][] => [
    [s, r, gs(1), gs(1)],
    [s, r, gs(8, stride), gs(8)],
  ]),
  ...(
    [
      [8, 16],
      [16, 32],
      [8, 32],
    ] as const
  ).flatMap(([s, r]): [number, number, Row, Row][] => [2, 4, 8].map((k): [number, number, Row, Row] => [s, r, gs(k), gs(k)])),
  ...(
    [
      [16, 8, 2],
      [32, 16, 2],
      [32, 8, 4],
    ] as const
  ).flatMap(([s, r, stride]): [number, number, Row, Row][] => [
    [s, r, gs(1), gs(1)],
    [s, r, gs(8), gs(8, stride)],
  ]),
];

/** A float widening or narrowing (extf, truncf): its layouts must be a legal cast row's, num_groups from the source. */
export function castProblem(source: VmiVregType, result: VmiVregType): string | undefined {
  const groups = groupsOf(source.layout);
  const sb = elemBits(source.elem);
  const rb = elemBits(result.elem);
  const rows = LEGAL_CAST.filter(([s, r, sl]) => s === sb && r === rb && matches(sl, source.layout, groups));
  if (rows.length === 0) return `no ${sb}-bit to ${rb}-bit cast rule takes the source layout`;
  return rows.some(([, , , rl]) => matches(rl, result.layout, groups)) ? undefined : 'no legal cast rule pairs the source layout with the result layout';
}

/** A bitcast: the layouts agree, and one that changes the element width is contiguous. */
export function bitcastProblem(source: VmiVregType, result: VmiVregType): string | undefined {
  if (!source.layout || !result.layout) return 'both layouts must be assigned';
  if (source.layout !== result.layout) return 'the source and result layouts must be the same';
  if (elemBits(source.elem) === elemBits(result.elem)) return undefined;
  return matches(c, source.layout) ? undefined : 'a bitcast that changes the element width has a rule only for the contiguous layout';
}
