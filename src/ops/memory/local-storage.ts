import { BoundOp } from '../../ir/bound';
import { Executor, OpDefinition } from '../../ir/definition';
import { vmTrap } from '../../machine/trap';
import { Cells, Value } from '../../machine/value';
import { Attr } from '../../syntax/ast';
import { Type, printType } from '../../types/type';
import { DeclaredCheck, DeclaredOp, declaredDefinition } from '../define/declared';

/**
 * A core's own scalar storage, beside its tiles: local arrays (`!pto.local_array<64xi32>`), arrays of event ids
 * (`!pto.eventid_array<4>`, for dynamic synchronization) and structs (`!pto.struct<f32, i8>`). Each is declared
 * once and read and written by index; a cell read before it is written is a trap.
 */

function cellsOf(x: Executor, op: BoundOp, i: number): Cells {
  const v = x.operand(op, i);
  if (typeof v !== 'object' || !('kind' in v) || v.kind !== 'cells') throw vmTrap(`${op.def.name} needs declared storage`, op.node.operands[i].span);
  return v;
}

function emptyCells(size: number): Cells {
  return { kind: 'cells', values: new Array<Value | undefined>(size).fill(undefined) };
}

/** A struct's cells: one per field, nested for struct fields. */
function structCells(t: Type): Cells {
  const fields = t.kind === 'struct' ? t.fields : [];
  return { kind: 'cells', values: fields.map((f) => (f.kind === 'struct' ? structCells(f) : undefined)) };
}

/** The cell an index names: a trap when it is outside the storage. */
function cellIndex(x: Executor, op: BoundOp, operands: number[], shape: number[]): number {
  let flat = 0;
  operands.forEach((operand, k) => {
    const i = x.index(op, operand);
    if (i < 0 || i >= shape[k]) throw vmTrap(`${op.def.name}: index ${i} is outside 0..${shape[k] - 1}`, op.node.operands[operand].span);
    flat = flat * shape[k] + i;
  });
  return flat;
}

function read(cells: Cells, at: number, op: BoundOp): Value {
  const v = cells.values[at];
  if (v === undefined) throw vmTrap(`${op.def.name}: the cell is read before anything was written to it`, op.node.span);
  return v;
}

/** The storage's type (operand `storage`), if it is of the kind. */
function storageType<K extends Type['kind']>(c: DeclaredCheck, kind: K): Extract<Type, { kind: K }> | undefined {
  const t = c.type('storage');
  return t?.kind === kind ? (t as Extract<Type, { kind: K }>) : undefined;
}

/** The field a struct path names, or an error. */
function structField(t: Type, path: number[]): Type | string {
  let at = t;
  for (const step of path) {
    if (at.kind !== 'struct') return `the path goes past ${printType(at)}, which is not a struct`;
    if (step < 0 || step >= at.fields.length) return `field ${step} is outside 0..${at.fields.length - 1} of ${printType(at)}`;
    at = at.fields[step];
  }
  return at;
}

function checkIndexCount(c: DeclaredCheck, shape: number[]): void {
  const n = c.binding.operands.indices?.length ?? 0;
  if (n !== shape.length) c.error(c.v.op.span, `${c.v.op.name} takes ${shape.length} index(es) for a ${shape.join('x')} array, got ${n}`);
}

function checkValue(c: DeclaredCheck, expected: Type | undefined): void {
  const value = c.type('value');
  if (expected && value && printType(expected) !== printType(value))
    c.error(c.span('value'), `${c.v.op.name}: the value must be ${printType(expected)}, got ${printType(value)}`);
}

