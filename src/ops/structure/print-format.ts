import { OpNode } from '../../syntax/ast';
import { vmTrap } from '../../machine/trap';

/**
 * printf for one scalar, as C formats it: %d %i %u (integers), %f %e with an optional precision (floats), %x,
 * %%. `bits` is the width of the value's type, for the unsigned conversions. Any other conversion is refused
 * rather than guessed.
 */
export function formatScalar(format: string, value: number | bigint, op: OpNode, bits = 64): string {
  let used = false;
  return format.replace(/%(?:%|(\.\d+)?(l{0,2})([a-zA-Z]))/g, (whole, precision: string | undefined, _length: string, conversion: string | undefined) => {
    if (whole === '%%') return '%';
    if (used) throw vmTrap(`pto.print: the format '${format}' has more than one conversion, but pto.print prints one value`, op.span);
    used = true;
    const digits = precision ? Number(precision.slice(1)) : 6;
    const n = Number(value);
    switch (conversion) {
      case 'd':
      case 'i':
        return typeof value === 'bigint' ? value.toString() : String(Math.trunc(n));
      // The value's bits read unsigned, at its type's width (C converts to unsigned int of the argument's size).
      case 'u':
        return typeof value === 'bigint' ? BigInt.asUintN(bits, value).toString() : String(Math.trunc(n));
      case 'x':
        return typeof value === 'bigint' ? BigInt.asUintN(bits, value).toString(16) : Math.trunc(n).toString(16);
      case 'f':
        return Number.isFinite(n) ? n.toFixed(digits) : String(n).toLowerCase().replace('infinity', 'inf');
      case 'e':
        return Number.isFinite(n) ? n.toExponential(digits).replace(/e([+-])(\d)$/, 'e$10$2') : String(n).toLowerCase().replace('infinity', 'inf');
    }
    throw vmTrap(`pto.print: the conversion '${whole}' is not supported (use %d, %i, %u, %x, %f or %e)`, op.span);
  });
}
