import { DIAGNOSTICS as D } from '../../../diag/catalog';
import { TileType, elemTypeName, isStoredFormat } from '../../../types/type';
import { checkNoAlias } from './no-alias';
import { CheckContext, InstructionCheck } from './context';

/** Whether every named tile has a dtype the target's table allows: otherwise the tables reported it already. */
function dtypesAllowed(ctx: CheckContext, names: string[]): boolean {
  const lists = ctx.spec.dtypes[ctx.target];
  return names.every((n) => {
    const t = ctx.tiles.get(n);
    const allowed = lists?.[n];
    return !t || !allowed || allowed.length === 0 || allowed.includes(t.dtype);
  });
}

const isRowMajor = (t: TileType | undefined): boolean => t?.blayout === 'row_major';

/** PTOAS TQuantOp: the operands the quant type needs, and A2/A3's layouts and per-row parameters. */
const tquant: InstructionCheck = (ctx) => {
  const quantType = ctx.attributes.get('quant_type');
  const has = (n: string) => ctx.bound.operands.has(n);
  if (quantType === 'MXFP8' || quantType === 'MXFP4_E2M1') {
    return ctx.error(ctx.op.nameSpan, `quant_type ${quantType} is tquant.mx's: tquant takes INT8_SYM or INT8_ASYM`);
  }
  if (quantType === 'INT8_SYM' && has('offset')) return ctx.error(ctx.spanOf('offset'), 'INT8_SYM quantization takes no offset');
  if (quantType === 'INT8_ASYM' && !has('offset')) return ctx.error(ctx.op.nameSpan, 'INT8_ASYM quantization needs an offset tile');
  if (ctx.target !== 'a2a3') return; // A5 has no layout rule and ignores tmp
  for (const n of ['src', 'dst']) {
    if (ctx.tiles.has(n) && !isRowMajor(ctx.tiles.get(n))) ctx.error(ctx.spanOf(n), `${n} must be row-major (blayout=row_major) on a2a3`, D.tileLayout);
  }
  const dst = ctx.tiles.get('dst');
  for (const n of ['fp', 'offset']) {
    const para = ctx.tiles.get(n);
    if (!para) continue;
    if (isRowMajor(para)) ctx.error(ctx.spanOf(n), `${n} must not be row-major on a2a3 (one parameter per row, col_major)`, D.tileLayout);
    else if (dst && para.vRow !== null && dst.vRow !== null && para.vRow !== dst.vRow)
      ctx.error(ctx.spanOf(n), `${n} must have dst's valid rows (${dst.vRow}), not ${para.vRow}`, D.validRegion);
    else if (para.vCol !== null && para.vCol !== 1) ctx.error(ctx.spanOf(n), `${n} must have one valid col on a2a3, not ${para.vCol}`, D.validRegion);
  }
  const tmp = ctx.tiles.get('tmp');
  const src = ctx.tiles.get('src');
  // PTOAS gives an A2/A3 tquant without tmp a tmp of src's static type: a dynamic src leaves none to give.
  if (!tmp && src && (src.vRow === null || src.vCol === null))
    return ctx.error(ctx.spanOf('src'), 'src needs a static valid shape on a2a3 when no tmp is given', D.validRegion);
  if (!tmp || !src) return;
  if (!isRowMajor(tmp)) ctx.error(ctx.spanOf('tmp'), 'tmp must be row-major (blayout=row_major) on a2a3', D.tileLayout);
  else if (tmp.rows !== src.rows || tmp.cols !== src.cols)
    ctx.error(ctx.spanOf('tmp'), `tmp must have src's shape (${src.rows}x${src.cols}) on a2a3, not ${tmp.rows}x${tmp.cols}`);
  else if (tmp.vRow !== src.vRow || tmp.vCol !== src.vCol) ctx.error(ctx.spanOf('tmp'), "tmp must have src's valid shape on a2a3", D.validRegion);
};

