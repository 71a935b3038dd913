/** The floating-point `arith` ops the verifier accepts and the VM runs (src/vm/float-arith.ts gives their meaning). */
export const FLOAT_BINARY_OPS = ['arith.addf', 'arith.subf', 'arith.mulf', 'arith.divf', 'arith.remf', 'arith.maximumf', 'arith.minimumf', 'arith.maxnumf', 'arith.minnumf'] as const;
export type FloatBinaryOp = (typeof FLOAT_BINARY_OPS)[number];

export const FLOAT_CAST_OPS = ['arith.sitofp', 'arith.uitofp', 'arith.fptosi', 'arith.fptoui', 'arith.extf', 'arith.truncf'] as const;

export const CMPF_PREDICATE_NAMES = ['false', 'oeq', 'ogt', 'oge', 'olt', 'ole', 'one', 'ord', 'ueq', 'ugt', 'uge', 'ult', 'ule', 'une', 'uno', 'true'] as const;
export type CmpfPredicate = (typeof CMPF_PREDICATE_NAMES)[number];
