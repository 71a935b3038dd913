/**
 * Worker threads started ahead of a launch (src/vm/parallel/threads.ts), and which launches may have them
 * (coresRunApart in src/vm/interpreter.ts). The threads run the built script: `npm test` builds dist/ first.
 */
import * as fs from 'fs';
import * as path from 'path';
import { assemble } from '../../../src/verify/assemble';
import { coresRunApart } from '../../../src/vm/interpreter';
import { WorkerThreads } from '../../../src/vm/parallel/threads';

const ROOT = path.join(__dirname, '..', '..', '..');
const SCRIPT = path.join(ROOT, 'dist', 'cli', 'jobs-thread.js');
const programText = (name: string) => {
  const file = path.join(ROOT, 'programs', `${name}.pto`);
  return { path: file, text: fs.readFileSync(file, 'utf8') };
};

describe('coresRunApart: the cores a launch can run on threads of their own, before its arguments are bound', () => {
  const apart = (name: string, ranks: number, blocks: number, subblocks?: number) => {
    const { path: file, text } = programText(name);
    const asm = assemble(file, text, { target: 'a5' });
    expect(asm.diags.hasErrors()).toBe(false);
    const fn = [...asm.program.functions.values()].find(
      (f) => f.regions.length > 0 && (asm.program.functions.size === 1 || f.attrs.some((a) => a.key === 'pto.entry')),
    )!;
    return coresRunApart(asm.program, fn, ranks, { blocks, subblocks });
  };

  it('every core of a launch whose cores never wait: ranks x blocks x subblocks', () => {
    expect(apart('vadd-blocks', 1, 4)).toBe(4);
    expect(apart('vadd-blocks', 2, 3)).toBe(6);
    expect(apart('vadd-blocks', 1, 2, 3)).toBe(6);
  });

  it("none for one core, for cores that can wait for each other, or past the VM's limit of cores", () => {
    expect(apart('vadd-blocks', 1, 1)).toBe(0);
    expect(apart('cube-vector-handoff', 1, 2)).toBe(0);
    expect(apart('vadd-blocks', 1, 1 << 20)).toBe(0);
  });
});

describe('WorkerThreads', () => {
  it('starts none without the thread script, or for no thread', () => {
    const text = programText('vadd-blocks');
    expect(WorkerThreads.start(undefined, text, 2)).toBeUndefined();
    expect(WorkerThreads.start(path.join(ROOT, 'no-such-script.js'), text, 2)).toBeUndefined();
    expect(WorkerThreads.start(SCRIPT, text, 0)).toBeUndefined();
  });

  it('release stops the threads not given a launch', async () => {
    const threads = WorkerThreads.start(SCRIPT, programText('vadd-blocks'), 2)!;
    expect(threads.count).toBe(2);
    const stopped = threads.release();
    expect(threads.count).toBe(0);
    await expect(stopped).resolves.toBeUndefined();
  });
});
