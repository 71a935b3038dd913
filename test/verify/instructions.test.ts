/**
 * Table-driven dtype checks: for every implemented instruction, both targets and the 11 element
 * types, a minimal valid program (Level 2, and Level 1 for the compute instructions) is accepted
 * iff the dtype is in the target's list of the reference facts (test/fixtures/verify/isa-facts.json,
 * copied by hand from shared/reference/isa.json). When rejected, there is one error per constrained
 * tile operand, naming the dtype and the target, located at that operand's type.
 */
import { SourceFile } from '../../src/diag/source';
import { isa } from '../../src/spec/isa';
import { TARGETS, TargetName } from '../../src/spec/schema';
import facts from '../fixtures/verify/isa-facts.json';
import { ELEM_SIZE, ELEM_TYPES, Elem, TileSpec, kernel, mlirName, run, tileBuf, tileVal } from '../fixtures/verify/helpers';

type Facts = Record<string, Record<string, Record<string, string[]>>>;
const factTable = facts.instructions as Facts;

/** Rows of every test tile: 32 rows satisfy the DN column rule (rows x size % 32) for every size. */
const ROWS = 32;

interface Operand {
  /** Spec operand name. */
  name: string;
  value: string;
  type: string;
  /** A tile operand (dtype-checked) or a view. */
  tile: boolean;
}

/** One instruction use: setup lines, then the instruction line; remembers where each operand's type is. */
interface Case {
  args: string;
  setup: string[];
  line: string;
  /** Offset within `line` of each operand's type. */
  typeAt: Record<string, number>;
  tileOperands: string[];
}

/** `pto.NAME ins(%a, %b : A, B) outs(%d : D)`, the grouped spelling PTOAS prints. */
function dpsCase(name: string, ins: Operand[], outs: Operand[], setup: string[], args = ''): Case {
  const typeAt: Record<string, number> = {};
  let line = `pto.${name} ins(${ins.map((o) => o.value).join(', ')} : `;
  ins.forEach((o, i) => {
    if (i > 0) line += ', ';
    typeAt[o.name] = line.length;
    line += o.type;
  });
  line += `) outs(${outs.map((o) => o.value).join(', ')} : `;
  outs.forEach((o, i) => {
    if (i > 0) line += ', ';
    typeAt[o.name] = line.length;
    line += o.type;
  });
  line += ')';
  return { args, setup, line, typeAt, tileOperands: [...ins, ...outs].filter((o) => o.tile).map((o) => o.name) };
}

const alloc = (o: Operand): string => `${o.value} = pto.alloc_tile : ${o.type}`;
const tileOp = (name: string, spec: TileSpec): Operand => ({ name, value: `%${name}`, type: tileBuf(spec), tile: true });