const STORAGE_OPS: DeclaredOp[] = [
  {
    name: 'pto.declare_local_array',
    results: [{ name: 'array', is: ['local_array'] }],
    execute(x, op) {
      const t = op.resultTypes[0];
      x.setResults(op, [emptyCells(t?.kind === 'local_array' ? t.shape.reduce((a, b) => a * b, 1) : 0)]);
    },
  },
  {
    name: 'pto.local_array_get',
    syntax: 'IndexedAccessBody',
    operands: [
      { name: 'storage', is: ['local_array'] },
      { name: 'indices', is: ['index'], variadic: true, keyword: true },
    ],
    results: [{ name: 'result', is: ['scalar'] }],
    check(c) {
      const t = storageType(c, 'local_array');
      if (!t) return;
      checkIndexCount(c, t.shape);
      const declared = c.v.declared[0];
      if (declared && !(declared.kind === 'scalar' && declared.elem === t.elem))
        c.error(
          c.v.op.resultTypes[0].span,
          `pto.local_array_get gives the array's element type ${printType({ kind: 'scalar', elem: t.elem })}, not ${printType(declared)}`,
        );
    },
    execute(x, op, b) {
      const cells = cellsOf(x, op, b.operands.storage[0]);
      x.setResults(op, [read(cells, cellIndex(x, op, b.operands.indices, arrayShape(op, b.operands.storage[0], cells)), op)]);
    },
  },
  {
    name: 'pto.local_array_set',
    syntax: 'IndexedAccessBody',
    operands: [
      { name: 'storage', is: ['local_array'] },
      { name: 'indices', is: ['index'], variadic: true, keyword: true },
      { name: 'value', is: ['scalar'], keyword: true },
    ],
    check(c) {
      const t = storageType(c, 'local_array');
      if (!t) return;
      checkIndexCount(c, t.shape);
      checkValue(c, { kind: 'scalar', elem: t.elem });
    },
    execute(x, op, b) {
      const cells = cellsOf(x, op, b.operands.storage[0]);
      cells.values[cellIndex(x, op, b.operands.indices, arrayShape(op, b.operands.storage[0], cells))] = x.operand(op, b.operands.value[0]);
    },
  },
  {
    name: 'pto.declare_eventid_array',
    results: [{ name: 'array', is: ['eventid_array'] }],
    execute(x, op) {
      const t = op.resultTypes[0];
      x.setResults(op, [emptyCells(t?.kind === 'eventid_array' ? t.size : 0)]);
    },
  },
  {
    name: 'pto.eventid_array_get',
    syntax: 'IndexedAccessBody',
    operands: [
      { name: 'storage', is: ['eventid_array'] },
      { name: 'indices', is: ['index'], variadic: true, keyword: true },
    ],
    results: [{ name: 'result', is: ['index'], fixed: { kind: 'scalar', elem: 'index' } }],
    check: (c) => checkIndexCount(c, [storageType(c, 'eventid_array')?.size ?? 0]),
    execute(x, op, b) {
      const cells = cellsOf(x, op, b.operands.storage[0]);
      x.setResults(op, [read(cells, cellIndex(x, op, b.operands.indices, [cells.values.length]), op)]);
    },
  },
  {
    name: 'pto.eventid_array_set',
    syntax: 'IndexedAccessBody',
    operands: [
      { name: 'storage', is: ['eventid_array'] },
      { name: 'indices', is: ['index'], variadic: true, keyword: true },
      { name: 'value', is: ['index'], keyword: true },
    ],
    check: (c) => checkIndexCount(c, [storageType(c, 'eventid_array')?.size ?? 0]),
    execute(x, op, b) {
      const cells = cellsOf(x, op, b.operands.storage[0]);
      cells.values[cellIndex(x, op, b.operands.indices, [cells.values.length])] = x.operand(op, b.operands.value[0]);
    },
  },
  {
    name: 'pto.declare_struct',
    results: [{ name: 's', is: ['struct'] }],
    properties: { declaresStruct: true },
    execute(x, op) {
      x.setResults(op, [structCells(op.resultTypes[0] ?? { kind: 'struct', fields: [] })]);
    },
  },
  {
    name: 'pto.struct_get',
    syntax: 'IndexedAccessBody',
    operands: [{ name: 'storage', is: ['struct'] }],
    attrs: [{ name: 'path', type: { kind: 'int-array' }, required: true }],
    results: [{ name: 'value', is: ['any'] }],
    check(c) {
      const t = storageType(c, 'struct');
      const field = t && structField(t, pathSteps(c.binding.attrs.path));
      if (typeof field === 'string') c.error(c.v.op.span, `pto.struct_get: ${field}`);
      else if (field?.kind === 'struct') c.error(c.v.op.span, `pto.struct_get: the path must end at a scalar field, not the struct ${printType(field)}`);
      const declared = c.v.declared[0];
      if (field && typeof field !== 'string' && declared && printType(field) !== printType(declared))
        c.error(c.v.op.resultTypes[0].span, `pto.struct_get gives the field's type ${printType(field)}, not ${printType(declared)}`);
    },
    execute(x, op, b) {
      const { cells, last } = walkPath(x, op, b.operands.storage[0], pathSteps(b.attrs.path));
      x.setResults(op, [read(cells, last, op)]);
    },
  },
  {
    name: 'pto.struct_set',
    syntax: 'IndexedAccessBody',
    operands: [
      { name: 'storage', is: ['struct'] },
      { name: 'value', is: ['any'], keyword: true },
    ],
    attrs: [{ name: 'path', type: { kind: 'int-array' }, required: true }],
    check(c) {
      const t = storageType(c, 'struct');
      const field = t && structField(t, pathSteps(c.binding.attrs.path));
      if (typeof field === 'string') c.error(c.v.op.span, `pto.struct_set: ${field}`);
      else if (field?.kind === 'struct') c.error(c.v.op.span, `pto.struct_set writes a scalar field, not the struct ${printType(field)}`);
      else checkValue(c, field);
    },
    execute(x, op, b) {
      const { cells, last } = walkPath(x, op, b.operands.storage[0], pathSteps(b.attrs.path));
      cells.values[last] = x.operand(op, b.operands.value[0]);
    },
  },
];

/** A local array's shape (its type's; a flat array when the type is unknown). */
function arrayShape(op: BoundOp, storage: number, cells: Cells): number[] {
  const type = op.operandTypes[storage];
  return type?.kind === 'local_array' ? type.shape : [cells.values.length];
}

/** A struct path's steps (`%s[1, 0]`), as the verifier and the VM read it. */
function pathSteps(path: Attr | undefined): number[] {
  return path?.kind === 'array' ? path.items.map((i) => (i.kind === 'int' ? Number(i.value) : -1)) : [];
}

/** The cells that hold the field a path names, and the field's place in them. */
function walkPath(x: Executor, op: BoundOp, storage: number, steps: number[]): { cells: Cells; last: number } {
  let cells = cellsOf(x, op, storage);
  for (const step of steps.slice(0, -1)) cells = cells.values[step] as Cells;
  return { cells, last: steps[steps.length - 1] };
}

export const LOCAL_STORAGE_DEFINITIONS: OpDefinition[] = STORAGE_OPS.map(declaredDefinition);
