import { MicroSemantics } from './operands';

/** The scalar micro-ops of spec/micro/scalar.json (pto.dsb runs as the vector table's `ordering`). */
export const SCALAR_SEMANTICS: Record<string, MicroSemantics> = {
  // sbitset0/1: `first` with bit `second` cleared or set, as a 64-bit word (the row's op names which).
  sbitset(r) {
    const word = BigInt.asUintN(64, BigInt(r.x.int(r.op, r.b.operands.first[0])));
    const bit = BigInt(r.x.int(r.op, r.b.operands.second[0]));
    if (bit < 0n || bit > 63n) r.fail(`bit ${bit} of a 64-bit word is not implemented yet (the docs give no meaning to it)`);
    const set = r.mnemonic === 'sbitset1';
    r.x.setResults(r.op, [BigInt.asIntN(64, set ? word | (1n << bit) : word & ~(1n << bit))]);
  },
};
