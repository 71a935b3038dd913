/**
 * The host-harness interpreter (src/board/host): C++ in the style of PTOAS's tilelang_st main.cpp/launch.cpp, run
 * against a temporary case folder; the launches it makes and the files it writes, checked by hand.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { preprocess, HostSyntaxError } from '../../../src/board/host/tokens';
import { parseHost } from '../../../src/board/host/parse';
import { HostInterpreter, Launch } from '../../../src/board/host/run';

const LAUNCH_CPP = `
#include <stdint.h>
#ifndef AICORE
#define AICORE [aicore]
#endif
static constexpr float K_SCALAR = 3.0f;
inline float bits_to_float(uint32_t bits) {
    float result;
    memcpy(&result, &bits, sizeof(float));
    return result;
}
#define DEFINE_LAUNCH(name, SCALAR)                                              \\
    extern "C" __global__ AICORE void name(__gm__ float *, __gm__ float *,       \\
                                           unsigned short, float, int32_t);     \\
    void Launch##name(void *dst, void *src, int32_t rows, void *stream) {       \\
        const int32_t blocks = (rows + 8 - 1) / 8;                              \\
        name<<<blocks, nullptr, stream>>>((__gm__ float *)dst, (__gm__ float *)src, \\
                                          (unsigned short)0x4200, SCALAR, rows); \\
    }
DEFINE_LAUNCH(KA, K_SCALAR)
DEFINE_LAUNCH(KB, bits_to_float(0x3F800000U))
#undef DEFINE_LAUNCH
`;

const MAIN_CPP = `
#include "test_common.h"
using namespace PtoTestCommon;
void LaunchKA(void *dst, void *src, int32_t rows, void *stream);
void LaunchKB(void *dst, void *src, int32_t rows, void *stream);
using LaunchFn = void (*)(void *, void *, int32_t, void *);
enum class Kind { Plain, Padded };
struct TestCase {
    const char *name;
    Kind kind;
    union {
        LaunchFn launchA;
        LaunchFn launchB;
    };
    size_t rows;
    size_t cols;
};
static const TestCase kCases[] = {
    {"plain", Kind::Plain, .launchA = LaunchKA, 2, 8},
    {"padded", Kind::Padded, .launchB = LaunchKB, 2, 8},
};
static void Pad(const void *src, void *dst, size_t rows, size_t cols, size_t aligned, size_t elem) {
    const char *s = static_cast<const char *>(src);
    char *d = static_cast<char *>(dst);
    for (size_t r = 0; r < rows; ++r) {
        memcpy(d + r * aligned * elem, s + r * cols * elem, cols * elem);
        memset(d + r * aligned * elem + cols * elem, 0, (aligned - cols) * elem);
    }
}
static int RunCase(const TestCase &tc, aclrtStream stream) {
    const size_t aligned = tc.kind == Kind::Padded ? 16 : tc.cols;
    const size_t fileSize = tc.rows * tc.cols * sizeof(float);
    const size_t deviceSize = tc.rows * aligned * sizeof(float);
    std::string caseDir = std::string("./") + tc.name;
    size_t actual = 0;
    int32_t rows = 0;
    void *inHost = nullptr, *padHost = nullptr, *outHost = nullptr, *inDevice = nullptr, *outDevice = nullptr;
    aclrtMallocHost(&inHost, fileSize);
    aclrtMallocHost(&padHost, deviceSize);
    aclrtMallocHost(&outHost, deviceSize);
    aclrtMalloc(&inDevice, deviceSize, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMalloc((void **)&outDevice, deviceSize, ACL_MEM_MALLOC_HUGE_FIRST);
    std::ifstream rowsFile(caseDir + "/rows.bin", std::ios::binary);
    if (!rowsFile) {
        std::fprintf(stderr, "[ERROR] no %s/rows.bin\\n", caseDir.c_str());
        return 1;
    }
    rowsFile.read(reinterpret_cast<char *>(&rows), sizeof(int32_t));
    if (!ReadFile((caseDir + "/input.bin").c_str(), actual, inHost, fileSize)) {
        std::fprintf(stderr, "[ERROR] failed to read %s/input.bin (%zu bytes at most)\\n", caseDir.c_str(), fileSize);
        return 1;
    }
    Pad(inHost, padHost, tc.rows, tc.cols, aligned, sizeof(float));
    aclrtMemcpy(inDevice, deviceSize, padHost, deviceSize, ACL_MEMCPY_HOST_TO_DEVICE);
    switch (tc.kind) {
        case Kind::Plain: tc.launchA(outDevice, inDevice, rows, stream); break;
        default: tc.launchB(outDevice, inDevice, rows, stream); break;
    }
    aclrtMemcpy(outHost, deviceSize, outDevice, deviceSize, ACL_MEMCPY_DEVICE_TO_HOST);
    if (!WriteFile((caseDir + "/output.bin").c_str(), outHost, deviceSize)) return 1;
    return 0;
}
int main(int argc, char *argv[]) {
    const char *filter = argc > 1 ? argv[1] : nullptr;
    aclrtStream stream = nullptr;
    aclrtCreateStream(&stream);
    int rc = 0;
    for (const TestCase &tc : kCases) {
        if (filter != nullptr && std::strcmp(filter, tc.name) != 0) continue;
        if (RunCase(tc, stream) != 0) { rc = 1; break; }
    }
    return rc;
}
`;

function program(main = MAIN_CPP, launch = LAUNCH_CPP) {
  return parseHost([
    { name: 'main.cpp', tokens: preprocess(main, 'main.cpp', { AICORE: '' }) },
    { name: 'launch.cpp', tokens: preprocess(launch, 'launch.cpp', { AICORE: '' }) },
  ]);
}

const folders: string[] = [];
afterAll(() => folders.forEach((dir) => fs.rmSync(dir, { recursive: true, force: true })));

/** A case folder: rows.bin (i32 20) and input.bin (f32 0..15). */
function caseFolder(name: string, inputFloats = 16): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'host-run-'));
  folders.push(dir);
  fs.mkdirSync(path.join(dir, name));
  fs.writeFileSync(path.join(dir, name, 'rows.bin'), new Uint8Array(new Int32Array([20]).buffer));
  fs.writeFileSync(path.join(dir, name, 'input.bin'), new Uint8Array(Float32Array.from({ length: inputFloats }, (_, i) => i).buffer));
  return dir;
}

