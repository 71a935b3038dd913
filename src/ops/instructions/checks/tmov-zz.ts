import { DIAGNOSTICS as D, DiagnosticKind } from '../../../diag/catalog';
import { attrOf } from '../../../syntax/ast';
import { TileType, elemSize, elemTypeName } from '../../../types/type';
import { CheckContext } from './context';
import { checkNoAlias } from './no-alias';
import { Span } from '../../../diag/source';

/**
 * TMOV's X-to-ZZ form (TMovOp::verify, A5 only): `pto.tmov ins(%src, %tmp) outs(%dst)` with a vec third tile
 * rearranges MX scale exponents from an ND (grpAxis axis1, the default) or DN (axis0) vec tile into a ZZ-boxed vec
 * tile, with tmp as scratch. Sizes are in bytes: the exponent types are one byte wide.
 */
const EXPONENT_TYPES = ['u8', '!pto.hif8', '!pto.f8E8M0'];

const bytesOf = (t: TileType) => t.rows * t.cols * elemSize(t.dtype);
const align16 = (n: number) => Math.ceil(n / 16) * 16;

export function checkMoveToZz(ctx: CheckContext, src: TileType, dst: TileType, tmp: TileType): void {
  if (formHolds(ctx, src, dst, tmp)) checkNoAlias(ctx, ['src', 'fp', 'dst']);
}

/** The form's rules; false when one is broken (and reported). */
function formHolds(ctx: CheckContext, src: TileType, dst: TileType, tmp: TileType): boolean {
  const report = (span: Span, message: string, kind?: DiagnosticKind) => (ctx.error(span, message, kind), false);
  const fail = (operand: string, message: string, kind: DiagnosticKind = D.instructionRule) => report(ctx.spanOf(operand), message, kind);
  if (ctx.target !== 'a5') return report(ctx.op.nameSpan, 'X-to-ZZ tmov (a vec third tile) is only supported on A5');
  if (ctx.op.form === 'dps' && ctx.op.results.length > 0) return report(ctx.op.results[0].span, 'expects X-to-ZZ tmov not to have results');
  const fixpipe = [
    attrOf(ctx.op, 'pre_quant'),
    attrOf(ctx.op, 'accToVecMode'),
    ctx.attributes.get('reluPreMode') !== 'no_relu' ? attrOf(ctx.op, 'reluPreMode') : undefined,
    ctx.attributes.get('relu') === true ? attrOf(ctx.op, 'relu') : undefined,
  ].find((a) => a !== undefined);
  if (fixpipe || ctx.bound.operands.has('preQuantScalar'))
    return report(fixpipe?.span ?? ctx.spanOf('preQuantScalar'), 'the X-to-ZZ tmov form takes no preQuantScalar, accToVecMode or reluPreMode');
  for (const [name, t] of [
    ['src', src],
    ['dst', dst],
    ['fp', tmp],
  ] as const)
    if (t.loc !== 'vec') return fail(name, `X-to-ZZ src, dst and tmp are vec tiles, not loc=${t.loc}`, D.tileLocation);
  const values = ['src', 'dst', 'fp'].map((n) => ctx.bound.operands.get(n)?.use?.value?.name);
  if (values[0] === values[1] || values[0] === values[2] || values[1] === values[2])
    return report(ctx.op.nameSpan, 'expects X-to-ZZ src, dst, and tmp to be distinct tile values');
  if (src.vRow === null || src.vCol === null || dst.vRow === null || dst.vCol === null)
    return report(ctx.op.nameSpan, 'X-to-ZZ needs static valid shapes for src and dst', D.validRegion);
  if (src.dtype !== dst.dtype || src.dtype !== tmp.dtype)
    return fail(
      'fp',
      `src, dst and tmp share one element type (src ${elemTypeName(src.dtype)}, dst ${elemTypeName(dst.dtype)}, tmp ${elemTypeName(tmp.dtype)})`,
      D.elementType,
    );
  if (!EXPONENT_TYPES.includes(src.dtype))
    return fail('src', `X-to-ZZ moves ui8, !pto.hif8 or !pto.f8E8M0 exponents, not ${elemTypeName(src.dtype)}`, D.elementType);
  if (src.blayout !== 'row_major' || src.slayout !== 'none_box') return fail('src', 'expects src to use blayout=row_major, slayout=none_box', D.tileLayout);
  if (dst.blayout !== 'row_major' || dst.slayout !== 'row_major')
    return fail('dst', 'expects dst to use blayout=row_major, slayout=row_major (ZZ box)', D.tileLayout);
  if (src.vRow * src.vCol !== dst.vRow * dst.vCol)
    return report(ctx.op.nameSpan, `src (${src.vRow}x${src.vCol}) and dst (${dst.vRow}x${dst.vCol}) must hold the same exponent count`, D.validRegion);
  if (ctx.attributes.get('grpAxis') === 'axis0') return dnHolds(ctx, src, dst, src.vRow, src.vCol);
  const [rows, cols] = [dst.vRow, dst.vCol];
  if (cols % 2 !== 0) return fail('dst', `expects ND-to-ZZ dst valid_shape[1] (the grouped exponent column count) to be even, got ${cols}`, D.validRegion);
  if (src.vRow !== 1 && src.cols !== src.vCol)
    return fail('src', 'expects ND-to-ZZ src valid elements to form a compact prefix (a single row, or rows of exactly the valid cols)', D.validRegion);
  const padded = align16(rows) * cols;
  if (bytesOf(src) < padded)
    return fail('src', `expects ND-to-ZZ src to hold align16(dst rows) * dst cols = ${padded} bytes (its padding is zeroed in place), got ${bytesOf(src)}`);
  if (bytesOf(dst) < padded) return fail('dst', `expects ND-to-ZZ dst to hold align16(dst rows) * dst cols = ${padded} bytes, got ${bytesOf(dst)}`);
  const scratch = 64 + Math.ceil(rows / 16) * cols;
  return (
    bytesOf(tmp) >= scratch ||
    fail('fp', `expects tmp to provide at least ${scratch} bytes for ND-to-ZZ (64 + ceil(dst rows / 16) * dst cols), got ${bytesOf(tmp)}`, D.scratchContract)
  );
}

function dnHolds(ctx: CheckContext, src: TileType, dst: TileType, rows: number, cols: number): boolean {
  const report = (span: Span, message: string, kind: DiagnosticKind = D.validRegion) => (ctx.error(span, message, kind), false);
  const fail = (operand: string, message: string) => report(ctx.spanOf(operand), message);
  if (rows < 2 || rows % 2 !== 0) return fail('src', `expects DN-to-ZZ src valid_shape[0] to be an even count >= 2, got ${rows}`);
  if (cols % 16 !== 0) return fail('src', `expects DN-to-ZZ src valid_shape[1] to be a multiple of 16, got ${cols}`);
  if (src.cols !== cols) return fail('src', `expects DN-to-ZZ src rows of exactly its valid cols (${cols}), got ${src.cols}`);
  const required = rows * cols;
  return (
    (bytesOf(src) >= required && bytesOf(dst) >= required) ||
    report(ctx.op.nameSpan, `expects DN-to-ZZ src and dst to hold src valid rows * src valid cols = ${required} bytes`, D.instructionRule)
  );
}
