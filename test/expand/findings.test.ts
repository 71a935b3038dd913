/**
 * Differences between PTOAS's A5 templates and the tile-level semantics, each on a minimal input (issue 38's
 * findings; docs/lowering.md lists them with their explanation). The values are worked out by hand here.
 */
import { spawnSync } from 'child_process';
import { checkLowering, BufferInput } from '../../src/expand/check';
import { upstreamTree } from '../../src/expand/tilelib';
import { binaryKernel } from '../../src/expand/kernels';

const tree = upstreamTree(process.env.PTO_UPSTREAM_DIR);
const python = spawnSync(process.env.PYTHON ?? 'python3', ['--version']);
const skipReason = 'error' in tree ? tree.error : python.status !== 0 ? `${process.env.PYTHON ?? 'python3'} cannot run` : undefined;
if (skipReason) console.warn(`test/expand/findings.test.ts skipped: ${skipReason}`);
const suite = skipReason ? describe.skip : describe;
const upstreamDir = 'dir' in tree ? tree.dir : '';

const f32 = (values: number[]): BufferInput => ({ elem: 'f32', bytes: new Uint8Array(Float32Array.from(values).buffer) });
const asF32 = (bytes: Uint8Array): number[] => Array.from(new Float32Array(bytes.slice().buffer));
const hex = (x: number): string => Buffer.from(Float32Array.of(x).buffer).toString('hex');

suite('template findings', () => {
  test('tfmod f32: the template returns the floored remainder (sign of the divisor), pto-isa the truncated one', () => {
    // fmod keeps the dividend's sign: fmod(-7, 3) = -1, fmod(7, -3) = 1. lib/TileOps/a5/_remainder.py adds the
    // divisor back for f32 where divisor * remainder < 0 (-1 + 3 = 2, 1 - 3 = -2), which is Python's -7 % 3;
    // pto-isa's A5 TFMod (a - trunc(a / b) * b) and the tile-level VM do not.
    const a = [-7, 7, -7, 7, 5.5, -5.5, 1, -1];
    const b = [3, 3, -3, -3, 2, 2, 4, 4];
    const r = checkLowering(
      binaryKernel({ op: 'pto.tfmod', dtype: 'f32', rows: 1, cols: 8, vRow: 1, vCol: 8 }),
      'kernel',
      { a: f32(a), b: f32(b), out: f32(new Array(8).fill(0)) },
      {
        upstreamDir,
        only: (op) => op === 'pto.tfmod',
      },
    );
    if ('error' in r) throw new Error(r.error);
    expect(r.expanded.map((e) => e.template)).toEqual(['template_tfmod_1d']);
    expect(r.agree).toBe(false);
    if (r.agree) return;
    expect(r.difference).toEqual({ buffer: 'out', element: 0, tileLevel: hex(-1), expanded: hex(2) });
    expect(asF32(r.outputs.get('out')!)).toEqual([2, 1, -1, -2, 1.5, 0.5, 1, 3]);
  });
});
