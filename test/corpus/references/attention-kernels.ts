/**
 * The PTOAS attention and FFN kernels that chain the cube and the vector unit in one function: a matmul stored to GM,
 * reloaded into Vec tiles for a polynomial stage (the Taylor "softmax" or the SiLU-like gate), stored again, reloaded
 * into Mat/Left and multiplied once more. Every global buffer is checked, the intermediates the kernels store for
 * themselves (scores, softmax, h1/h2/h) included: each stage is the plain model of the one before, rounded as the
 * hardware rounds (the cube per docs/numerics.md, every vector op once to f32).
 *
 * Each kernel runs twice. With exact inputs (small multiples of 1/8) the first matmul's sums are exact too, so its
 * order and K chunks go untested, and the scores are so large that all but 2 to 41 of the 1024 elements reach the
 * polynomial clamped to +-4.0001. With the generated inputs (uniform in [-4, 4)) the chunked accumulation matters and a
 * quarter to a half of the elements stay inside the clamp; the product of two f32 values is still exact in double
 * (48 bits), so the matmul model's fround(sum + a * b) is the cube's fma.
 */
import { f32 } from '../../models/float';
import { matmul } from '../../models/matmul';
import { rowsOf } from '../../models/matrix';
import { MatmulShape, product } from './cube';
import { SampleIO, SampleReference } from './harness';
import { cubicGate, taylorSoftmax, tiledQuinticGate } from './polynomials';

const SIDE = 32;

/** A 32 x 32 matmul whose left operand the kernel computed itself (stored to GM and reloaded into Left). */
const times = (left: number[], right: number[]): number[] => matmul(rowsOf(left, SIDE, SIDE), rowsOf(right, SIDE, SIDE)).flat();

/** Q x K^T, K whole (32) or in 4 chunks of 32 accumulated by tmatmul.acc (the full_tiled loop over Q's 128 columns). */
const scoresOf = (io: SampleIO, chunked: boolean): number[] => product(io, { a: 'q', b: 'kt', m: SIDE, n: SIDE, ...(chunked ? { chunk: 32 } : {}) });

/** scores = Q x K^T; softmax = the polynomial of scores (times group_scale first for GQA); out = softmax x V. */
const attention =
  (opts: { chunked: boolean; grouped: boolean; degree: 3 | 4; names?: [string, string] }) =>
  (io: SampleIO): Record<string, number[]> => {
    const scores = scoresOf(io, opts.chunked);
    const softmax = scores.map((s, k) => taylorSoftmax(opts.grouped ? f32(s * io.in.group_scale[k]) : s, opts.degree));
    const [scoresName, softmaxName] = opts.names ?? ['scores', 'softmax'];
    return { [scoresName]: scores, [softmaxName]: softmax, out: times(softmax, io.in.v) };
  };

/** h1 = X x W1, h2 = X x W3 (K chunks of 32 when tiled), h = gate(h1, h2), result = h x W2. */
const ffn =
  (opts: { chunked: boolean; gate: (h1: number, h2: number) => number; h: string; result: string }) =>
  (io: SampleIO): Record<string, number[]> => {
    const fc1 = (w: string): MatmulShape => ({ a: 'x', b: w, m: SIDE, n: SIDE, ...(opts.chunked ? { chunk: 32 } : {}) });
    const h1 = product(io, fc1('w1'));
    const h2 = product(io, fc1('w3'));
    const h = h1.map((x, k) => opts.gate(x, h2[k]));
    return { h1_s: h1, h2_s: h2, [opts.h]: h, [opts.result]: times(h, io.in.w2) };
  };

/**
 * The kernel with exact inputs, and again with generated ones: with exact inputs few scores stay inside the clamp and
 * every matmul sum is exact, so only the generated inputs exercise the polynomial and the K chunk order.
 */
const kernel = (file: string, expect: (io: SampleIO) => Record<string, number[]>, args?: Record<string, string>): SampleReference[] => [
  { file: `test/samples/${file}`, fill: 'exact', args, expect },
  { file: `test/samples/${file}`, fill: 'generated', args, expect },
];

export const ATTENTION_KERNELS: SampleReference[] = [
  // Flash attention on one 32 x 32 block: scores = Q K^T, the degree-4 Taylor softmax, out = softmax V.
  ...kernel('FlashAttention/flash_attention-pto-new.pto', attention({ chunked: false, grouped: false, degree: 4 })),
  // The same kernel with its intermediates stored to scores_out / softmax_out.
  ...kernel(
    'FlashAttention/flash_attention_full_intermediate.pto',
    attention({ chunked: false, grouped: false, degree: 4, names: ['scores_out', 'softmax_out'] }),
  ),
  // Q 32x128 times K^T 128x32 in four K chunks of 32, then the same softmax and softmax x V (32 x 32).
  ...kernel('FlashAttention/flash_attention_full_tiled.pto', attention({ chunked: true, grouped: false, degree: 4 })),
  // GQA: the scores are multiplied element-wise by group_scale before the softmax.
  ...kernel('GQA/gqa-pto-new.pto', attention({ chunked: false, grouped: true, degree: 4 })),
  // Tiled GQA: K in four chunks of 32, and a softmax polynomial of degree 3 only.
  ...kernel('GQA/gqa_full_tiled.pto', attention({ chunked: true, grouped: true, degree: 3 })),
  // FFN: h1 = X W1, h2 = X W3, h = gate(h1) h2 with the cubic gate, out = h W2. The vector tiles' valid shape is
  // dynamic, but they load a fixed 32 x 32 view, and TLOAD's ND rule allows only 32 x 32 (see softmax.ts).
  ...kernel('FFN/ffn-pto-new.pto', ffn({ chunked: false, gate: cubicGate, h: 'h_s', result: 'out' }), { valid_row: '32', valid_col: '32' }),
  // Tiled FFN: X 32x128 times W1/W3 128x32 in four K chunks of 32, the fifth-power gate, y = act W2.
  ...kernel('FFN/ffn_full_tiled.pto', ffn({ chunked: true, gate: tiledQuinticGate, h: 'act_s', result: 'y' })),
];
