/**
 * Conversion between PTO-AS Level 1 (SSA tile values) and Level 2 (buffers, ins/outs): golden outputs, the converted
 * text verifies, converting back gives the original where the conversion is one-to-one, and the VM computes the same
 * global memory before and after. With PTO_CORPUS_DIR set, every corpus sample that assembles is converted too.
 */
import * as fs from 'fs';
import * as path from 'path';
import { Assembled, assemble } from '../../src/verify/assemble';
import { formatAll, formatDiagnostic } from '../../src/diag/diagnostic';
import { printCanonical } from '../../src/emit/canonical';
import { levelOf } from '../../src/emit/level';
import { emitAtLevel } from '../../src/emit/level-convert';
import { LocatedError } from '../../src/diag/located-error';
import { runFunction } from '../../src/vm/interpreter';
import { bindArguments } from '../../src/vm/io/arguments';

const root = path.join(__dirname, '..', '..');
const fixtures = path.join(root, 'test', 'fixtures', 'level');
const UPDATE = process.env.UPDATE_LEVEL_GOLDEN === '1';

function load(file: string): Assembled {
  const a = assemble(file, fs.readFileSync(file, 'utf8'));
  if (a.diags.hasErrors()) throw new Error(`${file} does not assemble:\n${formatAll(a.diags)}`);
  return a;
}

function reassemble(name: string, text: string): Assembled {
  const a = assemble(name, text);
  if (a.diags.hasErrors()) throw new Error(`converted ${name} does not assemble:\n${formatAll(a.diags)}\n${text}`);
  return a;
}

/** Global memory after running the only (or entry) function with pto-vm's generated inputs, as hex per pointer. */
function globalMemory(a: Assembled): Record<string, string> {
  const functions = [...a.program.functions.values()].filter((f) => f.regions[0]);
  const fn = functions.length === 1 ? functions[0] : functions.find((f) => f.attrs.some((x) => x.key === 'hacc.entry'));
  if (!fn) throw new Error('no entry function');
  const bound = bindArguments(a.types, fn, new Map());
  runFunction(a.program, a.types, fn, bound.values, { numerics: 'npu', maxSteps: 2_000_000 });
  return Object.fromEntries(bound.buffers.map((b) => [b.name, Buffer.from(b.bytes).toString('hex')]));
}

function expectGolden(file: string, text: string): void {
  if (UPDATE) fs.writeFileSync(file, text);
  expect(text).toBe(fs.readFileSync(file, 'utf8'));
}

function refusal(a: Assembled, level: 1 | 2): string {
  try {
    emitAtLevel(a, level);
  } catch (e) {
    if (!(e instanceof LocatedError)) throw e;
    return formatDiagnostic(a.source, e.diagnostic) + '\n';
  }
  throw new Error('expected the conversion to be refused');
}

