/**
 * The VPTO golden suite's layout (src/board/vpto.ts, vpto-suite.ts), made here: a family folder with a helper module
 * its scripts import by __file__, cases with kernel.pto, golden.py, compare.py and a host harness as the suite
 * writes them (no case table, `__global__ [aicore]`, device-only `#if defined(__CCE_AICORE__)` blocks, file names
 * made by snprintf), ptoas.flags, an onboard-only case and a PTODSL one.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { spawnSync } from 'child_process';
import { compileFlags, familyOf, listCases, runCase } from '../../src/board/vpto';
import { categoryOf, exceptionsOf, familySummary } from '../../src/board/vpto-suite';
import { pythonRunner } from '../../src/board/python-runner';

const hasNumpy = spawnSync(process.env.PYTHON ?? 'python3', ['-c', 'import numpy'], { encoding: 'utf8' }).status === 0;

/** A 2x8 f32 tadds kernel (a tile op the VM runs today): dst = src + scalar. */
const KERNEL = `module attributes {pto.target_arch = "a5"} {
  func.func @k(%src_ptr: !pto.ptr<f32>, %dst_ptr: !pto.ptr<f32>, %scalar: f32) attributes {pto.kernel} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c8 = arith.constant 8 : index
    %c16 = arith.constant 16 : index
    %sv = pto.make_tensor_view %src_ptr, shape = [%c1, %c1, %c1, %c2, %c8], strides = [%c16, %c16, %c16, %c8, %c1] : !pto.tensor_view<1x1x1x2x8xf32>
    %dv = pto.make_tensor_view %dst_ptr, shape = [%c1, %c1, %c1, %c2, %c8], strides = [%c16, %c16, %c16, %c8, %c1] : !pto.tensor_view<1x1x1x2x8xf32>
    %sp = pto.partition_view %sv, offsets = [%c0, %c0, %c0, %c0, %c0], sizes = [%c1, %c1, %c1, %c2, %c8] : !pto.tensor_view<1x1x1x2x8xf32> -> !pto.partition_tensor_view<1x1x1x2x8xf32>
    %dp = pto.partition_view %dv, offsets = [%c0, %c0, %c0, %c0, %c0], sizes = [%c1, %c1, %c1, %c2, %c8] : !pto.tensor_view<1x1x1x2x8xf32> -> !pto.partition_tensor_view<1x1x1x2x8xf32>
    %s = pto.alloc_tile : !pto.tile_buf<vec, 2x8xf32>
    %d = pto.alloc_tile : !pto.tile_buf<vec, 2x8xf32>
    pto.tload ins(%sp : !pto.partition_tensor_view<1x1x1x2x8xf32>) outs(%s : !pto.tile_buf<vec, 2x8xf32>)
    pto.tadds ins(%s, %scalar : !pto.tile_buf<vec, 2x8xf32>, f32) outs(%d : !pto.tile_buf<vec, 2x8xf32>)
    pto.tstore ins(%d : !pto.tile_buf<vec, 2x8xf32>) outs(%dp : !pto.partition_tensor_view<1x1x1x2x8xf32>)
    return
  }
}
`;
const LAUNCH = `
#if defined(__CCE_AICORE__) && defined(__NPU_ARCH__) && (__NPU_ARCH__ == 2201)
this is device-only text the host compile never sees
#endif
#if !defined(__CCE_AICORE__)
extern "C" __global__ [aicore] void k(__gm__ float *src, __gm__ float *dst, float scalar);
#endif
void LaunchK(float *src, float *dst, void *stream) { k<<<1, nullptr, stream>>>((__gm__ float *)src, (__gm__ float *)dst, 1.5f); }
`;
const MAIN = `
#include "test_common.h"
using namespace PtoTestCommon;
void LaunchK(float *src, float *dst, void *stream);
int main() {
  size_t bytes = 16 * sizeof(float), size = bytes;
  float *host = nullptr, *src = nullptr, *dst = nullptr;
  aclrtMallocHost((void **)&host, bytes);
  aclrtMalloc((void **)&src, bytes, ACL_MEM_MALLOC_HUGE_FIRST);
  aclrtMalloc((void **)&dst, bytes, ACL_MEM_MALLOC_HUGE_FIRST);
  char path[16];
  std::snprintf(path, sizeof(path), "./v%d.bin", 1);
  if (!ReadFile(path, size, host, bytes)) { std::fprintf(stderr, "[ERROR] cannot read %s\\n", path); return 1; }
  aclrtMemcpy(src, bytes, host, bytes, ACL_MEMCPY_HOST_TO_DEVICE);
  std::fill_n(host, 16, 0);
  LaunchK(src, dst, nullptr);
  aclrtMemcpy(host, bytes, dst, bytes, ACL_MEMCPY_DEVICE_TO_HOST);
  std::snprintf(path, sizeof(path), "./v%d.bin", 2);
  return WriteFile(path, host, bytes) ? 0 : 1;
}
`;
/** golden.py: the input 0..15 and the golden from the family's helper (the bad case's golden is off by one). */
const GOLDEN = (offset: number) => `import sys
from pathlib import Path
import numpy as np
sys.path.append(str(Path(__file__).resolve().parent.parent))
from _helper import expected
src = np.arange(16, dtype=np.float32)
src.tofile("v1.bin")
(expected(src) + np.float32(${offset})).tofile("golden_v2.bin")
`;
const COMPARE = `import os, sys
import numpy as np
assert os.environ.get("COMPARE_STRICT") == "1"
if not np.array_equal(np.fromfile("golden_v2.bin", dtype=np.float32), np.fromfile("v2.bin", dtype=np.float32)):
    print("[ERROR] compare failed: v2")
    sys.exit(2)
print("[INFO] compare passed")
`;

