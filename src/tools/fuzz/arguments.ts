import { Rng } from './rng';

/**
 * What `pto-vm run` needs beyond the file to run a kernel at all: a function to start from when the file defines
 * several (`--entry`), and a value for each scalar argument (`--arg NAME=VALUE`); without them most compiler-made
 * kernels stop at a usage error before anything runs. Read from the text with patterns (the fuzzer does not use the
 * project's parser), so a mutant that garbles a signature gets what can be read of it.
 */

/** `func.func [visibility] @name(args)`; the arguments' types hold no parentheses in the kernels we mutate. */
const FUNCTION = /func\.func\s+(private\s+|public\s+|nested\s+)?@([\w$.-]+)\s*\(([^()]*)\)/g;
const PARAMETER = /%([\w$.-]+)\s*:\s*([\w!.<>]+)/g;
const INTEGER = /^(index|i1|i8|i16|i32|i64|ui8|ui16|ui32|ui64|si8|si16|si32|si64)$/;
const FLOAT = /^(f16|bf16|f32|f64)$/;

/** Mostly small sizes and indices a kernel loops over; now and then a boundary number. */
const INTEGER_VALUES = ['0', '1', '1', '2', '3', '4', '8', '16', '16', '32', '64', '128'];
const BOUNDARY_VALUES = ['-1', '2147483647', '4294967295', '9223372036854775807', '1000000000000000000'];
const FLOAT_VALUES = ['0', '1', '0.5', '-2.25', '3'];

export function kernelArguments(text: string, rng: Rng): string[] {
  const functions = [...text.matchAll(FUNCTION)].filter((m) => m[1]?.trim() !== 'private');
  if (functions.length === 0) return [];
  const chosen = rng.pick(functions);
  const argv = functions.length > 1 ? ['--entry', `@${chosen[2]}`] : [];
  for (const [, name, type] of chosen[3].matchAll(PARAMETER)) {
    if (INTEGER.test(type)) {
      const value = type === 'i1' ? rng.pick(['0', '1']) : rng.chance(0.05) ? rng.pick(BOUNDARY_VALUES) : rng.pick(INTEGER_VALUES);
      argv.push('--arg', `${name}=${value}`);
    } else if (FLOAT.test(type)) argv.push('--arg', `${name}=${rng.pick(FLOAT_VALUES)}`);
  }
  return argv;
}