/** Minimal valid Level 2 uses of each instruction for element type `e`. */
function level2Cases(instruction: string, e: Elem): { label: string; c: Case }[] {
  const cols = 32 / ELEM_SIZE[e];
  const full: TileSpec = { dtype: e, rows: ROWS, cols };
  switch (instruction) {
    case 'tcolmin':
    case 'tcolmax':
    case 'tcolsum': {
      const src = tileOp('src', full);
      const dst = tileOp('dst', { dtype: e, rows: 1, cols });
      const cases = [{ label: 'src RxC -> dst 1xC', c: dpsCase(instruction, [src], [dst], [alloc(src), alloc(dst)]) }];
      if (instruction === 'tcolsum') {
        // The 4-argument form: tmp of the same dtype, ND, at least ceil(R/2) rows.
        const tmp = tileOp('tmp', { dtype: e, rows: ROWS / 2, cols });
        cases.push({ label: 'with tmp', c: dpsCase(instruction, [src, tmp], [dst], [alloc(src), alloc(tmp), alloc(dst)]) });
      }
      return cases;
    }
    case 'trowmin':
    case 'trowmax':
    case 'trowsum': {
      const src = tileOp('src', full);
      const tmp = tileOp('tmp', full);
      const nd = tileOp('dst', { dtype: e, rows: ROWS, cols, vCol: 1 });
      const dn = tileOp('dst', { dtype: e, rows: ROWS, cols: 1, blayout: 'col_major' });
      return [
        { label: 'dst ND Rx(32/size)', c: dpsCase(instruction, [src, tmp], [nd], [alloc(src), alloc(tmp), alloc(nd)]) },
        { label: 'dst DN Rx1', c: dpsCase(instruction, [src, tmp], [dn], [alloc(src), alloc(tmp), alloc(dn)]) },
      ];
    }
    case 'tadd':
    case 'tmul': {
      const [src0, src1, dst] = ['src0', 'src1', 'dst'].map((n) => tileOp(n, full));
      return [{ label: 'three RxC tiles', c: dpsCase(instruction, [src0, src1], [dst], [alloc(src0), alloc(src1), alloc(dst)]) }];
    }
    case 'tmov': {
      const src = tileOp('src', full);
      const dst = tileOp('dst', full);
      return [{ label: 'vec -> vec', c: dpsCase(instruction, [src], [dst], [alloc(src), alloc(dst)]) }];
    }
    case 'tload':
    case 'tstore': {
      const m = mlirName(e);
      const viewType = `!pto.partition_tensor_view<${ROWS}x${cols}x${m}>`;
      const view: Operand = { name: instruction === 'tload' ? 'src' : 'dst', value: '%part', type: viewType, tile: false };
      const tile: Operand = { name: instruction === 'tload' ? 'dst' : 'src', value: '%t', type: tileBuf(full), tile: true };
      const setup = [
        '%c0 = arith.constant 0 : index',
        '%c1 = arith.constant 1 : index',
        `%rows = arith.constant ${ROWS} : index`,
        `%cols = arith.constant ${cols} : index`,
        `%tv = pto.make_tensor_view %p, shape = [%rows, %cols], strides = [%cols, %c1] : !pto.tensor_view<?x?x${m}>`,
        `%part = pto.partition_view %tv, offsets = [%c0, %c0], sizes = [%rows, %cols] : !pto.tensor_view<?x?x${m}> -> ${viewType}`,
        alloc(tile),
      ];
      const c = instruction === 'tload' ? dpsCase('tload', [view], [tile], setup, `%p: !pto.ptr<${m}>`) : dpsCase('tstore', [tile], [view], setup, `%p: !pto.ptr<${m}>`);
      return [{ label: 'view <-> tile', c }];
    }
    case 'texpands': {
      // The scalar is a function argument of the tile's element type.
      const scalar: Operand = { name: 'scalar', value: '%s', type: mlirName(e), tile: false };
      const dst = tileOp('dst', full);
      return [{ label: 'scalar -> tile', c: dpsCase(instruction, [scalar], [dst], [alloc(dst)], `%s: ${mlirName(e)}`) }];
    }
    case 'tsetval': {
      const offset: Operand = { name: 'offset', value: '%o', type: 'index', tile: false };
      const value: Operand = { name: 'value', value: '%s', type: mlirName(e), tile: false };
      const dst = tileOp('dst', full);
      return [{ label: 'value at offset', c: dpsCase(instruction, [offset, value], [dst], [alloc(dst)], `%o: index, %s: ${mlirName(e)}`) }];
    }
    case 'tgetval': {
      // `%v = pto.tgetval ins(%src, %o : T, index) outs : ELEM`: the scalar destination is the result.
      const src = tileOp('src', full);
      const head = '%v = pto.tgetval ins(%src, %o : ';
      const line = `${head}${src.type}, index) outs : ${mlirName(e)}`;
      return [{ label: 'value at offset', c: { args: '%o: index', setup: [alloc(src)], line, typeAt: { src: head.length }, tileOperands: ['src'] } }];
    }
  }
  throw new Error(`no Level 2 test case for ${instruction}`);
}

