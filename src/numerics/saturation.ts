import { ElemType } from '../types/type';
import { F16_MAX } from './float16';

/**
 * The vector unit's fp16 saturation mode: an f16 result of +-inf becomes +-65504 and a NaN result becomes +0. A2/A3
 * run in it by default (CTRL[48] = 0); A5 keeps IEEE results unless an op asks for saturation (`saturation = true`):
 * PTOAS's A5 board suite expects +inf from an overflowing f16 exp (tilelang_st tcolexpandexpdif, whose template and
 * pto-isa's both run vsub then vexp). It applies to f16 arithmetic only, and only under `--numerics npu`; the
 * reference simulator (cpu-sim) computes IEEE results.
 */
export function saturateF16(v: number): number {
  if (Number.isNaN(v)) return 0;
  if (v === Infinity) return F16_MAX;
  if (v === -Infinity) return -F16_MAX;
  return v;
}

/** Whether results of an op in this dtype are saturated, given the op's `saturation` attribute (undefined: unwritten). */
export function saturates(dtype: ElemType, run: { numerics: 'npu' | 'cpu-sim'; target: 'a2a3' | 'a5' }, attribute: boolean | undefined): boolean {
  if (run.numerics !== 'npu' || dtype !== 'f16') return false;
  return attribute ?? run.target === 'a2a3';
}
