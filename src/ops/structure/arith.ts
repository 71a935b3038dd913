import { OpDefinition, OpVerifier } from '../../ir/definition';
import { BoundOp, decided } from '../../ir/bound';
import { vmTrap } from '../../machine/trap';
import { Value } from '../../machine/value';
import { Attr } from '../../syntax/ast';
import { attrOf } from '../../syntax/ast';
import { ElemType, Type, elemSize, isFloat, isFloatScalar, isIntegerLike, isScalarOf, isStoredFormat, printType, scalarFromName } from '../../types/type';
import { codec } from '../../numerics/elements';

/**
 * The scalar `arith` ops, as one table in the manner of wabt's opcode.def: each row gives the op's name, how it is
 * spelled, the class of its operands and the function that computes it. The verifier, the VM and the printer all
 * read this table.
 *
 * Integers (iN, index) are two's-complement values of their type's width, held as bigint in their signed reading
 * (i1 as 0 or 1); an op reads them signed or unsigned as its name says and wraps its result to the width.
 */

/** How an arith op is written (the grammar rule of its custom syntax). */
export type ArithSyntax = 'ArithGeneric' | 'ArithCast' | 'ArithCmp' | 'ArithSelect' | 'ArithConstant';

type IntegerFn = (a: bigint, b: bigint, bits: number) => bigint;
type FloatFn = (a: number, b: number) => number;

/** The width in bits of an integer (or index) element type. */
export function bitWidth(elem: ElemType): number {
  if (elem === 'i1') return 1;
  if (elem === 'index' || elem === 'f64') return 64;
  return elemSize(elem) * 8;
}

/** A value wrapped to `bits` bits, in its signed reading (i1: 0 or 1). */
export function wrapInteger(v: bigint, bits: number): bigint {
  return bits === 1 ? v & 1n : BigInt.asIntN(bits, v);
}

const unsigned = (v: bigint, bits: number): bigint => BigInt.asUintN(bits, v);

/** The divisor, unless it is zero: division by zero is undefined behaviour in MLIR, a trap here. */
function divisor(b: bigint): bigint {
  if (b === 0n) throw new RangeError('division by zero');
  return b;
}

/**
 * A shift amount, read as unsigned (MLIR's shifts do): one of at least the bit width makes the result poison, which
 * a run cannot continue from, so it is reported as a trap.
 */
function shiftAmount(b: bigint, bits: number): bigint {
  const amount = unsigned(b, bits);
  if (amount >= BigInt(bits)) throw new RangeError(`shift amount ${amount} is not less than the bit width ${bits}: the result is poison`);
  return amount;
}

/** Integer binary ops: name -> computation on values of `bits` bits (the result is wrapped by the caller). */
export const INTEGER_BINARY: Record<string, IntegerFn> = {
  'arith.addi': (a, b) => a + b,
  'arith.subi': (a, b) => a - b,
  'arith.muli': (a, b) => a * b,
  'arith.divsi': (a, b) => a / divisor(b),
  'arith.remsi': (a, b) => a % divisor(b),
  'arith.divui': (a, b, bits) => unsigned(a, bits) / unsigned(divisor(b), bits),
  'arith.remui': (a, b, bits) => unsigned(a, bits) % unsigned(divisor(b), bits),
  'arith.ceildivsi': (a, b) => {
    const q = a / divisor(b);
    return q * b !== a && a < 0n === b < 0n ? q + 1n : q;
  },
  'arith.ceildivui': (a, b, bits) => {
    const divisorBits = unsigned(divisor(b), bits);
    return (unsigned(a, bits) + divisorBits - 1n) / divisorBits;
  },
  'arith.floordivsi': (a, b) => {
    const q = a / divisor(b);
    return q * b !== a && a < 0n !== b < 0n ? q - 1n : q;
  },
  'arith.andi': (a, b) => a & b,
  'arith.ori': (a, b) => a | b,
  'arith.xori': (a, b) => a ^ b,
  'arith.minsi': (a, b) => (a < b ? a : b),
  'arith.maxsi': (a, b) => (a > b ? a : b),
  'arith.minui': (a, b, bits) => (unsigned(a, bits) < unsigned(b, bits) ? a : b),
  'arith.maxui': (a, b, bits) => (unsigned(a, bits) > unsigned(b, bits) ? a : b),
  'arith.shli': (a, b, bits) => a << shiftAmount(b, bits),
  'arith.shrsi': (a, b, bits) => a >> shiftAmount(b, bits),
  'arith.shrui': (a, b, bits) => unsigned(a, bits) >> shiftAmount(b, bits),
};

