import { AffineExpr } from '../../syntax/affine';

/**
 * The value of an affine expression, as MLIR defines it: `floordiv` rounds down, `ceildiv` up, and `mod` is
 * never negative for a positive divisor. A zero divisor is a RangeError.
 */
export function evaluateAffine(e: AffineExpr, dims: bigint[], symbols: bigint[]): bigint {
  switch (e.kind) {
    case 'const':
      return e.value;
    case 'dim':
      return dims[e.index];
    case 'symbol':
      return symbols[e.index];
    case 'neg':
      return -evaluateAffine(e.operand, dims, symbols);
  }
  const a = evaluateAffine(e.lhs, dims, symbols);
  const b = evaluateAffine(e.rhs, dims, symbols);
  switch (e.kind) {
    case 'add':
      return a + b;
    case 'sub':
      return a - b;
    case 'mul':
      return a * b;
  }
  if (b === 0n) throw new RangeError(`${e.kind} by zero`);
  const q = a / b; // truncates toward zero
  const exact = q * b === a;
  switch (e.kind) {
    case 'floordiv':
      return !exact && a < 0n !== b < 0n ? q - 1n : q;
    case 'ceildiv':
      return !exact && a < 0n === b < 0n ? q + 1n : q;
    case 'mod': {
      const r = a % b;
      return r < 0n ? r + (b < 0n ? -b : b) : r;
    }
  }
}
