/**
 * Table-driven dtype checks: for every implemented instruction, both targets and the 11 element
 * types, a minimal valid program (Level 2, and Level 1 for the compute instructions) is accepted
 * iff the dtype is in the target's list of the reference facts (test/fixtures/verify/isa-facts.json,
 * copied by hand from shared/reference/isa.json). When rejected, there is one error per constrained
 * tile operand, naming the dtype and the target, located at that operand's type.
 */
import { SourceFile } from '../../src/diag/source';
import { isa } from '../../src/spec/isa';
import { STORED_FORMATS } from '../../src/types/type';
import { TARGETS, TargetName } from '../../src/spec/schema';
import { referenceFacts } from '../fixtures/verify/facts';
import { ELEM_SIZE, ELEM_TYPES, Elem, kernel, mlirName, run, tileVal } from '../fixtures/verify/helpers';
import { Case, LabeledCase } from '../fixtures/verify/cases/case';
import { LEVEL1_CASES, LEVEL2_CASES } from '../fixtures/verify/cases';

const factTable = referenceFacts();
/** The order messages list element types in: the standard ones, then A5's low-precision formats. */
const MESSAGE_ORDER: string[] = [...ELEM_TYPES, ...Object.keys(STORED_FORMATS)];
const level2Cases = (name: string, e: Elem): LabeledCase[] => {
  const builder = LEVEL2_CASES[name];
  if (!builder) throw new Error(`no Level 2 test case for ${name}`);
  return builder(e);
};
const level1Cases = (name: string, e: Elem): LabeledCase[] => LEVEL1_CASES[name]?.(e) ?? [];

// The minimal valid uses of each instruction: test/fixtures/verify/cases (one module per family).

function expectedErrors(instruction: string, target: TargetName, e: Elem, c: Case, text: string): string[] {
  const lists = factTable[instruction][target];
  const source = new SourceFile('x', text);
  const lineStart = text.indexOf(c.line);
  if (!lists) {
    const p = source.position(lineStart + c.line.indexOf(`pto.${instruction}`));
    return [`${p.line}:${p.col}: error[E0508]: pto.${instruction} is not available on ${target}`];
  }
  const errors: { offset: number; text: string }[] = [];
  for (const op of c.tileOperands) {
    const allowed = lists[op] ?? [];
    if (allowed.length === 0 || allowed.includes(e)) continue;
    const offset = lineStart + c.typeAt[op];
    const p = source.position(offset);
    errors.push({
      offset,
      text: `${p.line}:${p.col}: error[E0505]: pto.${instruction}: ${op} dtype ${mlirName(e as Elem)} is not supported on ${target} (allowed: ${[...allowed]
        .sort((a, b) => MESSAGE_ORDER.indexOf(a) - MESSAGE_ORDER.indexOf(b))
        .map((a) => mlirName(a))
        .join(', ')})`,
    });
  }
  return errors.sort((a, b) => a.offset - b.offset).map((x) => x.text);
}

function lines(r: ReturnType<typeof run>): string[] {
  return r.diags.sorted().map((d) => {
    const p = r.source.position(d.span.start);
    return `${p.line}:${p.col}: ${d.severity}[${d.code}]: ${d.message}`;
  });
}

// Every PTO instruction of the tables, whether or not the VM runs it: the verifier checks them all.
// Arg reductions (i32 indexes) are covered against the reference simulator in test/vm/golden.test.ts,
// on each target its dtype lists allow.
const instructions = [...isa().instructions.values()].filter((i) => i.dialect === 'pto' && i.family !== 'arg-reduce').map((i) => i.name);

test('every instruction of the tables has reference facts and a test case', () => {
  for (const name of instructions) {
    expect([name, factTable[name] !== undefined]).toEqual([name, true]);
    expect([name, level2Cases(name, 'f32').length > 0]).toEqual([name, true]);
  }
});

type Row = [string, TargetName, Elem, string, boolean];

function rows(level: 1 | 2): Row[] {
  const out: Row[] = [];
  for (const name of instructions) {
    for (const target of TARGETS) {
      for (const e of ELEM_TYPES) {
        const cases = level === 2 ? level2Cases(name, e) : level1Cases(name, e);
        for (const { label, c } of cases) {
          // Accepted iff available and every operand that takes the case's dtype allows it.
          const lists = factTable[name][target];
          const ok = lists !== undefined && c.tileOperands.every((op) => (lists[op] ?? []).length === 0 || lists[op].includes(e));
          out.push([name, target, e, label, ok]);
        }
      }
    }
  }
  return out;
}

function check(level: 1 | 2, name: string, target: TargetName, e: Elem, label: string, ok: boolean): void {
  const c = (level === 2 ? level2Cases(name, e) : level1Cases(name, e)).find((x) => x.label === label)!.c;
  const text = kernel([...c.setup, c.line, 'return'], c.args);
  const r = run(text, target);
  if (ok) {
    expect(lines(r)).toEqual([]);
    expect([...r.program.instructions.values()].some((b) => b.spec.name === name)).toBe(true);
  } else {
    const want = expectedErrors(name, target, e, c, text);
    expect(want.length).toBeGreaterThan(0);
    expect(lines(r)).toEqual(want);
    // On a target without the instruction the one error says so (expectedErrors); otherwise each names the dtype.
    if (factTable[name][target]) {
      for (const d of r.diags.items) {
        expect(d.message).toContain(`dtype ${mlirName(e as Elem)} `);
        expect(d.message).toContain(` on ${target} `);
      }
    }
  }
}

describe('Level 2: accepted iff the dtype is in the target list', () => {
  test.each(rows(2))('%s on %s, %s (%s): accepted=%s', (name, target, e, label, ok) => check(2, name, target, e, label, ok));
});

describe('Level 1: accepted iff the dtype is in the target list', () => {
  test.each(rows(1))('%s on %s, %s (%s): accepted=%s', (name, target, e, label, ok) => check(1, name, target, e, label, ok));
});

describe('Level 1 tcolmin, spelled as in the manual (`%d = pto.tcolmin %s : !pto.tile<...> -> !pto.tile<...>`)', () => {
  const a2a3 = new Set(factTable.tcolmin.a2a3.src);
  const a5 = new Set(factTable.tcolmin.a5.src);
  test.each(ELEM_TYPES.flatMap((e) => TARGETS.map((t) => [e, t] as const)))('%s on %s', (e, target) => {
    const cols = 32 / ELEM_SIZE[e];
    const s = tileVal({ dtype: e, rows: 16, cols });
    const d = tileVal({ dtype: e, rows: 1, cols });
    const text = kernel([`%d = pto.tcolmin %s : ${s} -> ${d}`, 'return'], `%s: ${s}`);
    const r = run(text, target);
    const ok = (target === 'a2a3' ? a2a3 : a5).has(e);
    if (ok) {
      expect(lines(r)).toEqual([]);
      return;
    }
    const list = factTable.tcolmin[target].src.map((a) => mlirName(a as Elem)).join(', ');
    const src = new SourceFile('x', text).position(text.indexOf(s, text.indexOf('pto.tcolmin')));
    const dst = new SourceFile('x', text).position(text.indexOf('-> ' + d) + 3);
    expect(lines(r)).toEqual([
      `${src.line}:${src.col}: error[E0505]: pto.tcolmin: src dtype ${mlirName(e as Elem)} is not supported on ${target} (allowed: ${list})`,
      `${dst.line}:${dst.col}: error[E0505]: pto.tcolmin: dst dtype ${mlirName(e as Elem)} is not supported on ${target} (allowed: ${list})`,
    ]);
  });
});
