import { costModelTables } from '../spec/costmodel';
import type { A2a3InstructionsData } from '../spec/costmodel-schema';
import { elemBytes, noData, OpCost, TileOpInput } from './cost';
import { transferCost } from './transfer';

/**
 * A2/A3 tile ops as pto-isa's instruction-level model costs them (the model its tests/costmodel/st hold): the op is
 * lowered to vector intrinsics the way pto-isa's a2a3 implementation issues them (include/pto/npu/a2a3: one
 * instruction over the whole tile, one per row, or a count-mode call; repeats of at most 255; a partial mask for a
 * tail), and each intrinsic costs what spec/costmodel/a2a3-instructions.json gives (its note says how the pieces add
 * up). The tile's valid region is taken as a runtime value, as in pto-isa's st tests (Tile<..., -1, -1>).
 */

/** One step of a lowering: a vector intrinsic with its repeat count, or a control call (mask, mode, barrier). */
type Step =
  /** `reduce`: the op's reducing intrinsic (vcmax, vcadd) rather than its element-wise one; `name`: another one. */
  | { kind: 'intrinsic'; repeat: number; reduce?: boolean; name?: string }
  | { kind: 'mask'; full: boolean }
  | { kind: 'countMode'; on: boolean }
  | { kind: 'barrier' }
  /** A control call that changes nothing the model tracks (set_ctrl, set_va_reg_sb, set_cmpmask). */
  | { kind: 'control' }
  /** Work on another pipe the op waits for (a UB -> UB copy): its cycles, no effect on the vector pipe's state. */
  | { kind: 'other'; cycles: number };

/** 256 bytes per repeat, 32 per block; more than 255 repeats or a stride over 255 blocks takes another instruction. */
const REPEAT_BYTES = 256;
const BLOCK_BYTES = 32;
const REPEAT_MAX = 255;
const STRIDE_MAX = 255;

interface Shape {
  rows: number;
  cols: number;
  validRows: number;
  validCols: number;
  /** Elements per repeat and per 32-byte block. */
  perRepeat: number;
  perBlock: number;
  bytes: number;
  float: boolean;
  binary?: boolean;
  /** TCVT: the conversion, as "f32>f16". */
  conversion?: string;
  sources?: TileOpInput['sources'];
  blockLen?: number;
  maskPattern?: string;
  columnDestination?: boolean;
  groupIntrinsic?: string;
}

const fullMask: Step = { kind: 'mask', full: true };
const partialMask: Step = { kind: 'mask', full: false };
const run = (repeat: number): Step => ({ kind: 'intrinsic', repeat });
const barrier: Step = { kind: 'barrier' };
const reduce = (repeat: number): Step => ({ kind: 'intrinsic', repeat, reduce: true });
/** One call in count mode: the mode and the element count set, the call, then the normal mode and full mask back. */
const inCountMode = (step: Step): Step[] => [{ kind: 'countMode', on: true }, partialMask, step, { kind: 'countMode', on: false }, fullMask];

/** The whole valid region as one count-mode call (repeat 0: the hardware counts the elements), or one per row. */
function countMode(calls: number): Step[] {
  return [{ kind: 'countMode', on: true }, partialMask, ...Array<Step>(calls).fill(run(0)), { kind: 'countMode', on: false }, fullMask];
}

/** The valid region as one run: whole repeats, then the remainder under a partial mask. */
function normalOneRun(s: Shape): Step[] {
  const n = s.validRows * s.validCols;
  const steps = [run(Math.floor(n / s.perRepeat))];
  if (n % s.perRepeat) steps.push(partialMask, run(1), fullMask);
  return steps;
}

/** Row by row: each row's whole repeats, in instructions of at most 255 repeats. */
function rowHeads(s: Shape, perRow: number): Step[] {
  if (perRow === 0) return [];
  const row = [...Array<Step>(Math.floor(perRow / REPEAT_MAX)).fill(run(REPEAT_MAX)), ...(perRow % REPEAT_MAX ? [run(perRow % REPEAT_MAX)] : [])];
  return Array.from({ length: s.validRows }, () => row).flat();
}

