/**
 * The PTOAS elementwise samples: one op over whole tensors. Each output element from the inputs at the same index,
 * every step rounded to f32.
 */
import { f32 } from '../../models/float';
import { SampleIO, SampleReference } from './harness';

const each = (io: SampleIO, fn: (...xs: number[]) => number, ...names: string[]): number[] =>
  io.in[names[0]].map((_, k) => fn(...names.map((n) => io.in[n][k])));

export const ELEMENTWISE: SampleReference[] = [
  { file: 'test/samples/VectorAddition/vadd.pto', expect: (io) => ({ arg2: each(io, (a, b) => f32(a + b), 'arg0', 'arg1') }) },
  // taddc: (src0 + src1) + src2, rounded after each add.
  { file: 'test/samples/Addc/addc.pto', expect: (io) => ({ arg3: each(io, (a, b, c) => f32(f32(a + b) + c), 'arg0', 'arg1', 'arg2') }) },
  { file: 'test/samples/PyPTOIRParser/orchestration_example_kernel_add.pto', expect: (io) => ({ arg2: each(io, (a, b) => f32(a + b), 'arg0', 'arg1') }) },
  { file: 'test/samples/PyPTOIRParser/orchestration_example_kernel_mul.pto', expect: (io) => ({ arg2: each(io, (a, b) => f32(a * b), 'arg0', 'arg1') }) },
  {
    file: 'test/samples/PyPTOIRParser/orchestration_example_kernel_add_scalar.pto',
    args: { arg1: '2.25' },
    expect: (io) => ({ arg2: each(io, (a) => f32(a + 2.25), 'arg0') }),
  },
  { file: 'test/samples/PyPTOIRParser/vector_example_dag_kernel_add.pto', expect: (io) => ({ arg2: each(io, (a, b) => f32(a + b), 'arg0', 'arg1') }) },
  { file: 'test/samples/PyPTOIRParser/vector_example_dag_kernel_mul.pto', expect: (io) => ({ arg2: each(io, (a, b) => f32(a * b), 'arg0', 'arg1') }) },
  {
    file: 'test/samples/PyPTOIRParser/vector_example_dag_kernel_add_scalar.pto',
    args: { arg1: '-0.75' },
    expect: (io) => ({ arg2: each(io, (a) => f32(a - 0.75), 'arg0') }),
  },
];
