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
  if (reluMode !== undefined && reluMode !== 'no_relu' && reluMode !== 'normal_relu')
    ctx.trap(`${ctx.op.name} with reluPreMode = ${String(reluMode)} is not implemented yet`);
  const relu = ctx.flag('relu') === true || reluMode === 'normal_relu';
  const fp = ctx.optionalTile('fp');
  if (fp && fp.type.dtype !== 'u64' && fp.type.dtype !== 'i64')
    ctx.trap(`${ctx.op.name} with a ${fp.type.dtype} fp tile is not implemented yet (the VM reads fp as 64-bit quant words)`);
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
    ctx.trap(
      `${ctx.op.name} from ${from.type.dtype} to ${to} under ${ctx.numerics}: ${converter}${converter.endsWith('not implemented yet') ? '' : '; not implemented'}`,
    );
  return converter;
}

/** The 64-bit quant words of a scaling tile's first row, one per valid col (read as unsigned). */
export function quantWords(fp: Tile): bigint[] {
  return Array.from({ length: fp.vCol }, (_, c) => BigInt.asUintN(64, BigInt(fp.get(0, c))));
}
