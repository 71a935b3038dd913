/** One violated rule: the parameter it is about (a field of the instruction's params, or src/dst/work) and a precise message. */
export interface Problem {
  param: string;
  message: string;
}

/**
 * Raised by the model: either the parameters break rules of the seeds / reference (then `problems` lists
 * them all), or an access falls outside the memory (then `address` is the first offending byte address).
 */
export class ModelError extends Error {
  constructor(
    message: string,
    readonly problems: readonly Problem[] = [],
    readonly address?: number,
  ) {
    super(message);
    this.name = 'ModelError';
  }
}

/** Throws a ModelError listing every problem, when there is at least one. */
export function throwIfProblems(instr: string, problems: readonly Problem[]): void {
  if (problems.length === 0) return;
  const lines = problems.map((p) => `  ${p.param}: ${p.message}`).join('\n');
  throw new ModelError(`${instr}: invalid parameters:\n${lines}`, problems);
}
