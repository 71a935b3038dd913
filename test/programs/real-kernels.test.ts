/**
 * The two real-size kernels of the speed benchmark, run at full size by bin/pto-vm (so dist/ must be built; `npm test`
 * builds it): programs/matmul-gate-proj.pto (16x8192 @ 8192x256, bf16 in, f32 out) and programs/rmsnorm.pto (16x8192
 * bf16). Each output is checked bit for bit against the reference models (test/models: the order of additions
 * docs/numerics.md documents), against f64 within what bf16 and f32 rounding allow, and against the checksum its
 * plain-JavaScript baseline in bench/kernels prints for the VM's generated inputs (the bench times the two, so they
 * must compute the same thing). The CLI rather than runFunction: in Jest's module sandbox the VM runs these kernels
 * about ten times slower than under plain Node.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { execFileSync } from 'child_process';
import { runTool } from '../fixtures/cli';
import { bf16, f32 } from '../models/float';
import { matmul } from '../models/matmul';
import { Matrix, rowsOf } from '../models/matrix';
import { rowSum } from '../models/reduce';

const ROOT = path.join(__dirname, '..', '..');
const MINUTE = 60_000;

let tmp: string;
beforeAll(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'real-kernels-'));
});
afterAll(() => {
  fs.rmSync(tmp, { recursive: true, force: true });
});

/**
 * Runs programs/NAME.pto (its module names a5) with `--strict-sync`, so a missing flag fails the run, and `extra`;
 * `inputs` are written to files and bound, every pointer in `outputs` is written out afterwards (an input too: what
 * the VM generated). Returns each output's bytes.
 */
function runKernel(name: string, inputs: Record<string, Uint8Array>, outputs: string[], extra: string[] = []): Record<string, Uint8Array> {
  const args = ['run', path.join(ROOT, 'programs', `${name}.pto`), '--strict-sync', ...extra];
  for (const [arg, bytes] of Object.entries(inputs)) {
    fs.writeFileSync(path.join(tmp, `${name}-in-${arg}.bin`), bytes);
    args.push('--arg', `${arg}=${path.join(tmp, `${name}-in-${arg}.bin`)}`);
  }
  for (const arg of outputs) args.push('--out', `${arg}=${path.join(tmp, `${name}-out-${arg}.bin`)}`);
  const run = runTool('pto-vm', ...args);
  expect(run.stderr).not.toMatch(/warning|error/);
  expect(run.status).toBe(0);
  return Object.fromEntries(outputs.map((arg) => [arg, new Uint8Array(fs.readFileSync(path.join(tmp, `${name}-out-${arg}.bin`)))]));
}

const bf16Bits = (x: number): number => new Uint32Array(new Float32Array([x]).buffer)[0] >>> 16;
const bf16Value = (bits: number): number => new Float32Array(new Uint32Array([bits << 16]).buffer)[0];

/** bf16 bytes of values that bf16 holds exactly. */
function bf16Bytes(values: number[]): Uint8Array {
  const bits = Uint16Array.from(values, (v) => {
    if (bf16Value(bf16Bits(v)) !== v) throw new Error(`${v} is not a bf16 value`);
    return bf16Bits(v);
  });
  return new Uint8Array(bits.buffer);
}

const bf16Values = (bytes: Uint8Array): number[] => Array.from(new Uint16Array(bytes.slice().buffer), bf16Value);
const f32Values = (bytes: Uint8Array): number[] => Array.from(new Float32Array(bytes.slice().buffer));

/** FNV-1a of the bytes, as the baselines print it. */
function fnv1a(bytes: Uint8Array): string {
  let h = 0x811c9dc5;
  for (const b of bytes) h = Math.imul(h ^ b, 0x01000193);
  return (h >>> 0).toString(16).padStart(8, '0');
}

function baselineChecksum(script: string): string {
  const out = execFileSync(process.execPath, [path.join(ROOT, 'bench', 'kernels', script)], { encoding: 'utf8' });
  const match = /fnv1a ([0-9a-f]{8})/.exec(out);
  if (!match) throw new Error(`no checksum in the output of ${script}: ${out}`);
  return match[1];
}

/** The first index where `got` is not `want` (Object.is, so -0 and +0 differ), or undefined. */
function firstDifference(got: number[], want: number[]): string | undefined {
  if (got.length !== want.length) return `${got.length} values, want ${want.length}`;
  const i = got.findIndex((v, k) => !Object.is(v, want[k]));
  return i < 0 ? undefined : `[${i}]: got ${got[i]}, want ${want[i]}`;
}

