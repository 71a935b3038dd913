import { DIAGNOSTICS as D } from '../../diag/catalog';
import { DiagnosticBag } from '../../diag/diagnostic';
import { Span } from '../../diag/source';
import { Attr, OpNode, ValueRef } from '../../syntax/ast';
import { Type, printType } from '../../types/type';
import { TargetName } from '../../spec/schema';
import { SyncAttributeSpec, SyncOpSpec, SyncTables, syncTables } from '../../spec/sync';
import { VerifiedSyncOp } from '../../ir/program';
import { unknownAttributeMessage } from '../define/attributes';

/**
 * Checks a sync op against spec/sync.json: the target, the form (bracketed or bare), the number of positional
 * attributes, each attribute's spelling and value. Problems are located errors; the op verifies only when it has
 * none. A flag or event from a pipe to itself verifies, as in PTOAS (SetFlagOp, RecordEventOp, ... have no
 * verifier): the VM's sync checks pair it like any other.
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
  const required = spec.attributes.filter((a) => a.default === undefined).length;
  const count = required === spec.attributes.length ? `${required}` : `${required} or ${spec.attributes.length}`;
  const attributes = `${count === '1' ? 'an' : count} attribute${count === '1' ? '' : 's'}`;
  const positional = op.positional;
  if (!positional) {
    diags.report(D.syncOp, op.span, `${op.name} takes ${attributes}: ${form}`);
    return undefined;
  }
  // get_buf's other form: bare, after a string naming its pipe or op type (PTOAS's parseBufSyncOp).
  const stringForm = spec.stringForm === true && !positional.bracketed && positional.items[0]?.kind === 'string';
  if (positional.bracketed !== spec.bracketed && !stringForm) {
    const or = spec.stringForm ? ', or bare after a string naming its pipe or op type' : '';
    diags.report(D.syncOp, op.nameSpan, `${op.name} writes its attributes ${spec.bracketed ? 'in brackets' : 'without brackets'}${or}: ${form}`);
  }
  const written = positional.items.length;
  if (written < required || written > spec.attributes.length) {
    const span = written > 0 ? cover(positional.items.map((i) => i.span)) : op.nameSpan;
    diags.report(D.syncOp, span, `${op.name} takes ${attributes}, got ${written}: ${form}`);
    return undefined;
  }
  const values = new Map<string, string | number>();
  let dynamicId: number | undefined;
  spec.attributes.forEach((a, i) => {
    const item = positional.items[i];
    if (item === undefined) {
      values.set(a.name, a.default!); // an optional attribute not written
      return;
    }
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
    const value = readSyncAttribute(op, spec, a, item, target, tables, diags, stringForm);
    if (value !== undefined) values.set(a.name, value);
  });
  for (const entry of op.attrs) {
    if (spec.customParser && spec.attributes.some((a) => a.name === entry.key)) {
      diags.report(
        D.syncOp,
        entry.span,
        `${op.name}: the dictionary names ${entry.key}, which the op writes in its list: PTOAS adds the list's attributes to the dictionary's and stops ("attribute '${entry.key}' occurs more than once in the attribute list")`,
      );
      continue;
    }
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
    const value = readSyncAttribute(op, spec, a, entry.value, target, tables, diags, false);
    if (value !== undefined) values.set(a.name, value);
  }
  if (diags.errorCount > errorsBefore) return undefined;
  const strings = positional.items.filter((item) => item.kind === 'string');
  if (spec.oldStrings && strings.length > 0) {
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
    .map((a) => pipeOf(values.get(a.name) as string, tables));
  const idAttr = spec.attributes.find((a) => a.kind === 'event' || a.kind === 'int' || a.kind === 'index');
  const id = idAttr && dynamicId === undefined ? (values.get(idAttr.name) as number) : 0;
  // What messages show: the attributes written, in the form written.
  const shown = spec.attributes.slice(0, written).map((a) => (a.kind === 'event' ? `${tables.eventPrefix}${values.get(a.name)}` : String(values.get(a.name))));
  const text = positional.bracketed ? `${op.name}[${shown.join(', ')}]` : `${op.name} ${shown.join(', ')}`;
  return { spec, values, pipes, id, text, ...(dynamicId !== undefined ? { dynamicId } : {}) };
}

/**
 * `pto.set_flag[<PIPE_x>, <PIPE_y>, <EVENT_IDn>]`: the op's form for messages (both of get_buf's, with its
 * optional attribute).
 */
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
      case 'pipe-like':
        return '#pto.pipe_event_type<OP_TYPE>';
      case 'int':
      case 'index':
        return a.default === undefined ? a.name : `${a.name}?`;
    }
  };
  const items = spec.attributes.map(placeholder).join(', ');
  const form = spec.bracketed ? `pto.${spec.name}[${items}]` : `pto.${spec.name} ${items}`;
  if (!spec.stringForm) return form;
  return `${form} or pto.${spec.name} ${['"PIPE_x"', ...spec.attributes.slice(1).map(placeholder)].join(', ')}`;
}

