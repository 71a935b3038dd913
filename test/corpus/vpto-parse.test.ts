/**
 * PTOAS's micro-op level (VPTO) read and printed back: every kernel.pto of test/vpto/cases and every valid lit case of
 * test/lit/vpto and test/lit/vmi_new that pto-as accepts prints a canonical form that assembles again to the same text (a fixed point).
 * Read in place from PTO_UPSTREAM_DIR, an export of PTOAS e32488c9; nothing of it is committed.
 *
 *   PTO_UPSTREAM_DIR=/path/to/PTOAS npx jest test/corpus/vpto-parse
 *
 * The counts accepted are logged; the share grows with the rows of spec/micro/ and is not asserted here (the golden
 * suite's flow, test/corpus/vpto.test.ts, lists what each kernel still waits for).
 */
import { litCases } from '../../src/corpus/lit-cases';
import { corpusFiles } from '../../src/corpus/files';
import { assemble } from '../../src/verify/assemble';
import { printCanonical } from '../../src/emit/canonical';
import { formatAll } from '../../src/diag/diagnostic';
import { TargetName } from '../../src/spec/schema';
import * as fs from 'fs';
import * as path from 'path';

const root = process.env.PTO_UPSTREAM_DIR;

interface Input {
  name: string;
  text: string;
  target: TargetName | undefined;
}

/** The golden kernels (their ptoas.flags name a5, as every one does when it names an arch) and the valid lit cases. */
function inputs(root: string): { kernels: Input[]; lit: Input[] } {
  const kernels = corpusFiles(root, 'test/vpto/cases', (f) => f.endsWith('/kernel.pto')).map((file) => ({
    name: file,
    text: fs.readFileSync(path.join(root, file), 'utf8'),
    target: 'a5' as TargetName,
  }));
  const lit: Input[] = [];
  const folders = ['test/lit/vpto', 'test/lit/vmi_new'];
  for (const file of folders.flatMap((folder) => corpusFiles(root, folder, (f) => /\.(pto|mlir)$/.test(f)))) {
    const seen = new Set<string>();
    for (const c of litCases(root, file).cases) {
      // `( ptoas ... || true )` lets ptoas fail: such a line does not say the input is valid.
      if (c.expectReject || /\|\|\s*true/.test(c.run)) continue;
      const name = `${file}${c.part ? ':' + c.part : ''}`;
      if (seen.has(name)) continue;
      seen.add(name);
      lit.push({ name, text: c.text, target: c.arch === 'a3' ? 'a2a3' : 'a5' });
    }
  }
  return { kernels, lit };
}

/** How many assemble, and those whose canonical form does not assemble again to itself. */
function fixedPoints(cases: Input[]): { accepted: number; broken: string[] } {
  const broken: string[] = [];
  let accepted = 0;
  for (const { name, text, target } of cases) {
    const first = assemble(name, text, { target });
    if (first.diags.hasErrors()) continue;
    accepted++;
    const canonical = printCanonical(first.module, first.types);
    const again = assemble(name, canonical, { target });
    if (again.diags.hasErrors()) broken.push(`${name}: ${formatAll(again.diags).split('\n')[0]}`);
    else if (printCanonical(again.module, again.types) !== canonical) broken.push(`${name}: not a fixed point`);
  }
  return { accepted, broken };
}

if (!root) {
  test.skip('PTO_UPSTREAM_DIR is not set: export tonibohnlein/PTOAS (e32488c9) and point PTO_UPSTREAM_DIR at it to read the VPTO corpus', () => undefined);
} else {
  const { kernels, lit } = inputs(root);

  test('every VPTO golden kernel that assembles prints a canonical form that assembles again, a fixed point', () => {
    expect(kernels.length).toBe(254);
    const { accepted, broken } = fixedPoints(kernels);
    console.log(`test/vpto/cases: ${accepted} of ${kernels.length} kernel.pto accepted, each a fixed point`);
    expect(accepted).toBeGreaterThan(0);
    expect(broken).toEqual([]);
  });

  test('every valid test/lit/vpto and test/lit/vmi_new case that assembles prints a canonical form that assembles again, a fixed point', () => {
    expect(lit.length).toBeGreaterThan(300);
    const { accepted, broken } = fixedPoints(lit);
    console.log(`test/lit/vpto and vmi_new: ${accepted} of ${lit.length} valid cases accepted, each a fixed point`);
    expect(accepted).toBeGreaterThan(0);
    expect(broken).toEqual([]);
  });
}