function makeSuite(): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'vpto-cases-'));
  const write = (rel: string, text: string) => {
    fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    fs.writeFileSync(path.join(root, rel), text);
  };
  write('micro-op/fam/_helper.py', 'import numpy as np\ndef expected(src):\n    return src + np.float32(1.5)\n');
  for (const [name, offset] of [
    ['good', 0],
    ['bad', 1],
  ] as const) {
    const dir = `micro-op/fam/${name}`;
    write(`${dir}/kernel.pto`, KERNEL);
    write(`${dir}/launch.cpp`, LAUNCH);
    write(`${dir}/main.cpp`, MAIN);
    write(`${dir}/golden.py`, GOLDEN(offset));
    write(`${dir}/compare.py`, COMPARE);
  }
  write('micro-op/fam/good/ptoas.flags', '--pto-arch a5\n');
  for (const f of ['kernel.pto', 'launch.cpp', 'main.cpp', 'golden.py', 'compare.py']) write(`onboard-only/board/${f}`, '');
  write('kernels/dsl/kernel.py', '');
  // PTODSL scripts whose jit gives the kernel's MLIR (source=): a copy of 16 f32; the golden is the input (right) or
  // the input + 1 (wrong). _dsl_common.py stands for test/dsl-st/common.py's golden_output_case.
  write('micro-op/dslfam/_dsl_common.py', DSL_COMMON);
  write('micro-op/dslfam/copy_ok.py', DSL_SCRIPT('0'));
  write('micro-op/dslfam/copy_bad.py', DSL_SCRIPT('1'));
  write('vmi_new/not-a-case/README.md', 'no kernel here');
  return root;
}

const DSL_COMMON = `import numpy as np
def golden_output_case(name, kernel, *, inputs, expected, rtol=1e-5, atol=1e-5):
    def make_case():
        host = [np.array(v, copy=True) for v in inputs()]
        golden = np.array(expected(*host), copy=True)
        return [*host, np.zeros(golden.shape, golden.dtype)], golden
    def check(device, golden):
        np.testing.assert_allclose(device[-1].cpu().numpy(), golden, rtol=rtol, atol=atol)
    return {"name": name, "kernel": kernel, "make_case": make_case, "check": check}
`;
const DSL_SCRIPT = (plus: string) => `import os, sys
import numpy as np
sys.path.insert(0, os.path.dirname(__file__))
from _dsl_common import golden_output_case
from ptodsl import pto
SOURCE = """module attributes {pto.target_arch = "a5", pto.kernel_kind = #pto.kernel_kind<vector>} {
  func.func @copy_kernel(%src: !pto.ptr<f32, gm>, %dst: !pto.ptr<f32, gm>) {
    %c0 = arith.constant 0 : i64
    %c1 = arith.constant 1 : i64
    %c64 = arith.constant 64 : i64
    %ub = pto.castptr %c0 : i64 -> !pto.ptr<f32, ub>
    pto.mte_gm_ub %src, %ub, %c0, %c64 nburst(%c1, %c64, %c64) : !pto.ptr<f32, gm>, !pto.ptr<f32, ub>, i64, i64, i64, i64, i64
    pto.set_flag["PIPE_MTE2", "PIPE_MTE3", "EVENT_ID0"]
    pto.wait_flag["PIPE_MTE2", "PIPE_MTE3", "EVENT_ID0"]
    pto.mte_ub_gm %ub, %dst, %c64 nburst(%c1, %c64, %c64) : !pto.ptr<f32, ub>, !pto.ptr<f32, gm>, i64, i64, i64, i64
    return
  }
}"""
@pto.jit(name="copy_kernel", target="a5", mode="explicit", source=SOURCE)
def copy_kernel(src: pto.ptr(pto.f32, "gm"), dst: pto.ptr(pto.f32, "gm")):
    pass
CASES = [golden_output_case("copy", copy_kernel, inputs=lambda: [np.arange(16, dtype=np.float32)], expected=lambda x: x + ${plus})]
`;

