/**
 * Finding board validation cases: a case is a `<case>_golden.py` of a sample folder; its kernel is `<case>.pto`
 * (or `<case>-pto.pto`) beside it or below its `kernels/` folder.
 */
import * as fs from 'fs';
import * as path from 'path';
import { TargetName } from '../spec/schema';
import { namesA5Target, sampleTarget } from '../corpus/samples';

export interface BoardCase {
  testcase: string;
  /** The folder holding the golden script (the sample folder). */
  sampleDir: string;
  golden: string;
  /** `<case>_compare.py`, else the folder's `npu_validation/compare.py`, as the CI copies them. */
  compare?: string;
  kernel?: string;
  /** No .pto: the sample builds it from this Python script with PTOAS's bindings. */
  builder?: string;
}

const GOLDEN = /_golden\.py$/;

/** The cases below PATH: a .pto names its own case; a folder every golden case below it. */
export function findCases(target: string): BoardCase[] {
  const stat = fs.statSync(target);
  if (stat.isFile()) {
    if (!target.endsWith('.pto')) throw new Error(`${target}: expected a .pto kernel or a folder`);
    const testcase = path.basename(target, '.pto').replace(/[-_]pto$/, '');
    for (let dir = path.dirname(path.resolve(target)), i = 0; i < 4; dir = path.dirname(dir), i++) {
      const golden = path.join(dir, `${testcase}_golden.py`);
      if (fs.existsSync(golden)) return [{ ...caseOf(dir, testcase), kernel: path.resolve(target), builder: undefined }];
    }
    throw new Error(`${target}: no ${testcase}_golden.py beside it or in the folders above it`);
  }
  const cases: BoardCase[] = [];
  const visit = (dir: string): void => {
    const entries = fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name));
    for (const e of entries) if (e.isFile() && GOLDEN.test(e.name)) cases.push(caseOf(dir, e.name.replace(GOLDEN, '')));
    for (const e of entries) if (e.isDirectory() && e.name !== 'npu_validation' && e.name !== 'kernels') visit(path.join(dir, e.name));
  };
  visit(path.resolve(target));
  return cases;
}

function caseOf(sampleDir: string, testcase: string): BoardCase {
  const golden = path.join(sampleDir, `${testcase}_golden.py`);
  const compare = [path.join(sampleDir, `${testcase}_compare.py`), path.join(sampleDir, 'npu_validation', 'compare.py')].find((f) => fs.existsSync(f));
  const names = [`${testcase}.pto`, `${testcase}-pto.pto`, `${testcase}_pto.pto`];
  let kernel = names.map((n) => path.join(sampleDir, n)).find((f) => fs.existsSync(f));
  const kernels = path.join(sampleDir, 'kernels');
  if (!kernel && fs.existsSync(kernels)) {
    kernel = (fs.readdirSync(kernels, { recursive: true }) as string[])
      .map(String)
      .sort()
      .map((f) => path.join(kernels, f))
      .find((f) => names.includes(path.basename(f)));
  }
  const builders = fs.readdirSync(sampleDir).filter((f) => f.endsWith('.py') && !/_(golden|compare)\.py$|_golden_\w+\.py$/.test(f));
  const builder = kernel ? undefined : (builders.find((f) => f === `${testcase}.py`) ?? builders[0]);
  return { testcase, sampleDir, golden, compare, kernel, builder: builder && path.join(sampleDir, builder) };
}

/**
 * The target of a case, as the board runner builds it: the sample survey's target for the kernel (an A5 folder or
 * sample, or a module naming A5), unless the command line gives one.
 */
export function caseTarget(c: BoardCase, text: string, given: TargetName | undefined): TargetName {
  if (given) return given;
  if (namesA5Target(text)) return 'a5';
  const base = c.kernel ? path.basename(c.kernel, '.pto') : c.testcase;
  const folder = path.basename(c.sampleDir);
  // Folders the survey does not know (a hand-written sample) say A5 by their name's ending, as the model folders do.
  return /A5$/.test(folder) ? 'a5' : sampleTarget(folder, base);
}
