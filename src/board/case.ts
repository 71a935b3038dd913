/**
 * A board validation case derived from a kernel: what PTOAS's harness generator (generate_testcase.py) derives
 * from the kernel's generated C++, derived here from the .pto itself: the buffers (one per pointer argument, named
 * `v1`, `v2`, ... by position as the generated C++ names them), their element counts and host C types, the order
 * the host reads them, which are outputs, the scalar arguments' values and the launch grid.
 */
import { calledFunctions } from '../vm/interpreter';
import { OpNode, Region, attrOf } from '../syntax/ast';
import { TypeTable } from '../syntax/type-table';
import { Program } from '../ir/program';
import { ElemType, Type } from '../types/type';
import { StaticSizing } from '../vm/io/arguments';
import { integerScalarValue, launchBlocks, pinnedOutputs } from './harness-defaults';
import { opRegistry } from '../ops/registry';

export interface CaseBuffer {
  /** The harness's name (`v1` for the first argument). */
  name: string;
  /** The kernel argument (`%arg0`). */
  arg: string;
  elem: ElemType;
  /** The host C type of an element, as the harness writes it in `sizeof(...)`. */
  hostType: string;
  count: number;
  output: boolean;
  /**
   * The runtime provides it (a prefetch context's workspace): the harness neither reads it from a file nor writes
   * it; the VM gets zeros.
   */
  runtime: boolean;
}

export interface CaseScalar {
  name: string;
  arg: string;
  elem: ElemType;
  hostType: string;
  /** The value the harness passes; a boolean is 1 (true), a float 1.0. */
  value: number;
}

export interface CaseMeta {
  testcase: string;
  /** The kernel's function(s): one, or a cube and a vector function of a mixed kernel (cube first). */
  functions: OpNode[];
  /** Pointer arguments in argument order, which is also the order the host reads their files. */
  buffers: CaseBuffer[];
  scalars: CaseScalar[];
  blocks: number;
}

/** Element count the harness gives a buffer it cannot size (its 32x32 default tile). */
export const DEFAULT_ELEMENT_COUNT = 32 * 32;

/** The harness's host type for a kernel element type: half as aclFloat16, bf16 as its bits (uint16_t). */
const HOST_TYPES: Partial<Record<ElemType, string>> = {
  f32: 'float',
  f16: 'aclFloat16',
  bf16: 'uint16_t',
  f64: 'double',
  i1: 'bool',
  i8: 'int8_t',
  u8: 'uint8_t',
  i16: 'int16_t',
  u16: 'uint16_t',
  i32: 'int32_t',
  u32: 'uint32_t',
  i64: 'int64_t',
  u64: 'uint64_t',
  // PTOAS's EmitC lowering turns index into int64_t.
  index: 'int64_t',
  f8E4M3FN: 'float8_e4m3_t',
  f8E5M2: 'float8_e5m2_t',
  '!pto.hif8': 'hifloat8_t',
  '!pto.f8E8M0': 'float8_e8m0_t',
  '!pto.f4E1M2x2': 'float4_e1m2x2_t',
  '!pto.f4E2M1x2': 'float4_e2m1x2_t',
};

export class CaseError extends Error {}

export function hostTypeOf(elem: ElemType): string {
  const host = HOST_TYPES[elem];
  if (!host) throw new CaseError(`no host C type for element type ${elem}`);
  return host;
}

/**
 * The kernel of a program: its one public function with a body that no other function calls, or the cube and vector
 * functions of a mixed kernel (both with `pto.kernel_kind`), or the `hacc.entry` one.
 */
