import { DIAGNOSTICS as D } from '../diag/catalog';
import { DiagnosticBag } from '../diag/diagnostic';
import { Span } from '../diag/source';
import { Attr, OpNode, ValueRef } from '../syntax/ast';
import { Type, printType } from '../types/type';
import { TargetName } from '../spec/schema';
import { SyncAttributeSpec, SyncOpSpec, SyncTables, syncTables } from '../spec/sync';
import { VerifiedSyncOp } from '../ir/program';
import { unknownAttributeMessage } from './attributes';

/**
 * Checks a sync op against spec/sync.json: the target, the form (bracketed or bare), the number of positional
 * attributes, each attribute's spelling and value, and the rules between them (a flag from a pipe to itself).
 * Problems are located errors; the op verifies only when it has none.
 */
export function verifySyncOp(
  op: OpNode,
  spec: SyncOpSpec,
  target: TargetName,
  diags: DiagnosticBag,
  operandType: (index: number) => Type | undefined,
): VerifiedSyncOp | undefined {
  const tables = syncTables();
  const errorsBefore = diags.errorCount;
  if (!spec.targets.includes(target)) {
    diags.report(D.syncOp, op.nameSpan, `${op.name} is not available on ${target} (only on ${spec.targets.join(', ')})`);
  }
  const form = formOf(spec);
  const positional = op.positional;
  if (!positional) {
    diags.report(D.syncOp, op.span, `${op.name} takes ${spec.attributes.length === 1 ? 'an attribute' : `${spec.attributes.length} attributes`}: ${form}`);
    return undefined;
  }
  if (positional.bracketed !== spec.bracketed) {
    diags.report(D.syncOp, op.nameSpan, `${op.name} writes its attributes ${spec.bracketed ? 'in brackets' : 'without brackets'}: ${form}`);
  }
  if (positional.items.length !== spec.attributes.length) {
    const span = positional.items.length > 0 ? cover(positional.items.map((i) => i.span)) : op.nameSpan;
    diags.report(
      D.syncOp,
      span,
      `${op.name} takes ${spec.attributes.length} attribute${spec.attributes.length === 1 ? '' : 's'}, got ${positional.items.length}: ${form}`,
    );
    return undefined;
  }
  const values = new Map<string, string | number>();
  let dynamicId: number | undefined;
  spec.attributes.forEach((a, i) => {
    const item = positional.items[i];
    if (item.kind === 'unit' && (a.kind === 'index' || a.dynamic)) {
      // An SSA value in the list: an operand (the parser put it in the segment named by its position).
      const operand = op.segments[String(i)]?.[0];
      if (operand === undefined) return;
      const type = operandType(operand);
      if (type && !(type.kind === 'scalar' && type.elem === 'index')) {
        diags.report(D.syncOp, item.span, `${op.name}: ${a.name} must be of type index, got ${printType(type)}`);
        return;
      }
      dynamicId = operand;
      values.set(a.name, valueName(op.operands[operand].value));
      return;
    }
    const value = readSyncAttribute(op, spec, a, item, target, tables, diags);
    if (value !== undefined) values.set(a.name, value);
  });
  for (const entry of op.attrs) {
    const a = spec.keyed?.find((k) => k.name === entry.key);
    if (!a) {
      diags.report(
        D.unknownAttribute,
        entry.span,
        unknownAttributeMessage(
          op.name,
          entry.key,
          (spec.keyed ?? []).map((k) => k.name),
        ),
      );
      continue;
    }
    const value = readSyncAttribute(op, spec, a, entry.value, target, tables, diags);
    if (value !== undefined) values.set(a.name, value);
  }
  if (diags.errorCount > errorsBefore) return undefined;
  const strings = positional.items.filter((item) => item.kind === 'string');
  if (strings.length > 0) {
    // The ops with strings (set_flag, wait_flag) name only pipes and an event: every other item is a dialect attribute.
    const today = positional.items.map((item) => (item.kind === 'string' ? `<${item.value}>` : attrText(item)));
    diags.report(
      D.oldSpelling,
      cover(strings.map((item) => item.span)),
      `${op.name} names its pipes and event with strings, as PTOAS printed them before; today it prints ${op.name}[${today.join(', ')}]`,
    );
  }

  const pipes = spec.attributes
    .filter((a) => a.kind !== 'int' && a.kind !== 'event' && a.kind !== 'index')
    .map((a) => pipeOf(values.get(a.name) as string, a, tables));
  if ((spec.role === 'set' || spec.role === 'wait') && pipes[0] === pipes[1]) {
    const [src, dst] = spec.attributes.map((a) => values.get(a.name));
    const through = src === pipes[0] ? '' : ` (${src} and ${dst} both run on ${pipes[0]})`;
    diags.report(
      D.syncOp,
      op.span,
      `${op.name} from ${pipes[0]} to itself${through}: a pipe runs in order; use pto.barrier <${pipes[0]}> to order it after its own work`,
    );
    return undefined;
  }
  const idAttr = spec.attributes.find((a) => a.kind === 'event' || a.kind === 'int' || a.kind === 'index');
  const id = idAttr && dynamicId === undefined ? (values.get(idAttr.name) as number) : 0;
  const shown = spec.attributes.map((a) => (a.kind === 'event' ? `${tables.eventPrefix}${values.get(a.name)}` : String(values.get(a.name))));
  const text = spec.bracketed ? `${op.name}[${shown.join(', ')}]` : `${op.name} ${shown.join(', ')}`;
  return { spec, values, pipes, id, text, ...(dynamicId !== undefined ? { dynamicId } : {}) };
}

