import { costModelTables } from '../spec/costmodel';
import type { TransferPath } from '../spec/costmodel-schema';
import type { PointerSpace } from '../types/type';
import { OpCost, Pipe } from './cost';

/** A data movement: its path and the DMA instructions it issues (each a number of bytes, its bursts summed). */
export interface TransferInput {
  path: TransferPath;
  /** Bytes each DMA instruction moves; a TLOAD of a view with outer dimensions issues one per outer slice. */
  instructions: readonly number[];
  /**
   * `flat`: the flat bandwidth whatever arch.json's `use` says, as pto-isa's instruction-level model costs the copies
   * inside an op's lowering (the TTRANS measurement shows those copies far faster than a measured TMOV's).
   */
  curve?: 'flat';
}

/**
 * The path of a data movement between two locations (pto-isa's formula_backend_transfer.hpp, latency.hpp): a tile
 * op's (its tiles' locations, 'gm' for a view) and a DMA micro-op's (its pointers' spaces) alike.
 */
export function transferPath(src: PointerSpace, dst: PointerSpace): TransferPath | undefined {
  if (src === 'gm') return dst === 'vec' ? 'GM_TO_UB' : dst === 'mat' ? 'GM_TO_L1' : undefined;
  if (dst === 'gm') return src === 'vec' ? 'UB_TO_GM' : src === 'mat' ? 'L1_TO_GM' : src === 'acc' ? 'L0C_TO_GM' : undefined;
  if (src === 'mat' && dst === 'left') return 'L1_TO_L0A';
  if (src === 'mat' && dst === 'right') return 'L1_TO_L0B';
  if (src === 'mat' && dst === 'bias') return 'L1_TO_BT';
  if (src === 'mat' && dst === 'scaling') return 'L1_TO_FB';
  if (src === 'acc' && dst === 'mat') return 'L0C_TO_L1';
  if (src === 'vec' && dst === 'vec') return 'UB_TO_UB';
  return undefined;
}

/** The pipe a path runs on (perf_sim's latency.hpp: loads MTE2, stores MTE3, L0C out fixpipe, L1 -> L0 MTE1). */
export function pipeOfPath(path: TransferPath): Pipe {
  if (path.startsWith('GM_TO_')) return 'mte2';
  if (path.startsWith('L0C_TO_')) return 'fixpipe';
  if (path === 'UB_TO_UB') return 'vector';
  if (path.startsWith('L1_TO_L0') || path === 'L1_TO_BT' || path === 'L1_TO_FB' || path === 'L1_FILL') return 'mte1';
  return 'mte3';
}

/**
 * Cycles of a transfer: the DMA instructions one after another, each costed by the curve arch.json's `use` picks
 * for the path:
 * - `measured`: our fit to pto-isa's profiled transfers, a start-up per instruction plus the bytes at a measured
 *   rate (GM -> UB from the st tload tests, UB -> UB from the st tmov tests);
 * - `fitted`: pto-isa's saturating curve (arch_config.hpp's Hill model: bandwidth = peak * bytes / (K + bytes)),
 *   which is the same start-up-plus-rate form with pto-isa's own numbers;
 * - otherwise the flat bandwidth of kA2A3ArchConfig, as pto-isa's instruction-level model (EstimateBandwidthCycles)
 *   takes it.
 */
export function transferCost(input: TransferInput): OpCost {
  const { arch } = costModelTables();
  const p = arch.paths[input.path];
  const bytesPerCycle = (gibs: number): number => (gibs * arch.bytesPerGiB) / arch.frequencyHz;
  let one: (bytes: number) => number;
  let curve: string;
  if (input.curve !== 'flat' && p.use === 'measured' && p.measured) {
    const m = p.measured;
    one = (bytes) => Math.round(m.startCycles + bytes / m.bytesPerCycle);
    curve = `measured: ${m.startCycles} cycles + ${m.bytesPerCycle} B/cycle per DMA`;
  } else if (input.curve !== 'flat' && p.use === 'fitted' && p.fitted) {
    const f = p.fitted;
    one = (bytes) => Math.floor((f.kBytes + bytes) / bytesPerCycle(f.peakGibs));
    curve = `fitted: ${f.peakGibs} GiB/s peak, ${f.kBytes} B half-saturation`;
  } else {
    one = (bytes) => Math.floor(bytes / bytesPerCycle(p.gibs));
    curve = `at ${p.gibs} GiB/s`;
  }
  let cycles = 0;
  for (const bytes of input.instructions) if (bytes > 0) cycles += one(bytes);
  const n = input.instructions.length;
  return { kind: 'cycles', cycles, pipe: pipeOfPath(input.path), basis: `${input.path} ${curve}, ${n} DMA` };
}

/** A tile's shape and valid region as a UB -> UB copy sees them. */
export interface CopyTile {
  rows: number;
  cols: number;
  validRows: number;
  validCols: number;
}

/**
 * The copy_ubuf_to_ubuf instructions of a TMOV between two vector tiles on A2/A3, as pto-isa's TMovToVec issues
 * them (whole 32-byte blocks): one copy of all valid rows when the two tiles have the same width (or the
 * destination is one row) and the valid width is the whole width; else one copy per valid row.
 */
export function ubCopyInstructions(src: CopyTile, dst: CopyTile, elemBytes: number, blockBytes: number): number[] {
  const validRows = Math.min(src.validRows, dst.validRows);
  const validCols = Math.min(src.validCols, dst.validCols);
  const blocks = (bytes: number): number => Math.ceil(bytes / blockBytes) * blockBytes;
  if ((dst.cols === src.cols || dst.rows === 1) && dst.cols === validCols) return [blocks(dst.cols * validRows * elemBytes)];
  return Array<number>(validRows).fill(blocks(validCols * elemBytes));
}

/**
 * The DMA instructions of a TLOAD or TSTORE between a global view and a tile: pto-isa's TLoad/TStore issue one per
 * slice of the view's outer dimensions (all but the last two), each moving its share of the tile's valid bytes.
 */
export function sliceInstructions(viewShape: readonly number[], validBytes: number): number[] {
  let slices = 1;
  for (let i = 0; i < viewShape.length - 2; i++) slices *= viewShape[i];
  if (slices < 1) return [validBytes];
  return Array<number>(slices).fill(validBytes / slices);
}