function cover(spans: Span[]): Span {
  return { start: Math.min(...spans.map((s) => s.start)), end: Math.max(...spans.map((s) => s.end)) };
}

/** The pipe a verified pipe or op-type value stands for (the two sets of names are disjoint). */
function pipeOf(value: string, tables: SyncTables): string {
  return tables.pipeNames.includes(value) ? value : tables.opTypePipes[value];
}

/**
 * One attribute's value (a name or a number), or undefined after reporting why it is wrong. `stringForm`: the op is
 * written in get_buf's bare form, whose first attribute is a string.
 */
function readSyncAttribute(
  op: OpNode,
  spec: SyncOpSpec,
  a: SyncAttributeSpec,
  attr: Attr,
  target: TargetName,
  tables: SyncTables,
  diags: DiagnosticBag,
  stringForm: boolean,
): string | number | undefined {
  const fail = (message: string): undefined => {
    diags.report(D.syncOp, attr.span, `${op.name}: ${a.name}: ${message}`);
    return undefined;
  };
  if (a.kind === 'index') return fail('must be an SSA value of type index');
  if (a.kind === 'int') {
    if (attr.kind !== 'int') return fail(attr.kind === 'unit' ? 'must be an integer literal, not an SSA value' : 'must be an integer literal');
    let v = Number(attr.value);
    let shown = String(attr.value);
    if (a.i32) {
      // MLIR reads a signless i32 literal as its 32 bits: 4294967295 is -1.
      if (attr.value < -(2n ** 31n) || attr.value >= 2n ** 32n) return fail(`must be a 32-bit integer (an i32 literal), got ${attr.value}`);
      v = Number(BigInt.asIntN(32, attr.value));
      if (v !== Number(attr.value)) shown += ` (${v} as i32)`;
    }
    const range = a.rangeOn?.[target] ?? a.range;
    if (range && (v < range[0] || v > range[1])) return fail(`must be in ${range[0]}..${range[1]}, got ${shown}`);
    return v;
  }
  const pipe = (name: string) => {
    if (!tables.pipeNames.includes(name)) return fail(`unknown pipe '${name}'${suggestion(name, tables.pipeNames)}`);
    if (a.exceptPipes?.includes(name)) return fail(`${op.name} expects a pipe other than ${a.exceptPipes.map((p) => `<${p}>`).join(' and ')}, got <${name}>`);
    const onTarget = a.pipesOn?.[target];
    const allowed = onTarget ?? a.pipes;
    if (allowed && !allowed.includes(name)) {
      return fail(`${onTarget ? `on ${target}, ` : ''}${op.name} expects the pipe to be one of ${allowed.map((p) => `<${p}>`).join(', ')}, got <${name}>`);
    }
    return name;
  };
  const opType = (name: string, candidates = Object.keys(tables.opTypePipes)) => {
    if (candidates.includes(name)) return name;
    const manual = tables.manualOpTypeNames[name];
    if (manual) return fail(`unknown op type '${name}' (the IR manual's name; PTOAS spells it ${manual})`);
    return fail(`unknown op type '${name}'${suggestion(name, candidates)}`);
  };
  const spellings = tables.spellings[a.kind];
  const expected = () => `expected ${spellings.map((s) => s.replace('{}', exampleOf(a.kind, s))).join(' or ')}, got ${attrText(attr)}`;
  if (a.kind === 'pipe-like') {
    if (attr.kind === 'string') {
      // PTOAS reads a string as a pipe, else as an op type, in the bare form only; in brackets it is a string.
      if (!stringForm) return fail(`${expected()} (a string names it in the bare form only: ${op.name} "PIPE_x", ...)`);
      const types = Object.keys(tables.opTypePipes);
      if (tables.pipeNames.includes(attr.value)) return pipe(attr.value);
      if (types.includes(attr.value) || tables.manualOpTypeNames[attr.value]) return opType(attr.value);
      return fail(`'${attr.value}' names neither a pipe nor an op type${suggestion(attr.value, [...tables.pipeNames, ...types])}`);
    }
    const match = attr.kind === 'dialect' ? spellingOf(attr.text, spellings) : undefined;
    if (!match) return fail(expected());
    return tables.spellings.pipe.includes(match.spelling) ? pipe(match.name) : opType(match.name);
  }
  const oldString = attr.kind === 'string' && spec.oldStrings && (a.kind === 'pipe' || a.kind === 'event');
  const name = attr.kind === 'dialect' ? spellingOf(attr.text, spellings)?.name : oldString ? attr.value : undefined;
  if (name === undefined) return fail(expected());
  switch (a.kind) {
    case 'pipe':
      return pipe(name);
    case 'event': {
      const events = Array.from({ length: tables.eventCount }, (_, i) => `${tables.eventPrefix}${i}`);
      const n = events.indexOf(name);
      if (n >= 0) return n;
      const numbered = new RegExp(`^${tables.eventPrefix}(\\d+)$`).exec(name);
      if (numbered) return fail(`${name} is out of range: events are ${events[0]}..${events[events.length - 1]}`);
      return fail(`unknown event '${name}'${suggestion(name, events)}`);
    }
    case 'op-type':
    case 'sync-op-type':
      return opType(name);
  }
}

