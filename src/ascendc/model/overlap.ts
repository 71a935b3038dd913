import { Problem } from './errors';
import { RecordedAccess } from './memory';

/**
 * AscendC's address-overlap rule (the general constraints' 地址重叠约束, reference/ascendc.md §1) for an
 * instruction whose source and destination share memory: a repeat may not write bytes that another repeat
 * reads, and within a repeat the bytes written are either the bytes read (a 100% overlap) or apart from them.
 * Checked on the call's footprint, whose addresses do not depend on data. (vec_reduce_add's stricter rule, no
 * overlap at all among src, dst and work, is in validate.ts.)
 */
export function overlapProblems(instr: string, accesses: readonly RecordedAccess[]): Problem[] {
  const end = accesses.reduce((m, a) => Math.max(m, a.access.addr + a.access.length), 0);
  // The first and last repeat that read each byte (-1: none).
  const firstReader = new Int32Array(end).fill(-1);
  const lastReader = new Int32Array(end).fill(-1);
  const byRepeat = new Map<number, { read: Set<number>; written: Set<number> }>();
  const bytesOf = (a: RecordedAccess) => Array.from({ length: a.access.length }, (_, k) => a.access.addr + k);
  for (const a of accesses) {
    if (a.role === 'work') continue;
    let sets = byRepeat.get(a.repeat);
    if (!sets) byRepeat.set(a.repeat, (sets = { read: new Set(), written: new Set() }));
    for (const b of bytesOf(a)) {
      if (a.role === 'dst') sets.written.add(b);
      else {
        sets.read.add(b);
        if (firstReader[b] < 0) firstReader[b] = a.repeat;
        lastReader[b] = Math.max(lastReader[b], a.repeat);
      }
    }
  }
  const problems: Problem[] = [];
  for (const [r, { written }] of byRepeat) {
    const crossing = [...written].find((b) => firstReader[b] >= 0 && (firstReader[b] !== r || lastReader[b] !== r));
    if (crossing !== undefined) {
      const other = firstReader[crossing] !== r ? firstReader[crossing] : lastReader[crossing];
      problems.push({
        param: 'dst',
        message: `${instr}: repeat ${r} writes byte ${crossing} of the tile, which repeat ${other} reads: AscendC does not support a source and destination that overlap across repeats`,
      });
      break;
    }
  }
  for (const [r, { read, written }] of byRepeat) {
    const shared = [...written].filter((b) => read.has(b));
    if (shared.length > 0 && (shared.length !== written.size || shared.length !== read.size)) {
      problems.push({
        param: 'dst',
        message: `${instr}: repeat ${r} reads ${read.size} byte(s) and writes ${written.size}, ${shared.length} of them the same: within a repeat AscendC supports only a source and destination that overlap completely`,
      });
      break;
    }
  }
  return problems;
}