/** Level 1 (SSA) uses: inputs are function arguments of !pto.tile type, the result is the op's result. */
function level1Cases(instruction: string, e: Elem): { label: string; c: Case }[] {
  const cols = 32 / ELEM_SIZE[e];
  const full = tileVal({ dtype: e, rows: ROWS, cols });
  let inputs: string[];
  let result: string;
  switch (instruction) {
    case 'tcolmin':
    case 'tcolmax':
    case 'tcolsum':
      inputs = ['src'];
      result = tileVal({ dtype: e, rows: 1, cols });
      break;
    case 'trowmin':
    case 'trowmax':
    case 'trowsum':
      inputs = ['src'];
      result = tileVal({ dtype: e, rows: ROWS, cols: 1, blayout: 'col_major' });
      break;
    case 'tadd':
    case 'tmul':
      inputs = ['src0', 'src1'];
      result = full;
      break;
    default:
      return [];
  }
  const typeAt: Record<string, number> = {};
  // Several input types are a parenthesised list: `: (A, B) -> R`.
  const paren = inputs.length > 1;
  let line = `%dst = pto.${instruction} ${inputs.map((n) => '%' + n).join(', ')} : ${paren ? '(' : ''}`;
  inputs.forEach((n, i) => {
    if (i > 0) line += ', ';
    typeAt[n] = line.length;
    line += full;
  });
  line += `${paren ? ')' : ''} -> `;
  typeAt.dst = line.length;
  line += result;
  const args = inputs.map((n) => `%${n}: ${full}`).join(', ');
  return [{ label: 'level 1', c: { args, setup: [], line, typeAt, tileOperands: [...inputs, 'dst'] } }];
}

function expectedErrors(instruction: string, target: TargetName, e: Elem, c: Case, text: string): string[] {
  const lists = factTable[instruction][target];
  const source = new SourceFile('x', text);
  const lineStart = text.indexOf(c.line);
  const errors: { offset: number; text: string }[] = [];
  for (const op of c.tileOperands) {
    const allowed = lists[op] ?? [];
    if (allowed.length === 0 || allowed.includes(e)) continue;
    const offset = lineStart + c.typeAt[op];
    const p = source.position(offset);
    errors.push({ offset, text: `${p.line}:${p.col}: error: pto.${instruction}: ${op} dtype ${mlirName(e as Elem)} is not supported on ${target} (allowed: ${allowed.map((a) => mlirName(a as Elem)).join(', ')})` });
  }
  return errors.sort((a, b) => a.offset - b.offset).map((x) => x.text);
}

function lines(r: ReturnType<typeof run>): string[] {
  return r.diags.sorted().map((d) => {
    const p = r.source.position(d.span.start);
    return `${p.line}:${p.col}: ${d.severity}: ${d.message}`;
  });
}

// Instructions whose tile operands share one element type; arg reductions (i32 indexes) are covered
// against the reference simulator in test/vm/golden.test.ts, on each target its dtype lists allow.
const implemented = [...isa().instructions.values()].filter((i) => i.implemented && i.dialect === 'pto' && i.family !== 'arg-reduce').map((i) => i.name);

test('every implemented instruction has reference facts and a test case', () => {
  for (const name of implemented) {
    expect(factTable[name]).toBeDefined();
    expect(level2Cases(name, 'f32').length).toBeGreaterThan(0);
  }
});

type Row = [string, TargetName, Elem, string, boolean];

function rows(level: 1 | 2): Row[] {
  const out: Row[] = [];
  for (const name of implemented) {
    for (const target of TARGETS) {
      for (const e of ELEM_TYPES) {
        const cases = level === 2 ? level2Cases(name, e) : level1Cases(name, e);
        for (const { label } of cases) {
          const lists = factTable[name][target];
          const ok = Object.values(lists).every((l) => l.length === 0 || l.includes(e));
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
    for (const d of r.diags.items) {
      expect(d.message).toContain(`dtype ${mlirName(e as Elem)} `);
      expect(d.message).toContain(` on ${target} `);
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
      `${src.line}:${src.col}: error: pto.tcolmin: src dtype ${mlirName(e as Elem)} is not supported on ${target} (allowed: ${list})`,
      `${dst.line}:${dst.col}: error: pto.tcolmin: dst dtype ${mlirName(e as Elem)} is not supported on ${target} (allowed: ${list})`,
    ]);
  });
});
