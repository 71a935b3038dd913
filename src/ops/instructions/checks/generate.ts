import { printType } from '../../../types/type';
import { InstructionCheck } from './context';

/** Generator rules beyond the tables: their scalar operand is an integer (PTOAS: AnyInteger; C++: T / int). */

const INTEGERS = ['i8', 'u8', 'i16', 'u16', 'i32', 'u32', 'i64', 'u64'];

function integerScalar(name: string): InstructionCheck {
  return (ctx) => {
    const t = ctx.bound.operands.get(name)?.type;
    if (t && (t.kind !== 'scalar' || !INTEGERS.includes(t.elem)))
      ctx.error(ctx.spanOf(name), `${name} must be an integer (i16, i32, ...), got ${printType(t)}`);
  };
}

/** Rules beyond the tables, by op name (`pto.NAME`). */
export const checks: Record<string, InstructionCheck> = {
  'pto.tci': integerScalar('start'),
  'pto.ttri': integerScalar('diagonal'),
};