/** PTOAS TQuantMxOp: the quant type's dst and src formats, the group axis and the deprecated exp_zz form. */
const tquantMx: InstructionCheck = (ctx) => {
  const quantType = ctx.attributes.get('quant_type');
  const grpAxis = ctx.attributes.get('grpAxis');
  const has = (n: string) => ctx.bound.operands.has(n);
  const attributeSpan = (name: string) => ctx.op.attrs.find((a) => a.key === name)?.span ?? ctx.op.nameSpan;
  if (quantType !== 'MXFP8' && quantType !== 'MXFP4_E2M1')
    return ctx.error(attributeSpan('quant_type'), `quant_type must be MXFP8 or MXFP4_E2M1, not ${String(quantType)}`);
  if (ctx.attributes.get('interleave') === true && grpAxis !== 'axis0') return ctx.error(attributeSpan('interleave'), 'interleave needs grpAxis = axis0');
  if (has('exp_zz') && grpAxis === 'axis0')
    ctx.error(ctx.spanOf('exp_zz'), 'the deprecated exp_zz form needs grpAxis = axis1 (use pto.tmov with a tmp tile for axis0 exponents)');
  const storeMode = ctx.attributes.get('storeMode') !== undefined;
  if (has('exp_zz') !== storeMode) ctx.error(ctx.op.nameSpan, has('exp_zz') ? 'exp_zz needs storeMode' : 'storeMode needs exp_zz');
  if (storeMode && ctx.attributes.get('quantScaleAlg') !== 'ocp') ctx.error(attributeSpan('quantScaleAlg'), 'the storeMode form keeps quantScaleAlg = ocp');
  if (!dtypesAllowed(ctx, ['src', 'dst'])) return;
  const src = ctx.tiles.get('src');
  const dst = ctx.tiles.get('dst');
  if (!src || !dst) return;
  if (quantType === 'MXFP8' && dst.dtype !== 'i8' && dst.dtype !== 'u8')
    ctx.error(ctx.spanOf('dst'), `MXFP8 writes i8/ui8 codes, not ${elemTypeName(dst.dtype)}`, D.elementType);
  if (quantType === 'MXFP4_E2M1') {
    if (dst.dtype !== '!pto.f4E2M1x2') ctx.error(ctx.spanOf('dst'), `MXFP4_E2M1 writes !pto.f4E2M1x2 codes, not ${elemTypeName(dst.dtype)}`, D.elementType);
    if (src.dtype === 'f32') ctx.error(ctx.spanOf('src'), 'MXFP4_E2M1 quantizes f16 or bf16, not f32', D.elementType);
  }
  checkMxGroups(ctx, src, grpAxis === 'axis0');
};

