import { ModelError } from './errors';

/**
 * The only way the model touches memory: little-endian reads and writes of 1, 2 or 4 bytes, each
 * bounds-checked against the memory it was given (the UB, or a tile's bytes).
 */
export class ModelMemory {
  private readonly view: DataView;

  constructor(readonly bytes: Uint8Array) {
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  get size(): number {
    return this.bytes.byteLength;
  }

  /**
   * Throws a ModelError unless bytes `addr .. addr+length-1` all lie inside the memory. The error's
   * `address` is the first byte of the access that is outside.
   */
  check(addr: number, length: number, what = 'access'): void {
    if (!Number.isInteger(addr)) {
      throw new ModelError(`${what} at non-integer address ${addr}`, [], addr);
    }
    const end = addr + length; // exclusive
    if (addr >= 0 && end <= this.size) return;
    const offending = addr < 0 ? addr : Math.max(addr, this.size);
    throw new ModelError(
      `${what} of ${length} byte(s) at address ${addr} is outside the memory [0, ${this.size}): byte ${offending} is out of bounds`,
      [],
      offending,
    );
  }

  /** Reads an unsigned little-endian integer of `size` (1, 2 or 4) bytes. */
  readBits(addr: number, size: number): number {
    this.check(addr, size, 'read');
    switch (size) {
      case 1:
        return this.view.getUint8(addr);
      case 2:
        return this.view.getUint16(addr, true);
      case 4:
        return this.view.getUint32(addr, true);
      default:
        throw new ModelError(`unsupported access size ${size}`);
    }
  }

  /** Writes the low `size` (1, 2 or 4) bytes of `bits`, little-endian. */
  writeBits(addr: number, size: number, bits: number): void {
    this.check(addr, size, 'write');
    switch (size) {
      case 1:
        this.view.setUint8(addr, bits & 0xff);
        return;
      case 2:
        this.view.setUint16(addr, bits & 0xffff, true);
        return;
      case 4:
        this.view.setUint32(addr, bits >>> 0, true);
        return;
      default:
        throw new ModelError(`unsupported access size ${size}`);
    }
  }
}

/**
 * Runs one instruction on `bytes` so that it either completes or changes nothing: if it throws (an
 * access outside the memory), the bytes are restored before the error propagates.
 */
export function atomically<T>(bytes: Uint8Array, body: (mem: ModelMemory) => T): T {
  const snapshot = bytes.slice();
  try {
    return body(new ModelMemory(bytes));
  } catch (e) {
    bytes.set(snapshot);
    throw e;
  }
}