export function kernelFunctions(program: Program): OpNode[] {
  const defined = [...program.functions.values()].filter((f) => f.regions.length > 0);
  const called = calledFunctions(program);
  // A private function is no kernel: the generated C++ has no launch wrapper for it.
  const roots = defined.filter((f) => !called.has(f) && f.visibility !== 'private');
  if (roots.length === 1) return roots;
  // The kind the verifier read from each function's `pto.kernel_kind`.
  const kindOf = (f: OpNode) => program.bound.functions.get(f)?.kind;
  const cube = roots.filter((f) => kindOf(f) === 'cube');
  const vector = roots.filter((f) => kindOf(f) === 'vector');
  if (roots.length === 2 && cube.length === 1 && vector.length === 1) return [cube[0], vector[0]];
  const marked = roots.filter((f) => attrOf(f, 'hacc.entry'));
  if (marked.length === 1) return marked;
  throw new CaseError(`cannot tell the kernel among ${roots.map((f) => '@' + f.symbol).join(', ') || 'no functions'}`);
}

function walk(regions: Region[], visit: (op: OpNode) => void): void {
  for (const region of regions)
    for (const block of region.blocks)
      for (const op of block.ops) {
        visit(op);
        walk(op.regions, visit);
      }
}

export interface DeriveOptions {
  testcase: string;
  /** The sample folder's name: some harness defaults are scoped by it. */
  sample: string;
}

export function deriveCase(program: Program, types: TypeTable, functions: OpNode[], options: DeriveOptions): CaseMeta {
  const { testcase, sample } = options;
  const fn = functions[0];
  const params = fn.regions[0]?.blocks[0]?.args ?? [];
  const scalars: CaseScalar[] = [];
  const pointers: { name: string; arg: string; type: Type & { kind: 'ptr' } }[] = [];
  params.forEach((param, index) => {
    const name = `v${index + 1}`;
    const type = param.type ? types.resolve(param.type).type : undefined;
    if (type?.kind === 'ptr') pointers.push({ name, arg: param.name, type });
    else if (type?.kind === 'scalar') {
      const hostType = hostTypeOf(type.elem);
      const value = scalarValue(hostType, () => integerScalarValue(sample, testcase, name));
      scalars.push({ name, arg: param.name, elem: type.elem, hostType, value });
    } else throw new CaseError(`argument ${param.name} of @${fn.symbol} is ${param.type?.text ?? 'untyped'}: the harness passes only pointers and scalars`);
  });
  const specs = new Map(scalars.map((s) => [s.arg.slice(1), String(s.value)]));
  const counts = new Map<string, number>();
  for (const f of functions) {
    const sizing = new StaticSizing(f, specs, types);
    const fParams = f.regions[0]?.blocks[0]?.args ?? [];
    for (const p of pointers) {
      const arg = fParams[params.findIndex((x) => x.name === p.arg)]?.name;
      const extent = arg !== undefined ? sizing.extent(arg) : undefined;
      if (extent !== undefined) counts.set(p.name, Math.max(counts.get(p.name) ?? 0, extent));
    }
  }
  const names = params.map((p) => p.name);
  const runtime = handlePointers(program, functions, names);
  const pinned = pinnedOutputs(sample, testcase);
  const written = pinned ? new Set(pinned) : storedPointers(program, functions, names);
  // Nothing stored: the harness takes the last data pointer as the output.
  const data = pointers.filter((p) => !runtime.has(p.name));
  if (written.size === 0 && data.length > 0) written.add(data[data.length - 1].name);
  const buffers = pointers.map((p) => ({
    name: p.name,
    arg: p.arg,
    elem: p.type.elem,
    hostType: hostTypeOf(p.type.elem),
    count: counts.get(p.name) || DEFAULT_ELEMENT_COUNT,
    output: written.has(p.name) && !runtime.has(p.name),
    runtime: runtime.has(p.name),
  }));
  let readsBlockIndex = false;
  const registry = opRegistry();
  for (const f of functions) walk(f.regions, (op) => (readsBlockIndex ||= registry.lookup(op.name)?.def.properties?.coreQuery === 'block'));
  return { testcase, functions, buffers, scalars, blocks: launchBlocks(testcase, readsBlockIndex) };
}