/**
 * Floating-point binary ops: each result is rounded to its type (f16, bf16, f32; f64 exact in JavaScript), round to
 * nearest even, as MLIR's arith semantics and IEEE 754 define them.
 */
export const FLOAT_BINARY: Record<string, FloatFn> = {
  'arith.addf': (a, b) => a + b,
  'arith.subf': (a, b) => a - b,
  'arith.mulf': (a, b) => a * b,
  'arith.divf': (a, b) => a / b,
  // C fmod: the remainder has the dividend's sign.
  'arith.remf': (a, b) => a % b,
  // maximumf/minimumf propagate NaN and order -0 below +0; maxnumf/minnumf return the other operand for one NaN.
  'arith.maximumf': (a, b) => (Number.isNaN(a) || Number.isNaN(b) ? NaN : Math.max(a, b)),
  'arith.minimumf': (a, b) => (Number.isNaN(a) || Number.isNaN(b) ? NaN : Math.min(a, b)),
  'arith.maxnumf': (a, b) => (Number.isNaN(a) ? b : Number.isNaN(b) ? a : Math.max(a, b)),
  'arith.minnumf': (a, b) => (Number.isNaN(a) ? b : Number.isNaN(b) ? a : Math.min(a, b)),
};

/** Integer-to-integer casts: how the source is read before the result wraps to its width. */
export const INTEGER_CASTS: Record<string, 'signed' | 'unsigned'> = {
  'arith.index_cast': 'signed',
  'arith.extsi': 'signed',
  'arith.trunci': 'signed',
  'arith.index_castui': 'unsigned',
  'arith.extui': 'unsigned',
};

/** Casts with a floating-point side: which side is a float. */
export const FLOAT_CASTS: Record<string, { from: 'integer' | 'float'; to: 'integer' | 'float'; unsigned?: boolean }> = {
  'arith.sitofp': { from: 'integer', to: 'float' },
  'arith.uitofp': { from: 'integer', to: 'float', unsigned: true },
  'arith.fptosi': { from: 'float', to: 'integer' },
  'arith.fptoui': { from: 'float', to: 'integer', unsigned: true },
  'arith.extf': { from: 'float', to: 'float' },
  'arith.truncf': { from: 'float', to: 'float' },
};

export const CMPI_PREDICATES: Record<string, (a: bigint, b: bigint) => boolean> = {
  eq: (a, b) => a === b,
  ne: (a, b) => a !== b,
  slt: (a, b) => a < b,
  sle: (a, b) => a <= b,
  sgt: (a, b) => a > b,
  sge: (a, b) => a >= b,
  ult: (a, b) => a < b,
  ule: (a, b) => a <= b,
  ugt: (a, b) => a > b,
  uge: (a, b) => a >= b,
};

/** `arith.cmpf` predicates: ordered ones are false when either operand is NaN, unordered ones true. */
export const CMPF_PREDICATES: Record<string, (a: number, b: number) => boolean> = {
  false: () => false,
  oeq: (a, b) => a === b,
  ogt: (a, b) => a > b,
  oge: (a, b) => a >= b,
  olt: (a, b) => a < b,
  ole: (a, b) => a <= b,
  one: (a, b) => a < b || a > b,
  ord: (a, b) => !Number.isNaN(a) && !Number.isNaN(b),
  ueq: (a, b) => Number.isNaN(a) || Number.isNaN(b) || a === b,
  ugt: (a, b) => !(a <= b),
  uge: (a, b) => !(a < b),
  ult: (a, b) => !(a >= b),
  ule: (a, b) => !(a > b),
  une: (a, b) => a !== b,
  uno: (a, b) => Number.isNaN(a) || Number.isNaN(b),
  true: () => true,
};