/** Each row's remainder under one partial mask, the rows as repeats (one instruction per row if the stride is too long). */
function rowTails(s: Shape): Step[] {
  const strideTooLong = s.cols / s.perBlock > STRIDE_MAX;
  const steps: Step[] = [partialMask];
  let left = s.validRows;
  if (s.rows > REPEAT_MAX) {
    for (let i = 0; i < Math.floor(s.validRows / REPEAT_MAX); i++) steps.push(...(strideTooLong ? Array<Step>(REPEAT_MAX).fill(run(1)) : [run(REPEAT_MAX)]));
    left = s.validRows % REPEAT_MAX;
  }
  if (left) steps.push(...(strideTooLong ? Array<Step>(left).fill(run(1)) : [run(left)]));
  return [...steps, fullMask];
}

/** Rows as repeats (a column block per instruction), or whole rows then the row remainders when that does not fit. */
function rowRepeats(s: Shape): Step[] {
  if (s.rows <= REPEAT_MAX && s.cols / s.perBlock <= STRIDE_MAX) {
    const steps = Array<Step>(Math.floor(s.validCols / s.perRepeat)).fill(run(s.validRows));
    if (s.validCols % s.perRepeat) steps.push(partialMask, run(s.validRows), fullMask);
    return steps;
  }
  let remain = s.validCols;
  const steps: Step[] = [];
  if (s.rows > s.perRepeat) {
    steps.push(...rowHeads(s, Math.floor(s.validCols / s.perRepeat)));
    remain = s.validCols % s.perRepeat;
  }
  return remain ? [...steps, ...rowTails(s)] : steps;
}

/** The two-dimensional choices common to the binary and binary-scalar lowerings (valid width short of the tile's). */
function twoDimensional(s: Shape): Step[] {
  const blocksPerRow = Math.floor(s.cols / s.perRepeat);
  if (blocksPerRow > 1 && s.rows * blocksPerRow < 4) return countMode(s.validRows);
  if (s.rows < blocksPerRow + 1) {
    return s.validCols % s.perRepeat ? countMode(s.validRows) : Array<Step>(s.validRows).fill(run(Math.floor(s.validCols / s.perRepeat)));
  }
  return rowRepeats(s);
}

/** One run, in count mode when it is long or its width is not a whole number of repeats. */
function oneRun(s: Shape): Step[] {
  const repeats = Math.ceil((s.validRows * s.validCols) / s.perRepeat);
  const ragged = s.validCols > s.perRepeat && s.validCols % s.perRepeat !== 0;
  return ragged || repeats > REPEAT_MAX ? countMode(1) : normalOneRun(s);
}

/**
 * Column reductions (TColReduceOps.hpp): the first row copied UB -> UB, then each further row folded into it by one
 * intrinsic (count mode over the whole repeats, a masked repeat for the remainder), a PIPE_V barrier after each, so
 * every fold pays the head and the tail again.
 */
function columnReduce(s: Shape): Step[] {
  const steps = copyRow(s);
  if (s.validRows === 1) return steps;
  const folds = (repeat: number): Step[] => Array.from({ length: s.validRows - 1 }, () => [run(repeat), barrier]).flat();
  if (s.validCols >= s.perRepeat) {
    steps.push({ kind: 'countMode', on: true }, partialMask, ...folds(0), { kind: 'countMode', on: false }, fullMask);
  }
  if (s.validCols % s.perRepeat) steps.push(partialMask, ...folds(1), fullMask);
  return [...steps, barrier];
}

/** One row's valid bytes copied UB -> UB in whole blocks, then a PIPE_V barrier. */
function copyRow(s: Shape): Step[] {
  const copy = transferCost({ path: 'UB_TO_UB', instructions: [Math.ceil((s.validCols * s.bytes) / BLOCK_BYTES) * BLOCK_BYTES], curve: 'flat' });
  return [{ kind: 'other', cycles: copy.kind === 'cycles' ? copy.cycles : 0 }, barrier];
}

/** `calls` count-mode calls over the valid width, with a barrier after each (sequential) or after them all (pairwise). */
function countModeCalls(calls: number, barrierEach: boolean): Step[] {
  const body = Array.from({ length: calls }, () => (barrierEach ? [run(0), barrier] : [run(0)])).flat();
  return [{ kind: 'countMode', on: true }, partialMask, ...body, ...(barrierEach ? [] : [barrier]), { kind: 'countMode', on: false }, fullMask];
}

/**
 * TCOLSUM (TColSum.hpp): one row is a copy. Sequential: the first row copied, each further row added into it in count
 * mode with a barrier after each. Pairwise (isBinary): rows added in pairs into the scratch tile, halving until one
 * row is left (an odd row folded in after its level), then that row copied out.
 */