/**
 * `#pto.pipe<PIPE_V>` against spellings like `#pto.pipe<{}>`: the name (`PIPE_V`) and the spelling that fits;
 * undefined when none does.
 */
export function spellingOf(text: string, spellings: string[]): { name: string; spelling: string } | undefined {
  const squashed = text.replace(/\s+/g, '');
  for (const spelling of spellings) {
    const [before, after] = spelling.split('{}');
    if (squashed.startsWith(before) && squashed.endsWith(after) && squashed.length > before.length + after.length) {
      const inner = squashed.slice(before.length, squashed.length - after.length);
      if (/^[A-Za-z_][A-Za-z0-9_]*$/.test(inner)) return { name: inner, spelling };
    }
  }
  return undefined;
}

/** `%eid`, `%r#1`: how a message names an SSA value. */
function valueName(value: ValueRef | undefined): string {
  return value ? `${value.name}${value.index !== undefined ? `#${value.index}` : ''}` : '?';
}

/** What a spelling's `{}` stands for in messages: PIPE_x, EVENT_IDn or OP_TYPE (a pipe-like's, by its spelling). */
function exampleOf(kind: SyncAttributeSpec['kind'], spelling: string): string {
  const pipe = kind === 'pipe' || (kind === 'pipe-like' && spelling.startsWith('#pto.pipe<'));
  return pipe ? 'PIPE_x' : kind === 'event' ? 'EVENT_IDn' : 'OP_TYPE';
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
