/**
 * The shipped programs a multi-device or a vector -> cube kernel starts from (programs/two-rank-exchange.pto,
 * programs/vector-cube-handoff.pto), run through the built CLI as their header comments say, with results derived
 * here independently.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { writeNpy } from '../../src/vm/io/npy';
import { ROOT, runTool } from '../fixtures/cli';

const program = (name: string) => path.join(ROOT, 'programs', name);
const valuesOf = (json: { values: number[] }) => json.values;

describe('programs/two-rank-exchange.pto', () => {
  test("each rank's inbox holds the other rank's %mine", () => {
    const r = runTool(
      'pto-vm',
      'run',
      program('two-rank-exchange.pto'),
      '--ranks',
      '2',
      '--arg',
      'mine=random:8:{rank}',
      '--arg',
      'inbox=zeros:8',
      '--arg',
      '0:peer=@1:inbox',
      '--arg',
      '1:peer=@0:inbox',
      '--json',
    );
    expect(r.status).toBe(0);
    const [rank0, rank1] = JSON.parse(r.stdout).ranks;
    // The two seeds give different data, so a copy to the wrong rank (or none) shows.
    expect(valuesOf(rank0.outputs.mine)).not.toEqual(valuesOf(rank1.outputs.mine));
    expect(valuesOf(rank0.outputs.inbox)).toEqual(valuesOf(rank1.outputs.mine));
    expect(valuesOf(rank1.outputs.inbox)).toEqual(valuesOf(rank0.outputs.mine));
  });
});

describe('programs/vector-cube-handoff.pto', () => {
  let tmp: string;
  beforeAll(() => (tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'handoff-'))));
  afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

  test('the cube computes X x B from the rows the two vector cores push', () => {
    // Small integers: every product and partial sum is exact in f32, so any summation order gives these values.
    const x = Array.from({ length: 256 }, (_, i) => ((i * 7) % 11) - 5);
    const b = Array.from({ length: 256 }, (_, i) => ((i * 5) % 9) - 4);
    const npy = (name: string, values: number[]) => {
      const file = path.join(tmp, `${name}.npy`);
      fs.writeFileSync(file, writeNpy('f32', [16, 16], new Uint8Array(new Float32Array(values).buffer)));
      return file;
    };
    const r = runTool('pto-vm', 'run', program('vector-cube-handoff.pto'), '--arg', `x=${npy('x', x)}`, '--arg', `b=${npy('b', b)}`, '--json');
    expect(r.status).toBe(0);
    const expected: number[] = [];
    for (let i = 0; i < 16; i++) {
      for (let j = 0; j < 16; j++) {
        let sum = 0;
        for (let k = 0; k < 16; k++) sum += x[i * 16 + k] * b[k * 16 + j];
        expected.push(sum);
      }
    }
    expect(valuesOf(JSON.parse(r.stdout).outputs.c)).toEqual(expected);
  });
});
