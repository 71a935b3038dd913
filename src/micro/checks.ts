import { Span } from '../diag/source';
import { OpVerifier } from '../ir/definition';
import type { MicroOpRowData } from '../spec/micro-schema';
import { Attr } from '../syntax/ast';
import { Type } from '../types/type';
import { MicroBinding } from './format';
import { CUBE_CHECKS } from './checks/cube';
import { VECTOR_CHECKS } from './checks/vector';
import { VMI_CHECKS } from './checks/vmi';
import { VMI_MORE_CHECKS } from './checks/vmi-more';

/** An operand's or result's type (undefined when already reported) and where it is written. */
export interface MicroValueInfo {
  type: Type | undefined;
  span: Span;
}

/** What a row's own verifier rule sees: the op's values and attributes by their row names, and how to report. */
export interface MicroCheckContext {
  v: OpVerifier;
  row: MicroOpRowData;
  b: MicroBinding;
  value(name: string): MicroValueInfo | undefined;
  /** An attribute of the format's items or of the attribute dictionary. */
  attr(name: string): Attr | undefined;
  /** An error (E0451) prefixed by the op's name. */
  err(span: Span, message: string): void;
}

export type MicroCheck = (c: MicroCheckContext) => void;

/** Every check a row of spec/micro/ may name (`check`), by name: one table per family. */
export const MICRO_CHECKS: Record<string, MicroCheck> = { ...VECTOR_CHECKS, ...CUBE_CHECKS, ...VMI_CHECKS, ...VMI_MORE_CHECKS };