/** The launch hook of a test: records the launch and writes dst[i] = src[i] + 1 (as a kernel would). */
function recording(launches: Launch[]) {
  return (l: Launch) => {
    launches.push({ ...l, args: l.args.map((a) => (a.kind === 'buffer' ? { ...a, bytes: a.bytes.slice() } : a)) });
    const [dst, src] = l.args;
    if (dst.kind !== 'buffer' || src.kind !== 'buffer') throw new Error('expected two buffers');
    const [d, s] = [
      new Float32Array(dst.bytes.buffer, dst.bytes.byteOffset, dst.bytes.length / 4),
      new Float32Array(src.bytes.buffer, src.bytes.byteOffset, src.bytes.length / 4),
    ];
    s.forEach((v, i) => (d[i] = v + 1));
  };
}

describe('host harness interpreter', () => {
  test('the case table: names of kCases rows, in order', () => {
    expect(new HostInterpreter(program(), os.tmpdir(), () => undefined).caseNames()).toEqual(['plain', 'padded']);
  });

  test('a plain case: device buffers sized as allocated, scalars converted to the declared C types, blocks from the launch code', () => {
    const dir = caseFolder('plain');
    const launches: Launch[] = [];
    const run = new HostInterpreter(program(), dir, recording(launches)).main(['plain']);
    expect(run).toEqual({ status: 0, stderr: [] });
    expect(launches).toHaveLength(1);
    const [l] = launches;
    expect(l.kernel).toBe('KA');
    // rows.bin holds 20: (20 + 7) / 8 blocks.
    expect(l.blocks).toBe(3);
    expect(l.args.map((a) => (a.kind === 'buffer' ? `buffer ${a.bytes.length}` : `${a.ctype} ${a.value}`))).toEqual([
      'buffer 64', // dst: 2 x 8 f32, never written by the host
      'buffer 64',
      'u16 16896', // (unsigned short)0x4200
      'f32 3', // K_SCALAR
      'i32 20',
    ]);
    expect([...new Float32Array(l.args[1].kind === 'buffer' ? l.args[1].bytes.buffer : new ArrayBuffer(0))]).toEqual([...Array(16).keys()]);
    expect([...new Float32Array(new Uint8Array(fs.readFileSync(path.join(dir, 'plain', 'output.bin'))).buffer)]).toEqual(
      [...Array(16).keys()].map((i) => i + 1),
    );
  });

  test('a padded case: the helper pads each row of 8 to 16 floats; the scalar comes from a memcpy of bits', () => {
    const dir = caseFolder('padded');
    const launches: Launch[] = [];
    expect(new HostInterpreter(program(), dir, recording(launches)).main(['padded']).status).toBe(0);
    const [l] = launches;
    expect(l.kernel).toBe('KB');
    expect(l.args[3]).toEqual({ kind: 'scalar', ctype: 'f32', value: 1 }); // bits 0x3F800000
    const src = l.args[1].kind === 'buffer' ? [...new Float32Array(l.args[1].bytes.buffer)] : [];
    expect(src).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 0, 0, 0, 0, 0, 0, 0, 0, 8, 9, 10, 11, 12, 13, 14, 15, 0, 0, 0, 0, 0, 0, 0, 0]);
    expect(fs.statSync(path.join(dir, 'padded', 'output.bin')).size).toBe(128);
  });

  test('ReadFile refuses a file larger than its buffer, as test_common.h does; the host reports it and launches nothing', () => {
    const dir = caseFolder('plain', 17);
    const launches: Launch[] = [];
    const run = new HostInterpreter(program(), dir, recording(launches)).main(['plain']);
    expect(run).toEqual({ status: 1, stderr: ['[ERROR] failed to read ./plain/input.bin (64 bytes at most)'] });
    expect(launches).toEqual([]);
  });

  test('a construct outside the subset is reported with its file and line', () => {
    expect(() => program('int main() {\n  goto; }')).toThrow(new HostSyntaxError("main.cpp:2: expected a name (at ';')"));
  });
});
