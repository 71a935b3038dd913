/**
 * The four tile-level lit tests of PTOAS e32488c9 that reach the SIMT level (issue 37): accepted, and run by the VM
 * (their SIMT sections and launches as threads, get_ctrl after reset). Read in place from PTO_UPSTREAM_DIR, an export
 * of that repository; skipped without it:
 *
 *   PTO_UPSTREAM_DIR=/path/to/PTOAS npx jest test/corpus/simt-lit
 */
import * as fs from 'fs';
import * as path from 'path';
import { assemble } from '../../src/verify/assemble';
import { Value, runFunction } from '../../src/vm/interpreter';

const root = process.env.PTO_UPSTREAM_DIR;

/** Each file and the functions run from it, with their scalar arguments. */
const CASES: [string, [string, Record<string, Value>][]][] = [
  ['section_simt_syncthreads_roundtrip.pto', [['section_simt_syncthreads_kernel', {}]]],
  ['backend_single_child_compile_unit.pto', [['single_child_compile_unit', {}]]],
  ['ptodsl_tileop_sections.pto', [['kernel', {}]]],
  [
    'ptodsl_tileop_dynamic_valid_shape.pto',
    [
      ['sequential_valid_shape', {}],
      ['branch_valid_shape', { '%cond': 1n }],
    ],
  ],
];

(root ? describe : describe.skip)('the SIMT-level lit tests of test/lit/pto', () => {
  test.each(CASES)('%s is accepted and runs', (file, entries) => {
    const text = fs.readFileSync(path.join(root!, 'test/lit/pto', file), 'utf8');
    const { program, types, diags } = assemble(file, text, { target: 'a5' });
    expect(diags.sorted().filter((d) => d.severity === 'error')).toEqual([]);
    for (const [name, args] of entries) {
      const fn = program.functions.get(name);
      expect(fn).toBeDefined();
      const result = runFunction(program, types, fn!, new Map(Object.entries(args)), { numerics: 'npu', maxSteps: 100_000 });
      expect(result.steps).toBeGreaterThan(0);
    }
  });
});