function columnSum(s: Shape): Step[] | string {
  if (s.validRows === 1) return copyRow(s);
  if (s.binary === undefined) return "TCOLSUM's form (isBinary) is not known";
  if (!s.binary) return [...copyRow(s), ...countModeCalls(s.validRows - 1, true)];
  const level = (rows: number): Step[] => {
    const steps = countModeCalls(Math.floor(rows / 2), false);
    // The odd row's add and its barrier sit inside the level's count mode.
    if (rows % 2) steps.splice(steps.length - 2, 0, run(0), barrier);
    return steps;
  };
  const steps = level(s.validRows);
  for (let rows = Math.floor(s.validRows / 2); rows > 1; rows = Math.floor(rows / 2)) steps.push(...level(rows), barrier);
  return [...steps, ...copyRow(s)];
}

/**
 * The f32 shapes pto-isa reduces by groups when the destination is a column (TryOptimizeFP32Reduce): per shape its
 * steps, each a group reduction (vcgmax/vcgadd: 8 elements a repeat) or a fold by the element-wise intrinsic, of
 * the given repeats, each followed by a barrier.
 */
const GROUPED_ROW_REDUCE: Record<string, ['group' | 'fold', number][]> = {
  '64x128': [
    ['group', 128],
    ['fold', 8],
    ['group', 8],
  ],
  '32x256': [
    ['group', 128],
    ['fold', 8],
    ['fold', 4],
    ['group', 4],
  ],
  '16x512': [
    ['group', 128],
    ['group', 16],
    ['group', 2],
  ],
  '8x1024': [
    ['group', 128],
    ['group', 16],
    ['fold', 1],
    ['group', 1],
  ],
};

/**
 * Row reductions, f32 and f16 (TRowReduceOps.hpp TRowReduceInstr; the scratch tile taken as the source's shape):
 * the row's repeats folded pairwise into the scratch by the element-wise intrinsic in count mode (a remainder under
 * a mask), a barrier after each fold, then one count-mode call of the reducing intrinsic. A row of at most one
 * repeat is reduced directly.
 */
function rowReduce(s: Shape): Step[] | string {
  if (!s.float) return 'the integer row reductions (a scalar pass per row) are not modelled';
  const grouped = s.bytes === 4 && s.validRows === s.rows && s.validCols === s.cols ? GROUPED_ROW_REDUCE[`${s.rows}x${s.cols}`] : undefined;
  if (grouped && s.columnDestination === undefined) {
    return `pto-isa reduces f32 ${s.rows}x${s.cols} by groups when the destination is a column, and the destination's layout is not known here`;
  }
  if (grouped && s.columnDestination) {
    if (!s.groupIntrinsic) return `no group-reducing intrinsic for f32 ${s.rows}x${s.cols}`;
    const name = s.groupIntrinsic;
    return grouped.flatMap(([kind, repeat]): Step[] => [kind === 'group' ? { kind: 'intrinsic', repeat, name } : run(repeat), barrier]);
  }
  // The rows in instructions of at most 255 repeats, as pto-isa's do-while loop counts them.
  const chunks: number[] = [];
  for (let left = Math.floor(s.validRows / REPEAT_MAX); left >= 0; left--) chunks.push(left === 0 ? s.validRows % REPEAT_MAX : REPEAT_MAX);
  const perRow = Math.floor(s.validCols / s.perRepeat);
  const remain = s.validCols % s.perRepeat;
  if (s.validCols <= s.perRepeat) {
    if (remain === 0) return [...inCountMode(reduce(0)), barrier];
    return [partialMask, ...chunks.flatMap((n) => [reduce(n), barrier]), fullMask];
  }
  const strideTooLong = s.cols / s.perBlock > STRIDE_MAX;
  const fold = strideTooLong ? Array<Step>(s.validRows).fill(run(1)) : inCountMode(run(0));
  const steps: Step[] = [];
  if (s.validCols < 2 * s.perRepeat) {
    const copy = transferCost({ path: 'UB_TO_UB', instructions: [s.validRows * REPEAT_BYTES], curve: 'flat' });
    steps.push({ kind: 'other', cycles: copy.kind === 'cycles' ? copy.cycles : 0 }, barrier);
  } else {
    steps.push(...fold, barrier);
  }
  if (remain) steps.push(partialMask, ...chunks.flatMap((n) => (strideTooLong ? Array<Step>(n).fill(run(1)) : [run(n)])), fullMask, barrier);
  for (let i = 2; i < perRow; i++) steps.push(...fold, barrier);
  return [...steps, ...inCountMode(reduce(0)), barrier];
}

