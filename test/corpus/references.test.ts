/**
 * PTOAS samples checked against an independent computation: each entry says which argument the kernel writes and
 * what every element of it must be, written here from the sample's meaning (its .py source), not from the VM.
 * Inputs are the ones pto-vm generates; scalar arguments are bound as listed. Read from PTO_CORPUS_DIR.
 */
import * as fs from 'fs';
import * as path from 'path';
import { assemble } from '../../src/assemble';
import { formatAll } from '../../src/diag/diagnostic';
import { runFunction } from '../../src/vm/interpreter';
import { bindArguments } from '../../src/vm/io/arguments';

const root = process.env.PTO_CORPUS_DIR;
const f = Math.fround;

interface Reference {
  scalars?: Record<string, string>;
  output: string;
  /** Element k of the output, from the f32 inputs by argument name (scalars as numbers). */
  element(inputs: Record<string, Float32Array | number>, k: number): number;
}

const arrays = (i: Record<string, Float32Array | number>, ...names: string[]) => names.map((n) => i[n] as Float32Array);

const REFERENCES: Record<string, Reference> = {
  'test/samples/VectorAddition/vadd.pto': { output: 'arg2', element: (i, k) => f(arrays(i, 'arg0')[0][k] + arrays(i, 'arg1')[0][k]) },
  'test/samples/PyPTOIRParser/orchestration_example_kernel_add.pto': { output: 'arg2', element: (i, k) => f(arrays(i, 'arg0')[0][k] + arrays(i, 'arg1')[0][k]) },
  'test/samples/PyPTOIRParser/orchestration_example_kernel_mul.pto': { output: 'arg2', element: (i, k) => f(arrays(i, 'arg0')[0][k] * arrays(i, 'arg1')[0][k]) },
  'test/samples/PyPTOIRParser/orchestration_example_kernel_add_scalar.pto': { scalars: { arg1: '2.25' }, output: 'arg2', element: (i, k) => f(arrays(i, 'arg0')[0][k] + 2.25) },
  'test/samples/PyPTOIRParser/vector_example_dag_kernel_add.pto': { output: 'arg2', element: (i, k) => f(arrays(i, 'arg0')[0][k] + arrays(i, 'arg1')[0][k]) },
  'test/samples/PyPTOIRParser/vector_example_dag_kernel_mul.pto': { output: 'arg2', element: (i, k) => f(arrays(i, 'arg0')[0][k] * arrays(i, 'arg1')[0][k]) },
  'test/samples/PyPTOIRParser/vector_example_dag_kernel_add_scalar.pto': { scalars: { arg1: '-0.75' }, output: 'arg2', element: (i, k) => f(arrays(i, 'arg0')[0][k] - 0.75) },
  // taddc: (src0 + src1) + src2, rounded after each add.
  'test/samples/Addc/addc.pto': { output: 'arg3', element: (i, k) => f(f(arrays(i, 'arg0')[0][k] + arrays(i, 'arg1')[0][k]) + arrays(i, 'arg2')[0][k]) },
};

if (!root) {
  test.skip('PTO_CORPUS_DIR is not set: export zhangstevenunity/PTOAS and point PTO_CORPUS_DIR at it to check the samples against references', () => undefined);
} else {
  test.each(Object.entries(REFERENCES))('%s agrees with its reference on every element', (file, ref) => {
    const asm = assemble(file, fs.readFileSync(path.join(root, file), 'utf8'));
    if (asm.diags.hasErrors()) throw new Error(formatAll(asm.diags));
    const fn = [...asm.program.functions.values()].find((x) => x.regions.length > 0)!;
    const bound = bindArguments(asm.types, fn, new Map(Object.entries(ref.scalars ?? {})));
    // The inputs as generated, copied before the run.
    const inputs: Record<string, Float32Array | number> = {};
    for (const b of bound.buffers) inputs[b.name] = new Float32Array(b.bytes.slice().buffer);
    for (const [name, value] of Object.entries(ref.scalars ?? {})) inputs[name] = Number(value);
    runFunction(asm.program, asm.types, fn, bound.values, { numerics: 'npu', maxSteps: 1e7 });
    const out = bound.buffers.find((b) => b.name === ref.output)!;
    const got = new Float32Array(out.bytes.slice().buffer);
    expect(out.written.every((w) => w === 1)).toBe(true);
    const mismatches: string[] = [];
    for (let k = 0; k < got.length && mismatches.length < 5; k++) {
      const want = ref.element(inputs, k);
      if (!Object.is(got[k], want)) mismatches.push(`element ${k}: got ${got[k]}, want ${want}`);
    }
    expect(mismatches).toEqual([]);
  });
}
