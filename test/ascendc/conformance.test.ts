/**
 * The 89 bit-exact AscendC conformance cases (test/fixtures/ascendc/cases.json, copied from
 * conformance/ascendc/cases.json) against the direct semantic model in src/ascendc/model.
 *
 * A case builds a 192 KiB UB of 0xEE bytes, writes its init regions, and either
 * - runs the instruction and compares every expect region bit for bit (the first differing byte is
 *   reported), or
 * - expects the call to be rejected: a validation problem (or a ModelError) that names the right parameter
 *   and contains the case's `error_expect` text, with the UB left unchanged.
 */
import { ConformanceCase, buildUb, firstDifference, loadCases, prepare, problemsOf } from './case-harness';

const cases = loadCases();

/** The parameter each error case's problem must name. */
const ERROR_PARAM: Record<string, string> = {
  W20: 'mask',
  W22: 'mask',
  W23: 'mask',
  W25: 'repeat',
  W26: 'src',
  W28: 'dst',
  W29: 'order',
  W31: 'dstRepStride',
  W32: 'srcRepStride',
  B19: 'dst',
  B20: 'mask',
  B22: 'dtype',
  B23: 'dstRepStride',
  V16: 'repeat',
  V17: 'work',
  V19: 'workElems',
  V20: 'mask',
  V22: 'src',
  C16: 'dst',
  C18: 'mask',
  C19: 'product',
  C21: 'repeat',
  C22: 'srcStride',
  T08: 'dst.validCol',
  T09: 'dst.dtype',
};

test('the fixture holds the 89 cases', () => {
  expect(cases).toHaveLength(89);
  const errorIds = cases.filter((c) => c.error !== undefined).map((c) => c.id);
  expect(errorIds.sort()).toEqual(Object.keys(ERROR_PARAM).sort());
});

function runCase(c: ConformanceCase): void {
  const ub = buildUb(c);
  const prepared = prepare(c);
  if (c.error !== undefined) {
    const before = ub.slice();
    const { problems } = problemsOf(prepared, ub);
    const param = ERROR_PARAM[c.id];
    const summary = problems.map((p) => `${p.param}: ${p.message}`).join('\n') || '(no problem reported)';
    if (!problems.some((p) => p.param === param && p.message.includes(c.error_expect ?? ''))) {
      throw new Error(`${c.id} (${c.desc}): expected a problem on '${param}' containing "${c.error_expect}" (reference: "${c.error}"), got:\n${summary}`);
    }
    expect(Buffer.compare(Buffer.from(ub), Buffer.from(before))).toBe(0);
    return;
  }
  const problems = prepared.validate();
  if (problems.length > 0) {
    throw new Error(`${c.id} (${c.desc}): valid case rejected:\n${problems.map((p) => `${p.param}: ${p.message}`).join('\n')}`);
  }
  prepared.run(ub);
  const diff = firstDifference(ub, c.expect ?? []);
  if (diff !== null) throw new Error(`${c.id} (${c.desc}): ${diff}`);
}

const byInstr = new Map<string, ConformanceCase[]>();
for (const c of cases) byInstr.set(c.instr, [...(byInstr.get(c.instr) ?? []), c]);

for (const [instr, group] of byInstr) {
  describe(instr, () => {
    test.each(group.map((c) => [`${c.id}: ${c.desc}`, c] as const))('%s', (_name, c) => runCase(c));
  });
}