/** A float rounded to its type. */
export function roundTo(elem: ElemType, v: number): number {
  return elem === 'f64' ? v : (codec(elem).round(v) as number);
}

/** An integer from a float, toward zero. Out of range (and NaN) is undefined in MLIR: a RangeError, never a guess. */
export function floatToInt(v: number, bits: number, isUnsigned: boolean): bigint {
  const t = Math.trunc(v);
  const [lo, hi] = isUnsigned ? [0n, (1n << BigInt(bits)) - 1n] : [-(1n << BigInt(bits - 1)), (1n << BigInt(bits - 1)) - 1n];
  if (!Number.isFinite(t) || BigInt(t) < lo || BigInt(t) > hi) throw new RangeError(`${v} does not fit in ${isUnsigned ? 'u' : 'i'}${bits}`);
  return BigInt(t);
}

// ---- definitions ---------------------------------------------------------------------------------------------------

/** The element type of a scalar (index when unknown, which verification rules out). */
const elemOf = (t: Type | undefined): ElemType => (t?.kind === 'scalar' ? t.elem : 'index');

/** Runs a computation that may be undefined in MLIR (a RangeError): a trap naming the op. */
function defined<T>(op: BoundOp, compute: () => T, what = (e: RangeError) => `${op.def.name}: ${e.message}`): T {
  try {
    return compute();
  } catch (e) {
    if (e instanceof RangeError) throw vmTrap(what(e), op.node.span);
    throw e;
  }
}

function integerBinary(name: string): OpDefinition {
  return {
    name,
    syntax: 'ArithBody',
    verify(v) {
      // The grammar reads a list (and the generic form any count): a binary op takes exactly two.
      if (v.op.operands.length !== 2) v.error(v.op.span, `'${name}' takes 2 operand(s)`);
      v.operands.forEach((t, i) => {
        if (!isIntegerLike(t)) v.error(v.op.operands[i].span, `'${name}' needs integer or index operands`);
      });
      v.expectResults(1);
      v.define(v.declared);
    },
    execute(x, op) {
      const bits = bitWidth(elemOf(op.resultTypes[0]));
      const [a, b] = [x.int(op, 0), x.int(op, 1)];
      x.setResults(op, [
        wrapInteger(
          defined(op, () => INTEGER_BINARY[name](a, b, bits)),
          bits,
        ),
      ]);
    },
    fold([a, b], resultType) {
      const bits = bitWidth(elemOf(resultType));
      return foldable(() => wrapInteger(INTEGER_BINARY[name](a, b, bits), bits));
    },
  };
}

/** A fold that would be undefined at run time (a RangeError: division by zero, ...) does not fold. */
function foldable(compute: () => bigint): bigint | undefined {
  try {
    return compute();
  } catch (e) {
    if (e instanceof RangeError) return undefined;
    throw e;
  }
}

function floatArithmetic(name: string, arity: 1 | 2): OpDefinition {
  return {
    name,
    syntax: 'ArithBody',
    verify(v) {
      v.operands.forEach((t, i) => {
        if (t && !isFloatScalar(t)) v.error(v.op.operands[i].span, `'${name}' needs floating-point operands`);
      });
      if (v.op.operands.length !== arity) v.error(v.op.span, `'${name}' takes ${arity} operand(s)`);
      v.expectResults(1);
      v.define(v.declared);
    },
    execute(x, op) {
      const value = arity === 1 ? -x.float(op, 0) : FLOAT_BINARY[name](x.float(op, 0), x.float(op, 1));
      x.setResults(op, [arity === 1 ? value : roundTo(elemOf(op.resultTypes[0]), value)]);
    },
  };
}

