import { ElemType } from '../../../types/type';
import { Tile } from '../../../machine/memory';
import { FixpipeConvert, FixpipeSite, QuantForm, fixpipeConverter } from '../../../numerics/fixpipe';
import { InstructionContext } from './context';

/**
 * The operands of a move or store out of Acc that configure the fixpipe (numerics/fixpipe.ts does the conversion):
 * reluPreMode = normal_relu (or {relu = true}), the scalar-quant preQuantScalar operand (or {pre_quant = WORD}), and
 * the vector-quant fp tile.
 */
export interface FixpipeOptions {
  relu: boolean;
  form: QuantForm;
  /** The scalar quant word (0n unless form is 'scalar'). */
  word: bigint;
}

export function fixpipeOptions(ctx: InstructionContext): FixpipeOptions {
  const reluMode = ctx.attribute('reluPreMode');
  if (reluMode !== undefined && reluMode !== 'no_relu' && reluMode !== 'normal_relu') ctx.trap(`reluPreMode = ${String(reluMode)} is not implemented yet`);
  const relu = ctx.flag('relu') === true || reluMode === 'normal_relu';
  const fp = ctx.optionalTile('fp');
  if (fp && !holdsQuantWords(fp)) ctx.trap(`a ${fp.type.dtype} fp tile is not implemented yet (${QUANT_TILES})`);
  const preQuant = ctx.bound.operands.has('preQuantScalar') ? ctx.scalar('preQuantScalar') : ctx.attribute('pre_quant');
  const word = typeof preQuant === 'number' || typeof preQuant === 'bigint' ? BigInt.asUintN(64, BigInt(preQuant)) : 0n;
  return { relu, form: fp ? 'vector' : preQuant !== undefined ? 'scalar' : 'none', word };
}

/** Whether the op goes through the fixpipe's relu or quantisation rather than a plain copy or cast. */
export const usesFixpipe = (options: FixpipeOptions): boolean => options.form !== 'none' || options.relu;

/** The fixpipe's converter for from -> to under the run's profile; a pair or mode the VM does not model traps. */
export function fixpipeFor(ctx: InstructionContext, options: FixpipeOptions, from: Tile, to: ElemType, site: FixpipeSite): FixpipeConvert {
  const converter = fixpipeConverter({ from: from.type.dtype, to, form: options.form, relu: options.relu, profile: ctx.numerics, site });
  if (typeof converter === 'string')
    ctx.trap(`from ${from.type.dtype} to ${to} under ${ctx.numerics}: ${converter}${converter.endsWith('not implemented yet') ? '' : '; not implemented'}`);
  return converter;
}

/** The scaling tiles the VM reads quant words from, as a message says it. */
export const QUANT_TILES = 'the VM reads quant words from u64/i64 tiles and scales from f16 or bf16 tiles';

/** The scale types whose values the word's scale field holds exactly (f32's would lose its low 13 mantissa bits). */
const EXACT_SCALES = new Set(['f16', 'bf16']);

export const holdsQuantWords = (fp: Tile): boolean => fp.type.dtype === 'u64' || fp.type.dtype === 'i64' || EXACT_SCALES.has(fp.type.dtype);

/**
 * The quant words of a scaling tile's first row, one per valid col: a u64/i64 tile holds the 64-bit words (read as
 * unsigned); an A5 f16 or bf16 tile one scale per column (PTOAS's Movfp sample), which becomes the word's scale
 * field, the f32 bits of the value. The field keeps an f32's top 10 mantissa bits (numerics/fixpipe.ts m1Scale), so
 * such a scale is held exactly, and the product is what the sample's golden computes: f16(clip(f32(acc) * scale)).
 */
export function quantWords(fp: Tile): bigint[] {
  if (EXACT_SCALES.has(fp.type.dtype)) return Array.from({ length: fp.vCol }, (_, c) => BigInt(f32Bits(Number(fp.get(0, c)))));
  return Array.from({ length: fp.vCol }, (_, c) => BigInt.asUintN(64, BigInt(fp.get(0, c))));
}

const f32View = new DataView(new ArrayBuffer(4));

function f32Bits(value: number): number {
  f32View.setFloat32(0, value);
  return f32View.getUint32(0);
}
