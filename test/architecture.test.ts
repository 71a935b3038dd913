/**
 * The packages of src/ (its top-level folders) depend on each other one way. This test reads every import of
 * src/ and checks it against the allowed edges below; a new edge is a design decision, made here.
 */
import * as fs from 'fs';
import * as path from 'path';
import { opRegistry } from '../src/ops/registry';
import { isa } from '../src/spec/isa';

const SRC = path.join(__dirname, '..', 'src');

/** Each package and the packages it may import. The order is a layering: a package imports only earlier ones. */
const ALLOWED: Record<string, string[]> = {
  diag: [],
  types: [],
  numerics: ['types'],
  spec: ['types'],
  syntax: ['diag', 'types'],
  ascendc: ['numerics'],
  machine: ['diag', 'types', 'numerics', 'spec'],
  ir: ['diag', 'types', 'spec', 'syntax', 'ascendc', 'machine'],
  // The micro-op level: its lane semantics (micro/semantics, pure) and its op definitions, which the registry collects.
  micro: ['diag', 'types', 'numerics', 'spec', 'syntax', 'machine', 'ir'],
  ops: ['diag', 'types', 'numerics', 'micro', 'spec', 'syntax', 'ascendc', 'machine', 'ir'],
  // verify runs the micro level's pass checks (micro/passes) after the op verifiers.
  verify: ['diag', 'types', 'spec', 'syntax', 'ascendc', 'ir', 'micro', 'ops'],
  vm: ['diag', 'types', 'numerics', 'micro', 'spec', 'syntax', 'machine', 'ir', 'ops'],
  // Cycle estimates (issue 39): pto-isa's cost tables per op; the pipe model will observe the VM's run.
  timing: ['diag', 'types', 'spec', 'machine', 'ir', 'micro', 'ops', 'vm'],
  emit: ['diag', 'types', 'spec', 'syntax', 'ir', 'ops', 'verify'],
  lower: ['diag', 'types', 'syntax', 'ascendc', 'ir', 'ops', 'verify', 'emit'],
  tools: ['diag', 'types', 'spec', 'ops', 'micro'],
  corpus: ['diag', 'types', 'spec', 'syntax', 'ir', 'verify', 'vm', 'emit'],
  board: ['diag', 'types', 'numerics', 'spec', 'syntax', 'machine', 'ir', 'ops', 'verify', 'vm', 'corpus'],
  // Expansion without PTOAS (issue 38): PTOAS's tile templates run through the Python shim (board's runner helpers).
  expand: ['diag', 'types', 'spec', 'syntax', 'machine', 'ir', 'ops', 'verify', 'vm', 'board'],
  cli: ['diag', 'types', 'spec', 'syntax', 'machine', 'ir', 'micro', 'ops', 'verify', 'vm', 'emit', 'lower', 'board', 'expand', 'timing'],
};

interface Import {
  file: string;
  from: string;
  to: string;
}

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? sourceFiles(p) : p.endsWith('.ts') ? [p] : [];
  });
}

/** The package of a path inside src/: its first folder. */
const packageOf = (p: string): string => path.relative(SRC, p).split(path.sep)[0];

function crossPackageImports(): Import[] {
  const found: Import[] = [];
  for (const file of sourceFiles(SRC)) {
    const text = fs.readFileSync(file, 'utf8');
    for (const m of text.matchAll(/(?:from|import\(|require\()\s*'(\.[^']*)'/g)) {
      const target = path.resolve(path.dirname(file), m[1]);
      const [from, to] = [packageOf(file), packageOf(target)];
      if (from !== to) found.push({ file: path.relative(SRC, file), from, to });
    }
  }
  return found;
}

describe('the packages of src/', () => {
  const imports = crossPackageImports();

  it('are the folders listed here, and no source file sits at the top of src/', () => {
    const folders = fs.readdirSync(SRC, { withFileTypes: true });
    expect(folders.filter((e) => !e.isDirectory()).map((e) => e.name)).toEqual([]);
    expect(folders.map((e) => e.name).sort()).toEqual(Object.keys(ALLOWED).sort());
  });

  it('import only the packages they are allowed to', () => {
    const forbidden = imports.filter((i) => !(ALLOWED[i.from] ?? []).includes(i.to)).map((i) => `${i.file} imports ${i.to}`);
    expect(forbidden).toEqual([]);
  });

  it('form an acyclic graph (the allowed edges themselves are a layering)', () => {
    const order = Object.keys(ALLOWED);
    const misplaced = order.flatMap((p, i) => ALLOWED[p].filter((dep) => order.indexOf(dep) >= i).map((dep) => `${p} -> ${dep}`));
    expect(misplaced).toEqual([]);
  });

  it('are checked by a reader that sees imports (a sanity check of this test)', () => {
    expect(imports.some((i) => i.from === 'verify' && i.to === 'ops')).toBe(true);
    expect(imports.length).toBeGreaterThan(50);
  });
});

describe('op names', () => {
  it('each structural op is spelled as a string in at most two files of src/: its definition and at most one client', () => {
    // Table instructions are named by spec/*.json, not in src/; structural ops each by their definition.
    const tableOps = new Set(isa().instructions.keys());
    const structural = opRegistry()
      .definitions.map((d) => d.name)
      .filter((n) => !tableOps.has(n) && n.includes('.'));
    expect(structural).toEqual(
      expect.arrayContaining([
        'func.call',
        'scf.for',
        'pto.alloc_tile',
        'pto.make_tensor_view',
        'pto.partition_view',
        'pto.bind_tile',
        'arith.addi',
        'arith.maxui',
      ]),
    );
    const texts = sourceFiles(SRC).map((f) => ({ file: path.relative(SRC, f), text: fs.readFileSync(f, 'utf8') }));
    const spreadOut = structural
      .map((name) => ({ name, files: texts.filter((t) => t.text.includes(`'${name}'`)).map((t) => t.file) }))
      .filter((n) => n.files.length > 2);
    expect(spreadOut).toEqual([]);
  });
});