/** sitofp/uitofp round to the result type; fptosi/fptoui truncate (out of range is a trap); extf/truncf convert. */
function floatCast(name: string): OpDefinition {
  const { from, to, unsigned: isUnsigned } = FLOAT_CASTS[name];
  return {
    name,
    syntax: 'ArithCastBody',
    verify(v) {
      const ok = (t: Type | undefined, side: 'integer' | 'float') => !t || (side === 'float' ? isFloatScalar(t) : isIntegerLike(t));
      if (!ok(v.operands[0], from) || !ok(v.declared[0], to)) {
        v.error(v.op.span, `'${name}' converts ${from === 'float' ? 'a float' : 'an integer'} to ${to === 'float' ? 'a float' : 'an integer'}`);
      }
      v.expectResults(1);
      v.define(v.declared);
    },
    execute(x, op) {
      const result = elemOf(op.resultTypes[0]);
      let value: Value;
      if (from === 'integer') {
        const a = x.int(op, 0);
        value = roundTo(result, Number(isUnsigned ? BigInt.asUintN(bitWidth(elemOf(op.operandTypes[0])), a) : a));
      } else if (to === 'integer') {
        const a = x.float(op, 0);
        value = defined(
          op,
          () => floatToInt(a, bitWidth(result), isUnsigned === true),
          (e) => `${name}: ${e.message} (the result is undefined in MLIR)`,
        );
      } else {
        value = roundTo(result, x.float(op, 0));
      }
      x.setResults(op, [value]);
    },
  };
}

function integerCast(name: string): OpDefinition {
  return {
    name,
    syntax: 'ArithCastBody',
    verify(v) {
      if (!isIntegerLike(v.operands[0]) || !isIntegerLike(v.declared[0])) v.error(v.op.span, `'${name}' converts between integer and index types`);
      v.expectResults(1);
      v.define(v.declared);
    },
    execute(x, op) {
      const a = x.int(op, 0);
      const read = INTEGER_CASTS[name] === 'unsigned' ? BigInt.asUintN(bitWidth(elemOf(op.operandTypes[0])), a) : a;
      x.setResults(op, [wrapInteger(read, bitWidth(elemOf(op.resultTypes[0])))]);
    },
    // An unsigned cast of a negative value depends on the operand's width, which a fold does not see.
    fold([a], resultType) {
      return INTEGER_CASTS[name] === 'unsigned' && a < 0n ? undefined : wrapInteger(a, bitWidth(elemOf(resultType)));
    },
  };
}

/** Checks the predicate and records it for the run (the parser always gives one). */
function predicateOf(v: OpVerifier, names: string[], op: string): void {
  const pred = attrOf(v.op, 'predicate');
  if (pred?.kind === 'ident' && !names.includes(pred.name)) v.error(pred.span, `unknown ${op} predicate '${pred.name}' (expected ${names.join(', ')})`);
  v.decide(pred?.kind === 'ident' ? pred.name : undefined);
}

const cmpi: OpDefinition = {
  name: 'arith.cmpi',
  syntax: 'ArithCmpBody',
  verify(v) {
    predicateOf(v, Object.keys(CMPI_PREDICATES), 'arith.cmpi');
    v.operands.forEach((t, i) => {
      if (!isIntegerLike(t)) v.error(v.op.operands[i].span, 'arith.cmpi compares integer or index values');
    });
    v.expectResults(1);
    v.define([{ kind: 'scalar', elem: 'i1' }]);
  },
  execute(x, op) {
    const name = decided<string>(op);
    let [a, b] = [x.int(op, 0), x.int(op, 1)];
    if (name.startsWith('u')) {
      const bits = bitWidth(elemOf(op.operandTypes[0]));
      [a, b] = [BigInt.asUintN(bits, a), BigInt.asUintN(bits, b)];
    }
    x.setResults(op, [CMPI_PREDICATES[name](a, b) ? 1n : 0n]);
  },
};

const cmpf: OpDefinition = {
  name: 'arith.cmpf',
  syntax: 'ArithCmpBody',
  verify(v) {
    predicateOf(v, Object.keys(CMPF_PREDICATES), 'arith.cmpf');
    v.operands.forEach((t, i) => {
      if (t && !isFloatScalar(t)) v.error(v.op.operands[i].span, 'arith.cmpf compares floating-point values');
    });
    v.expectResults(1);
    v.define([{ kind: 'scalar', elem: 'i1' }]);
  },
  execute(x, op) {
    x.setResults(op, [CMPF_PREDICATES[decided<string>(op)](x.float(op, 0), x.float(op, 1)) ? 1n : 0n]);
  },
};

