/**
 * The vector halves of the flash attention, GQA and FFN samples: element-wise polynomials over a 32 x 32 f32 block,
 * every tile op rounded to f32. The "softmax" kernels evaluate exp(x) by its Taylor polynomial of degree 4 and divide
 * by 32.0001 (a stand-in for the row sum); the FFN activation is a SiLU-like gate times h2.
 *
 * The samples with dynamic valid shapes load a fixed 32 x 32 view, and TLOAD's ND rule (valid cols = the view's inner
 * dim, valid rows = the product of the others; asserted by the A2/A3 header) then allows only valid_row =
 * valid_col = 32: the VM stops any other binding at the tload (test/corpus/corpus.test.ts runs them as they are).
 */
import { f32 } from '../../models/float';
import { SampleIO, SampleReference } from './harness';
import { cubicGate, quinticGate, taylorSoftmax } from './polynomials';

const SIDE = 32;

const each = (fn: (k: number) => number): number[] => Array.from({ length: SIDE * SIDE }, (_, k) => fn(k));
const full = { valid_row: '32', valid_col: '32' };

const flashSoftmax = (io: SampleIO) => ({ softmax: each((k) => taylorSoftmax(io.in.scores[k])) });
const gqaSoftmax = (io: SampleIO) => ({ softmax: each((k) => taylorSoftmax(f32(io.in.scores[k] * io.in.group_scale[k]))) });
const ffnGate = (gate: (h1: number, h2: number) => number) => (io: SampleIO) => ({ h_s: each((k) => gate(io.in.h1_s[k], io.in.h2_s[k])) });

export const SOFTMAX: SampleReference[] = [
  { file: 'test/samples/FlashAttention/flash_attention_softmax.pto', expect: flashSoftmax },
  { file: 'test/samples/FlashAttention/flash_attention_softmax_boundary.pto', args: full, expect: flashSoftmax },
  { file: 'test/samples/GQA/gqa_softmax.pto', expect: gqaSoftmax },
  { file: 'test/samples/GQA/gqa_softmax_dynamic.pto', args: full, expect: gqaSoftmax },
  // ffn_act takes valid_row/valid_col too: its tiles have dynamic valid shapes.
  { file: 'test/samples/FFN/ffn_act.pto', args: full, expect: ffnGate(cubicGate) },
  { file: 'test/samples/FFN/ffn_act_dynamic.pto', args: full, expect: ffnGate(quinticGate) },
];