/** Deterministic integers in [lo, hi) (a 32-bit LCG), independent of the VM's own input generator. */
function integers(count: number, seed: number, lo: number, hi: number): number[] {
  let s = seed >>> 0;
  return Array.from({ length: count }, () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return lo + ((s >>> 8) % (hi - lo));
  });
}

describe('programs/matmul-gate-proj.pto: C (16x256 f32) = A (16x8192 bf16) x B (8192x256 bf16)', () => {
  const [M, K, N] = [16, 8192, 256];
  let out: Record<string, Uint8Array>;
  let a: number[], b: number[], c: number[];
  beforeAll(() => {
    // The VM's generated inputs (bf16 uniform in [-4, 4)), which the baseline generates too; its flags must
    // order every pipe hand-off (--strict-sync).
    out = runKernel('matmul-gate-proj', {}, ['a', 'b', 'c']);
    [a, b, c] = [bf16Values(out.a), bf16Values(out.b), f32Values(out.c)];
  }, MINUTE);

  it('equals, bit for bit, the documented cube order: 64 tmatmuls of K = 128, partial sums added in K order', () => {
    // test/models/matmul.ts's order (docs/numerics.md, cube), over flat arrays: 33.5 million steps that its nested
    // arrays and Jest's slow global lookups would take about ten seconds over.
    const { fround } = Math;
    const want: number[] = [];
    for (let i = 0; i < M; i++) {
      const acc = new Float64Array(N);
      for (let k0 = 0; k0 < K; k0 += 128) {
        const partial = new Float64Array(N);
        for (let k = k0; k < k0 + 128; k++) for (let j = 0; j < N; j++) partial[j] = fround(partial[j] + a[i * K + k] * b[k * N + j]);
        for (let j = 0; j < N; j++) acc[j] = k0 === 0 ? partial[j] : fround(acc[j] + partial[j]);
      }
      want.push(...acc);
    }
    expect(firstDifference(c, want)).toBeUndefined();
  });

  it('agrees with the cube model of test/models on the first 16 columns', () => {
    const firstColumns = rowsOf(b, K, N).map((row) => row.slice(0, 16));
    const want = matmul(rowsOf(a, M, K), firstColumns, { chunks: K / 128 });
    expect(firstDifference(rowsOf(c, M, N).flatMap((row) => row.slice(0, 16)), want.flat())).toBeUndefined();
  });

  it('is within f32 accumulation error of the exact product', () => {
    // Each element goes through 127 rounded adds within a tmatmul and 63 into the accumulator; the products of
    // bf16 values are exact. So |error| <= 190 u sum|a b| (u = 2^-24) to first order; 1% more covers the rest.
    const { abs } = Math; // a local: Jest's sandbox makes every global lookup in a hot loop slow
    const outside: string[] = [];
    for (let i = 0; i < M; i++) {
      const exact = new Float64Array(N);
      const absSum = new Float64Array(N);
      for (let k = 0; k < K; k++) {
        for (let j = 0; j < N; j++) {
          const p = a[i * K + k] * b[k * N + j];
          exact[j] += p;
          absSum[j] += abs(p);
        }
      }
      for (let j = 0; j < N; j++) {
        if (abs(c[i * N + j] - exact[j]) > 1.01 * 190 * 2 ** -24 * absSum[j]) outside.push(`C[${i}][${j}] = ${c[i * N + j]}, exact ${exact[j]}`);
      }
    }
    expect(outside).toEqual([]);
  });

  it('gives the checksum bench/kernels/matmul-gate-proj.js prints', () => {
    expect(baselineChecksum('matmul-gate-proj.js')).toBe(fnv1a(out.c));
  });
});

