/**
 * Bit-exact conformance of the VM (--numerics cpu-sim) with the pto-isa CPU simulator's outputs,
 * for the ops the VM implements. Cases: test/fixtures/golden (manifest.json, README.md); how each
 * case becomes a PTO-AS program, and why it runs in three phases: golden-harness.ts.
 *
 * Every case runs on both targets (the README says a2a3 and a5 gave identical bytes), except where
 * the ISA does not allow the case's source dtype on a target: there the verifier must reject it.
 *
 * Left out of the VM runs: the tcolsum/trowsum cases whose output dtype differs from the input
 * dtype, which the simulator accepts but the ISA does not (the NPU implementations need one element
 * type), so the verifier must reject them; the last block of this file checks that instead:
 *   00504_tcolsum_f16_f32_16x64_v16x64_randn        00507_tcolsum_f16_f32_16x64_v13x59_large_sum
 *   00510_tcolsum_f16_f32_32x32_v32x32_randn        00513_tcolsum_f16_f32_32x32_v29x27_large_sum
 *   00516_tcolsum_f16_f32_64x128_v64x128_randn      00519_tcolsum_f16_f32_64x128_v61x123_large_sum
 *   00630_trowsum_f16_f32_16x64_v16x64_randn        00633_trowsum_f16_f32_16x64_v13x59_large_sum
 *   00636_trowsum_f16_f32_32x32_v32x32_randn        00639_trowsum_f16_f32_32x32_v29x27_large_sum
 *   00642_trowsum_f16_f32_64x128_v64x128_randn      00645_trowsum_f16_f32_64x128_v61x123_large_sum
 *   00648_trowsum_i16_i32_16x64_v16x64_randn        00651_trowsum_i16_i32_16x64_v13x59_large_sum
 *   00654_trowsum_i16_i32_32x32_v32x32_randn        00657_trowsum_i16_i32_32x32_v29x27_large_sum
 *   00660_trowsum_i16_i32_64x128_v64x128_randn      00663_trowsum_i16_i32_64x128_v61x123_large_sum
 */
import { assemble } from '../../src/verify/assemble';
import { TargetName } from '../../src/spec/schema';
import { ElemType, elemSize, elemTypeName } from '../../src/types/type';
import { GoldenCase, buildProgram, expectedVerdict, loadManifest, paddingIsCd, readFixture, runCase, targetRule, verdict } from './golden-harness';

const TARGETS: TargetName[] = ['a2a3', 'a5'];
const cases = loadManifest();

describe('golden conformance with the CPU simulator (numerics cpu-sim)', () => {
  test('the fixtures cover every op the VM implements, one dtype per case', () => {
    expect([...new Set(cases.map((c) => c.op))].sort()).toEqual([
      'softmax',
      'tadd',
      'tcolargmax',
      'tcolargmin',
      'tcolmax',
      'tcolmin',
      'tcolsum',
      'tcvt',
      'texp',
      'tload',
      'tmov',
      'tmul',
      'trowargmax',
      'trowargmin',
      'trowexpanddiv',
      'trowexpandsub',
      'trowmax',
      'trowmin',
      'trowsum',
      'tstore',
    ]);
    // One dtype per case, except tcvt, whose cases convert between two.
    expect(cases.filter((c) => c.dtype !== c.odt && c.op !== 'tcvt')).toEqual([]);
  });

  describe.each([...new Set(cases.map((c) => c.op))])('%s', (op) => {
    test.each(cases.filter((c) => c.op === op).map((c) => [c.name, c] as const))('%s', (_name, c) => {
      const expected = readFixture(c.output);
      expect(expected.byteLength).toBe(c.output.out_bytes);
      // The harness's premise: outside the valid region the simulator's output is still 0xCD.
      expect(paddingIsCd(c, expected)).toBe(true);
      // A target whose ISA does not allow the case's source dtype must reject it (tcolargmin/max take
      // no signed integers on a2a3); the others must reproduce the simulator's bytes.
      const { srcName, srcTypes, allows } = targetRule(c);
      const targets = TARGETS.filter(allows);
      expect(targets).not.toEqual([]);
      for (const target of TARGETS.filter((t) => !allows(t))) {
        const { diags } = assemble(`${c.name}.pto`, buildProgram(c, c.inputs.map(readFixture)).text, { target });
        expect(
          diags.items.some(
            (d) =>
              d.message === `pto.${op}: ${srcName} dtype ${c.dtype} is not supported on ${target} (allowed: ${srcTypes(target)!.map(elemTypeName).join(', ')})`,
          ),
        ).toBe(true);
      }
      for (const target of targets) {
        const { actual } = runCase(c, target);
        expect(verdict(c, expected, actual, target)).toBe(expectedVerdict(c));
      }
    });
  });
});

describe('the verifier rejects the accumulating reductions the simulator allows', () => {
  // One program per (op, input dtype -> output dtype) pairing of the left-out cases, shaped like theirs.
  const pairings: { op: string; dtype: ElemType; odt: ElemType }[] = [
    { op: 'tcolsum', dtype: 'f16', odt: 'f32' },
    { op: 'trowsum', dtype: 'f16', odt: 'f32' },
    { op: 'trowsum', dtype: 'i16', odt: 'i32' },
  ];
  const cases = pairings.flatMap((p) => TARGETS.map((target) => [`pto.${p.op} ${p.dtype} -> ${p.odt} on ${target}`, p, target] as const));

  test.each(cases)('%s', (_name, p, target) => {
    const c: GoldenCase = {
      name: `${p.op}_${p.dtype}_${p.odt}`,
      op: p.op,
      dtype: p.dtype,
      odt: p.odt,
      tile: [16, 64],
      valid: [13, 59],
      input_kind: 'randn',
      extra: [],
      inputs: [],
      output: { file: '', shape: [], sha256: '', out_kind: 'tile', out_dtype: p.odt, out_shape: [1, 1], out_bytes: 0 },
    };
    const program = buildProgram(c, [new Uint8Array(16 * 64 * elemSize(p.dtype))]);
    const { diags, source } = assemble('mixed.pto', program.text, { target });
    const errors = diags.items.filter((d) => d.severity === 'error');
    // Rejected at the reduction (every error is on its line), by an error naming both element types.
    expect(errors.length).toBeGreaterThan(0);
    for (const e of errors) expect(source.lineText(source.position(e.span.start).line)).toContain(`pto.${p.op} ins(`);
    const mixed = errors.filter(
      (e) =>
        e.message.startsWith(`pto.${p.op}: `) &&
        e.message.endsWith('must have the same element type') &&
        e.message.includes(`(${p.dtype})`) &&
        e.message.includes(`(${p.odt})`),
    );
    expect(mixed).not.toEqual([]);
  });
});
