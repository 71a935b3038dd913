/**
 * Diagnostics golden files: test/fixtures/diagnostics/NAME.pto is a small invalid program and
 * NAME.expected the exact `formatAll` output of `assemble` for it, with the file named by its path
 * relative to the repository (so the goldens do not depend on the machine).
 *
 *   UPDATE_GOLDEN=1 npx jest test/diag/golden    rewrites the .expected files; read every one after.
 *
 * A golden records the diagnostics we want, not whatever the tool prints. These were written by hand
 * because the tool's output was wrong or confusing when they were added (do not regenerate them
 * blindly; see each .pto's comment):
 *   unclosed-region      only the unclosed '{' (no cascade "must end with 'return'" for a function
 *                        whose 'return' is visibly there)
 *   unterminated-string  one error for one mistake (no cascade "unexpected '}'" at the end)
 *   return-in-loop       a 'return' nested in scf.for is an error of its own
 */
import * as fs from 'fs';
import * as path from 'path';
import { assemble } from '../../src/verify/assemble';
import { formatAll } from '../../src/diag/diagnostic';

const root = path.join(__dirname, '..', '..');
const dir = 'test/fixtures/diagnostics';
const update = process.env.UPDATE_GOLDEN === '1';

const names = fs
  .readdirSync(path.join(root, dir))
  .filter((f) => f.endsWith('.pto'))
  .map((f) => f.slice(0, -'.pto'.length))
  .sort();

function render(name: string): { output: string; errors: number } {
  const rel = `${dir}/${name}.pto`;
  const text = fs.readFileSync(path.join(root, rel), 'utf8');
  const { diags } = assemble(rel, text);
  return { output: formatAll(diags) + '\n', errors: diags.errorCount };
}

test('there are golden cases', () => {
  expect(names.length).toBeGreaterThanOrEqual(15);
});

describe.each(names)('%s', (name) => {
  const expectedPath = path.join(root, dir, `${name}.expected`);

  test('matches its .expected output', () => {
    const { output } = render(name);
    if (update) fs.writeFileSync(expectedPath, output);
    expect(fs.existsSync(expectedPath)).toBe(true);
    expect(output).toBe(fs.readFileSync(expectedPath, 'utf8'));
  });

  test('is an invalid program: at least one error', () => {
    expect(render(name).errors).toBeGreaterThan(0);
  });

  test('is deterministic', () => {
    expect(render(name).output).toBe(render(name).output);
  });
});
