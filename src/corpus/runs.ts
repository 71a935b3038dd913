import { LocatedError } from '../diag/located-error';
import { TargetName } from '../spec/schema';
import { assemble } from '../verify/assemble';
import { calledFunctions, peerKernel, runLaunch } from '../vm/interpreter';
import { ArgumentError, bindArguments } from '../vm/io/arguments';

/**
 * Running a corpus file as a user would without inputs of their own: every kernel of the file (a function with a
 * body that no other function calls: a mixed kernel's cube and vector parts run inside its launch, not alone), its
 * pointer arguments filled by pto-vm's generators and its scalars given defaults (integers 32, i1 1, floats 1.5)
 * unless `bindings` names them (`name`, or `@function name` where functions share argument names).
 */
/** One function's run: whether it ran to its end, or what stopped it. */
export interface FunctionRun {
  symbol: string;
  /** The trap or argument error that stopped it. */
  trap?: string;
}

export interface RunOutcome {
  /** Each function's global buffers after its run, base64, by `@function %buffer`. */
  buffers?: Record<string, string>;
  /**
   * Every kernel (a function with a body no other function calls; of a cube/vector pair the first), in order; each
   * runs whether or not another trapped.
   */
  functions?: FunctionRun[];
  /** The first trap or argument error, `@function: message`. */
  trap?: string;
  /** The file does not assemble: nothing ran. */
  notAssembled?: boolean;
}

export interface RunOptions {
  target?: TargetName;
  bindings?: Record<string, string>;
  /** Bounds each function's run (the default suits the small samples). */
  maxSteps?: number;
  /** Whether the outcome carries the buffers (to compare runs); a survey needs only whether each run ends. */
  keepBuffers?: boolean;
  /** The value of an integer or index scalar nothing binds (default 32). */
  integerDefault?: string;
  /**
   * How many zero elements a pointer gets when no static view tells its size (pypto's kernels size their views
   * from scalar arguments); without it such a pointer is an argument error.
   */
  unsizedElements?: number;
}

/** pypto's SPMD launch arguments: the block index and count a single-block run has. */
const LAUNCH_SCALARS: Record<string, string> = { __pypto_spmd_block_idx: '0', __pypto_spmd_block_num: '1' };

const UNSIZED = /^cannot tell how large %([\w$.-]+) is/;

/** Binds the arguments, giving each pointer no static view sizes `count` zero elements when a count is given. */
function bindUnsized(types: Parameters<typeof bindArguments>[0], fn: Parameters<typeof bindArguments>[1], args: Map<string, string>, count?: number) {
  for (;;) {
    try {
      return bindArguments(types, fn, args);
    } catch (e) {
      const unsized = e instanceof ArgumentError && count !== undefined ? UNSIZED.exec(e.message) : null;
      if (!unsized || args.has(unsized[1])) throw e;
      args.set(unsized[1], `zeros:${count}`);
    }
  }
}

export function runWithGeneratedInputs(file: string, text: string, options: RunOptions = {}): RunOutcome {
  const asm = assemble(file, text, { target: options.target });
  if (asm.diags.hasErrors()) return { notAssembled: true };
  const buffers: Record<string, string> = {};
  const functions: FunctionRun[] = [];
  const given = options.bindings ?? {};
  const called = calledFunctions(asm.program);
  const kernels = [...asm.program.functions.values()].filter((f) => f.regions.length > 0 && !called.has(f));
  // A cube kernel and the vector kernel its pipes name run as one launch (from the first of the two).
  const launched = kernels.filter((f, i) => {
    const peer = peerKernel(asm.program, f);
    return !peer || kernels.indexOf(peer) < 0 || kernels.indexOf(peer) > i;
  });
  for (const fn of launched) {
    const args = new Map<string, string>();
    for (const p of fn.params ?? []) {
      const name = p.name.slice(1);
      const t = p.type ? asm.types.parse(p.type.text).type : undefined;
      const value = given[`@${fn.symbol} ${name}`] ?? given[name];
      if (t?.kind === 'scalar')
        args.set(
          name,
          value ?? LAUNCH_SCALARS[name] ?? (t.elem.startsWith('f') || t.elem === 'bf16' ? '1.5' : t.elem === 'i1' ? '1' : (options.integerDefault ?? '32')),
        );
      else if (value !== undefined) args.set(name, value);
    }
    try {
      const bound = bindUnsized(asm.types, fn, args, options.unsizedElements);
      runLaunch(asm.program, asm.types, fn, bound.values, { numerics: 'npu', maxSteps: options.maxSteps ?? 10_000_000 }, 1);
      if (options.keepBuffers !== false) for (const b of bound.buffers) buffers[`@${fn.symbol} %${b.name}`] = Buffer.from(b.bytes).toString('base64');
      functions.push({ symbol: fn.symbol ?? '' });
    } catch (e) {
      if (!(e instanceof LocatedError || e instanceof ArgumentError)) throw e;
      functions.push({ symbol: fn.symbol ?? '', trap: e.message });
    }
  }
  const first = functions.find((f) => f.trap);
  return { buffers, functions, ...(first ? { trap: `@${first.symbol}: ${first.trap}` } : {}) };
}
