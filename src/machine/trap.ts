import { Span } from '../diag/source';

/** A run-time error of the program (bounds, capacity, a failed valid-region check), at a source location. */
export class VmTrap extends Error {
  constructor(
    message: string,
    readonly span: Span,
  ) {
    super(message);
  }
}
