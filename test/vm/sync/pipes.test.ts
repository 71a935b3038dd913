/**
 * The pipe each instruction runs on (spec/sync.json instructionPipes), against pto-isa's OpPipeEntry table
 * (include/pto/common/event.hpp) and PTOAS's getPipe(): tile locations decide for moves and stores.
 */
import { isa } from '../../../src/spec/isa';
import { BoundInstruction } from '../../../src/ir/program';
import { instructionPipe } from '../../../src/vm/sync/pipes';

/** A bound instruction whose tile operands have these locations (only what instructionPipe reads). */
function bound(opName: string, locs: Record<string, string>): BoundInstruction {
  const spec = isa().instructions.get(opName)!;
  const operands = new Map();
  for (const o of spec.operands) {
    const loc = locs[o.name];
    operands.set(o.name, { spec: o, type: loc ? { kind: 'tile', loc } : { kind: 'view' } });
  }
  return { spec, operands } as BoundInstruction;
}

test.each([
  ['pto.tload', { dst: 'vec' }, 'PIPE_MTE2'],
  ['pto.tload', { dst: 'mat' }, 'PIPE_MTE2'],
  ['pto.tstore', { src: 'vec' }, 'PIPE_MTE3'],
  ['pto.tstore', { src: 'mat' }, 'PIPE_MTE3'],
  ['pto.tstore', { src: 'acc' }, 'PIPE_FIX'],
  ['pto.tmov', { src: 'mat', dst: 'left' }, 'PIPE_MTE1'],
  ['pto.tmov', { src: 'mat', dst: 'right' }, 'PIPE_MTE1'],
  ['pto.tmov', { src: 'mat', dst: 'bias' }, 'PIPE_MTE1'],
  ['pto.tmov', { src: 'acc', dst: 'vec' }, 'PIPE_FIX'],
  ['pto.tmov', { src: 'acc', dst: 'mat' }, 'PIPE_FIX'],
  ['pto.tmov', { src: 'vec', dst: 'mat' }, 'PIPE_FIX'],
  ['pto.tmov', { src: 'vec', dst: 'vec' }, 'PIPE_V'],
  ['pto.textract', { src: 'mat', dst: 'left' }, 'PIPE_MTE1'],
  ['pto.textract', { src: 'vec', dst: 'vec' }, 'PIPE_V'],
  ['pto.tmatmul', { aMatrix: 'left', bMatrix: 'right', cMatrix: 'acc' }, 'PIPE_M'],
  ['pto.tgemv.acc', { aMatrix: 'left', bMatrix: 'right', cInMatrix: 'acc', cOutMatrix: 'acc' }, 'PIPE_M'],
  ['pto.mgather', { dst: 'mat', indexes: 'vec' }, 'PIPE_MTE2'],
  ['pto.mgather', { dst: 'vec', indexes: 'vec' }, 'PIPE_V'],
  ['pto.tadd', { dst: 'vec', src0: 'vec', src1: 'vec' }, 'PIPE_V'],
  ['pto.trowsum', { dst: 'vec', src: 'vec', tmp: 'vec' }, 'PIPE_V'],
])('%s %j runs on %s', (name, locs, pipe) => {
  expect(instructionPipe(bound(name, locs))).toBe(pipe);
});

test('every instruction of the tables gets a core pipe', () => {
  const core = ['PIPE_S', 'PIPE_V', 'PIPE_M', 'PIPE_MTE1', 'PIPE_MTE2', 'PIPE_MTE3', 'PIPE_FIX'];
  for (const name of isa().instructions.keys()) expect(core).toContain(instructionPipe(bound(name, {})));
});
