import { OnChipMemory } from '../../machine/memory';
import { codec } from '../../numerics/elements';
import { MicroRun, MicroSemantics, intOf, typeOf } from './operands';

/**
 * The configuration registers of a core that the micro level's `set_*` ops write and its DMA ops read
 * (docs/vpto.md, "DMA, cube and configuration"). Kept per core: keyed by the core's on-chip memory, which the
 * executors of one core share (a called function runs on the same core and sees the same registers).
 *
 * A register is named by the op that writes it (`loop1_stride_outtoub` for pto.set_loop1_stride_outtoub). A two-operand register keeps both operands as written (PTOAS packs them into one 64-bit value only
 * when it emits LLVM: first | second << 40 for strides, second | first << 21 for loop sizes).
 */
export interface CoreConfig {
  /** Two-operand registers (set_loop*_stride_*, set_loop_size_*, set_loop3_para, set_channel_para). */
  pairs: Map<string, [bigint, bigint]>;
  /** One-operand registers (set_ctrl, set_fpc, set_quant_pre, set_mov_pad_val, ...), as the 64 bits written. */
  values: Map<string, bigint>;
  /** The atomic mode of GM stores: the operation (`none`, `add`, `max`, `min`) and the element type (`s32`, `f32`, ...). */
  atomic: { op: string; type?: string };
}

const configs = new WeakMap<OnChipMemory, CoreConfig>();

/**
 * A core's registers; at reset the loop sizes are 1 (one repetition of the burst group: pto-isa's A5 TLoad/TStore
 * write `1 << 21 | 1` to "resume normal mode"), strides 0, no atomic operation.
 */
export function coreConfig(memory: OnChipMemory): CoreConfig {
  let c = configs.get(memory);
  if (!c) {
    c = { pairs: new Map(), values: new Map(), atomic: { op: 'none' } };
    configs.set(memory, c);
  }
  return c;
}

/** A two-operand register's value (loop sizes default to 1 by 1, every other register to 0, 0). */
export function pairOf(memory: OnChipMemory, register: string): [bigint, bigint] {
  return coreConfig(memory).pairs.get(register) ?? (register.startsWith('loop_size') ? [1n, 1n] : [0n, 0n]);
}

/** The register a configuration op writes: its name without `set_` (`set_atomic_` for the atomic mode). */
function registerOf(r: MicroRun, prefix = 'set_'): string {
  return r.mnemonic.startsWith(prefix) ? r.mnemonic.slice(prefix.length) : r.fail(`is not a '${prefix}*' configuration op`);
}

/**
 * The bits of a scalar operand zero-extended to 64 (PTOAS's encodeMovPadValue: an integer as it is, a float's
 * encoding in its own type).
 */
export function bitsOf(r: MicroRun, name: string): bigint {
  const t = typeOf(r, name);
  if (t?.kind !== 'scalar') return r.fail(`'${name}' is not a scalar`);
  const c = codec(t.elem);
  const bytes = new Uint8Array(8);
  c.write(new DataView(bytes.buffer), 0, c.round(r.x.operand(r.op, r.b.operands[name][0]) as number | bigint));
  return new DataView(bytes.buffer).getBigUint64(0, true);
}

export const CONFIG_SEMANTICS: Record<string, MicroSemantics> = {
  'config-pair'(r) {
    coreConfig(r.x.memory).pairs.set(registerOf(r), [BigInt(intOf(r, 'first')), BigInt(intOf(r, 'second'))]);
  },
  'config-value'(r) {
    coreConfig(r.x.memory).values.set(registerOf(r), bitsOf(r, 'value'));
  },
  /** set_loop1/2_stride_outtol1: one operand, the source stride in bits 0..39 and the destination's above. */
  'config-packed-stride'(r) {
    const v = bitsOf(r, 'value');
    coreConfig(r.x.memory).pairs.set(registerOf(r), [v & ((1n << 40n) - 1n), v >> 40n]);
  },
  /** set_loop_size_outtol1: one operand, loop1's count in bits 0..20 and loop2's above (kept as (loop2, loop1)). */
  'config-packed-size'(r) {
    const v = bitsOf(r, 'value');
    coreConfig(r.x.memory).pairs.set(registerOf(r), [v >> 21n, v & ((1n << 21n) - 1n)]);
  },
  'config-atomic-op'(r) {
    coreConfig(r.x.memory).atomic.op = registerOf(r, 'set_atomic_');
  },
  'config-atomic-type'(r) {
    coreConfig(r.x.memory).atomic.type = registerOf(r, 'set_atomic_');
  },
};
