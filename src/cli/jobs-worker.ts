import { assemble } from '../verify/assemble';
import { lowerProgram } from '../lower';
import { ProgramText, serveCores } from '../vm/parallel/worker';

/**
 * A worker thread of `pto-vm run --jobs` (src/vm/parallel/run.ts): the program built as `pto-vm run` built it, the
 * source text assembled (perhaps before the launch comes) and, when the run is of the lowered program, lowered; then
 * the cores it claims.
 */
export function work(): void {
  serveCores((source: ProgramText) => {
    const assembled = assemble(source.path, source.text, { target: source.target });
    if (assembled.diags.hasErrors()) throw new Error('the program does not assemble on a worker thread');
    return (lower) => (lower ? lowerProgram(assembled) : assembled).program;
  });
}
