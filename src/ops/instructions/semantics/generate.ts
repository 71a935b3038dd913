import { InstructionContext, SemanticsModule } from './context';

/** Generators: TCI (index sequences) and TTRI (triangular masks), per cpu/TCI.hpp and cpu/TTRI.hpp. */

/** TCI: dst[0, j] = start + j, or start - j when descending, wrapping in dst's integer type. */
export function indexSequence(ctx: InstructionContext): void {
  const dst = ctx.tile('dst');
  const raw = ctx.scalar('start');
  if (typeof raw !== 'bigint') return ctx.trap('pto.tci needs an integer start');
  const step = ctx.flag('descending') ? -1n : 1n;
  for (let j = 0; j < dst.vCol; j++) dst.set(0, j, dst.codec.round(raw + step * BigInt(j)));
}

/** TTRI: lower: 1 where j <= i + diagonal, else 0; upper: 0 where j < i + diagonal, else 1. */
export function triangle(ctx: InstructionContext): void {
  const dst = ctx.tile('dst');
  const raw = ctx.scalar('diagonal');
  if (typeof raw !== 'bigint') return ctx.trap('pto.ttri needs an integer diagonal');
  const diagonal = Number(raw);
  // PTOAS's {upperOrLower = 1 : i32}, or the VM's older {upper = true}.
  const upper = ctx.flag('upper') === true || Number(ctx.attribute('upperOrLower') ?? 0) === 1;
  const [one, zero] = dst.codec.size === 8 && !dst.codec.isFloat ? [1n, 0n] : [1, 0];
  for (let i = 0; i < dst.vRow; i++) {
    for (let j = 0; j < dst.vCol; j++) {
      const set = upper ? j >= i + diagonal : j <= i + diagonal;
      dst.set(i, j, set ? one : zero);
    }
  }
}

export const module: SemanticsModule = {
  semantics: { 'index-sequence': indexSequence, triangle },
};