describe('Level 1 -> Level 2', () => {
  const cases: { name: string; roundTrip: boolean }[] = [
    { name: 'straight', roundTrip: true },
    { name: 'rowsum-l1', roundTrip: true },
    { name: 'loop-if', roundTrip: false },
  ];
  for (const { name, roundTrip } of cases) {
    describe(name, () => {
      const file = path.join(fixtures, `${name}.pto`);
      const original = load(file);
      const l2 = emitAtLevel(original, 2);

      test('the input is Level 1 and the output Level 2, as golden', () => {
        expect(levelOf(original.program)).toBe(1);
        expect(levelOf(reassemble(name, l2).program)).toBe(2);
        expectGolden(path.join(fixtures, `${name}.l2.expected`), l2);
      });

      test('the VM writes the same global memory', () => {
        expect(globalMemory(reassemble(name, l2))).toEqual(globalMemory(original));
      });

      test(roundTrip ? 'converting back gives the canonical original' : 'converting back verifies and computes the same', () => {
        const back = emitAtLevel(reassemble(name, l2), 1);
        if (roundTrip) expect(back).toBe(printCanonical(original.module, original.types));
        expect(levelOf(reassemble(name, back).program)).toBe(1);
        expect(globalMemory(reassemble(name, back))).toEqual(globalMemory(original));
      });
    });
  }

  test("a scratch tile Level 1 omits stays out at Level 2, where it is optional too (today's PTOAS supplies it)", () => {
    const l2 = emitAtLevel(load(path.join(fixtures, 'rowsum-l1.pto')), 2);
    expect(l2).not.toMatch(/%tmp = pto\.alloc_tile/);
    expect(l2).toMatch(/pto\.trowsum ins\(%src : /);
    expect(l2).toMatch(/pto\.trowmax ins\(%src : /);
  });

  test('a loop-carried tile whose init is used only by the loop is updated in place, without copies', () => {
    const l2 = emitAtLevel(load(path.join(fixtures, 'loop-if.pto')), 2);
    expect(l2).toMatch(/pto\.tadd ins\(%init, %step : [^)]*\) outs\(%init : /);
    // The if's else branch computes into the result buffer; the then branch yields a value from outside: one copy.
    expect(l2.match(/pto\.tmov/g)).toHaveLength(1);
    expect(l2).toMatch(/pto\.tmuls ins\(%t, %two : [^)]*\) outs\(%step : /);
  });
});

describe('Level 2 -> Level 1', () => {
  const cases = [
    { name: 'l2-loop', file: path.join(fixtures, 'l2-loop.pto') },
    { name: 'rowsum', file: path.join(root, 'programs', 'rowsum.pto') },
  ];
  for (const { name, file } of cases) {
    describe(name, () => {
      const original = load(file);
      const l1 = emitAtLevel(original, 1);

      test('the output is Level 1, as golden', () => {
        expect(levelOf(original.program)).toBe(2);
        expect(levelOf(reassemble(name, l1).program)).toBe(1);
        expectGolden(path.join(fixtures, `${name}.l1.expected`), l1);
      });

      test('the VM writes the same global memory, also after converting back to Level 2', () => {
        const before = globalMemory(original);
        expect(globalMemory(reassemble(name, l1))).toEqual(before);
        expect(globalMemory(reassemble(name, emitAtLevel(reassemble(name, l1), 2)))).toEqual(before);
      });
    });
  }

  test('the accumulator becomes an iter_arg, each write a new value', () => {
    const l1 = emitAtLevel(load(path.join(fixtures, 'l2-loop.pto')), 1);
    expect(l1).toMatch(/%acc = pto\.texpands %zero/);
    expect(l1).toMatch(/%acc_3 = scf\.for %i = %c0 to %c3 step %c1 iter_args\(%acc_1 = %acc\)/);
    expect(l1).toMatch(/%acc_2 = pto\.tadd %acc_1, %blk/);
    expect(l1).toMatch(/scf\.yield %acc_2/);
    expect(l1).toMatch(/pto\.tstore %acc_3, %po/);
    expect(l1).not.toMatch(/alloc_tile/);
  });

  for (const name of ['dynamic-valid', 'subset']) {
    test(`${name}: refused with a located error`, () => {
      const a = load(path.join(fixtures, `${name}.pto`));
      const message = refusal(a, 1);
      expect(message).toMatch(/^[^:]+:\d+:\d+: error\[E0901\]: L2 -> L1: .*cannot be expressed/);
      expectGolden(path.join(fixtures, `${name}.l1.error`), message.replace(root + path.sep, ''));
    });
  }

  test('the dynamic valid region runs at Level 2 (the refusal is not about a broken input)', () => {
    const memory = globalMemory(load(path.join(fixtures, 'dynamic-valid.pto')));
    const out = Buffer.from(memory.out, 'hex');
    expect(out.readFloatLE(0)).toBeGreaterThanOrEqual(0);
  });
});

describe('already at the requested level', () => {
  test('prints the canonical form unchanged', () => {
    const a = load(path.join(fixtures, 'straight.pto'));
    expect(emitAtLevel(a, 1)).toBe(printCanonical(a.module, a.types));
    const b = load(path.join(fixtures, 'l2-loop.pto'));
    expect(emitAtLevel(b, 2)).toBe(printCanonical(b.module, b.types));
  });
});

const corpus = process.env.PTO_CORPUS_DIR;
(corpus ? describe : describe.skip)('corpus (PTO_CORPUS_DIR)', () => {
  function listPto(dir: string): string[] {
    return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
      const full = path.join(dir, e.name);
      if (e.isDirectory()) return e.name === 'node_modules' || e.name.startsWith('.') ? [] : listPto(full);
      return e.name.endsWith('.pto') ? [full] : [];
    });
  }

  test('every sample that assembles converts to the other level or is refused with a located error', () => {
    const tally = {
      samples: 0,
      assembled: 0,
      toL1: 0,
      toL2: 0,
      refusedL1: 0,
      refusedL2: 0,
      noTiles: 0,
      vmCompared: 0,
      vmSkipped: 0,
      back: 0,
      vmBackCompared: 0,
    };
    const refusals: string[] = [];
    const failures: string[] = [];
    for (const file of listPto(corpus!).sort()) {
      tally.samples++;
      const a = assemble(file, fs.readFileSync(file, 'utf8'));
      if (a.diags.hasErrors()) continue;
      tally.assembled++;
      const level = levelOf(a.program);
      if (level === 'none') {
        tally.noTiles++;
        continue;
      }
      const wanted = level === 1 ? 2 : 1;
      let text: string;
      try {
        text = emitAtLevel(a, wanted);
      } catch (e) {
        if (!(e instanceof LocatedError)) throw e;
        tally[wanted === 1 ? 'refusedL1' : 'refusedL2']++;
        refusals.push(`${path.relative(corpus!, file)}: ${e.message}`);
        continue;
      }
      const converted = assemble(file, text);
      if (converted.diags.hasErrors()) {
        failures.push(`${file}: converted text does not assemble:\n${formatAll(converted.diags)}`);
        continue;
      }
      tally[wanted === 1 ? 'toL1' : 'toL2']++;
      // The corpus is Level 2: its Level 1 forms exercise the other direction on real programs.
      let back: Assembled | undefined;
      try {
        back = assemble(file, emitAtLevel(converted, wanted === 1 ? 2 : 1));
        if (back.diags.hasErrors()) failures.push(`${file}: converting back does not assemble:\n${formatAll(back.diags)}`);
        else tally.back++;
      } catch (e) {
        if (!(e instanceof LocatedError)) throw e;
        failures.push(`${file}: converting back is refused: ${e.message}`);
      }
      let before: Record<string, string>;
      try {
        before = globalMemory(a);
      } catch {
        tally.vmSkipped++;
        continue;
      }
      if (back && !back.diags.hasErrors()) {
        if (JSON.stringify(globalMemory(back)) !== JSON.stringify(before)) failures.push(`${file}: global memory differs after converting back`);
        else tally.vmBackCompared++;
      }
      const after = globalMemory(converted);
      if (JSON.stringify(after) !== JSON.stringify(before)) failures.push(`${file}: global memory differs after converting to Level ${wanted}`);
      else tally.vmCompared++;
    }
    console.log(`level conversion over the corpus: ${JSON.stringify(tally)}\nrefused:\n${refusals.join('\n')}`);
    expect(failures).toEqual([]);
  });
});
