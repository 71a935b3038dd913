import { LocatedError } from '../diag/located-error';
import { TargetName } from '../spec/schema';
import { assemble } from '../verify/assemble';
import { runFunction } from '../vm/interpreter';
import { ArgumentError, bindArguments } from '../vm/io/arguments';

/**
 * Running a corpus file as a user would without inputs of their own: every function with a body, its pointer
 * arguments filled by pto-vm's generators and its scalars given defaults (integers 32, i1 1, floats 1.5) unless
 * `bindings` names them (`name`, or `@function name` where functions share argument names).
 */
export interface RunOutcome {
  /** Each function's global buffers after its run, base64, by `@function %buffer`. */
  buffers?: Record<string, string>;
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
}

export function runWithGeneratedInputs(file: string, text: string, options: RunOptions = {}): RunOutcome {
  const asm = assemble(file, text, { target: options.target });
  if (asm.diags.hasErrors()) return { notAssembled: true };
  const buffers: Record<string, string> = {};
  const given = options.bindings ?? {};
  for (const fn of [...asm.program.functions.values()].filter((f) => f.regions.length > 0)) {
    const args = new Map<string, string>();
    for (const p of fn.params ?? []) {
      const name = p.name.slice(1);
      const t = p.type ? asm.types.parse(p.type.text).type : undefined;
      const value = given[`@${fn.symbol} ${name}`] ?? given[name];
      if (t?.kind === 'scalar') args.set(name, value ?? (t.elem.startsWith('f') || t.elem === 'bf16' ? '1.5' : t.elem === 'i1' ? '1' : '32'));
      else if (value !== undefined) args.set(name, value);
    }
    try {
      const bound = bindArguments(asm.types, fn, args);
      runFunction(asm.program, asm.types, fn, bound.values, { numerics: 'npu', maxSteps: options.maxSteps ?? 10_000_000 });
      if (options.keepBuffers !== false) for (const b of bound.buffers) buffers[`@${fn.symbol} %${b.name}`] = Buffer.from(b.bytes).toString('base64');
    } catch (e) {
      if (e instanceof LocatedError || e instanceof ArgumentError) return { trap: `@${fn.symbol}: ${e.message}` };
      throw e;
    }
  }
  return { buffers };
}
