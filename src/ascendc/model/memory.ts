import { ModelError } from './errors';

/**
 * The only way the model touches memory: little-endian reads and writes of 1, 2 or 4 bytes, each
 * bounds-checked against the memory it was given (the UB, or a tile's bytes).
 */
/** How an instruction reaches its operands: one memory (the UB), or tiles (see TileOperands). */
export interface MemoryAccess {
  readBits(addr: number, size: number): number;
  writeBits(addr: number, size: number, bits: number): void;
  /** Throws unless the work tensor's bytes `addr .. addr+length-1` exist. */
  checkWork(addr: number, length: number): void;
  /** Marks the start of repeat r (its reads, then its writes): a footprint keeps the repeat of each access. */
  startRepeat?(r: number): void;
}

export class ModelMemory implements MemoryAccess {
  private readonly view: DataView;

  constructor(
    readonly bytes: Uint8Array,
    /** How messages name this memory. */
    readonly name = 'the memory',
  ) {
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  checkWork(addr: number, length: number): void {
    this.check(addr, length, 'work_tensor');
  }

  get size(): number {
    return this.bytes.byteLength;
  }

  /**
   * Throws a ModelError unless bytes `addr .. addr+length-1` all lie inside the memory. The error's
   * `address` is the first byte of the access that is outside.
   */
  check(addr: number, length: number, what = 'access'): void {
    const outside = outsideOf(this.name, this.size, { addr, length, what });
    if (outside) throw new ModelError(outside.message, [], outside.address);
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

/** One access of an instruction: `length` bytes at `addr`, a `read`, a `write` or a check of the `work_tensor`. */
export interface Access {
  addr: number;
  length: number;
  what: 'read' | 'write' | 'work_tensor';
}

/** Why an access is not inside a memory of `size` bytes named `name` (and its first outside byte); undefined if it is. */
export function outsideOf(
  name: string,
  size: number,
  { addr, length, what }: Access | { addr: number; length: number; what: string },
): { message: string; address: number } | undefined {
  if (!Number.isInteger(addr)) return { message: `${what} at non-integer address ${addr}`, address: addr };
  if (addr >= 0 && addr + length <= size) return undefined;
  const offending = addr < 0 ? addr : Math.max(addr, size);
  return { message: `${what} of ${length} byte(s) at address ${addr} is outside ${name} [0, ${size}): byte ${offending} is out of bounds`, address: offending };
}

/**
 * The footprint of a call: every access of each operand, in the order the instruction makes them, with addresses
 * relative to the operand's first byte. It is recorded from the instruction's own address walk (reads give zero;
 * addresses never depend on data), so it cannot drift from the semantics; no operand bytes exist.
 */
export class FootprintRecorder implements MemoryAccess {
  readonly accesses: RecordedAccess[] = [];
  private repeat = 0;

  constructor(private readonly bases: { src: number; dst: number; work?: number }) {}

  readBits(addr: number, size: number): number {
    this.accesses.push({ role: 'src', access: { addr: addr - this.bases.src, length: size, what: 'read' }, repeat: this.repeat });
    return 0;
  }

  writeBits(addr: number, size: number): void {
    this.accesses.push({ role: 'dst', access: { addr: addr - this.bases.dst, length: size, what: 'write' }, repeat: this.repeat });
  }

  /** Without a work tile the caller provides the scratch: nothing to record. */
  checkWork(addr: number, length: number): void {
    if (this.bases.work !== undefined)
      this.accesses.push({ role: 'work', access: { addr: addr - this.bases.work, length, what: 'work_tensor' }, repeat: this.repeat });
  }

  startRepeat(r: number): void {
    this.repeat = r;
  }
}

/** One access of a footprint: its operand, its bytes relative to the operand's first byte, its repeat. */
export interface RecordedAccess {
  role: 'src' | 'dst' | 'work';
  access: Access;
  repeat: number;
}

/** What an instruction runs on: one memory (the UB), its operand tiles, or a recorder of its footprint. */
export type InstructionMemory = Uint8Array | TileOperands | FootprintRecorder;

/** A tile's bytes, placed at `base` in the model's address space. */
export interface TileRegion {
  memory: ModelMemory;
  base: number;
}

/**
 * Operands in separate tiles (the PTO-AS text form): reads come from the source tile, writes go to the
 * destination tile and the work tensor is checked against the work tile, each bounds-checked against
 * its own bytes. Each tile sits at its own `base` address, so the model's alignment and overlap rules
 * still apply; one tile used for two roles has one base, and then its roles overlap.
 */
export class TileOperands implements MemoryAccess {
  constructor(
    readonly src: TileRegion,
    readonly dst: TileRegion,
    readonly work?: TileRegion,
  ) {}

  readBits(addr: number, size: number): number {
    return this.src.memory.readBits(addr - this.src.base, size);
  }

  writeBits(addr: number, size: number, bits: number): void {
    this.dst.memory.writeBits(addr - this.dst.base, size, bits);
  }

  /** Without a work tile the caller provides the scratch: nothing to check. */
  checkWork(addr: number, length: number): void {
    if (this.work) this.work.memory.check(addr - this.work.base, length, 'work_tensor');
  }
}

/**
 * Runs one instruction so that it either completes or changes nothing: if it throws (an access
 * outside the memory), the written bytes are restored before the error propagates.
 */
export function atomically<T>(target: InstructionMemory, body: (mem: MemoryAccess) => T): T {
  if (target instanceof FootprintRecorder) return body(target);
  const written = target instanceof Uint8Array ? target : target.dst.memory.bytes;
  const snapshot = written.slice();
  try {
    return body(target instanceof Uint8Array ? new ModelMemory(target) : target);
  } catch (e) {
    written.set(snapshot);
    throw e;
  }
}
