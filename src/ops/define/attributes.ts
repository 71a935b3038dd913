import { Attr } from '../../syntax/ast';
import { Instruction } from '../../spec/isa';

/**
 * The attributes of an instruction, read against their spec (spec/instructions/*.json): the verifier
 * reports the problems, the VM reads the values (defaults applied) of a verified op.
 */

type AttributeSpec = NonNullable<Instruction['attributes']>[number];
import { AttributeValue } from '../../spec/schema';

export type { AttributeValue };

export type AttributeReading = { value: AttributeValue | undefined } | { problem: string };

/** `#pto<cmp lt>` with syntax `#pto<cmp {}>` -> `lt`; undefined when the text has another shape. */
function fromSyntax(text: string, syntax: string): string | undefined {
  const squash = (s: string) =>
    s
      .replace(/\s+/g, ' ')
      .replace(/\s*([<>.])\s*/g, '$1')
      .trim();
  const [before, after] = squash(syntax).split('{}');
  const t = squash(text);
  if (!t.startsWith(before) || !t.endsWith(after) || t.length <= before.length + after.length) return undefined;
  return t.slice(before.length, t.length - after.length).trim();
}

function spelled(spec: AttributeSpec, value: string): string {
  return spec.syntax ? spec.syntax.replace('{}', value) : value;
}

/** Reads one attribute as written (undefined when absent: the value is then the default). */
export function readAttribute(spec: AttributeSpec, attr: Attr | undefined): AttributeReading {
  if (!attr) return { value: spec.default };
  switch (spec.kind) {
    case 'bool':
      return attr.kind === 'bool' ? { value: attr.value } : { problem: `'${spec.name}' must be true or false` };
    case 'int': {
      if (attr.kind !== 'int') return { problem: `'${spec.name}' must be an integer` };
      const v = Number(attr.value);
      if (spec.range && (v < spec.range[0] || v > spec.range[1])) return { problem: `'${spec.name}' must be in ${spec.range[0]}..${spec.range[1]}, got ${v}` };
      return { value: Number.isSafeInteger(v) ? v : attr.value };
    }
    case 'enum': {
      const values = spec.values ?? [];
      const text = attr.kind === 'dialect' ? attr.text : attr.kind === 'ident' ? attr.name : attr.kind === 'string' ? attr.value : undefined;
      const raw = text === undefined ? undefined : spec.syntax && attr.kind === 'dialect' ? fromSyntax(text, spec.syntax) : text;
      const expected = `expected one of ${values.map((v) => spelled(spec, v)).join(', ')}`;
      if (raw === undefined) return { problem: `'${spec.name}' must be written ${spelled(spec, 'VALUE')}; ${expected}` };
      if (!values.includes(raw)) {
        const near = values.find((v) => v.toLowerCase() === raw.toLowerCase()) ?? spec.aliases?.[raw];
        return { problem: `unknown ${spec.name} '${raw}'${near ? ` (did you mean '${near}'?)` : ''}; ${expected}` };
      }
      return { value: raw };
    }
    default:
      return { value: undefined }; // masks: the AscendC ops read them (ops/instructions/ascendc-text-form.ts)
  }
}

/** The warning for an attribute an op does not define (kept, as MLIR keeps it, with no effect). */
export function unknownAttributeMessage(op: string, key: string, known: string[]): string {
  const list = known.length ? `; it takes ${known.join(', ')}` : '';
  return `${op} has no attribute '${key}': it is kept but has no effect${list}`;
}