/** As the harness: true, 1.0, its integer default; 0 for other types (half). */
function scalarValue(hostType: string, integer: () => number): number {
  if (hostType === 'bool' || hostType === 'float' || hostType === 'double') return 1;
  return /^u?int(8|16|32|64)_t$/.test(hostType) ? integer() : 0;
}

/**
 * The harness names (`v3`) of the pointer arguments an instruction writes: a destination view (a tstore's) made
 * from the pointer through views, partitions and pointer arithmetic.
 */
function storedPointers(program: Program, functions: OpNode[], paramNames: string[]): Set<string> {
  const found = new Set<string>();
  for (const fn of functions) {
    const args = (fn.regions[0]?.blocks[0]?.args ?? []).map((a) => a.name);
    const defs = new Map<string, OpNode>();
    const ops: OpNode[] = [];
    walk(fn.regions, (op) => {
      ops.push(op);
      for (const r of op.results) defs.set(r.name, op);
    });
    for (const op of ops) {
      const instruction = program.instructions.get(op);
      if (!instruction) continue;
      for (const operand of instruction.operands.values()) {
        if (operand.spec.role !== 'dst' || !operand.use?.value) continue;
        let name = operand.use.value.name;
        for (let depth = 0; depth < 32 && !args.includes(name); depth++) {
          const source = defs.get(name)?.operands[0]?.value?.name;
          if (!source) break;
          name = source;
        }
        const index = args.indexOf(name);
        if (index >= 0 && index < paramNames.length) found.add(`v${index + 1}`);
      }
    }
  }
  return found;
}

/** Pointer arguments an op makes a handle of (a prefetch context on its workspace): the runtime's, not data. */
function handlePointers(program: Program, functions: OpNode[], paramNames: string[]): Set<string> {
  const found = new Set<string>();
  for (const fn of functions) {
    const args = (fn.regions[0]?.blocks[0]?.args ?? []).map((a) => a.name);
    const types = program.valueTypes.get(fn);
    walk(fn.regions, (op) => {
      if (!op.results.some((r) => types?.get(r.name)?.kind === 'handle')) return;
      for (const o of op.operands) {
        const index = o.value ? args.indexOf(o.value.name) : -1;
        if (index >= 0 && index < paramNames.length) found.add(`v${index + 1}`);
      }
    });
  }
  return found;
}

/** The lines of the harness's main.cpp that PTOAS's golden scripts parse (validation_runtime.py), and nothing else. */
export function renderMainCpp(meta: CaseMeta): string {
  const lines = [
    `// Generated by pto-vm validate for the golden scripts of case ${meta.testcase}: the declarations they read`,
    '// (element counts, host types, read order, scalar arguments). Not a host program.',
    '',
  ];
  const data = meta.buffers.filter((b) => !b.runtime);
  for (const b of data) {
    lines.push(`size_t elemCount_${b.name} = ${b.count};`);
    lines.push(`size_t fileSize_${b.name} = elemCount_${b.name} * sizeof(${b.hostType});`);
  }
  for (const s of meta.scalars) {
    const value = s.hostType === 'bool' ? 'true' : s.hostType === 'float' ? '1.0f' : s.hostType === 'double' ? '1.0' : String(s.value);
    lines.push(`${s.hostType} ${s.name} = ${value};`);
  }
  // The harness's main() declares these right after the arguments; golden scripts that read every integer
  // assignment of main.cpp by position see them too.
  lines.push('int rc = 0;', 'int deviceId = 0;');
  for (const b of data) lines.push(`ReadFile("./${b.name}.bin", fileSize_${b.name}, ${b.name}Host, fileSize_${b.name});`);
  return lines.join('\n') + '\n';
}

export function renderOutputs(meta: CaseMeta): string {
  return meta.buffers
    .filter((b) => b.output)
    .map((b) => b.name + '\n')
    .join('');
}
