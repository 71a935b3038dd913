/**
 * The global memory of a launch on several threads: buffers bound in shared memory are run over in place, others
 * are copied in; either way the initial memory stays at hand for a rerun and for undoing stores after a trap.
 */
import * as fs from 'fs';
import * as path from 'path';
import { assemble } from '../../../src/verify/assemble';
import { bindRanks } from '../../../src/cli/ranks';
import { BufferMemory, GlobalBuffer } from '../../../src/machine/memory';
import { randomBytes } from '../../../src/vm/io/arguments';
import { rebuildArguments, shareArguments } from '../../../src/vm/parallel/shared-memory';

const FILE = path.join(__dirname, '..', '..', '..', 'programs', 'vadd-blocks.pto');

/** programs/vadd-blocks.pto's arguments bound in `memory`: %a and %b random (seeds 1 and 2), %c zeros. */
function bound(memory: BufferMemory) {
  const asm = assemble(FILE, fs.readFileSync(FILE, 'utf8'), { target: 'a5' });
  const fn = asm.program.functions.get('vadd_blocks')!;
  const [rank] = bindRanks(asm.types, fn, [new Map()], undefined, undefined, memory);
  return rank;
}

/** Overwrites every byte and marks every element written, as a run might. */
function scribble(b: GlobalBuffer): void {
  b.bytes.fill(0xa5);
  b.written.fill(1);
}

describe.each<BufferMemory>(['own', 'shared'])('arguments bound in %s memory', (memory) => {
  it('bind the same bytes: the generated inputs do not depend on the memory', () => {
    const [a, b, c] = bound(memory).buffers;
    expect(a.bytes.buffer instanceof SharedArrayBuffer).toBe(memory === 'shared');
    expect(a.written.buffer instanceof SharedArrayBuffer).toBe(memory === 'shared');
    expect(Buffer.from(a.bytes)).toEqual(Buffer.from(randomBytes('f32', a.length, 1)));
    expect(Buffer.from(b.bytes)).toEqual(Buffer.from(randomBytes('f32', b.length, 2)));
    expect(c.bytes.every((x) => x === 0)).toBe(true);
    expect([a, b, c].every((x) => x.written.every((w) => w === 0))).toBe(true);
  });

  it(memory === 'shared' ? 'are shared in place, not copied' : 'are copied into shared memory', () => {
    const args = bound(memory);
    const sharing = shareArguments([args.values])!;
    args.buffers.forEach((b, i) => {
      const shared = sharing.shared.buffers[i];
      expect(shared.bytes === b.bytes.buffer).toBe(memory === 'shared');
      expect(shared.written === b.written.buffer).toBe(memory === 'shared');
      expect(Buffer.from(new Uint8Array(shared.bytes))).toEqual(Buffer.from(b.bytes));
    });
  });

  it('keep the initial memory through a run, publish the final one, and get the initial one back to run again', () => {
    const args = bound(memory);
    const initial = args.buffers.map((b) => Buffer.from(b.bytes));
    const sharing = shareArguments([args.values])!;
    const mine = rebuildArguments(sharing.shared);
    mine.buffers.forEach(scribble);
    // The initial memory, whatever the run did to the shared memory.
    args.buffers.forEach((_, i) => {
      expect(Buffer.from(sharing.initial.of(i).bytes)).toEqual(initial[i]);
      expect(sharing.initial.of(i).written.every((w) => w === 0)).toBe(true);
    });
    sharing.initial.publish(mine.buffers);
    for (const b of args.buffers) {
      expect(b.bytes.every((x) => x === 0xa5)).toBe(true);
      expect(b.written.every((w) => w === 1)).toBe(true);
    }
    sharing.initial.restore();
    // Copied buffers keep their initial memory until published; restoring is for buffers shared in place.
    args.buffers.forEach((b, i) => {
      expect(Buffer.from(b.bytes).equals(initial[i])).toBe(memory === 'shared');
      expect(b.written.every((w) => w === 0)).toBe(memory === 'shared');
    });
  });
});