const select: OpDefinition = {
  name: 'arith.select',
  syntax: 'ArithSelectBody',
  verify(v) {
    if (!isScalarOf(v.operands[0], ['i1'])) v.error(v.op.operands[0].span, 'arith.select condition must be i1');
    v.expectResults(1);
    v.define(v.declared);
  },
  execute(x, op) {
    x.setResults(op, [x.operand(op, 0) !== 0n ? x.operand(op, 1) : x.operand(op, 2)]);
  },
};

export const constantOp: OpDefinition = {
  name: 'arith.constant',
  syntax: 'ArithConstantBody',
  verify(v) {
    const value = attrOf(v.op, 'value')!;
    const type = v.declared[0];
    if (value.kind === 'dense') {
      verifyDenseVector(v, value, type);
      return;
    }
    if (value.kind !== 'int' && value.kind !== 'float' && value.kind !== 'bool') {
      // MLIR wants a typed attribute here: `arith.constant index` (a type) or a string has no value.
      v.error(value.span, "arith.constant takes a number or a bool, e.g. '0 : index', '1.0 : f32', 'true'");
      v.define(v.declared.length > 0 ? v.declared : [undefined]);
      return;
    }
    if (!type) {
      if (value.kind !== 'bool') v.error(value.span, "arith.constant needs a type, e.g. '0 : index'");
    } else if (type.kind !== 'scalar') {
      v.error(value.span, `arith.constant of type ${printType(type)} is not supported (expected an integer, index or float type)`);
    } else if (value.kind === 'float' && !['f16', 'bf16', 'f32', 'f64'].includes(type.elem)) {
      v.error(value.span, `a float literal cannot have type ${printType(type)}`);
    } else if (value.kind === 'int') {
      const bits = type.elem === 'index' || type.elem === 'f64' ? 64 : type.elem === 'i1' ? 1 : elemSize(type.elem) * 8;
      const isFloat = ['f16', 'bf16', 'f32'].includes(type.elem);
      if (!isFloat && (value.value >= 1n << BigInt(bits) || value.value < -(1n << BigInt(bits - 1)))) {
        v.error(value.span, `${value.value} does not fit in ${printType(type)}`);
      }
    }
    v.expectResults(1);
    if (value.kind === 'int') v.recordConstant(value.value);
    const resultType = type ?? (value.kind === 'bool' ? { kind: 'scalar', elem: 'i1' } : undefined);
    v.define([resultType]);
    v.decide(constantValue(value, resultType));
  },
  execute(x, op) {
    x.setResults(op, [decided<Value>(op)]);
  },
  fold(_operands, _type, op) {
    const value = attrOf(op, 'value');
    return value?.kind === 'int' ? value.value : undefined;
  },
};

/**
 * `arith.constant dense<[128, 64, 0, 0]> : vector<4xi16>` (tmrgsort's executed counts): an integer vector, one
 * element for each lane or one for all (a splat); or a float vector of float literals (`dense<1.000000e+00> :
 * vector<2xf16>`, as PTOAS's SIMT tests write for their packed loads and stores). The VM holds no vector values: the
 * constant has none at run time, and an op that reads one reports it has no value.
 */