/** `pto.set_flag[<PIPE_x>, <PIPE_y>, <EVENT_IDn>]`: the op's form for messages. */
function formOf(spec: SyncOpSpec): string {
  const placeholder = (a: SyncAttributeSpec) => {
    switch (a.kind) {
      case 'pipe':
        return '<PIPE_x>';
      case 'event':
        return '<EVENT_IDn>';
      case 'op-type':
      case 'sync-op-type':
        return '<OP_TYPE>';
      case 'int':
      case 'index':
        return a.name;
    }
  };
  const items = spec.attributes.map(placeholder).join(', ');
  return spec.bracketed ? `pto.${spec.name}[${items}]` : `pto.${spec.name} ${items}`;
}

function cover(spans: Span[]): Span {
  return { start: Math.min(...spans.map((s) => s.start)), end: Math.max(...spans.map((s) => s.end)) };
}

/** The pipe a verified pipe or op-type value stands for. */
function pipeOf(value: string, a: SyncAttributeSpec, tables: SyncTables): string {
  return a.kind === 'pipe' ? value : tables.opTypePipes[value];
}

/** One attribute's value (a name or a number), or undefined after reporting why it is wrong. */
function readSyncAttribute(
  op: OpNode,
  spec: SyncOpSpec,
  a: SyncAttributeSpec,
  attr: Attr,
  target: TargetName,
  tables: SyncTables,
  diags: DiagnosticBag,
): string | number | undefined {
  const fail = (message: string): undefined => {
    diags.report(D.syncOp, attr.span, `${op.name}: ${a.name}: ${message}`);
    return undefined;
  };
  if (a.kind === 'index') return fail('must be an SSA value of type index');
  if (a.kind === 'int') {
    if (attr.kind !== 'int') return fail(attr.kind === 'unit' ? 'must be an integer literal, not an SSA value' : 'must be an integer literal');
    const v = Number(attr.value);
    const range = a.rangeOn?.[target] ?? a.range;
    if (range && (v < range[0] || v > range[1])) return fail(`must be in ${range[0]}..${range[1]}, got ${v}`);
    return v;
  }
  const spellings = tables.spellings[a.kind];
  const oldString = attr.kind === 'string' && spec.oldStrings && (a.kind === 'pipe' || a.kind === 'event');
  const name = attr.kind === 'dialect' ? enumName(attr.text, spellings) : oldString ? attr.value : undefined;
  if (name === undefined) return fail(`expected ${spellings.map((s) => s.replace('{}', exampleOf(a.kind))).join(' or ')}, got ${attrText(attr)}`);
  switch (a.kind) {
    case 'pipe': {
      if (!tables.pipeNames.includes(name)) return fail(`unknown pipe '${name}'${suggestion(name, tables.pipeNames)}`);
      const onTarget = a.pipesOn?.[target];
      const allowed = onTarget ?? a.pipes;
      if (allowed && !allowed.includes(name)) {
        return fail(`${onTarget ? `on ${target}, ` : ''}${op.name} expects the pipe to be one of ${allowed.map((p) => `<${p}>`).join(', ')}, got <${name}>`);
      }
      return name;
    }
    case 'event': {
      const events = Array.from({ length: tables.eventCount }, (_, i) => `${tables.eventPrefix}${i}`);
      const n = events.indexOf(name);
      if (n >= 0) return n;
      const numbered = new RegExp(`^${tables.eventPrefix}(\\d+)$`).exec(name);
      if (numbered) return fail(`${name} is out of range: events are ${events[0]}..${events[events.length - 1]}`);
      return fail(`unknown event '${name}'${suggestion(name, events)}`);
    }
    case 'op-type':
    case 'sync-op-type': {
      const types = Object.keys(tables.opTypePipes);
      if (types.includes(name)) return name;
      const manual = tables.manualOpTypeNames[name];
      if (manual) return fail(`unknown op type '${name}' (the IR manual's name; PTOAS spells it ${manual})`);
      return fail(`unknown op type '${name}'${suggestion(name, types)}`);
    }
  }
}

/** `#pto.pipe<PIPE_V>` against spellings like `#pto.pipe<{}>` -> `PIPE_V`; undefined when no spelling fits. */
function enumName(text: string, spellings: string[]): string | undefined {
  const squashed = text.replace(/\s+/g, '');
  for (const s of spellings) {
    const [before, after] = s.split('{}');
    if (squashed.startsWith(before) && squashed.endsWith(after) && squashed.length > before.length + after.length) {
      const inner = squashed.slice(before.length, squashed.length - after.length);
      if (/^[A-Za-z_][A-Za-z0-9_]*$/.test(inner)) return inner;
    }
  }
  return undefined;
}

/** `%eid`, `%r#1`: how a message names an SSA value. */
function valueName(value: ValueRef | undefined): string {
  return value ? `${value.name}${value.index !== undefined ? `#${value.index}` : ''}` : '?';
}

function exampleOf(kind: SyncAttributeSpec['kind']): string {
  return kind === 'pipe' ? 'PIPE_x' : kind === 'event' ? 'EVENT_IDn' : 'OP_TYPE';
}

function attrText(attr: Attr): string {
  switch (attr.kind) {
    case 'dialect':
      return attr.text;
    case 'int':
      return String(attr.value);
    case 'unit':
      return 'an SSA value';
    default:
      return `a ${attr.kind} attribute`;
  }
}

/** ` (did you mean 'PIPE_MTE2'?)` for a near miss: same letters in another case, or at most two edits away. */
function suggestion(name: string, candidates: string[]): string {
  const upper = name.toUpperCase();
  let best: string | undefined;
  let bestDistance = 3;
  for (const c of candidates) {
    const d = c === upper ? 0 : editDistance(upper, c);
    if (d < bestDistance) {
      best = c;
      bestDistance = d;
    }
  }
  return best ? ` (did you mean '${best}'?)` : '';
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) current[j] = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    previous = current;
  }
  return previous[b.length];
}
