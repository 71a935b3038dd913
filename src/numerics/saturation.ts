import { ElemType } from '../types/type';
import { F16_MAX } from './float16';

/**
 * The vector unit's fp16 saturation mode (A2 CTRL[48], on by default): an f16 result of +-inf becomes
 * +-65504 and a NaN result becomes +0. It applies to f16 arithmetic only, and only under `--numerics npu`;
 * the reference simulator (cpu-sim) computes IEEE results.
 */
export function saturateF16(v: number): number {
  if (Number.isNaN(v)) return 0;
  if (v === Infinity) return F16_MAX;
  if (v === -Infinity) return -F16_MAX;
  return v;
}

/** Whether results of an op in this dtype are saturated, given the op's `saturation` attribute. */
export function saturates(dtype: ElemType, numerics: 'npu' | 'cpu-sim', attribute: boolean | undefined): boolean {
  return numerics === 'npu' && dtype === 'f16' && attribute !== false;
}