function verifyDenseVector(v: OpVerifier, value: Extract<Attr, { kind: 'dense' }>, type: Type | undefined): void {
  const text = type ? printType(type).replace(/\s+/g, '') : '';
  const floats = /^vector<(\d+)x(\w+)>$/.exec(text);
  const floatElem = floats ? scalarFromName(floats[2]) : undefined;
  const shape = /^vector<(\d+)x(i\d+)>$/.exec(text);
  if (floats && floatElem && isFloat(floatElem)) {
    const lanes = Number(floats[1]);
    const items = value.elements.kind === 'array' ? value.elements.items : [value.elements];
    if (items.length !== 1 && items.length !== lanes) {
      v.error(value.span, `dense<...> has ${items.length} elements, but ${text} has ${lanes} (or give one for all)`);
    }
    for (const item of items) if (item.kind !== 'float' || item.type) v.error(item.span, `a ${text} element must be a float literal`);
  } else if (!type || !shape || ![1, 8, 16, 32, 64].includes(Number(shape[2].slice(1)))) {
    v.error(value.span, `arith.constant dense<...> of type ${type ? printType(type) : '(none)'} is not supported (expected vector<NxiK> or vector<NxF>)`);
  } else {
    const lanes = Number(shape[1]);
    const bits = Number(shape[2].slice(1));
    const items = value.elements.kind === 'array' ? value.elements.items : [value.elements];
    if (items.length !== 1 && items.length !== lanes) {
      v.error(value.span, `dense<...> has ${items.length} elements, but ${printType(type)} has ${lanes} (or give one for all)`);
    }
    for (const item of items) {
      if (item.kind !== 'int' || item.type) v.error(item.span, `a ${printType(type)} element must be an integer literal`);
      else if (item.value >= 1n << BigInt(bits) || item.value < -(1n << BigInt(bits - 1))) v.error(item.span, `${item.value} does not fit in i${bits}`);
    }
  }
  v.expectResults(1);
  v.define([type]);
}

/** The value of an `arith.constant`: integers wrap to their type; a hex literal of a float type is its bit pattern. */
function constantValue(attr: Attr, type: Type | undefined): Value {
  if (attr.kind === 'bool') return attr.value ? 1n : 0n;
  const elem = elemOf(type);
  if (isFloat(elem)) {
    if (attr.kind === 'int') {
      const c = codec(elem);
      const bytes = new DataView(new ArrayBuffer(8));
      if (c.size === 8) bytes.setBigUint64(0, BigInt.asUintN(64, attr.value), true);
      else if (c.size === 4) bytes.setUint32(0, Number(BigInt.asUintN(32, attr.value)), true);
      else bytes.setUint16(0, Number(BigInt.asUintN(16, attr.value)), true);
      return c.read(bytes, 0) as number;
    }
    if (attr.kind === 'float') return codec(elem).round(attr.value) as number;
  }
  if (attr.kind === 'int') return wrapInteger(attr.value, bitWidth(elem));
  if (attr.kind === 'float') return attr.value;
  return 0n;
}

// ---- arith.bitcast ----------------------------------------------------------------------------------------------

/**
 * The types `arith.bitcast` reinterprets (MLIR's BitcastOp): signless integers and floats, f8 included. Not index
 * (its width is the target's: MLIR finds it cast incompatible) and not the unsigned integers (MLIR's arith takes
 * signless ones only).
 */
const BITCAST_TYPES: ElemType[] = ['i1', 'i8', 'i16', 'i32', 'i64', 'f16', 'bf16', 'f32', 'f64', 'f8E4M3FN', 'f8E5M2'];

/** The bits of a scalar of type `elem`, as an unsigned integer of its width. */
function bitsOf(elem: ElemType, value: Value): bigint {
  const bits = bitWidth(elem);
  if (!isFloat(elem)) return BigInt.asUintN(bits, value as bigint);
  const view = new DataView(new ArrayBuffer(8));
  codec(elem).write(view, 0, value as number);
  return bits === 64 ? view.getBigUint64(0, true) : BigInt(bits === 32 ? view.getUint32(0, true) : view.getUint16(0, true));
}

/**
 * The scalar of type `elem` whose bits are `bits`. A float scalar is a JavaScript number, which cannot hold every
 * NaN bit for bit: a signalling NaN is made quiet as it converts (and may be later, when stored in a packed array),
 * and f16 and bf16 keep only their canonical NaN. Such a NaN is refused (a RangeError) rather than changed.
 */
