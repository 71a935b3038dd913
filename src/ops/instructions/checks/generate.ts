import { elemSize, printType } from '../../../types/type';
import { InstructionCheck } from './context';
import { scratchHolds } from './scratch';

/** Generator rules beyond the tables: their scalar operand is an integer (PTOAS: AnyInteger; C++: T / int). */

const INTEGERS = ['i8', 'u8', 'i16', 'u16', 'i32', 'u32', 'i64', 'u64'];

function integerScalar(name: string): InstructionCheck {
  return (ctx) => {
    const t = ctx.bound.operands.get(name)?.type;
    if (t && (t.kind !== 'scalar' || !INTEGERS.includes(t.elem)))
      ctx.error(ctx.spanOf(name), `${name} must be an integer (i16, i32, ...), got ${printType(t)}`);
  };
}

/** A2/A3 TCI's scratch: 768 bytes for a 32-bit sequence, 1792 for a 16-bit one (TCIOp::verify); A5 needs none. */
const tciScratch: InstructionCheck = (ctx) => {
  const dst = ctx.tiles.get('dst');
  if (ctx.target !== 'a2a3' || !dst) return;
  const bits = elemSize(dst.dtype) * 8;
  scratchHolds(ctx, 'tmp', bits === 32 ? 768 : 1792, `a ${bits}-bit sequence on a2a3`);
};

/** Rules beyond the tables, by op name (`pto.NAME`). */
export const checks: Record<string, InstructionCheck> = {
  'pto.tci': (ctx) => {
    integerScalar('start')(ctx);
    tciScratch(ctx);
  },
  'pto.ttri': integerScalar('diagonal'),
};
