import { PipeRuleSpec, syncTables } from '../../spec/sync';
import { BoundInstruction } from '../../ir/program';

/** The pipe an instruction runs on, by the rules of spec/sync.json (first match wins), from its tiles' locations. */
export function instructionPipe(bound: BoundInstruction, rules: PipeRuleSpec[] = syncTables().pipeRules): string {
  const tileLoc = (role: 'src' | 'dst') => {
    for (const b of bound.operands.values()) if (b.spec.role === role && b.type.kind === 'tile') return b.type.loc;
    return undefined;
  };
  const src = tileLoc('src');
  const dst = tileLoc('dst');
  for (const rule of rules) {
    if (rule.ops && !rule.ops.includes(bound.spec.opName)) continue;
    if (rule.semantics && !rule.semantics.includes(bound.spec.semantics)) continue;
    if (rule.src && !(src && rule.src.includes(src))) continue;
    if (rule.dst && !(dst && rule.dst.includes(dst))) continue;
    return rule.pipe;
  }
  throw new Error(`spec/sync.json: no pipe rule matches ${bound.spec.opName}`);
}
