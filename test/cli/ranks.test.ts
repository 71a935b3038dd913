/**
 * pto-vm run --ranks R: per-rank --arg / --out (rank prefixes, `{rank}` in values and paths, `@K[:NAME]` peer
 * buffers). The parsing is tested in-process; the end-to-end runs spawn the built CLI (dist/ must be built).
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { rankedPairs } from '../../src/cli/ranks';
import { UsageError } from '../../src/cli/common';
import { parseNpy, writeNpy } from '../../src/vm/io/npy';
import { runTool } from '../fixtures/cli';

describe('rankedPairs', () => {
  it('an item without a rank applies to every rank; a rank prefix overrides it on that rank; {rank} and {ranks} are filled in', () => {
    const perRank = rankedPairs(['x=in_{rank}.npy', 'me={rank}', 'n={ranks}', '1:x=zeros:4', '%y=@0'], '--arg', 3);
    expect(perRank.map((m) => Object.fromEntries(m))).toEqual([
      { x: 'in_0.npy', me: '0', n: '3', y: '@0' },
      { x: 'zeros:4', me: '1', n: '3', y: '@0' },
      { x: 'in_2.npy', me: '2', n: '3', y: '@0' },
    ]);
  });

  it('usage errors: a rank outside --ranks, a name given twice in one scope, a shared --out path, no NAME=', () => {
    expect(() => rankedPairs(['2:x=1'], '--arg', 2)).toThrow(new UsageError('--arg 2:x=1: rank 2 is not one of the 2 ranks (--ranks 2)'));
    expect(() => rankedPairs(['1:x=1', '1:x=2'], '--arg', 2)).toThrow(new UsageError('--arg 1:x is given twice'));
    expect(() => rankedPairs(['x=1', '1:x=2'], '--arg', 2)).not.toThrow();
    expect(() => rankedPairs(['x=o.npy'], '--out', 2)).toThrow(UsageError);
    expect(() => rankedPairs(['x=o.npy'], '--out', 1)).not.toThrow();
    expect(() => rankedPairs(['x'], '--arg', 1)).toThrow(new UsageError('--arg x: expected [RANK:]NAME=VALUE'));
  });
});

/** Each rank puts its 8 floats %mine into the %inbox of the rank its %next addresses (a ring). */
const RING = `func.func @ring(%mine: !pto.ptr<f32>, %inbox: !pto.ptr<f32>, %next: !pto.ptr<f32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %mt = pto.make_tensor_view %mine, shape = [%c8], strides = [%c1] : !pto.tensor_view<8xf32>
  %mv = pto.partition_view %mt, offsets = [%c0], sizes = [%c8] : !pto.tensor_view<8xf32> -> !pto.partition_tensor_view<8xf32>
  %it = pto.make_tensor_view %inbox, shape = [%c8], strides = [%c1] : !pto.tensor_view<8xf32>
  %nt = pto.make_tensor_view %next, shape = [%c8], strides = [%c1] : !pto.tensor_view<8xf32>
  %nv = pto.partition_view %nt, offsets = [%c0], sizes = [%c8] : !pto.tensor_view<8xf32> -> !pto.partition_tensor_view<8xf32>
  %stage = pto.alloc_tile : !pto.tile_buf<vec, 1x8xf32>
  pto.comm.tput(%nv, %mv, buf(%stage) : !pto.partition_tensor_view<8xf32>, !pto.partition_tensor_view<8xf32>, !pto.tile_buf<vec, 1x8xf32>)
  return
}
`;

