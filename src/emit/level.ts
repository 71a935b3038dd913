import { Program } from '../ir/program';

/** Which PTO-AS level a program's instructions are written at: 1 (SSA), 2 (ins/outs), mixed, or none. */
export function levelOf(program: Program): 1 | 2 | 'mixed' | 'none' {
  let ssa = false;
  let dps = false;
  for (const op of program.instructions.keys()) {
    if (op.form === 'dps') dps = true;
    else ssa = true;
  }
  if (ssa && dps) return 'mixed';
  return ssa ? 1 : dps ? 2 : 'none';
}
