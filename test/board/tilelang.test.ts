/**
 * One testcase of the tile-op suite's layout (src/board/tilelang.ts), made here: gen_data.py, a kernel whose
 * parameters come in another order than the host's files, a host harness, compare.py. And how a host's scalar
 * reaches a kernel parameter (scalarValue).
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { spawnSync } from 'child_process';
import { runTestcase, scalarValue } from '../../src/board/tilelang';
import { pythonRunner } from '../../src/board/python-runner';

describe('scalarValue', () => {
  test('the bits of an integer C value for a float parameter, as the kernel reads them', () => {
    expect(scalarValue('u16', 0x4200n, 'f16')).toBe(3); // f16 0x4200 = 3.0
    expect(scalarValue('u16', 0x7befn, 'f16')).toBe(64992); // 0x7bef: 2^15 * (1 + 1007/1024), np.float16(65000)
    expect(scalarValue('u32', 0x3f800000n, 'f32')).toBe(1);
  });
  test('a float C value for a float parameter: rounded to its type; integers keep their value', () => {
    expect(scalarValue('f32', 0.1, 'f16')).toBe(1638 / 16384); // 0.1 to f16: 0x2e66 = 1.599609375 * 2^-4
    expect(scalarValue('f32', 3, 'f32')).toBe(3);
    expect(scalarValue('i32', -5n, 'i32')).toBe(-5n);
    expect(scalarValue('i16', 7n, 'i16')).toBe(7n);
  });
});

const hasNumpy = spawnSync(process.env.PYTHON ?? 'python3', ['-c', 'import numpy'], { encoding: 'utf8' }).status === 0;

/** A 2x8 f32 tadds kernel: dst first, then src, then the scalar. */
const KERNEL = `module attributes {pto.target_arch = "a5"} {
  func.func @K(%dst_ptr: !pto.ptr<f32>, %src_ptr: !pto.ptr<f32>, %scalar: f32) attributes {pto.kernel} {
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
static constexpr float K_SCALAR = 1.5f;
extern "C" __global__ AICORE void K(__gm__ float *dst, __gm__ float *src, float scalar);
void LaunchK(float *src, float *dst, void *stream) { K<<<1, nullptr, stream>>>((__gm__ float *)dst, (__gm__ float *)src, K_SCALAR); }
`;
const MAIN = `
void LaunchK(float *src, float *dst, void *stream);
struct TestCase { const char *name; void (*launch)(float *, float *, void *); size_t rows; size_t cols; };
static const TestCase kCases[] = { {"good", LaunchK, 2, 8}, {"bad", LaunchK, 2, 8} };
static int RunCase(const TestCase &tc, aclrtStream stream) {
    size_t bytes = tc.rows * tc.cols * sizeof(float), actual = 0;
    std::string dir = std::string("./") + tc.name;
    float *srcHost = nullptr, *dstHost = nullptr, *srcDevice = nullptr, *dstDevice = nullptr;
    aclrtMallocHost((void **)(&srcHost), bytes);
    aclrtMallocHost((void **)(&dstHost), bytes);
    aclrtMalloc((void **)&srcDevice, bytes, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMalloc((void **)&dstDevice, bytes, ACL_MEM_MALLOC_HUGE_FIRST);
    if (!ReadFile(dir + "/input1.bin", actual, srcHost, bytes)) return 1;
    aclrtMemcpy(srcDevice, bytes, srcHost, bytes, ACL_MEMCPY_HOST_TO_DEVICE);
    tc.launch(srcDevice, dstDevice, stream);
    aclrtMemcpy(dstHost, bytes, dstDevice, bytes, ACL_MEMCPY_DEVICE_TO_HOST);
    return WriteFile(dir + "/output.bin", dstHost, bytes) ? 0 : 1;
}
int main(int argc, char *argv[]) {
    const char *caseFilter = (argc > 1) ? argv[1] : nullptr;
    for (size_t i = 0; i < sizeof(kCases) / sizeof(kCases[0]); ++i) {
        if (caseFilter != nullptr && std::strcmp(kCases[i].name, caseFilter) != 0) continue;
        if (RunCase(kCases[i], nullptr) != 0) return 1;
    }
    return 0;
}
`;
const GEN_DATA = `
import os
import numpy as np
for name, offset in (("good", 1.5), ("bad", 2.5)):
    os.makedirs(name, exist_ok=True)
    x = np.arange(16, dtype=np.float32)
    x.tofile(os.path.join(name, "input1.bin"))
    (x + np.float32(offset)).tofile(os.path.join(name, "golden.bin"))
`;
const COMPARE = `
import os, sys
import numpy as np
ok = True
for name in ("good", "bad"):
    if len(sys.argv) > 1 and sys.argv[1] != name:
        continue
    g = np.fromfile(os.path.join(name, "golden.bin"), dtype=np.float32)
    o = np.fromfile(os.path.join(name, "output.bin"), dtype=np.float32)
    if not np.array_equal(g, o):
        print(f"[ERROR] {name}: golden {g[0]} output {o[0]}")
        ok = False
sys.exit(0 if ok else 2)
`;

(hasNumpy ? describe : describe.skip)('runTestcase (needs python3 with numpy)', () => {
  test("the host's buffers reach the kernel's parameters in the kernel's order; compare.py judges each case", async () => {
    const suite = fs.mkdtempSync(path.join(os.tmpdir(), 'tilelang-suite-'));
    const dir = path.join(suite, 'mini');
    fs.mkdirSync(dir);
    for (const [file, text] of Object.entries({ 'mini.pto': KERNEL, 'launch.cpp': LAUNCH, 'main.cpp': MAIN, 'gen_data.py': GEN_DATA, 'compare.py': COMPARE }))
      fs.writeFileSync(path.join(dir, file), text);
    const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'tilelang-scratch-'));
    const runner = pythonRunner(process.env.PYTHON ?? 'python3');
    try {
      const results = await runTestcase(suite, 'mini', { runner, scratch });
      expect(results).toEqual([
        { id: 'mini/good', outcome: 'pass' },
        { id: 'mini/bad', outcome: 'fail', reason: 'compare.py: [ERROR] bad: golden 2.5 output 1.5' },
      ]);
      const output = new Float32Array(new Uint8Array(fs.readFileSync(path.join(scratch, 'mini', 'good', 'output.bin'))).buffer);
      expect([...output]).toEqual([...Array(16).keys()].map((i) => i + 1.5));
    } finally {
      runner.close();
      fs.rmSync(suite, { recursive: true, force: true });
      fs.rmSync(scratch, { recursive: true, force: true });
    }
  });
});
