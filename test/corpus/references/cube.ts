/**
 * The PTOAS samples that only multiply matrices: C = A x B (+ bias), K whole or in chunks accumulated with
 * tmatmul.acc, against the plain matmul model. Inputs are exact (small multiples of 1/8) so the products are exact.
 */
import { f32 } from '../../models/float';
import { matmul } from '../../models/matmul';
import { rowsOf, transpose } from '../../models/matrix';
import { SampleIO, SampleReference } from './harness';

export interface MatmulShape {
  a: string;
  b: string;
  m: number;
  n: number;
  /** The K columns of A (and rows of B) the kernel uses, when fewer than A has. */
  kUsed?: number;
  /** K chunk of each tmatmul / tmatmul.acc step. */
  chunk?: number;
  bias?: string;
  /** B stored N x K (column-major K x N). */
  bColumnMajor?: boolean;
  /** A final tmuls. */
  scale?: number;
}

/** A x B of the buffers named in `s`, as a flat row-major M x N array; K is A's length / M. */
export function product(io: SampleIO, s: MatmulShape): number[] {
  const k = io.in[s.a].length / s.m;
  const kUsed = s.kUsed ?? k;
  const a = rowsOf(io.in[s.a], s.m, k).map((r) => r.slice(0, kUsed));
  const b = (s.bColumnMajor ? transpose(rowsOf(io.in[s.b], s.n, k)) : rowsOf(io.in[s.b], k, s.n)).slice(0, kUsed);
  const c = matmul(a, b, { chunks: s.chunk ? kUsed / s.chunk : 1, bias: s.bias ? io.in[s.bias] : undefined }).flat();
  return s.scale === undefined ? c : c.map((x) => f32(x * s.scale!));
}

const square = (a: string, b: string, more: Partial<MatmulShape> = {}): MatmulShape => ({ a, b, m: 32, n: 32, ...more });
const sample = (file: string, outputs: Record<string, MatmulShape>, args?: Record<string, string>): SampleReference => ({
  file: `test/samples/${file}`,
  fill: 'exact',
  args,
  expect: (io) => Object.fromEntries(Object.entries(outputs).map(([out, shape]) => [out, product(io, shape)])),
});

export const CUBE: SampleReference[] = [
  sample('FFN/ffn_fc1.pto', { h1_s: square('x', 'w1'), h2_s: square('x', 'w3') }),
  sample('FFN/ffn_fc1_splitk.pto', { h1_s: square('x', 'w1', { chunk: 32 }), h2_s: square('x', 'w3', { chunk: 32 }) }),
  sample('FFN/ffn_fc2.pto', { out: square('h_s', 'w2') }),
  sample('FlashAttention/flash_attention_qk.pto', { scores: square('q', 'kt') }),
  sample('FlashAttention/flash_attention_qk_boundary.pto', { scores: square('q', 'kt') }, { valid_m: '32', valid_k: '32', valid_n: '32' }),
  sample('FlashAttention/flash_attention_qk_splitk.pto', { scores: square('q', 'kt', { chunk: 32 }) }),
  sample('FlashAttention/flash_attention_sv.pto', { out: square('softmax', 'v') }),
  sample('FlashAttention/flash_attention_sv_splitk.pto', { out: square('softmax', 'v', { chunk: 32 }) }),
  sample('GQA/gqa_qk.pto', { scores: square('q', 'kt') }),
  sample('GQA/gqa_qk_splitk.pto', { scores: square('q', 'kt', { chunk: 32 }) }),
  sample('GQA/gqa_sv.pto', { out: square('softmax', 'v') }),
  sample('PyPTOIRParser/paged_attention_example_kernel_qk_matmul.pto', { arg2: { a: 'arg0', b: 'arg1', m: 16, n: 128, bColumnMajor: true } }),
  sample('PyPTOIRParser/paged_attention_example_kernel_pv_matmul.pto', { arg2: { a: 'arg0', b: 'arg1', m: 16, n: 128 } }),
  sample('Sync/matmul.pto', { arg0: square('arg1', 'arg2', { chunk: 32, bias: 'arg3' }) }, { arg4: '1' }),
  sample('ControlFlow/control_flow_mixed_pipe.pto', { c_out: square('a', 'b', { kUsed: 32, scale: 0.5 }) }),
  sample('MatmulVectorMix/matmul_vector_mix-pto-new.pto', { arg3: square('arg0', 'arg1', { bias: 'arg2' }) }),
];
