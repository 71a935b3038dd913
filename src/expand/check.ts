/**
 * Checking a lowering by running it: the tile-level module and its expansion (src/expand/expand.ts) run on the VM
 * with the same global inputs, and every byte of every global buffer compared afterwards. The first difference is
 * reported as an element of its buffer (its index, both values' bits).
 */
import { GlobalBuffer } from '../machine/memory';
import { ElemType } from '../types/type';
import { assemble } from '../verify/assemble';
import { Value, runFunction } from '../vm/interpreter';
import { Expanded, ExpandOptions, NotExpanded, expandModule } from './expand';

export interface BufferInput {
  elem: ElemType;
  bytes: Uint8Array;
}

export interface Difference {
  buffer: string;
  /** The element's index in its buffer (the byte offset over the element size). */
  element: number;
  /** The element's bytes in the tile-level run and in the expanded run, as little-endian hex. */
  tileLevel: string;
  expanded: string;
}

interface Checked {
  expanded: Expanded[];
  notExpanded: NotExpanded[];
  expandedText: string;
  /** Every buffer after the expanded run. */
  outputs: Map<string, Uint8Array>;
}

export type CheckResult = (Checked & { agree: true }) | (Checked & { agree: false; difference: Difference }) | { error: string };

/** Runs `fn` of `text` with fresh copies of the inputs; the buffers after the run, or the run's error. */
function runCopy(file: string, text: string, fn: string, inputs: Record<string, BufferInput>, maxSteps: number): Map<string, GlobalBuffer> | { error: string } {
  const { program, types, diags } = assemble(file, text);
  if (diags.hasErrors()) return { error: `${file}: ${diags.sorted()[0].message} (line ${diags.sorted()[0].span?.start ?? '?'})` };
  const fnNode = program.functions.get(fn);
  if (!fnNode) return { error: `${file} has no function @${fn}` };
  const buffers = new Map(Object.entries(inputs).map(([name, b]) => [name, new GlobalBuffer(name, b.elem, b.bytes.slice())]));
  const args = new Map<string, Value>([...buffers].map(([name, b]) => [`%${name}`, b]));
  try {
    runFunction(program, types, fnNode, args, { numerics: 'npu', maxSteps });
  } catch (e) {
    return { error: `${file}: ${(e as Error).message}` };
  }
  return buffers;
}

const hex = (bytes: Uint8Array): string => [...bytes].map((b) => b.toString(16).padStart(2, '0')).join('');

/** Expands `text`, runs both forms of `fn` on the inputs, and compares every output byte. */
export function checkLowering(text: string, fn: string, inputs: Record<string, BufferInput>, options: ExpandOptions & { maxSteps?: number }): CheckResult {
  const expansion = expandModule('tile-level.pto', text, options);
  if ('error' in expansion) return expansion;
  const { expanded, notExpanded } = expansion;
  const compared = compareRuns(text, expansion.text, fn, inputs, options.maxSteps);
  if ('error' in compared) return compared;
  const checked = { expanded, notExpanded, expandedText: expansion.text, outputs: compared.outputs };
  return compared.difference ? { ...checked, agree: false, difference: compared.difference } : { ...checked, agree: true };
}

/**
 * Runs `fn` of both texts on copies of the same inputs; the first byte that differs in any buffer (buffers in the
 * order given), with the outputs of the expanded run.
 */
export function compareRuns(
  tileLevel: string,
  expandedText: string,
  fn: string,
  inputs: Record<string, BufferInput>,
  maxSteps = 1_000_000,
): { difference?: Difference; outputs: Map<string, Uint8Array> } | { error: string } {
  const before = runCopy('tile-level.pto', tileLevel, fn, inputs, maxSteps);
  if ('error' in before) return before;
  const after = runCopy('expanded.pto', expandedText, fn, inputs, maxSteps);
  if ('error' in after) return after;
  const outputs = new Map([...after].map(([name, b]) => [name, b.bytes.slice()]));
  for (const [name, b] of before) {
    const x = b.bytes;
    const y = after.get(name)!.bytes;
    const size = b.codec.size;
    for (let i = 0; i < x.length; i++)
      if (x[i] !== y[i]) {
        const e = Math.floor(i / size);
        const at = (bytes: Uint8Array): string => hex(bytes.subarray(e * size, e * size + size));
        return { difference: { buffer: name, element: e, tileLevel: at(x), expanded: at(y) }, outputs };
      }
  }
  return { outputs };
}
