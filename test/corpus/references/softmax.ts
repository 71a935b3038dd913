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

const SIDE = 32;

/** The constants as the samples write them (`arith.constant ... : f32`). */
const SCALE = f32(1.767767e-1);
const LOW = f32(-4.0001);
const HIGH = f32(4.0001);
const ONE = f32(1.0001);
const DIVISOR = f32(32.0001);
const HALF = f32(0.5);
const SIXTH = f32(1.666667e-1);
const TWENTY_FOURTH = f32(4.166667e-2);
const QUARTER = f32(0.25);
const MINUS_FORTY_EIGHTH = f32(-2.083333e-2);

const clamp = (x: number): number => Math.min(Math.max(x, LOW), HIGH);

/** Taylor exp(x) of degree 4 over 32.0001, as the softmax samples order it: x + x^2/2, + x^3/6, + x^4/24, + 1.0001. */
function taylorSoftmax(x: number): number {
  const s = clamp(f32(x * SCALE));
  const square = f32(s * s);
  const cube = f32(square * s);
  const fourth = f32(cube * s);
  let e = f32(s + f32(square * HALF));
  e = f32(e + f32(cube * SIXTH));
  e = f32(e + f32(fourth * TWENTY_FOURTH));
  return f32(f32(e + ONE) / DIVISOR);
}

/** The FFN gate: clamp h1, then 0.25 h1 + 0.5 + c h1^power (cube: x^2 * x; fifth: x^2 * x^3), times h2. */
function gate(h1: number, h2: number, power: 3 | 5): number {
  const x = clamp(h1);
  const square = f32(x * x);
  const cube = f32(square * x);
  const term = f32((power === 3 ? cube : f32(square * cube)) * MINUS_FORTY_EIGHTH);
  return f32(f32(f32(f32(x * QUARTER) + HALF) + term) * h2);
}

const each = (fn: (k: number) => number): number[] => Array.from({ length: SIDE * SIDE }, (_, k) => fn(k));
const full = { valid_row: '32', valid_col: '32' };

const flashSoftmax = (io: SampleIO) => ({ softmax: each((k) => taylorSoftmax(io.in.scores[k])) });
const gqaSoftmax = (io: SampleIO) => ({ softmax: each((k) => taylorSoftmax(f32(io.in.scores[k] * io.in.group_scale[k]))) });
const ffnGate = (power: 3 | 5) => (io: SampleIO) => ({ h_s: each((k) => gate(io.in.h1_s[k], io.in.h2_s[k], power)) });

export const SOFTMAX: SampleReference[] = [
  { file: 'test/samples/FlashAttention/flash_attention_softmax.pto', expect: flashSoftmax },
  { file: 'test/samples/FlashAttention/flash_attention_softmax_boundary.pto', args: full, expect: flashSoftmax },
  { file: 'test/samples/GQA/gqa_softmax.pto', expect: gqaSoftmax },
  { file: 'test/samples/GQA/gqa_softmax_dynamic.pto', args: full, expect: gqaSoftmax },
  // ffn_act takes valid_row/valid_col too: its tiles have dynamic valid shapes.
  { file: 'test/samples/FFN/ffn_act.pto', args: full, expect: ffnGate(3) },
  { file: 'test/samples/FFN/ffn_act_dynamic.pto', args: full, expect: ffnGate(5) },
];
