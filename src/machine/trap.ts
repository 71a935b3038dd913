import { DIAGNOSTICS } from '../diag/catalog';
import { LocatedError } from '../diag/located-error';
import { Span } from '../diag/source';

/** A run-time error of the program (bounds, capacity, a failed valid-region check), at a source location. */
export function vmTrap(message: string, span: Span): LocatedError {
  return new LocatedError(DIAGNOSTICS.trap, message, span);
}

/**
 * An element access outside a tile's storage, found where no source location is known (Tile.get/set): the
 * instruction running it reports it as a trap at the op.
 */
export class OutsideStorage extends Error {}
