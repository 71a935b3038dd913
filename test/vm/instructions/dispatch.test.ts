/**
 * VM dispatch derives from the tables: every instruction marked implemented has a semantics
 * function, and the function knows the instruction's `op`; an instruction the VM does not run is
 * reported by pto-vm before anything runs.
 */
import { isa } from '../../../src/spec/isa';
import { OPERATIONS, SEMANTICS } from '../../../src/vm/instructions';

const instructions = [...isa().instructions.values()];

test.each(instructions.filter((i) => i.implemented).map((i) => [i.opName, i] as const))('%s has its semantics', (_name, i) => {
  expect(SEMANTICS[i.semantics]).toBeDefined();
  if (i.op !== undefined) expect(OPERATIONS[i.semantics] ?? []).toContain(i.op);
});

test('every semantics that runs several operations is named by the tables', () => {
  const used = new Set(instructions.map((i) => i.semantics));
  for (const name of Object.keys(OPERATIONS)) expect([name, used.has(name)]).toEqual([name, true]);
});