/** The conversions pto-isa's a2a3 TCVT issues as one vconv per call (GenCastCall). */
const SINGLE_VCONV = new Set(['f32>f16', 'f16>f32']);

/**
 * TCVT (TCvt.hpp): the saturation mode set and restored around the work (two set_ctrl), each row's whole repeats
 * (of the wider type's 256 bytes) in calls of at most 255, then the rows' remainders under a mask, rows as repeats.
 */
function convert(s: Shape): Step[] | string {
  if (!s.conversion || !SINGLE_VCONV.has(s.conversion)) return `the a2a3 conversion ${s.conversion ?? '(no destination type)'} is not modelled`;
  const steps: Step[] = [{ kind: 'control' }, ...rowHeads(s, Math.floor(s.validCols / s.perRepeat))];
  if (s.validCols % s.perRepeat) {
    steps.push(partialMask);
    for (let left = s.validRows; left > 0; left -= REPEAT_MAX) steps.push(run(Math.min(left, REPEAT_MAX)));
    steps.push(fullMask);
  }
  return [...steps, { kind: 'control' }];
}

/**
 * TTRANS of a row-major tile, 16- and 32-bit (TTrans.hpp TTransOperation): per 32-byte column block, four address
 * registers set and one scatter_vnchwconv over the 16-row groups; the rows past the last group take one more for all
 * blocks; then a barrier and the UB -> UB copy of the transposed scratch to the destination. The destination's row
 * stride is taken as a multiple of 16 elements (pto-isa's element-by-element path otherwise).
 */
function transpose(s: Shape): Step[] | string {
  if (s.bytes === 1) return 'the 8-bit transpose is not modelled';
  if ((s.cols * s.bytes) % BLOCK_BYTES) return "a source row that is not whole 32-byte blocks takes pto-isa's element-by-element path, not modelled";
  const groups = Math.floor(s.validRows / 16);
  const blocks = Math.ceil(s.validCols / s.perBlock);
  const registers = Array<Step>(4).fill({ kind: 'control' });
  const steps: Step[] = [];
  if (groups > 0) for (let i = 0; i < blocks; i++) steps.push(...registers, run(groups));
  if (s.validRows % 16) steps.push(...registers, run(blocks));
  const copy = transferCost({ path: 'UB_TO_UB', instructions: [s.validCols * Math.ceil((s.validRows * s.bytes) / BLOCK_BYTES) * BLOCK_BYTES], curve: 'flat' });
  return [...steps, barrier, { kind: 'other', cycles: copy.kind === 'cycles' ? copy.cycles : 0 }];
}

/**
 * TSEL with its scratch (TSel.hpp): in count mode, per row the row's mask bits duplicated into the scratch
 * (vector_dup), a barrier, set_cmpmask, a barrier, then one vsel over the row.
 */
function select(s: Shape): Step[] | string {
  if (s.bytes === 1) return 'pto-isa has no 8-bit a2a3 TSEL';
  const row: Step[] = [partialMask, { kind: 'intrinsic', repeat: 1, name: 'vector_dup' }, barrier, { kind: 'control' }, barrier, partialMask, run(1)];
  const rows = Array.from({ length: s.validRows }, () => row).flat();
  return [{ kind: 'countMode', on: true }, ...rows, { kind: 'countMode', on: false }, fullMask];
}

/**
 * TSORT32 of whole 32-element blocks (TSort32.hpp TSort32Impl): per row, vbitsort over the row's blocks (in calls
 * of 255 blocks, the last taking the remainder), a barrier after each call. A row that ends inside a block takes
 * another path when the program gives a scratch tile, which the input does not say.
 */
function sort32(s: Shape): Step[] | string {
  // The source's width counts the elements (the destination holds 2 or 4 columns of record per element).
  const width = s.sources?.[0]?.validCols ?? s.validCols;
  if (width % 32) return 'a row that ends inside a 32-element block depends on the scratch tile, not known here';
  const blocks = width / 32;
  const loops = Math.ceil(blocks / REPEAT_MAX);
  const calls: number[] = blocks <= REPEAT_MAX ? [blocks] : Array.from({ length: loops }, (_, j) => (j === loops - 1 ? blocks % REPEAT_MAX : REPEAT_MAX));
  return Array.from({ length: s.validRows }, () => calls.flatMap((n) => [run(n), barrier])).flat();
}

