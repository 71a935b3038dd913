/**
 * Attributes as today's PTOAS writes them: precisionType on the division and transcendental ops, accPhase on the
 * matmuls, and attributes an op does not define, which MLIR keeps (a warning here, never an error).
 */
import { assemble } from '../../src/verify/assemble';
import { formatAll } from '../../src/diag/diagnostic';

const V = '!pto.tile_buf<vec, 16x16xf32>';
const unary = (op: string, attrs: string) =>
  `func.func @k() {\n  %a = pto.alloc_tile : ${V}\n  %d = pto.alloc_tile : ${V}\n  pto.${op} ins(%a : ${V}) outs(%d : ${V}) {${attrs}}\n  return\n}\n`;
const diags = (text: string) => formatAll(assemble('a.pto', text).diags);

test.each([
  ['texp', 'exp_precision'],
  ['tlog', 'log_precision'],
  ['tsqrt', 'sqrt_precision'],
  ['trecip', 'recip_precision'],
])('%s takes precisionType = #pto<%s high_precision>', (op, mnemonic) => {
  expect(diags(unary(op, `precisionType = #pto<${mnemonic} high_precision>`))).toBe('');
  expect(diags(unary(op, `precisionType = #pto<${mnemonic} fastest>`))).toContain('error[E0507]');
});

test('trsqrt takes precisionType = #pto<rsqrt_precision high_precision> with a tmp (PTOAS requires one for it)', () => {
  const withTmp = (attrs: string) =>
    `func.func @k() {\n  %a = pto.alloc_tile : ${V}\n  %t = pto.alloc_tile : ${V}\n  %d = pto.alloc_tile : ${V}\n  pto.trsqrt ins(%a, %t : ${V}, ${V}) outs(%d : ${V}) {${attrs}}\n  return\n}\n`;
  expect(diags(withTmp('precisionType = #pto<rsqrt_precision high_precision>'))).toBe('');
  expect(diags(withTmp('precisionType = #pto<rsqrt_precision fastest>'))).toContain('error[E0507]');
  expect(diags(unary('trsqrt', 'precisionType = #pto<rsqrt_precision high_precision>'))).toContain('error[E0515]');
});

test('tmatmul takes accPhase = #pto<acc_phase partial|final>', () => {
  const L = '!pto.tile_buf<left, 16x16xf16, slayout=row_major>';
  const R = '!pto.tile_buf<right, 16x16xf16, slayout=col_major>';
  const C = '!pto.tile_buf<acc, 16x16xf32, blayout=col_major, slayout=row_major, fractal=1024>';
  const mm = (attrs: string) =>
    `func.func @k() {\n  %a = pto.alloc_tile : ${L}\n  %b = pto.alloc_tile : ${R}\n  %c = pto.alloc_tile : ${C}\n  pto.tmatmul ins(%a, %b : ${L}, ${R}) outs(%c : ${C}) {${attrs}}\n  return\n}\n`;
  expect(diags(mm('accPhase = #pto<acc_phase final>'))).toBe('');
  expect(diags(mm('accPhase = #pto<acc_phase done>'))).toContain("error[E0507]: pto.tmatmul: unknown accPhase 'done'");
});

test('an attribute the op does not define is kept with warning W0411, and the program is accepted', () => {
  const text = unary('texp', 'precision_mode = 1');
  const asm = assemble('a.pto', text);
  expect(asm.diags.hasErrors()).toBe(false);
  expect(formatAll(asm.diags)).toContain(
    "warning[W0411]: pto.texp has no attribute 'precision_mode': it is kept but has no effect; it takes saturation, precisionType",
  );
});
