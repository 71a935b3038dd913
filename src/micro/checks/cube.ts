import { elemTypeName, isFloat, printType } from '../../types/type';
import { MicroCheck, MicroCheckContext } from '../checks';

/**
 * The verifier rules of the cube micro-ops that their rows' fields do not express (lib/PTO/IR/VPTO.cpp):
 * RawFillL1Op/CreateCbufMatrixOp::verify and verifyMadSemanticClauses.
 */

/** A constant integer operand by row name, undefined when not constant or absent. */
function constant(c: MicroCheckContext, name: string): bigint | undefined {
  const i = c.b.operands[name]?.[0];
  return i === undefined ? undefined : c.v.constant(i);
}

/** The fill geometry and word width (RawFillL1Op::verify, CreateCbufMatrixOp::verify). */
const fillL1: MicroCheck = (c) => {
  const span = c.v.op.nameSpan;
  const bits = c.attr('fill_word_bits');
  const width = bits?.kind === 'int' ? Number(bits.value) : undefined;
  if (width !== 16 && width !== 32) c.err(bits?.span ?? span, `fill_word_bits must be 16 or 32, got ${width ?? 'none'}`);
  const offset = constant(c, 'byte_offset');
  if (offset !== undefined && offset < 0n) c.err(span, 'byte_offset must be non-negative');
  else if (offset !== undefined && offset % 32n !== 0n) c.err(span, 'byte_offset must be a multiple of 32 bytes');
  for (const name of ['repeat_times', 'block_num_32b', 'dst_gap_32b']) {
    const v = constant(c, name);
    if (v !== undefined && v < 0n) c.err(span, `${name} must be non-negative`);
    if (v !== undefined && v > 32767n) c.err(span, `${name} must be <= 32767`);
  }
  if (c.row.name !== 'pto.create_cbuf_matrix') return;
  const dst = c.value('dst')?.type;
  if (dst?.kind !== 'ptr') return;
  if (dst.elem !== 'u16' && dst.elem !== 'u32') c.err(span, `requires a ui16 or ui32 destination view, got element type '${elemTypeName(dst.elem)}'`);
  else if (width !== undefined && (dst.elem === 'u16' ? 16 : 32) !== width)
    c.err(span, `fill_word_bits ${width} does not match the ${dst.elem === 'u16' ? 16 : 32}-bit destination view`);
};

/** tf32 for f32 only, sat/nosat for floating types only, hif8 on both inputs or neither, bias of dst's type. */
const mad: MicroCheck = (c) => {
  const span = c.v.op.nameSpan;
  const elem = (name: string) => {
    const t = c.value(name)?.type;
    return t?.kind === 'ptr' ? t.elem : undefined;
  };
  const [lhs, rhs, dst] = [elem('lhs'), elem('rhs'), elem('dst')];
  if (!lhs || !rhs || !dst) return;
  // A tf32_mode word PTOAS does not know is its parser's error (the row's attribute values report it), not this rule's.
  const tf32 = c.b.attrs.tf32_mode;
  const known = tf32?.kind === 'string' && (tf32.value === 'round_even' || tf32.value === 'round_away');
  if (known && !(lhs === 'f32' && rhs === 'f32' && dst === 'f32')) c.err(span, 'requires tf32_mode only for f32 lhs/rhs/dst element types');
  const hif8 = (e: string) => elemTypeName(e as never) === '!pto.hif8';
  if (hif8(lhs) !== hif8(rhs)) c.err(span, 'requires lhs/rhs to both use hif8 or both use non-hif8 element types');
  const floatLike = (e: typeof lhs) => isFloat(e) || !/^[iu]\d+$/.test(e);
  if (c.b.attrs.sat_mode && !(floatLike(lhs) && floatLike(rhs) && floatLike(dst)))
    c.err(span, 'requires sat/nosat only for floating lhs/rhs/dst element types');
  const bias = c.value('bias')?.type;
  if (bias?.kind === 'ptr' && bias.elem !== dst) c.err(c.value('bias')!.span, `requires bias element type to match dst element type, got ${printType(bias)}`);
};

