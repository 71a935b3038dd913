/** Rounding of plain JS numbers to the element types, written from IEEE 754 and the conversion rules in docs/numerics.md. */
import { f16round } from '@petamoriken/float16';

export const f32 = Math.fround;
export const f16 = f16round;

const scratch = new DataView(new ArrayBuffer(4));

/** f32 -> bf16: `even` rounds to nearest with ties to even (a C cast, cpu-sim), `away` with ties away from zero (ROUND on the NPU). */
export function bf16(x: number, ties: 'even' | 'away'): number {
  scratch.setFloat32(0, x);
  const bits = scratch.getUint32(0);
  if (Number.isNaN(x)) return x;
  const low = bits & 0xffff;
  let high = bits >>> 16;
  if (low > 0x8000 || (low === 0x8000 && (ties === 'away' || (high & 1) === 1))) high += 1;
  scratch.setUint32(0, (high << 16) >>> 0);
  return scratch.getFloat32(0);
}

/** exp in double, rounded once to f32 (the VM's documented model of texp on f32). */
export const exp32 = (x: number): number => f32(Math.exp(x));