describe('pto-vm run --ranks', () => {
  let tmp: string;
  let program: string;
  const inputs = [
    [1, 2, 3, 4, 5, 6, 7, 8],
    [10, 20, 30, 40, 50, 60, 70, 80],
    [-1, -2, -3, -4, -5, -6, -7, -8],
  ];
  beforeAll(() => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'pto-vm-ranks-'));
    program = path.join(tmp, 'ring.pto');
    fs.writeFileSync(program, RING);
    inputs.forEach((values, rank) => fs.writeFileSync(path.join(tmp, `in_${rank}.npy`), writeNpy('f32', [8], new Uint8Array(new Float32Array(values).buffer))));
  });
  afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

  const readFloats = (file: string) => {
    const array = parseNpy(fs.readFileSync(file));
    return Array.from(new Float32Array(array.data.buffer.slice(array.data.byteOffset, array.data.byteOffset + array.data.byteLength)));
  };
  const ring = ['--arg', '0:next=@1:inbox', '--arg', '1:next=@2:inbox', '--arg', '2:next=@0:inbox'];

  it('per-rank inputs and outputs through {rank}; each inbox holds the previous rank of the ring', () => {
    const r = runTool(
      'pto-vm',
      'run',
      program,
      '--ranks',
      '3',
      '--arg',
      `mine=${path.join(tmp, 'in_{rank}.npy')}`,
      '--arg',
      'inbox=zeros:8',
      ...ring,
      '--out',
      `inbox=${path.join(tmp, 'out_{rank}.npy')}`,
    );
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(readFloats(path.join(tmp, 'out_0.npy'))).toEqual(inputs[2]);
    expect(readFloats(path.join(tmp, 'out_1.npy'))).toEqual(inputs[0]);
    expect(readFloats(path.join(tmp, 'out_2.npy'))).toEqual(inputs[1]);
  });

  it('a rank prefix on --out writes that rank only; the summary and --json are per rank', () => {
    const only = path.join(tmp, 'only_1.npy');
    const base = ['run', program, '--ranks', '3', '--arg', `mine=${path.join(tmp, 'in_{rank}.npy')}`, '--arg', 'inbox=zeros:8', ...ring];
    expect(runTool('pto-vm', ...base, '--out', `1:inbox=${only}`).status).toBe(0);
    expect(readFloats(only)).toEqual(inputs[0]);
    const summary = runTool('pto-vm', ...base).stdout;
    expect(summary).toContain('@ring on a2a3 on 3 ranks');
    expect(summary).toContain('rank 1:\n  %inbox: f32, wrote 8 of 8 elements (input: zeros:8)\n    [0] 1 2 3 4 5 6 7 8');
    const json = JSON.parse(runTool('pto-vm', ...base, '--json').stdout);
    expect(json.ranks.map((r: { rank: number; outputs: Record<string, { values: number[] }> }) => [r.rank, r.outputs.inbox.values])).toEqual([
      [0, inputs[2]],
      [1, inputs[0]],
      [2, inputs[1]],
    ]);
    // %next is a peer's buffer: the rank that holds it lists it.
    expect(Object.keys(json.ranks[0].outputs).sort()).toEqual(['inbox', 'mine']);
  });

  it('usage errors exit 2: a rank outside --ranks, a peer outside --ranks, one --out path for every rank, --ranks 0', () => {
    const base = ['run', program, '--ranks', '2'];
    const cases: [string[], string][] = [
      [['--arg', '2:mine=zeros:8'], 'error: --arg 2:mine=zeros:8: rank 2 is not one of the 2 ranks (--ranks 2)'],
      [['--arg', 'next=@5:inbox'], 'error: --arg next=@5:inbox: rank 5 is not one of the 2 ranks (--ranks 2)'],
      [
        ['--out', 'inbox=o.npy'],
        'error: --out inbox=o.npy: with --ranks 2 every rank would write o.npy: put {rank} in the path, or a rank before the name (0:inbox=...)',
      ],
    ];
    for (const [extra, message] of cases) {
      const r = runTool('pto-vm', ...base, ...extra);
      expect([r.status, r.stderr.split('\n')[0]]).toEqual([2, message]);
    }
    expect(runTool('pto-vm', 'run', program, '--ranks', '0').status).toBe(2);
  });
});