/** Static shapes, and groups of 32 along the group axis with exp holding one exponent per group. */
function checkMxGroups(ctx: CheckContext, src: TileType, dn: boolean): void {
  for (const [name, t] of ctx.tiles) {
    if (t.vRow === null || t.vCol === null) return ctx.error(ctx.spanOf(name), `${name} needs a static valid shape in MX quantization`, D.validRegion);
  }
  const rows = src.vRow!;
  const cols = src.vCol!;
  if (rows <= 0 || cols <= 0) return ctx.error(ctx.spanOf('src'), 'src needs a positive valid shape', D.validRegion);
  if ((dn ? rows : cols) % 32 !== 0) {
    return ctx.error(
      ctx.spanOf('src'),
      `src valid ${dn ? 'rows' : 'cols'} (${dn ? rows : cols}) must be a multiple of 32 with grpAxis = ${dn ? 'axis0' : 'axis1'}`,
      D.validRegion,
    );
  }
  const dst = ctx.tiles.get('dst')!;
  // A packed fp4 element holds two codes: dst has half src's valid cols.
  const codesPerElement = dst.dtype === '!pto.f4E2M1x2' ? 2 : 1;
  if (dst.vRow !== rows || dst.vCol! * codesPerElement !== cols) {
    ctx.error(
      ctx.spanOf('dst'),
      `dst must hold src's ${rows}x${cols} valid codes (${rows}x${cols / codesPerElement} ${elemTypeName(dst.dtype)}), not ${dst.vRow}x${dst.vCol}`,
      D.validRegion,
    );
  }
  const groups = (rows * cols) / 32;
  const [gRows, gCols] = dn ? [rows / 32, cols] : [rows, cols / 32];
  // max and scaling: one element per group, [M/32, N] or [M, N/32], or (axis1) the legacy flat [1, groups].
  const grouped = (name: string): void => {
    const t = ctx.tiles.get(name);
    if (!t || (t.vRow === gRows && t.vCol === gCols) || (!dn && t.vRow === 1 && t.vCol === groups)) return;
    ctx.error(
      ctx.spanOf(name),
      `${name}'s valid shape must be ${gRows}x${gCols}${dn ? '' : ` or 1x${groups}`} (one per group of 32), not ${t.vRow}x${t.vCol}`,
      D.validRegion,
    );
  };
  grouped('max');
  grouped('scaling');
  const exp = ctx.tiles.get('exp');
  const interleave = ctx.attributes.get('interleave') === true;
  if (exp && !interleave) grouped('exp');
  if (exp && interleave) {
    // Interleaved axis0 exponents: two rows of groups side by side, [M/64, 2N].
    if (rows % 64 !== 0) return ctx.error(ctx.spanOf('src'), `src valid rows (${rows}) must be a multiple of 64 with interleave`, D.validRegion);
    if (exp.vRow !== rows / 64 || exp.vCol !== 2 * cols) {
      return ctx.error(
        ctx.spanOf('exp'),
        `exp's valid shape must be ${rows / 64}x${2 * cols} with interleave (two rows of groups per row), not ${exp.vRow}x${exp.vCol}`,
        D.validRegion,
      );
    }
  }
  checkMxStorage(ctx, src, dst, exp, dn, interleave, groups);
}

const align = (v: number, to: number): number => Math.ceil(v / to) * to;

/**
 * PTOAS's storage rules of MX quantization (the pinned pto-isa's addressing): physical strides of dst, max, scaling
 * and exp against src's, the flat exponent form's scaling capacity, and the forms that revision does not support.
 */