describe('the suite layout', () => {
  const root = makeSuite();
  afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

  test('cases as run_host_vpto_validation.sh discovers them, with their families; PTODSL ones by kernel.py', () => {
    expect(listCases(root)).toEqual([
      { id: 'kernels/dsl', family: 'kernels', kind: 'ptodsl' },
      { id: 'micro-op/dslfam/copy_bad.py', family: 'micro-op/dslfam', kind: 'ptodsl' },
      { id: 'micro-op/dslfam/copy_ok.py', family: 'micro-op/dslfam', kind: 'ptodsl' },
      { id: 'micro-op/fam/bad', family: 'micro-op/fam', kind: 'pto' },
      { id: 'micro-op/fam/good', family: 'micro-op/fam', kind: 'pto' },
      { id: 'onboard-only/board', family: 'onboard-only', kind: 'pto' },
    ]);
    expect(familyOf('vmi_new/kernels/tquant-int8-sym-8x128')).toBe('vmi_new');
  });

  test("ptoas.flags decides the target and the back end; without it upstream's default (a5, vpto)", () => {
    expect(compileFlags(path.join(root, 'micro-op/fam/good'))).toEqual({ target: 'a5', backend: undefined, flags: ['--pto-arch', 'a5'] });
    expect(compileFlags(path.join(root, 'micro-op/fam/bad'))).toEqual({ target: 'a5', backend: 'vpto', flags: ['--pto-arch', 'a5', '--pto-backend=vpto'] });
  });

  (hasNumpy ? test : test.skip)('golden.py, the host with the kernel on the VM, compare.py: a right golden passes, a wrong one fails', async () => {
    const runner = pythonRunner(process.env.PYTHON ?? 'python3');
    const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'vpto-scratch-'));
    try {
      const results = [];
      for (const c of listCases(root)) results.push(await runCase(root, c, { runner, scratch }));
      expect(results).toEqual([
        { id: 'kernels/dsl', outcome: 'skip', reason: expect.stringMatching(/^PTODSL case not taken: .*has no CASES list/) },
        // The script's own check judges the VM's output: 0..15 copied is the input, not the input + 1.
        { id: 'micro-op/dslfam/copy_bad.py', outcome: 'fail', reason: 'copy: Mismatched elements: 16 / 16 (100%)' },
        { id: 'micro-op/dslfam/copy_ok.py', outcome: 'pass' },
        { id: 'micro-op/fam/bad', outcome: 'fail', reason: 'compare.py: [ERROR] compare failed: v2' },
        { id: 'micro-op/fam/good', outcome: 'pass' },
        { id: 'onboard-only/board', outcome: 'skip', reason: expect.stringMatching(/^onboard-only/) },
      ]);
      // The output folder is upstream's case token; the kernel wrote 0..15 + 1.5.
      const out = new Uint8Array(fs.readFileSync(path.join(scratch, 'micro-op_fam_good', 'v2.bin')));
      expect([...new Float32Array(out.buffer)]).toEqual(Array.from({ length: 16 }, (_, i) => i + 1.5));
      expect(familySummary(results)).toEqual([
        { family: 'micro-op/dslfam', pass: 1, fail: 1, error: 0, skip: 0 },
        { family: 'micro-op/fam', pass: 1, fail: 1, error: 0, skip: 0 },
        { family: 'kernels', pass: 0, fail: 0, error: 0, skip: 1 },
        { family: 'onboard-only', pass: 0, fail: 0, error: 0, skip: 1 },
      ]);
    } finally {
      runner.close();
      fs.rmSync(scratch, { recursive: true, force: true });
    }
  });
});

describe('categories and the exception list', () => {
  test('a kernel the toolchain cannot read yet counts under its first unsupported op (or type)', () => {
    expect(categoryOf('not supported yet: pto.mte_gm_ub (micro-op/x/kernel.pto:26:5; 7 more: pto.vecscope)')).toBe('not supported yet: pto.mte_gm_ub');
    expect(categoryOf('not supported yet: !pto.vmi.vreg (vmi_new/x/kernel.pto:10:34)')).toBe('not supported yet: !pto.vmi.vreg');
    expect(categoryOf('compare.py: [ERROR] compare failed: f16')).toBe('wrong values (compare.py fails)');
    expect(categoryOf('internal error: boom')).toBe('internal error (a defect of this toolchain)');
  });

  test('grouped by category, then by case; skipped cases are not exceptions', () => {
    expect(
      exceptionsOf([
        { id: 'b/x', outcome: 'error', reason: 'not supported yet: pto.vlds (b/x/kernel.pto:1:1)' },
        { id: 'a/y', outcome: 'fail', reason: 'compare.py: [ERROR] no' },
        { id: 'a/x', outcome: 'error', reason: 'not supported yet: pto.vlds (a/x/kernel.pto:1:1)' },
        { id: 'c', outcome: 'skip', reason: 'onboard-only: never on the simulator' },
        { id: 'd', outcome: 'pass' },
      ]),
    ).toEqual({
      'not supported yet: pto.vlds': { 'a/x': 'not supported yet: pto.vlds (a/x/kernel.pto:1:1)', 'b/x': 'not supported yet: pto.vlds (b/x/kernel.pto:1:1)' },
      'wrong values (compare.py fails)': { 'a/y': 'compare.py: [ERROR] no' },
    });
  });
});
