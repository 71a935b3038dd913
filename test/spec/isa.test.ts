/**
 * The ISA tables (spec/instructions/*.json, spec/dtype-sets.json, spec/targets.json): they validate against their zod
 * schemas, and their dtype lists and buffer sizes equal the facts copied by hand from the reference
 * (test/fixtures/verify/isa-facts.json, from shared/reference/isa.json). A malformed table makes
 * loadIsa throw.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { isa, knownOps, loadIsa } from '../../src/spec/isa';
import { instructionFiles } from '../../src/spec/tables';
import { syncOps } from '../../src/spec/sync';
import { DtypeSetsFile, InstructionFile, TARGETS, TargetsFile } from '../../src/spec/schema';
import { BUFFER_FACTS, ELEMENT_ORDER, referenceFacts } from '../fixtures/verify/facts';

const specDir = path.join(__dirname, '..', '..', 'spec');
const readJson = (file: string): any => JSON.parse(fs.readFileSync(path.join(specDir, file), 'utf8'));

const factTable = referenceFacts();
const ORDER = ELEMENT_ORDER;
const canonical = (list: readonly string[]): string[] => [...list].sort((a, b) => ORDER.indexOf(a) - ORDER.indexOf(b));

describe('spec tables validate', () => {
  test.each(instructionFiles(specDir))('%s parses with the InstructionFile schema', (file) => {
    const parsed = InstructionFile.safeParse(readJson(file));
    expect(parsed.error?.issues ?? []).toEqual([]);
    expect(parsed.success).toBe(true);
  });

  test('dtype-sets.json parses with the DtypeSetsFile schema', () => {
    const parsed = DtypeSetsFile.safeParse(readJson('dtype-sets.json'));
    expect(parsed.error?.issues ?? []).toEqual([]);
    expect(parsed.success).toBe(true);
  });

  test('targets.json parses with the TargetsFile schema', () => {
    const parsed = TargetsFile.safeParse(readJson('targets.json'));
    expect(parsed.error?.issues ?? []).toEqual([]);
    expect(parsed.success).toBe(true);
  });

  test('isa() loads every instruction of the table once, with ins/outs split by role', () => {
    const spec = isa();
    const names = instructionFiles(specDir).flatMap((f) => (readJson(f).instructions as { dialect?: string; name: string }[]).map((i) => `${i.dialect ?? 'pto'}.${i.name}`));
    expect([...spec.instructions.keys()]).toEqual(names);
    for (const ins of spec.instructions.values()) {
      expect(ins.outs.map((o) => o.role)).toEqual(ins.outs.map(() => 'dst'));
      expect(ins.ins.every((o) => o.role !== 'dst')).toBe(true);
      expect(ins.ins.length + ins.outs.length).toBe(ins.operands.length);
    }
  });

  test('known-ops.json lists every instruction of the table', () => {
    const known = new Set<string>(readJson('known-ops.json').ops);
    for (const [name, ins] of isa().instructions) if (ins.dialect === 'pto') expect(known.has(name)).toBe(true);
  });
});

describe('dtype lists equal the reference facts', () => {
  const spec = isa();
  // The PTO tile instructions, by their ISA name (the facts' keys); AscendC ops have product tables instead.
  const instructions = [...spec.instructions.values()].filter((i) => i.dialect === 'pto').map((i) => i.name);

  test('every instruction of the table has reference facts', () => {
    expect(instructions.filter((name) => !factTable[name])).toEqual([]);
  });

  test('a target the reference does not list is one the table leaves out, and the other way round', () => {
    for (const name of instructions) {
      const spec = isa().instructions.get(`pto.${name}`)!;
      expect([name, TARGETS.filter((t) => spec.dtypes[t] !== undefined)]).toEqual([name, TARGETS.filter((t) => factTable[name][t] !== undefined)]);
    }
  });

  describe.each(instructions)('%s', (name) => {
    test.each(TARGETS)('%s', (target) => {
      const expected = factTable[name]?.[target];
      if (!expected) {
        // Not on this target (tadddeqrelu is a2a3 only): the table leaves the target out too.
        expect(spec.instructions.get(`pto.${name}`)!.dtypes[target]).toBeUndefined();
        return;
      }
      const got = spec.instructions.get(`pto.${name}`)!.dtypes[target];
      expect(got).toBeDefined();
      // Operand -> list; an operand without a list is unconstrained, written [] in the facts.
      const operands = new Set([...Object.keys(expected!), ...Object.keys(got!)]);
      const gotTable: Record<string, string[]> = {};
      const wantTable: Record<string, string[]> = {};
      for (const op of operands) {
        gotTable[op] = canonical(got![op] ?? []);
        wantTable[op] = canonical(expected![op] ?? []);
      }
      expect(gotTable).toEqual(wantTable);
    });
  });
});

describe('buffer capacities equal the reference facts', () => {
  test.each(TARGETS)('%s', (target) => {
    expect(isa().buffers[target]).toEqual(BUFFER_FACTS[target]);
  });
  test('locations and alignment', () => {
    expect(isa().locationBuffer).toEqual(BUFFER_FACTS.locations);
    expect(isa().alignment).toBe(BUFFER_FACTS.alignment);
  });
});

describe('a malformed table makes loadIsa throw', () => {
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pto-isa-'));
    fs.copyFileSync(path.join(specDir, 'targets.json'), path.join(dir, 'targets.json'));
    fs.copyFileSync(path.join(specDir, 'dtype-sets.json'), path.join(dir, 'dtype-sets.json'));
    fs.mkdirSync(path.join(dir, 'instructions'));
    for (const f of instructionFiles(specDir)) fs.copyFileSync(path.join(specDir, f), path.join(dir, f));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  function edit(file: string, change: (json: any) => void): void {
    const p = path.join(dir, file);
    const json = JSON.parse(fs.readFileSync(p, 'utf8'));
    change(json);
    fs.writeFileSync(p, JSON.stringify(json));
  }
  const tcolmin = (json: any): any => json.instructions.find((i: any) => i.name === 'tcolmin');

  test('the unmodified copy loads', () => {
    expect(loadIsa(dir).instructions.size).toBe(isa().instructions.size);
  });

  test('an unknown dtype set name', () => {
    edit('instructions/reduce.json', (j) => {
      tcolmin(j).dtypes.a5.src = 'a5.nosuchset';
    });
    expect(() => loadIsa(dir)).toThrow("spec: tcolmin: unknown dtype set 'a5.nosuchset'");
  });

  test('dtypes naming an operand the instruction does not have', () => {
    edit('instructions/reduce.json', (j) => {
      tcolmin(j).dtypes.a2a3.bogus = 'a2a3.arith';
    });
    expect(() => loadIsa(dir)).toThrow("spec: tcolmin: dtypes name unknown operand 'bogus'");
  });

  test('an element type that is not one of the 11', () => {
    edit('dtype-sets.json', (j) => {
      j.dtypeSets['a2a3.arith'] = ['i16', 'i32', 'f16', 'f64'];
    });
    expect(() => loadIsa(dir)).toThrow(/f64|Invalid/);
  });

  test('an explicit dtype list with an unknown element type', () => {
    edit('instructions/reduce.json', (j) => {
      tcolmin(j).dtypes.a5.dst = ['f32', 'float'];
    });
    expect(() => loadIsa(dir)).toThrow();
  });

  test('an unknown target', () => {
    edit('instructions/reduce.json', (j) => {
      tcolmin(j).dtypes.a6 = { dst: 'all', src: 'all' };
    });
    expect(() => loadIsa(dir)).toThrow();
  });

  test('an unknown layout rule', () => {
    edit('instructions/reduce.json', (j) => {
      tcolmin(j).layouts.src = 'zigzag';
    });
    expect(() => loadIsa(dir)).toThrow();
  });

  test('a malformed valid-region reference', () => {
    edit('instructions/reduce.json', (j) => {
      tcolmin(j).valid = [{ kind: 'eq', lhs: 'src.validCol', rhs: 'dst.vCol' }];
    });
    expect(() => loadIsa(dir)).toThrow(/OPERAND\.vRow\|vCol\|rows\|cols/);
  });

  test('an operand with an unknown role', () => {
    edit('instructions/reduce.json', (j) => {
      tcolmin(j).operands[1].role = 'input';
    });
    expect(() => loadIsa(dir)).toThrow();
  });

  test('a missing required field', () => {
    edit('instructions/reduce.json', (j) => {
      delete tcolmin(j).implemented;
    });
    expect(() => loadIsa(dir)).toThrow();
  });

  test('an instruction described twice', () => {
    edit('instructions/reduce.json', (j) => {
      j.instructions.push(tcolmin(j));
    });
    expect(() => loadIsa(dir)).toThrow("spec: instruction 'pto.tcolmin' is described twice");
  });

  test('targets.json: a buffer size that is not a positive integer', () => {
    edit('targets.json', (j) => {
      j.targets.a5.buffers.UB = -1;
    });
    expect(() => loadIsa(dir)).toThrow();
  });

  test('targets.json: an unknown tile location', () => {
    edit('targets.json', (j) => {
      j.locations.ub = 'UB';
    });
    expect(() => loadIsa(dir)).toThrow();
  });

  test('not JSON at all', () => {
    fs.writeFileSync(path.join(dir, 'instructions', 'reduce.json'), '{ "instructions": [');
    expect(() => loadIsa(dir)).toThrow();
  });
});

describe('known-ops.json', () => {
  test('every PTO op is described by an instruction or sync table or in exactly one gap group, and gaps name known ops only', () => {
    const { ops, gaps } = knownOps();
    const grouped = gaps.flatMap((g) => g.ops);
    expect(grouped.filter((o) => !ops.includes(o))).toEqual([]);
    expect(grouped.filter((o, i) => grouped.indexOf(o) !== i)).toEqual([]);
    const described = new Set([...isa().instructions.keys(), ...syncOps().keys()]);
    expect(ops.filter((o) => !described.has(o) && !grouped.includes(o))).toEqual([]);
    expect(grouped.filter((o) => described.has(o))).toEqual([]);
  });
});
