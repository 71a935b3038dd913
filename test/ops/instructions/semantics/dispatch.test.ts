/**
 * VM dispatch derives from the tables: every instruction marked implemented has a semantics
 * function, and the function knows the instruction's `op`; an instruction the VM does not run is
 * reported by pto-vm before anything runs.
 */
import { isa } from '../../../../src/spec/isa';
import { assemble } from '../../../../src/verify/assemble';
import { OPERATIONS, SEMANTICS, unimplementedInstructions } from '../../../../src/ops/instructions/semantics';

const instructions = [...isa().instructions.values()];

test.each(instructions.filter((i) => i.implemented).map((i) => [i.opName, i] as const))('%s has its semantics', (_name, i) => {
  expect(SEMANTICS[i.semantics]).toBeDefined();
  if (i.op !== undefined) expect(OPERATIONS[i.semantics] ?? []).toContain(i.op);
});

test('every semantics that runs several operations is named by the tables', () => {
  const used = new Set(instructions.map((i) => i.semantics));
  for (const name of Object.keys(OPERATIONS)) expect([name, used.has(name)]).toEqual([name, true]);
});

test('an instruction the tables mark as not implemented is what pto-vm reports before running', () => {
  const tile = '!pto.tile_buf<loc=vec, dtype=f32, rows=8, cols=8, v_row=8, v_col=8, blayout=row_major, slayout=none_box, fractal=512, pad=0>';
  const text = `module {\n  func.func @k() {\n    %a = pto.alloc_tile : ${tile}\n    pto.tabs ins(%a : ${tile}) outs(%a : ${tile})\n    pto.tneg ins(%a : ${tile}) outs(%a : ${tile})\n    return\n  }\n}`;
  const { program } = assemble('k.pto', text);
  expect(unimplementedInstructions(program)).toEqual([]);
  // Every instruction of the tables runs today, so mark one as a table would that the VM cannot run.
  const [abs, neg] = [...program.instructions.keys()];
  const bound = program.instructions.get(neg)!;
  program.instructions.set(neg, { ...bound, spec: { ...bound.spec, implemented: false } });
  expect(unimplementedInstructions(program)).toEqual([neg]);
  expect(abs.name).toBe('pto.tabs');
});