function fromBits(elem: ElemType, bits: bigint): Value {
  const width = bitWidth(elem);
  if (!isFloat(elem)) return wrapInteger(bits, width);
  const view = new DataView(new ArrayBuffer(8));
  if (width === 64) view.setBigUint64(0, bits, true);
  else if (width === 32) view.setUint32(0, Number(bits), true);
  else view.setUint16(0, Number(bits), true);
  const value = codec(elem).read(view, 0) as number;
  if (Number.isNaN(value)) {
    const mantissa = { f16: 10, bf16: 7, f32: 23, f64: 52 }[elem as 'f16' | 'bf16' | 'f32' | 'f64'];
    const quiet = (bits >> BigInt(mantissa - 1)) & 1n;
    const hex = `0x${bits.toString(16).padStart(width / 4, '0')}`;
    if (quiet === 0n)
      throw new RangeError(`the signalling NaN ${hex} as an ${elem} scalar is not implemented yet (a scalar float is a number, which makes it quiet)`);
    if (bitsOf(elem, value) !== bits)
      throw new RangeError(`the NaN ${hex} as an ${elem} scalar is not implemented yet (a scalar ${elem} keeps only its canonical NaN, not this payload)`);
  }
  return value;
}

/** `arith.bitcast %x : A to B`: the same bits read as another type of the same width (MLIR's rules). */
const bitcast: OpDefinition = {
  name: 'arith.bitcast',
  // LLVM's bitcast of a scalar is the same reinterpretation (PTOAS's SIMT kernels write `llvm.bitcast %h : f16 to i16`).
  spellings: [{ name: 'llvm.bitcast' }],
  syntax: 'ArithCastBody',
  verify(v) {
    const [from, to] = [v.operands[0], v.declared[0]];
    const problem = (t: Type | undefined): string | undefined =>
      !t || (t.kind === 'scalar' && BITCAST_TYPES.includes(t.elem))
        ? undefined
        : `arith.bitcast reinterprets a signless integer or a float, not ${printType(t)}${t.kind === 'scalar' && t.elem === 'index' ? ' (index has no fixed width)' : ''}`;
    const fromProblem = problem(from);
    const toProblem = problem(to);
    if (fromProblem) v.error(v.op.operands[0].span, fromProblem);
    if (toProblem) v.error(v.op.resultTypes[0].span, toProblem);
    if (!fromProblem && !toProblem && from && to && bitWidth(elemOf(from)) !== bitWidth(elemOf(to))) {
      v.error(
        v.op.nameSpan,
        `arith.bitcast keeps the bit width: ${printType(from)} has ${bitWidth(elemOf(from))} bits, ${printType(to)} has ${bitWidth(elemOf(to))}`,
      );
    }
    v.expectResults(1);
    v.define(v.declared);
  },
  execute(x, op) {
    const [from, to] = [elemOf(op.operandTypes[0]), elemOf(op.resultTypes[0])];
    // An f8 scalar has no value the VM computes with: the low-precision formats move only as tile elements.
    const f8 = [from, to].find(isStoredFormat);
    if (f8) throw vmTrap(`arith.bitcast of an ${f8} scalar is not implemented yet`, op.node.span);
    const bits = bitsOf(from, x.operand(op, 0));
    x.setResults(op, [defined(op, () => fromBits(to, bits))]);
  },
};

const INTEGER_BINARY_DEFINITIONS = Object.keys(INTEGER_BINARY).map(integerBinary);
/** The index arithmetic the lowering writes (src/lower/emitter.ts). */
export const addiOp = INTEGER_BINARY_DEFINITIONS.find((d) => d.name === 'arith.addi')!;
export const muliOp = INTEGER_BINARY_DEFINITIONS.find((d) => d.name === 'arith.muli')!;

export const ARITH_DEFINITIONS: OpDefinition[] = [
  constantOp,
  cmpi,
  cmpf,
  select,
  ...INTEGER_BINARY_DEFINITIONS,
  ...Object.keys(FLOAT_BINARY).map((n) => floatArithmetic(n, 2)),
  floatArithmetic('arith.negf', 1),
  ...Object.keys(INTEGER_CASTS).map(integerCast),
  ...Object.keys(FLOAT_CASTS).map(floatCast),
  bitcast,
];