describe('programs/matmul-gate-proj-blocks.pto: C (16x2048 f32) = A (16x8192 bf16) x B (8192x2048 bf16) on 8 blocks', () => {
  const [M, K, N] = [16, 8192, 2048];
  let one: Record<string, Uint8Array>;
  let two: Record<string, Uint8Array>;
  beforeAll(() => {
    one = runKernel('matmul-gate-proj-blocks', {}, ['a', 'b', 'c'], ['--blocks', '8', '--jobs', '1']);
    two = runKernel('matmul-gate-proj-blocks', {}, ['c'], ['--blocks', '8', '--jobs', '2']);
  }, 2 * MINUTE);

  it('writes every element of C, the same bytes on one thread and on two', () => {
    expect(one.c.length).toBe(M * N * 4);
    expect(Buffer.from(two.c).equals(Buffer.from(one.c))).toBe(true);
  });

  it('equals, bit for bit, the documented cube order on the first and last column of each block', () => {
    // Block i computes columns [256 i, 256 i + 256); the order is matmul-gate-proj's (partial sums of K = 128).
    // B has 16 M elements: decoded through typed arrays (bf16 is the high half of an f32), not value by value.
    const bf16Array = (bytes: Uint8Array) => new Float32Array(Uint32Array.from(new Uint16Array(bytes.slice().buffer), (bits) => bits << 16).buffer);
    const [a, b, c] = [bf16Array(one.a), bf16Array(one.b), f32Values(one.c)];
    const { fround } = Math;
    const columns = Array.from({ length: 8 }, (_, i) => [256 * i, 256 * i + 255]).flat();
    const got: number[] = [];
    const want: number[] = [];
    for (let i = 0; i < M; i++) {
      for (const j of columns) {
        let acc = 0;
        for (let k0 = 0; k0 < K; k0 += 128) {
          let partial = 0;
          for (let k = k0; k < k0 + 128; k++) partial = fround(partial + a[i * K + k] * b[k * N + j]);
          acc = k0 === 0 ? partial : fround(acc + partial);
        }
        want.push(acc);
        got.push(c[i * N + j]);
      }
    }
    expect(firstDifference(got, want)).toBeUndefined();
  });
});

describe('programs/rmsnorm.pto: y = x / sqrt(mean(x^2) + eps) * g over 16x8192 bf16', () => {
  const [ROWS, COLS, CHUNK] = [16, 8192, 1024];
  const EPS = f32(1e-6);

  /** The kernel's f32 steps (docs/numerics.md): squares, NPU row sums per chunk, their sum, then the per-row scale. */
  function rmsnormModel(x: Matrix, g: number[]): number[] {
    return x.flatMap((row) => {
      let sum = 0;
      for (let c0 = 0; c0 < COLS; c0 += CHUNK) sum = f32(sum + rowSum(row.slice(c0, c0 + CHUNK).map((v) => f32(v * v)), 'npu'));
      const invRms = f32(1 / f32(Math.sqrt(f32(f32(sum / COLS) + EPS))));
      return row.map((v, c) => bf16(f32(f32(v * invRms) * g[c]), 'even'));
    });
  }

  describe('on inputs whose rows differ in scale by powers of two (eps matters in the smaller rows)', () => {
    // Row r holds k * 2^-(5 + r) with integers |k| <= 128: exact in bf16, mean squares from about 5 down to 5e-9.
    const x = rowsOf(
      integers(ROWS * COLS, 7, -128, 128).map((k, i) => k * 2 ** -(5 + Math.floor(i / COLS))),
      ROWS,
      COLS,
    );
    const g = integers(COLS, 11, -128, 128).map((k) => k / 32);
    let y: number[];
    beforeAll(() => {
      y = bf16Values(runKernel('rmsnorm', { x: bf16Bytes(x.flat()), g: bf16Bytes(g) }, ['y']).y);
    }, MINUTE);

    it('equals, bit for bit, the documented f32 steps rounded to bf16', () => {
      expect(firstDifference(y, rmsnormModel(x, g))).toBeUndefined();
    });

    it('is within bf16 rounding (2^-8 relative) of RMSNorm in f64', () => {
      const outside: string[] = [];
      x.forEach((row, r) => {
        const meanSquare = row.reduce((s, v) => s + v * v, 0) / COLS;
        row.forEach((v, c) => {
          const exact = (v / Math.sqrt(meanSquare + 1e-6)) * g[c];
          if (Math.abs(y[r * COLS + c] - exact) > (2 ** -8 + 2 ** -16) * Math.abs(exact)) outside.push(`y[${r}][${c}] = ${y[r * COLS + c]}, exact ${exact}`);
        });
      });
      expect(outside).toEqual([]);
    });
  });

  it(
    'gives the checksum bench/kernels/rmsnorm.js prints, on the VM generated inputs',
    () => {
      const out = runKernel('rmsnorm', {}, ['x', 'g', 'y']);
      expect(firstDifference(bf16Values(out.y), rmsnormModel(rowsOf(bf16Values(out.x), ROWS, COLS), bf16Values(out.g)))).toBeUndefined();
      expect(baselineChecksum('rmsnorm.js')).toBe(fnv1a(out.y));
    },
    MINUTE,
  );
});
