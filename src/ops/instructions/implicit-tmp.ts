import { ElemType, TileType, Type, isFloat } from '../../types/type';
import { Instruction } from '../../spec/isa';
import { OperandSpec, TargetName } from '../../spec/schema';
import { AttributeValue } from '../define/attributes';
import { z } from 'zod';

/**
 * PTOAS's pto-materialize-implicit-tmp: an instruction whose scratch tile is left out gets one allocated before
 * PlanMemory. At level3 PlanMemory is skipped, so where the pass would allocate one the program must write it.
 * Which operands and when is the tables' `implicitTmp` (spec/schema.ts); the conditions are below.
 */

type Condition = NonNullable<NonNullable<z.infer<typeof OperandSpec>['implicitTmp']>['when']>;

export interface ImplicitTmpQuery {
  spec: Instruction;
  /** The operands written, by spec name. */
  written: ReadonlySet<string>;
  tiles: ReadonlyMap<string, TileType>;
  /** Every written operand's type, by spec name (an operand the table declares a scalar may be a tile). */
  types: ReadonlyMap<string, Type>;
  target: TargetName;
  attributes: ReadonlyMap<string, AttributeValue | undefined>;
}

/** MLIR's FloatType: the standard floats and the f8 types (the dialect's `!pto.` formats are not). */
const isMlirFloat = (e: ElemType): boolean => isFloat(e) || e === 'f8E4M3FN' || e === 'f8E5M2';

/** Whether the pass would allocate the scratch in this case, and the words PTOAS's message uses for it. */
const CONDITIONS: Record<Condition, { holds: (q: ImplicitTmpQuery) => boolean; words: (op: string) => string }> = {
  // TPOW/TPOWS need scratch for the floating-point path only.
  'float-dst': { holds: (q) => isMlirFloat(q.tiles.get('dst')?.dtype ?? 'i32'), words: () => '' },
  // TSORT32's tail path (a width not provably a multiple of 32) needs scratch.
  'unaligned-width': {
    holds: (q) => {
      const width = q.tiles.get('src')?.vCol;
      return width !== undefined && (width === null || width % 32 !== 0);
    },
    words: (op) => ` for ${op} with dynamic or non-32-aligned width`,
  },
  // TCVT's non-saturating f32 -> 16-bit and f16 -> 16/8-bit integer paths go through scratch (sat_mode defaults to OFF).
  'unsaturated-narrowing': {
    holds: (q) => {
      const saturated = q.attributes.get('satmode') === 'ON' || q.attributes.get('sat_mode') === 'ON' || q.attributes.get('saturation') === true;
      const src = q.tiles.get('src')?.dtype;
      const dst = q.tiles.get('dst')?.dtype;
      const int16 = dst === 'i16' || dst === 'u16';
      const int8 = dst === 'i8' || dst === 'u8';
      return !saturated && ((src === 'f32' && int16) || (src === 'f16' && (int16 || int8)));
    },
    words: () => ' for non-saturating narrowing tcvt',
  },
  // TCOLSUM sums pairwise through scratch when isBinary.
  binary: { holds: (q) => q.attributes.get('isBinary') === true, words: (op) => ` for binary ${op}` },
  // TMRGSORT's format 2 (2 to 4 lists, the second ins operand a tile) merges through scratch; format 1 does not.
  'several-lists': { holds: (q) => q.types.get('src1')?.kind === 'tile', words: (op) => ` for ${op} format2` },
};

/** The operand that must be written at level3 with the words of PTOAS's message, or undefined. */
export function missingExplicitTmp(q: ImplicitTmpQuery): { operand: string; message: string } | undefined {
  for (const operand of q.spec.operands) {
    const rule = operand.implicitTmp;
    if (!rule || q.written.has(operand.name) || !rule.targets.includes(q.target)) continue;
    const condition = rule.when ? CONDITIONS[rule.when] : undefined;
    if (condition && !condition.holds(q)) continue;
    const shortName = q.spec.opName.replace(/^pto\./, '');
    return {
      operand: operand.name,
      message: `requires explicit ${operand.name}${condition ? condition.words(shortName) : ''} when PlanMemory is skipped (--level level3)`,
    };
  }
  return undefined;
}
