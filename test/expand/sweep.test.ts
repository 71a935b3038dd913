/**
 * The sweep of tile ops against their expansions (src/expand/sweep.ts). A fixed slice runs here; the whole sweep
 * runs with PTO_EXPAND_SWEEP=<file> (the table of docs/lowering.md is written to that file; with
 * PTO_EXPAND_SWEEP_INLINE=1 the expansions are inlined and folded):
 *
 *   PTO_UPSTREAM_DIR=... PTO_EXPAND_SWEEP=/tmp/sweep.md npx jest test/expand/sweep --testTimeout=3600000
 */
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import { upstreamTree } from '../../src/expand/tilelib';
import { OpKind, SweepCase, runSweep, sweepCases, sweepInput, sweepTable } from '../../src/expand/sweep';

const tree = upstreamTree(process.env.PTO_UPSTREAM_DIR);
const python = spawnSync(process.env.PYTHON ?? 'python3', ['--version']);
const skipReason = 'error' in tree ? tree.error : python.status !== 0 ? `${process.env.PYTHON ?? 'python3'} cannot run` : undefined;
if (skipReason) console.warn(`test/expand/sweep.test.ts skipped: ${skipReason}`);
const suite = skipReason ? describe.skip : describe;
const upstreamDir = 'dir' in tree ? tree.dir : '';

/** The ops of the whole sweep: the elementwise families whose kernels src/expand/kernels.ts writes (the others: families.test.ts). */
export const SWEEP_OPS: [string, OpKind][] = [
  ...['tadd', 'tsub', 'tmul', 'tdiv', 'tmax', 'tmin', 'tand', 'tor', 'tfmod', 'tpartadd', 'tpartmax', 'tpartmin', 'tpartmul'].map((op): [string, OpKind] => [
    `pto.${op}`,
    'binary',
  ]),
  ...['tshl', 'tshr'].map((op): [string, OpKind] => [`pto.${op}`, 'shift']),
  ...['tabs', 'tneg', 'trelu', 'texp', 'tlog', 'tsqrt', 'trsqrt', 'trecip', 'tnot', 'tmov'].map((op): [string, OpKind] => [`pto.${op}`, 'unary']),
  ...['tadds', 'tsubs', 'tmuls', 'tdivs', 'tmaxs', 'tmins', 'tands', 'tors', 'tfmods', 'tshls', 'tshrs'].map((op): [string, OpKind] => [`pto.${op}`, 'scalar']),
  ...['trowsum', 'trowmax', 'trowmin', 'trowprod'].map((op): [string, OpKind] => [`pto.${op}`, 'rowreduce']),
  ...['tcolsum', 'tcolmax', 'tcolmin', 'tcolprod'].map((op): [string, OpKind] => [`pto.${op}`, 'colreduce']),
  ['pto.trowexpand', 'rowexpand'],
  ['pto.tcolexpand', 'colexpand'],
  ...['add', 'sub', 'mul', 'div', 'max', 'min', 'expdif'].map((o): [string, OpKind] => [`pto.trowexpand${o}`, 'rowexpandop']),
  ...['add', 'sub', 'mul', 'div', 'max', 'min', 'expdif'].map((o): [string, OpKind] => [`pto.tcolexpand${o}`, 'colexpandop']),
];

test('the sweep inputs: f16 bits rounded from f32, no zero divisor', () => {
  const f16 = new Uint16Array(sweepInput('f16', 4, false).bytes.buffer);
  // (104729 % 2001) - 1000 = -323; -323 / 37 = -8.7297...: f16 0xc85d (-8.7265625) is the nearest.
  expect(f16[0]).toBe(0xc85d);
  const b = new Int32Array(sweepInput('i32', 2001, true).bytes.buffer);
  expect(b.every((x) => x !== 0)).toBe(true);
});

suite('sweep', () => {
  test('shifts: tshl and tshr of i32 by counts 0 to 7 agree', () => {
    const rows = runSweep(
      sweepCases(
        [
          ['pto.tshl', 'shift'],
          ['pto.tshr', 'shift'],
        ],
        ['i32'],
        [[8, 64, 8, 64]],
      ),
      upstreamDir,
    );
    expect(rows.map((r) => `${r.case.op} ${r.outcome} ${r.detail}`)).toEqual(['pto.tshl agree ', 'pto.tshr agree ']);
  });

  test('reductions and expansions: trowsum (with its scratch tile), tcolmax, trowexpand, tcolexpandmul of f32 agree', () => {
    const ops: [string, OpKind][] = [
      ['pto.trowsum', 'rowreduce'],
      ['pto.tcolmax', 'colreduce'],
      ['pto.trowexpand', 'rowexpand'],
      ['pto.tcolexpandmul', 'colexpandop'],
    ];
    const rows = runSweep(sweepCases(ops, ['f32'], [[8, 64, 8, 64]]), upstreamDir);
    expect(rows.map((r) => `${r.case.op} ${r.outcome} ${r.template}`)).toEqual([
      'pto.trowsum agree template_trowsum',
      'pto.tcolmax agree template_tcolmax',
      'pto.trowexpand agree template_trowexpand',
      'pto.tcolexpandmul agree template_tcolexpandmul',
    ]);
  });

  test('a fixed slice: tadd and tmax agree on every shape, tfmod f32 differs at its first element', () => {
    const rows = runSweep(
      sweepCases(
        [
          ['pto.tadd', 'binary'],
          ['pto.tmax', 'binary'],
          ['pto.tfmod', 'binary'],
        ],
        ['f32'],
      ),
      upstreamDir,
    );
    expect(rows.map((r) => `${r.case.op} ${r.case.vRow}x${r.case.vCol} ${r.outcome} ${r.template}`)).toEqual([
      'pto.tadd 8x64 agree template_tadd_1d',
      'pto.tadd 4x63 agree template_tadd',
      'pto.tadd 5x100 agree template_tadd',
      'pto.tmax 8x64 agree template_tmax_1d',
      'pto.tmax 4x63 agree template_tmax',
      'pto.tmax 5x100 agree template_tmax',
      'pto.tfmod 8x64 differ template_tfmod_1d',
      'pto.tfmod 4x63 differ template_tfmod',
      'pto.tfmod 5x100 differ template_tfmod',
    ]);
    // a[0] = -323/37, b[0] = 354/37: fmod keeps the dividend's sign (-8.7297...), the template adds b (0.8378...).
    expect(rows[6].detail).toBe('out[0]: tile f9ac0bc1, expanded 907c563f');
    expect(sweepTable(rows).split('\n')[4]).toBe('| pto.tfmod | 3 | 0 | 3 | 0 | 0 | f32 8x64 valid 8x64: out[0]: tile f9ac0bc1, expanded 907c563f |');
  });

  const whole = process.env.PTO_EXPAND_SWEEP;
  (whole ? test : test.skip)('the whole sweep, its table written to PTO_EXPAND_SWEEP', () => {
    const dtypes = (kind: OpKind): SweepCase['dtype'][] => (kind === 'shift' ? ['i32', 'i16'] : ['f32', 'f16', 'i32', 'i16']);
    const rows = runSweep(
      SWEEP_OPS.flatMap(([op, kind]) => sweepCases([[op, kind]], dtypes(kind))),
      upstreamDir,
    );
    fs.writeFileSync(whole!, `${sweepTable(rows)}\n`);
  });
});