/**
 * TMRGSORT (TMrgSort.hpp): format 1 is one vmrgsort4 whose repeats are the groups of 4 blocks in the source's valid
 * width; format 2 (2 to 4 lists) one vmrgsort4 of one repeat into the scratch, a barrier, then the scratch copied
 * UB -> UB to the destination (its valid width in whole 32-byte blocks; the flat rate, as pto-isa costs copies inside
 * an op). The exhausted form's status read is not modelled.
 */
function mergeSort(s: Shape): Step[] | string {
  const sources = s.sources ?? [];
  if (sources.length >= 2) {
    const copy = transferCost({ path: 'UB_TO_UB', instructions: [Math.ceil((s.validCols * s.bytes) / BLOCK_BYTES) * BLOCK_BYTES], curve: 'flat' });
    return [run(1), barrier, { kind: 'other', cycles: copy.kind === 'cycles' ? copy.cycles : 0 }];
  }
  const width = sources[0]?.validCols;
  if (s.blockLen === undefined || width === undefined) return "TMRGSORT's blockLen or source is not known";
  const repeat = width / (4 * s.blockLen);
  if (!Number.isInteger(repeat) || repeat < 1 || repeat > REPEAT_MAX) return `a source of ${width} columns is not 1 to 255 groups of 4 x ${s.blockLen}`;
  return [run(repeat)];
}

/**
 * TGATHER's mask form along rows (TGather.hpp): in count mode over the source's valid width, one vreducev2 whose
 * repeats are the source's valid rows. The index and compare forms are not modelled.
 */
function gather(s: Shape): Step[] | string {
  const src = s.sources?.[0];
  if (!s.maskPattern || !src) return "only TGATHER's mask form is modelled";
  return inCountMode(run(src.validRows));
}

/**
 * TROWEXPANDADD/SUB/MUL/DIV/MAX/MIN (TRowExpandBinOp.hpp TRowExpandBin): a column-major per-row operand is first
 * broadcast to one 32-byte block a row (vbrcb, ceil(rows / 8) repeats) and a barrier; then one count-mode call a row
 * when the row strides overflow or a row has more repeats than there are rows, else the rows as repeats, one
 * instruction per repeat of the width (a remainder under a mask; a tile narrower than a repeat under one mask).
 */
function rowExpandBinary(s: Shape): Step[] | string {
  const perRow = s.sources?.[1];
  if (perRow?.rowMajor === undefined) return "the per-row operand's layout is not known";
  if (s.rows >= 256 && s.validRows >= 256) return 'the form for 256 rows or more is not modelled';
  const steps: Step[] = perRow.rowMajor ? [] : [{ kind: 'intrinsic', repeat: Math.ceil(s.validRows / 8), name: 'vbrcb' }, barrier];
  if (s.cols / s.perBlock > STRIDE_MAX || Math.floor(s.validCols / s.perRepeat) > s.validRows) return [...steps, ...countMode(s.validRows)];
  if (s.cols < s.perRepeat) return [...steps, partialMask, run(s.validRows), fullMask];
  steps.push(...Array<Step>(Math.floor(s.validCols / s.perRepeat)).fill(run(s.validRows)));
  if (s.validCols % s.perRepeat) steps.push(partialMask, run(s.validRows), fullMask);
  return steps;
}

/** pto-isa's a2a3 lowerings (TBinOp.hpp, TBinSOp.hpp, TUnaryOp.hpp), by name in a2a3-instructions.json. */
const LOWERINGS: Record<A2a3InstructionsData['ops'][string]['lowering'], (s: Shape) => Step[] | string> = {
  // Narrow tiles: the rows as repeats under one mask; else one run when the valid width is the tile's.
  binary: (s) => {
    if (s.rows <= REPEAT_MAX && s.cols < s.perRepeat) return [partialMask, run(s.validRows), fullMask];
    return s.cols === s.validCols || s.validRows === 1 ? oneRun(s) : twoDimensional(s);
  },
  // The one-run form only for one-row tiles: a runtime valid region counts as not contiguous.
  binaryScalar: (s) => (s.rows === 1 ? oneRun(s) : twoDimensional(s)),
  // One run when the valid width is the tile's; the row-by-row forms are not modelled yet.
  unary: (s) =>
    s.validCols === s.cols || s.validRows === 1
      ? Math.ceil((s.validRows * s.validCols) / s.perRepeat) > REPEAT_MAX
        ? countMode(1)
        : normalOneRun(s)
      : "a valid width short of the tile's is not modelled",
  columnReduce,
  columnSum,
  rowReduce,
  convert,
  transpose,
  select,
  sort32,
  mergeSort,
  gather,
  rowExpandBinary,
};

