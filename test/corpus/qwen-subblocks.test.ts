/**
 * The two mixed kernels of PTOAS's Qwen3 decode folders that the board flow reports as failing (out_proj_residual,
 * down_proj_residual) fail against a golden that models one vector sub-block: it picks the sub-block from the
 * integer assignments of main.cpp (ints[1], the harness's `int rc = 0;`), computes rows 0..7 and leaves rows 8..15
 * zero, where sub-block 1 of the launch (one cube core and two vector cores) writes. This test shows that the VM's
 * rows of each sub-block are what the golden script itself computes for that sub-block: it runs the case as the
 * board flow does, then the same golden script once more with ints[1] = 1 (the inputs come out identical: the
 * script's generator is seeded) and compares rows 8..15 with that second golden, at the case's tolerance (or within
 * 2^-23 where a sum cancels to near zero and the two summation orders part).
 *
 *   PTO_UPSTREAM_DIR=/path/to/PTOAS npx jest test/corpus/qwen-subblocks
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { spawnSync } from 'child_process';
import { findCases } from '../../src/board/cases';
import { validateCase } from '../../src/board/validate';
import { compareBuffers, harnessTolerance } from '../../src/board/compare';
import { ElemType } from '../../src/types/type';

const root = process.env.PTO_UPSTREAM_DIR;
const hasNumpy = spawnSync('python3', ['-c', 'import numpy'], { encoding: 'utf8' }).status === 0;
const ROWS = 16;
const SUBBLOCK_ROWS = 8;

/** The output's element type as the harness declares it in main.cpp (float or the bf16 bits). */
function outputElem(mainCpp: string, name: string): ElemType {
  const host = new RegExp(`fileSize_${name} = elemCount_${name} \\* sizeof\\((\\w+)\\)`).exec(mainCpp)?.[1];
  if (host === 'float') return 'f32';
  if (host === 'uint16_t') return 'bf16';
  throw new Error(`unexpected host type ${host} for ${name}`);
}

if (!root) {
  test.skip('PTO_UPSTREAM_DIR is not set: export tonibohnlein/PTOAS (e32488c9) and point PTO_UPSTREAM_DIR at it', () => undefined);
} else if (!hasNumpy) {
  test.skip("python3 with numpy is not available: PTOAS's golden scripts cannot run", () => undefined);
} else {
  const cases = ['Qwen3DecodeA5', 'Qwen3DecodeA3'].flatMap((folder) => ['out_proj_residual', 'down_proj_residual'].map((name) => ({ folder, name })));
  test.each(cases)(
    '$folder/$name: rows 0..7 match the golden of sub-block 0, rows 8..15 the golden of sub-block 1',
    async ({ folder, name }) => {
      const keep = fs.mkdtempSync(path.join(os.tmpdir(), 'qwen-subblocks-'));
      try {
        const c = findCases(path.join(root, 'test', 'samples', folder)).find((x) => x.testcase === name)!;
        const result = await validateCase(c, { keep });
        expect(result.outcome).toBe('fail');
        const dir = path.join(keep, folder, name);
        const mainCpp = fs.readFileSync(path.join(dir, 'main.cpp'), 'utf8');
        const [out] = fs.readFileSync(path.join(dir, 'outputs.txt'), 'utf8').split('\n');
        const elem = outputElem(mainCpp, out);
        // The golden script once more, choosing sub-block 1.
        const second = path.join(keep, 'subblock1');
        fs.mkdirSync(second);
        for (const f of fs.readdirSync(dir).filter((f) => f.endsWith('.py') || f === 'outputs.txt')) fs.copyFileSync(path.join(dir, f), path.join(second, f));
        expect(mainCpp).toContain('int rc = 0;');
        fs.writeFileSync(path.join(second, 'main.cpp'), mainCpp.replace('int rc = 0;', 'int rc = 1;'));
        const golden = spawnSync('python3', [`${name}_golden.py`], {
          cwd: second,
          env: { ...process.env, SOC_VERSION: folder.endsWith('A5') ? 'Ascend950' : 'Ascend910' },
          encoding: 'utf8',
        });
        expect(golden.status).toBe(0);
        for (const input of fs.readdirSync(dir).filter((f) => /^v\d+\.bin$/.test(f) && f !== `${out}.bin`))
          expect(fs.readFileSync(path.join(second, input)).equals(fs.readFileSync(path.join(dir, input)))).toBe(true);
        const vm = new Uint8Array(fs.readFileSync(path.join(dir, `${out}.bin`)));
        const golden0 = new Uint8Array(fs.readFileSync(path.join(dir, `golden_${out}.bin`)));
        const golden1 = new Uint8Array(fs.readFileSync(path.join(second, `golden_${out}.bin`)));
        const half = (bytes: Uint8Array, which: 0 | 1) => {
          const rowBytes = bytes.length / ROWS;
          return bytes.subarray(which * SUBBLOCK_ROWS * rowBytes, (which + 1) * SUBBLOCK_ROWS * rowBytes);
        };
        // The case's tolerance (bf16: 1 ulp) and, for a sum that cancels to near zero, where a bf16 ulp is tiny, an
        // absolute 2^-23: numpy and the VM add the f32 products in different orders.
        const agree = (got: Uint8Array, want: Uint8Array) => {
          const strict = compareBuffers(got, want, harnessTolerance(elem));
          const loose = compareBuffers(got, want, { elem, atol: 2 ** -23 });
          return strict.mismatches === 0 || loose.maxAbs <= 2 ** -23;
        };
        // The first golden leaves sub-block 1's rows zero; the VM fills them.
        expect(half(golden0, 1).every((b) => b === 0)).toBe(true);
        expect(half(vm, 1).some((b) => b !== 0)).toBe(true);
        expect(agree(half(vm, 0), half(golden0, 0))).toBe(true);
        expect(agree(half(vm, 1), half(golden1, 1))).toBe(true);
      } finally {
        fs.rmSync(keep, { recursive: true, force: true });
      }
    },
    10 * 60 * 1000,
  );
}
