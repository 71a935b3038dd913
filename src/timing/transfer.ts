import { costModelTables } from '../spec/costmodel';
import type { TransferPath } from '../spec/costmodel-schema';
import { OpCost, Pipe } from './cost';

/** A data movement: its path and the DMA instructions it issues (each a number of bytes, its bursts summed). */
export interface TransferInput {
  path: TransferPath;
  /** Bytes each DMA instruction moves; a TLOAD of a view with outer dimensions issues one per outer slice. */
  instructions: readonly number[];
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
 * Cycles of a transfer as pto-isa models it: each DMA instruction takes bytes / bandwidth at the chip's clock. Where
 * arch.json says so (GM -> UB), the saturating curve pto-isa fitted to hardware (arch_config.hpp's Hill model:
 * bandwidth = peak * bytes / (K + bytes)), so a small transfer pays a fixed start-up of K / peak; elsewhere the flat
 * bandwidth of kA2A3ArchConfig, as pto-isa's instruction-level model (EstimateBandwidthCycles) takes it.
 */
export function transferCost(input: TransferInput): OpCost {
  const { arch } = costModelTables();
  const p = arch.paths[input.path];
  const bytesPerCycle = (gibs: number): number => (gibs * arch.bytesPerGiB) / arch.frequencyHz;
  const fitted = p.use === 'fitted' ? p.fitted : undefined;
  let cycles = 0;
  for (const bytes of input.instructions) {
    if (bytes <= 0) continue;
    cycles += fitted ? Math.floor((fitted.kBytes + bytes) / bytesPerCycle(fitted.peakGibs)) : Math.floor(bytes / bytesPerCycle(p.gibs));
  }
  const n = input.instructions.length;
  const basis = fitted
    ? `${input.path} fitted: ${fitted.peakGibs} GiB/s peak, ${fitted.kBytes} B half-saturation, ${n} DMA`
    : `${input.path} at ${p.gibs} GiB/s, ${n} DMA`;
  return { kind: 'cycles', cycles, pipe: pipeOfPath(input.path), basis };
}