/** The explicit load controls fit their hardware fields (verifyExplicitCubeBridgeLoadControls); false after reporting. */
function controlsFit(c: MicroCheckContext): boolean {
  const limits: [string, number, number][] = [
    ['m_start', 0, 65535],
    ['k_start', 0, 65535],
    ['m_step', 1, 255],
    ['k_step', 1, 255],
    ['src_stride', 1, 65535],
    ['dst_stride', 1, 65535],
  ];
  for (const [name, min, max] of limits) {
    const v = constant(c, name);
    if (v === undefined) continue;
    if (v < BigInt(min)) {
      c.err(c.v.op.nameSpan, `${name} must be ${min === 0 ? 'non-negative' : 'greater than zero'}`);
      return false;
    }
    if (v > BigInt(max)) {
      c.err(c.v.op.nameSpan, `${name} must be <= ${max} to fit the hardware control field`);
      return false;
    }
  }
  return true;
}

/** mte_l1_l0a/l0b (verifyMteL1L0LoadOperands): a shape form's constant starts non-negative, a full form's controls in range. */
const l1L0Operands: MicroCheck = (c) => {
  if (!c.b.operands.start_row?.length) {
    controlsFit(c);
    return;
  }
  for (const name of ['start_row', 'start_col']) {
    const v = constant(c, name);
    if (v !== undefined && v < 0n) return c.err(c.v.op.nameSpan, `${name} must be non-negative`);
  }
};

/**
 * load_cbuf_to_ca/cb (and _s4): the constant controls fit their hardware fields (verifyExplicitCubeBridgeLoadControls:
 * starts in [0, 65535], steps in [1, 255], strides in [1, 65535]); the first that does not is reported.
 */
const cubeLoadControls: MicroCheck = (c) => {
  // verifyRegularCubeBridgeLoad / verifyS4CubeBridgeLoad: packed FP4 moves only through the _s4 forms, which take only it.
  const elem = (name: string) => {
    const t = c.value(name)?.type;
    return t?.kind === 'ptr' ? t.elem : undefined;
  };
  const [src, dst] = [elem('source'), elem('destination')];
  const fp4 = (e: string | undefined) => e === '!pto.f4E2M1x2' || e === '!pto.f4E1M2x2';
  const span = c.v.op.nameSpan;
  if (c.row.name.endsWith('_s4')) {
    if (src && !fp4(src)) return c.err(span, 'requires packed FP4 source element type f4e1m2x2 or f4e2m1x2');
    if (dst && !fp4(dst)) return c.err(span, 'requires packed FP4 destination element type f4e1m2x2 or f4e2m1x2');
    if (src && dst && src !== dst) return c.err(span, 'requires source and destination packed FP4 element types to match');
  } else {
    if (fp4(src)) return c.err(span, 'packed FP4 source requires the S4 load operation');
    if (fp4(dst)) return c.err(span, 'packed FP4 destination requires the S4 load operation');
  }
  if (!controlsFit(c)) return;
  const transpose = c.row.name.endsWith('_s4') ? constant(c, 'transpose') : undefined;
  if (transpose !== undefined && (transpose < 0n || transpose > 1n))
    c.err(span, transpose < 0n ? 'transpose must be non-negative' : 'transpose must be <= 1 to fit the hardware control field');
};

/**
 * The MX loads' constant steps and strides are non-negative (verifyMxLoadOperands); mte_l1_l0a_mx/l0b_mx also take
 * a statically known source address on 32 bytes and destination address on 16 (verifyMxLoadAlignment: the addresses
 * a castptr makes from an integer constant; the scale buffer's address unit is 16 bytes).
 */
const mxLoadControls: MicroCheck = (c) => {
  for (const name of ['x_start', 'y_start', 'x_step', 'y_step', 'src_stride', 'dst_stride', 'x_start_position', 'y_start_position']) {
    const v = constant(c, name);
    if (v !== undefined && v < 0n) return c.err(c.v.op.nameSpan, `${name} must be non-negative`);
  }
  if (!c.row.name.startsWith('pto.mte_l1_l0')) return;
  for (const [name, bytes] of [
    ['source', 32n],
    ['destination', 16n],
  ] as const) {
    // A pointer's constant is the address a castptr made it from.
    const address = constant(c, name);
    if (address !== undefined && address % bytes !== 0n)
      return c.err(c.value(name)?.span ?? c.v.op.nameSpan, `a statically known ${name} address must be aligned to ${bytes} bytes, got ${address}`);
  }
};

export const CUBE_CHECKS: Record<string, MicroCheck> = {
  'fill-l1': fillL1,
  mad,
  'cube-load-controls': cubeLoadControls,
  'mx-load-controls': mxLoadControls,
  'l1-l0-operands': l1L0Operands,
};