/** The cycles of a lowering: heads, slopes, the count-mode floor, control calls and the tail left at the end. */
type Intrinsic = A2a3InstructionsData['intrinsics'][string];

function evaluate(steps: Step[], main: Intrinsic, reducing: Intrinsic | undefined, table: A2a3InstructionsData): number {
  let cycles = 0;
  let pipeIdle = true;
  let countModeOn = false;
  let pendingTail = 0;
  for (const step of steps) {
    if (step.kind === 'other') {
      cycles += step.cycles;
      continue;
    }
    if (step.kind === 'intrinsic') {
      const intrinsic = (step.name && table.intrinsics[step.name]) || (step.reduce && reducing) || main;
      cycles += intrinsic.slope * step.repeat + (pipeIdle ? intrinsic.head : 0);
      if (intrinsic.countModeFloor && countModeOn) cycles += table.countModeFloorCycles;
      pipeIdle = false;
      pendingTail = intrinsic.tail;
      continue;
    }
    cycles += table.controlCallCycles;
    if (step.kind === 'control') continue;
    if (step.kind === 'mask') countModeOn = !step.full;
    else if (step.kind === 'countMode') countModeOn = step.on;
    else {
      cycles += pendingTail;
      pendingTail = 0;
      pipeIdle = true;
    }
  }
  return cycles + pendingTail;
}

/** The op's cost in pto-isa's a2a3 instruction-level model, or "no data" for an op or shape it does not lower here. */
export function a2a3InstructionCost(input: TileOpInput): OpCost {
  const table = costModelTables().a2a3Instructions;
  const fixed = table.fixedOpCycles.find((f) => f.op === input.op && f.dtypes.includes(input.dtype));
  if (fixed) return { kind: 'cycles', cycles: fixed.cycles, pipe: 'vector', basis: `a2a3 ${input.op} ${input.dtype}: pto-isa's constant` };
  const op = table.ops[input.op];
  // A conversion's repeat is 256 bytes of the wider type.
  const bytes = Math.max(elemBytes(input.dtype) ?? 0, (input.dstDtype && elemBytes(input.dstDtype)) || 0) || undefined;
  if (!op) return noData(`pto-isa's a2a3 instruction model has no lowering of ${input.op} here`, 'vector');
  if (!bytes) return noData(`pto-isa's a2a3 lowering of ${input.op} has no ${input.dtype}`, 'vector');
  const shape: Shape = {
    rows: input.rows,
    cols: input.cols,
    validRows: input.validRows ?? input.rows,
    validCols: input.validCols ?? input.cols,
    perRepeat: REPEAT_BYTES / bytes,
    perBlock: BLOCK_BYTES / bytes,
    bytes,
    float: input.dtype === 'f32' || input.dtype === 'f16',
    binary: input.binary,
    conversion: input.dstDtype && `${input.dtype}>${input.dstDtype}`,
    sources: input.sources,
    blockLen: input.blockLen,
    maskPattern: input.maskPattern,
    columnDestination: input.columnDestination,
    groupIntrinsic: op.groupIntrinsic,
  };
  const steps = LOWERINGS[op.lowering](shape);
  const intrinsic = table.intrinsics[op.intrinsic];
  const reducing = op.reduceIntrinsic === undefined ? undefined : table.intrinsics[op.reduceIntrinsic];
  if (!intrinsic || (op.reduceIntrinsic && !reducing)) return noData(`pto-isa's a2a3 instruction table lacks an intrinsic of ${input.op}`, 'vector');
  if (typeof steps === 'string') return noData(`a2a3 ${input.op} ${input.dtype} ${input.rows}x${input.cols}: ${steps}`, 'vector');
  const cycles = evaluate(steps, intrinsic, reducing, table);
  return { kind: 'cycles', cycles, pipe: 'vector', basis: `a2a3 instruction model ${op.intrinsic} (${op.lowering})` };
}
