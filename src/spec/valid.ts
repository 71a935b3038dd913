import { TileType, Type } from '../types/type';
import { ValidRule } from './schema';

/** Valid-region rules of spec/instructions/*.json, evaluated over static types (verifier) or run-time dims (VM). */

export interface Dims {
  rows: number;
  cols: number;
  /** null when dynamic and not yet known. */
  vRow: number | null;
  vCol: number | null;
}

export function dimsOfType(t: TileType): Dims {
  return { rows: t.rows, cols: t.cols, vRow: t.vRow, vCol: t.vCol };
}

/** `src.vCol` as operand and field, split once per reference (the VM checks rules on every run of an instruction). */
const REFERENCES = new Map<string, { operand: string; field: keyof Dims }>();

function reference(ref: string): { operand: string; field: keyof Dims } {
  let parsed = REFERENCES.get(ref);
  if (!parsed) {
    const [operand, field] = ref.split('.');
    REFERENCES.set(ref, (parsed = { operand, field: field as keyof Dims }));
  }
  return parsed;
}

/** Resolves `src.vCol` to a number, or null when it is not known statically. */
export function dimValue(ref: string | number, dims: (operand: string) => Dims | undefined): number | null | undefined {
  if (typeof ref === 'number') return ref;
  const { operand, field } = reference(ref);
  const d = dims(operand);
  if (!d) return undefined;
  return d[field];
}

export type RuleOutcome = { status: 'ok' } | { status: 'unknown' } | { status: 'violated'; message: string };

const FIELD_WORDS: Record<string, string> = { vRow: 'valid rows', vCol: 'valid cols', rows: 'rows', cols: 'cols' };

function describe(ref: string | number): string {
  if (typeof ref === 'number') return String(ref);
  const [operand, field] = ref.split('.');
  return `${operand} ${FIELD_WORDS[field] ?? field}`;
}

/** Checks one `eq`/`positive` rule. `view-matches-valid` needs the view's shape: see viewMatchesValid. */
export function checkDimRule(rule: ValidRule, dims: (operand: string) => Dims | undefined): RuleOutcome {
  switch (rule.kind) {
    case 'eq': {
      const a = dimValue(rule.lhs, dims);
      const b = dimValue(rule.rhs, dims);
      if (a === undefined || b === undefined) return { status: 'ok' }; // optional operand absent
      if (a === null || b === null) return { status: 'unknown' };
      if (a === b) return { status: 'ok' };
      const rhs = typeof rule.rhs === 'number' ? `${rule.rhs}` : `${describe(rule.rhs)} (${b})`;
      return { status: 'violated', message: `${describe(rule.lhs)} (${a}) must equal ${rhs}` };
    }
    case 'le': {
      const a = dimValue(rule.lhs, dims);
      const b = dimValue(rule.rhs, dims);
      if (a === undefined || b === undefined) return { status: 'ok' };
      if (a === null || b === null) return { status: 'unknown' };
      return a <= b ? { status: 'ok' } : { status: 'violated', message: `${describe(rule.lhs)} (${a}) must not exceed ${describe(rule.rhs)} (${b})` };
    }
    case 'positive': {
      const a = dimValue(rule.of, dims);
      if (a === undefined) return { status: 'ok' };
      if (a === null) return { status: 'unknown' };
      return a > 0 ? { status: 'ok' } : { status: 'violated', message: `${describe(rule.of)} must be positive, got ${a}` };
    }
    default:
      return { status: 'ok' };
  }
}

/**
 * A partition view and a tile transfer the same elements: the tile's valid cols equal the view's
 * innermost dim and its valid rows the product of the others (the ND rule of TLOAD/TSTORE).
 */
export function viewMatchesValid(viewShape: (number | null)[], vRow: number | null, vCol: number | null): RuleOutcome {
  if (viewShape.length === 0) return { status: 'violated', message: 'the view has rank 0' };
  const inner = viewShape[viewShape.length - 1];
  const outer = viewShape.slice(0, -1);
  if (inner === null || vCol === null || vRow === null || outer.some((d) => d === null)) return { status: 'unknown' };
  const outerProduct = outer.reduce<number>((p, d) => p * (d as number), 1);
  if (inner !== vCol || outerProduct !== vRow) {
    return {
      status: 'violated',
      message: `view shape ${viewShape.join('x')} does not match the tile's valid region ${vRow}x${vCol} (need valid cols == ${inner} and valid rows == ${outerProduct})`,
    };
  }
  return { status: 'ok' };
}

export const isTile = (t: Type | undefined): t is TileType => t?.kind === 'tile';

/**
 * The memref form moves a view to or from a flat buffer, element for element in row-major order: only the
 * element counts must agree (`memref<1024xi32>` holds a 32x32 view).
 */
export function viewFitsFlatBuffer(viewShape: (number | null)[], elements: number): RuleOutcome {
  if (viewShape.some((d) => d === null)) return { status: 'unknown' };
  const count = viewShape.reduce<number>((p, d) => p * (d as number), 1);
  if (count === elements) return { status: 'ok' };
  return { status: 'violated', message: `view shape ${viewShape.join('x')} has ${count} elements, but the buffer holds ${elements}` };
}