function checkMxStorage(ctx: CheckContext, src: TileType, dst: TileType, exp: TileType | undefined, dn: boolean, interleave: boolean, groups: number): void {
  const fail = (name: string, message: string) => ctx.error(ctx.spanOf(name), message, D.validRegion);
  const fp4 = dst.dtype === '!pto.f4E2M1x2';
  const pack = fp4 ? 2 : 1;
  const b16 = src.dtype === 'f16' || src.dtype === 'bf16';
  const [rows, cols] = [src.vRow!, src.vCol!];
  const max = ctx.tiles.get('max');
  const scaling = ctx.tiles.get('scaling');
  if (fp4 && src.cols % 2 !== 0) return fail('src', `MXFP4 needs an even number of src physical cols, not ${src.cols}`);
  if (dst.rows < rows) return fail('dst', `dst's physical rows (${dst.rows}) must cover src's valid rows (${rows})`);
  if (interleave && src.rows % 64 !== 0) return fail('src', `src physical rows (${src.rows}) must be a multiple of 64 with interleave`);
  if (dn) {
    if (fp4 && dst.cols !== src.cols / 2) return fail('dst', `MXFP4 axis0 dst physical cols must be src physical cols / 2 (${src.cols / 2}), not ${dst.cols}`);
    if (fp4 && (src.cols / 2) % 32 !== 0 && src.dtype === 'f16')
      return fail('src', 'f16 MXFP4 axis0 needs src physical cols / 2 to be a multiple of 32 (the pinned pto-isa)');
    for (const [name, t] of [
      ['max', max],
      ['scaling', scaling],
    ] as const) {
      if (t && t.cols !== src.cols) return fail(name, `${name} physical cols must equal src physical cols (${src.cols}) with grpAxis = axis0, not ${t.cols}`);
    }
    if (exp && !interleave && exp.cols !== src.cols)
      return fail('exp', `exp physical cols must equal src physical cols (${src.cols}) with grpAxis = axis0, not ${exp.cols}`);
    if (exp && interleave) {
      if (exp.rows !== src.rows / 64) return fail('exp', `interleaved exp physical rows must be src physical rows / 64 (${src.rows / 64}), not ${exp.rows}`);
      if (exp.cols !== align(2 * src.cols, 32))
        return fail('exp', `interleaved exp physical cols must be align32(2 x src physical cols) = ${align(2 * src.cols, 32)}, not ${exp.cols}`);
      if (src.dtype === 'f32') return fail('src', 'f32 interleave is not supported by the pinned pto-isa');
    }
  } else {
    if (dst.cols !== src.cols / pack) return fail('dst', `${fp4 ? 'MXFP4' : 'MXFP8'} axis1 dst physical cols must be ${src.cols / pack}, not ${dst.cols}`);
    for (const [name, t] of [
      ['max', max],
      ['scaling', scaling],
    ] as const) {
      if (t && t.vRow !== 1 && t.cols !== t.vCol) return fail(name, `${name}'s valid elements must form a compact prefix (physical cols == valid cols)`);
    }
    if (exp && exp.rows === 1) {
      if (src.cols !== cols) return fail('src', 'the flat exp form needs a tight src (physical cols == valid cols)');
      if (scaling) {
        const unroll = src.rows * src.cols > 1024 && (src.rows * src.cols) % 256 === 0 && (rows * src.cols) % 256 === 0;
        const alg = ctx.attributes.get('quantScaleAlg');
        if (b16 && alg !== 'ocp') return fail('src', 'axis1 flat f16/bf16 NV quantization is not supported by the pinned pto-isa');
        const need = b16 ? align(groups, 128) * 2 : align(unroll ? 2 * groups : groups, 64) * 4;
        const have = scaling.rows * scaling.cols * (b16 ? 2 : 4);
        if (have < need) return fail('scaling', `scaling's storage must cover ${need} bytes for the flat exp form, not ${have}`);
      }
    } else if (exp) {
      if (exp.vRow === 1) return fail('exp', 'the legacy flat exp needs physical rows == 1');
      if (b16) return fail('src', 'axis1 canonical 2D f16/bf16 quantization is not supported by the pinned pto-isa');
    }
  }
  // A padded f16/bf16 source is padded in whole vector lengths (128 elements).
  if (b16 && cols < src.cols && 128 % src.cols === 0 && (rows * src.cols) % 128 !== 0)
    fail('src', 'a padded f16/bf16 src whose padding ends in an incomplete vector length is not supported');
}

/** PTOAS TDequantOp: A2/A3 needs src and dst row-major. */
const tdequant: InstructionCheck = (ctx) => {
  if (ctx.target !== 'a2a3') return;
  for (const n of ['src', 'dst']) {
    if (ctx.tiles.has(n) && !isRowMajor(ctx.tiles.get(n))) ctx.error(ctx.spanOf(n), `${n} must be row-major (blayout=row_major) on a2a3`, D.tileLayout);
  }
};

/** PTOAS TPrefetchOp: A2/A3 prefetches no low-precision format, from the view's side either. */
const tprefetch: InstructionCheck = (ctx) => {
  const src = ctx.bound.operands.get('src')?.type;
  if (ctx.target === 'a2a3' && src?.kind === 'partition_view' && isStoredFormat(src.elem)) {
    ctx.error(ctx.spanOf('src'), `src element type ${elemTypeName(src.elem)} is not supported on a2a3 (no low-precision prefetch)`, D.elementType);
  }
};

/** Rules beyond the tables, by op name (`pto.NAME`). */
export const checks: Record<string, InstructionCheck> = {
  'pto.tquant': tquant,
  'pto.tquant.mx': (ctx) => {
    tquantMx(ctx);
    checkNoAlias(ctx, ['src', 'dst', 'exp', 'max', 'scaling', 'exp_zz']);
  },
  'pto.tdequant': tdequant,
  'pto.tprefetch': tprefetch,
};
