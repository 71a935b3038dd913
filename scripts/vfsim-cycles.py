#!/usr/bin/env python3
"""Build and run pto-isa's A5 VfSim tile-op tests and record VfSim's cycles in test/fixtures/costmodel (issue 39).

  python3 scripts/vfsim-cycles.py [--repo REPO] [--commit COMMIT] [--work DIR] [--out DIR] [--only CASE ...]

pto-isa's tests/costmodel/st_a5 run one A5 tile op each (TADD f32 1x512, ...) on its CPU cost model ("mocker"): a
clang pass plugin (include/pto/costmodel/a5/PtoLoopTracePass.cpp) marks the loops of the op's vector function, the
mocker records the function's body (vlds, vlds, vadd, vsts) and repeat count, and VfSim
(include/pto/costmodel/a5/VfSim, its tables in params/*.csv) turns that into cycles. The tests check the body and
the repeat, never the cycles. This script:

1. extracts the repository at COMMIT and supplies the names it needs to compile, with scripts/perf-sim-totals.py's
   extract() and apply_compat() (A5_COMPAT below adds the A5 build's);
2. builds what pto-isa's cmake/a5_vf_mock.cmake builds, without CMake: the pass plugin, VfSim's parameter header
   (gen_vfsim_params_header.py) and library; then each test case with the definitions and options of
   tests/costmodel/st_a5's CMake files, our googletest stand-in (scripts/perf-sim/gtest) and scripts/vfsim/report.cpp,
   which prints after each test what the mocker recorded: the op, VfSim's cycles, the body tree;
3. runs each case and writes test/fixtures/costmodel/vfsim-tileops.json: per test its source, op, dtype, shape
   (from the TEST line's template arguments), body, repeat, each instruction's form and vfsimCycles (null, with
   the reason and the fallback table's number, where pto-isa does not simulate the body);
4. replays st_a5_fit's hardware-profiled shapes (our single-op.json) on the same mock, one test per shape through
   scripts/vfsim/fit_ops.hpp, each run alone: fitOps holds them beside their profiled cycles, fitSkipped counts
   the datapoints it cannot replay, by reason;
5. runs the tile ops pto-isa's A5 curves lack (NO_CURVE_CASES: row and column reductions, row and column broadcasts, TEXPANDS,
   binary-scalar shapes) at a few shapes each through the same runners: noCurveOps holds each one's loop tree, its
   registers and VfSim's cycles (simCycles: VfSim's simulator past PredictVfCycles' guard against vbr, whose source
   is a scalar), noCurveUnrecorded the shapes the mock's loop trace could not record. The intrinsics they need and
   the A5 mock lacks are recorded as it records the others (NO_CURVE_INTRINSICS).

It needs clang++ 15 or newer (pto-isa's half type is _Float16, which clang 14 does not offer on x86) and the
LLVM development headers of the same version for the plugin (Debian: apt-get install clang-19 llvm-19-dev); it
takes the newest /usr/lib/llvm-N with both, or $LLVM_CONFIG. --out DIR keeps each case's output and a
results.json of every test's record.
"""
import argparse
import csv
import glob
import importlib.util
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..')
FIXTURE = os.path.join(ROOT, 'test', 'fixtures', 'costmodel', 'vfsim-tileops.json')
REPORT = os.path.join(ROOT, 'scripts', 'vfsim', 'report.cpp')
SUITE = 'tests/costmodel/st_a5'
VFSIM = 'include/pto/costmodel/a5/VfSim'


def _load_perf_sim_totals():
    spec = importlib.util.spec_from_file_location(
        'perf_sim_totals', os.path.join(os.path.dirname(os.path.abspath(__file__)), 'perf-sim-totals.py'))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


pst = _load_perf_sim_totals()

# The int64 tile ops (0e0d9490, after st_a5 was added in 6ea657ef) call intrinsics the A5 mock
# (cce_costmodel/a5_vf_stub.hpp) does not define. None of st_a5's ops is int64, so none of them runs; each is
# supplied as a stub that stops the test ("... is not implemented yet") if it ever is, so no cycles are
# recorded for a body the mock could not see.
INT64_INTRINSICS = ['vaddc', 'vaddcs', 'vsubc', 'vsubcs', 'vmull', 'vcmp_ge', 'psel', 'psts', 'pxor', 'vintlv',
                    'vdintlv', 'ppack', 'punpack', 'plds', 'atomicAdd', 'vgather2', 'vscatter',
                    'vci']
INT64_MODES = ['INTLV_B32', 'DINTLV_B32', 'LOWER', 'PART_EVEN', 'ROUND_R', 'ROUND_Z', 'RS_DISABLE', 'US', 'NORM_B32',
               'INC_ORDER']
A5_COMPAT_PRELUDE = [
    ('vfsim_missing', None,
     '#include <cstdio>\n#include <cstdlib>\n[[noreturn]] inline void vfsim_missing(const char *name) '
     '{ std::fprintf(stderr, "%s is not implemented yet in the A5 mock\\n", name); std::abort(); }',
     'the trap the stubs below call'),
    *[(name, rf'inline[^;{{}}]*\b{name}\s*\(|PTO_VF_RECORD_\w+\({name}\)',
       f'template <class... A> [[noreturn]] inline int {name}(A &&...) {{ vfsim_missing("{name}"); }}',
       'used by the int64 ops (npu/a5/Int64*.hpp) and syncall_soft.hpp, which no st_a5 test runs')
      for name in INT64_INTRINSICS],
    ('int64 modes', r'#define\s+INTLV_B32\b|\bINTLV_B32\s*=',
     f'enum VfsimMissingMode {{ {", ".join(INT64_MODES)} }};',
     'the mode arguments of those intrinsics; only passed to them'),
]
# The ops pto-isa's A5 curves lack (row and column reductions, row broadcasts) call intrinsics the A5 mock does not
# define either, though VfSim's params/isa.csv prices most (VCADD, VCMAX, VCMIN, VBR, VMAXS): they are recorded here the way
# the mock records every other compute intrinsic (PTO_VF_RECORD_VOID: the first operand the destination, the
# registers after it the sources), so VfSim sees the body pto-isa's source issues. vbr's source is a scalar, no
# register: VfSimCostModel takes an instruction without a source register (but vdup) as one it cannot simulate.
NO_CURVE_INTRINSICS = ['vcadd', 'vcmax', 'vcmin', 'vbr', 'vmaxs', 'vldas', 'vldus']
NO_CURVE_MODES = ['PAT_VL1', 'POS_LOWEST', 'MODE_MERGING', 'PART_ODD', 'VST_VLD', 'BRC_B8', 'BRC_B16', 'BRC_B32', 'BLK']
A5_COMPAT_PRELUDE += [
    ('mem_bar', r'inline[^;{}]*\bmem_bar\s*\(|PTO_VF_RECORD_\w+\(mem_bar\)',
     'template <class... A> [[noreturn]] inline int mem_bar(A &&...) { vfsim_missing("mem_bar"); }',
     'only in TCOLSUM\'s binary-tree form (TColSum_Binary_TmpProc), which no runner takes'),
    ('no-curve modes', r'#define\s+PAT_VL1\b|\bPAT_VL1\s*=',
     f'enum VfsimNoCurveMode {{ {", ".join(NO_CURVE_MODES)} }};',
     'mode arguments of the reduction and broadcast intrinsics below; only passed to them'),
]
A5_COMPAT_EDITS = [
    ('include/pto/costmodel/a5/cce_costmodel/a5_vf_stub.hpp', '\nPTO_VF_RECORD_VOID(pnot)\n',
     '\nPTO_VF_RECORD_VOID(pnot)\n' + ''.join(f'PTO_VF_RECORD_VOID({n})\n' for n in NO_CURVE_INTRINSICS),
     'the intrinsics of the no-curve ops, recorded as the mock records the others (NO_CURVE_INTRINSICS)'),
    ('include/pto/costmodel/a5/cce_costmodel/a5_vf_stub.hpp', '\nstruct hifloat8_t {};\n', '\n',
     'an empty placeholder; cpu/Hifloat8.hpp (3a36f00b), which the same build includes, defines the real type'),
]

DTYPES = {'float': 'f32', 'half': 'f16', 'bfloat16_t': 'bf16', 'int8_t': 'i8', 'uint8_t': 'u8', 'int16_t': 'i16',
          'uint16_t': 'u16', 'int32_t': 'i32', 'uint32_t': 'u32'}


def find_llvm():
    """(clang++, llvm-config) of one LLVM version, 15 or newer."""
    configs = [os.environ['LLVM_CONFIG']] if os.environ.get('LLVM_CONFIG') else sorted(
        glob.glob('/usr/lib/llvm-*/bin/llvm-config'), key=lambda p: int(re.search(r'llvm-(\d+)', p).group(1)))[::-1]
    for config in configs:
        bindir = pst.run([config, '--bindir']).stdout.strip()
        major = int(pst.run([config, '--version']).stdout.split('.')[0])
        clang = os.path.join(bindir, 'clang++')
        if major >= 15 and os.path.exists(clang) and os.path.isdir(pst.run([config, '--includedir']).stdout.strip()):
            return clang, config
    sys.exit('no clang++ >= 15 with its llvm-config found (Debian: apt-get install clang-19 llvm-19-dev)')


def cmake_list(path, command):
    """The arguments of every `command(...)`, quoted ones kept whole and "SHELL:a b" split, as CMake reads them."""
    args = []
    for raw in pst.cmake_args(path, command):
        for arg in shlex.split(' '.join(raw)):
            args += arg[len('SHELL:'):].split() if arg.startswith('SHELL:') else [arg]
    return args


def test_flags(src):
    """The compile flags st_a5's CMakeLists.txt and cmake/a5_vf_mock.cmake give every test case."""
    suite = os.path.join(src, SUITE, 'CMakeLists.txt')
    flags = cmake_list(suite, 'add_definitions') + cmake_list(suite, 'add_compile_options')
    # CMAKE_CXX_STANDARD 23 there; -O0 -g from target_enable_a5_vf_mock (the plugin needs the loops' debug lines)
    return ['-std=c++23', *flags, '-O0', '-g', '-I', os.path.join(src, SUITE, 'testcase', 'common'), '-I',
            os.path.join(src, 'include')]


def test_cases(src):
    for args in pst.cmake_args(os.path.join(src, SUITE, 'testcase', 'CMakeLists.txt'), 'set'):
        if args[0] == 'ALL_TESTCASES':
            return args[1:]
    sys.exit(f'{SUITE}/testcase/CMakeLists.txt lists no ALL_TESTCASES')


def compile_all(cmd, what):
    result = subprocess.run(cmd, capture_output=True, text=True)
    if result.returncode != 0:
        errors = [line for line in result.stderr.split('\n') if 'error' in line]
        return '\n'.join(errors[:10]) or result.stderr[-2000:]
    print(f'built {what}', file=sys.stderr)
    return None


def build_support(src, work, clang, config, prelude):
    """The pass plugin, VfSim's library (sources as cmake/a5_vf_mock.cmake lists them) and our report."""
    out = os.path.join(work, 'obj')
    os.makedirs(out, exist_ok=True)
    pst.run([sys.executable, os.path.join(src, VFSIM, 'gen_vfsim_params_header.py')], cwd=src)
    plugin = os.path.join(out, 'PtoLoopTracePass.so')
    cxxflags = pst.run([config, '--cxxflags']).stdout.split()
    error = compile_all([clang, '-shared', '-fPIC', *cxxflags, os.path.join(src, 'include/pto/costmodel/a5',
                                                                          'PtoLoopTracePass.cpp'), '-o', plugin],
                        'the pass plugin')
    if error:
        sys.exit(f'the pass plugin does not compile:\n{error}')
    mock = os.path.join(src, 'cmake', 'a5_vf_mock.cmake')
    with open(mock) as fh:
        sources = re.findall(r'\$\{_vfsim_dir\}/(\w+\.cpp)', fh.read())
    objects = []
    for name in sources:
        obj = os.path.join(out, name.replace('.cpp', '.o'))
        error = compile_all([clang, '-std=c++20', '-O2', '-c', '-I', os.path.join(src, 'include'),
                             f'-DPTO_VFSIM_SOURCE_ROOT="{os.path.join(src, VFSIM)}"', os.path.join(src, VFSIM, name),
                             '-o', obj], name)
        if error:
            sys.exit(f'VfSim\'s {name} does not compile:\n{error}')
        objects.append(obj)
    report = os.path.join(out, 'report.o')
    error = compile_all([clang, *test_flags(src), '-include', prelude, '-I', pst.GTEST_STANDIN, '-c', REPORT, '-o',
                         report], 'scripts/vfsim/report.cpp')
    if error:
        sys.exit(f'scripts/vfsim/report.cpp does not compile:\n{error}')
    return plugin, [report, *objects]


def parse_tests(path):
    """Each TEST(Suite, Name) { runX<T, rows, cols>(...) } of a case's main.cpp: {Suite.Name: (dtype, rows, cols)}."""
    with open(path) as fh:
        text = fh.read()
    tests = {}
    for m in re.finditer(r'TEST\((\w+),\s*(\w+)\)\s*\{\s*\w+<(\w+),\s*(\d+),\s*(\d+)>', text):
        suite, name, ctype, rows, cols = m.groups()
        tests[f'{suite}.{name}'] = (DTYPES.get(ctype, ctype), int(rows), int(cols))
    # every st_a5 runner builds its tiles as TileData(rows, cols): the valid region is the whole tile
    if tests and not re.search(r'TileData \w+\(rows, cols\);', text):
        sys.exit(f'{path}: the tiles are not built as TileData(rows, cols); read their valid region from the source')
    return tests


def run_case(binary, case, out):
    result = subprocess.run([binary], capture_output=True, text=True)
    if out:
        os.makedirs(out, exist_ok=True)
        with open(os.path.join(out, f'{case}.txt'), 'w') as fh:
            fh.write(result.stdout + result.stderr)
    records = [json.loads(line[len('[VFSIM] '):]) for line in result.stdout.split('\n') if line.startswith('[VFSIM] ')]
    return records, result.returncode


def isa_forms(src):
    """The (OP, form) pairs VfSim has parameters for (params/isa.csv)."""
    with open(os.path.join(src, VFSIM, 'params', 'isa.csv')) as fh:
        return {(row['op'], row['form']) for row in csv.DictReader(fh)}


def not_simulated(record, forms):
    """Why PredictVfCyclesWithVfSim costs the record with its fallback table instead of simulating it (VfSimCostModel.cpp:
    an instruction without a destination or a source, or whose form params/isa.csv lacks), or None."""
    for inst in record['insts']:
        if not inst['dst'] or (not inst['src'] and inst['op'] != 'vdup'):
            return f"{inst['op']} has no {'destination' if not inst['dst'] else 'source'} operand"
        if (inst['op'].upper(), inst['form']) not in forms:
            have = sorted(f for op, f in forms if op == inst['op'].upper())
            if not have:
                return f"params/isa.csv has no {inst['op'].upper()}"
            return f"params/isa.csv has no {inst['form']} form of {inst['op'].upper()} (it has {', '.join(have)})"
    return None


def entry(record, fields, forms):
    """A fixture entry: FIELDS (what the test ran), then what the mocker recorded: the body and repeat when it is
    one vector function of one loop, else the whole tree (vf)."""
    trees = record.get('vf', [])
    loop = trees[0][0] if len(trees) == 1 and len(trees[0]) == 1 and isinstance(trees[0][0], dict) else None
    flat = loop and all(isinstance(n, str) for n in loop['body'])
    op = {
        **fields,
        'body': loop['body'] if flat else None,
        'repeat': loop['loop'] if flat else None,
        'forms': [inst['form'] for inst in record['insts']],
        'vfsimCycles': record['vfsimCycles'],
    }
    if not flat:
        op['vf'] = trees
    if record['totalCycles'] != record['vfsimCycles']:
        op['totalCycles'] = record['totalCycles']
        op['cceCalls'] = record['cceCalls']
    why = not_simulated(record, forms)
    if why:
        # the number is the fallback table's (vec_cycle_generated.hpp), not VfSim's: kept apart, with the reason
        op['vfsimCycles'] = None
        op['fallbackCycles'] = record['tableCycles']
        op['notSimulated'] = why
        # VfSim's simulator run on the same tree past that guard (scripts/vfsim/report.cpp simCycles), where it can
        if record.get('simCycles', -1) >= 0:
            op['simCycles'] = record['simCycles']
    elif record['vfsimCycles'] == record['tableCycles']:
        sys.exit(f"{record['test']}: VfSim's cycles equal its fallback table's though every form is in isa.csv; check")
    return op


SINGLE_OP = os.path.join(ROOT, 'test', 'fixtures', 'costmodel', 'single-op.json')
FIT_OPS = os.path.join(ROOT, 'scripts', 'vfsim', 'fit_ops.hpp')
FIT_TYPES = {'float': ('float', 'f32'), 'Float': ('float', 'f32'), 'half': ('half', 'f16'), 'Half': ('half', 'f16')}
# The form a tile op called as a kernel calls it takes: pto-isa's tests chose the other forms explicitly.
FIT_DEFAULT_FORMS = ('VFIMPL_DEFAULT', 'VFIMPL_1D_POST_UPDATE')


def fit_points():
    """st_a5_fit's profiled datapoints (single-op.json) a runner of fit_ops.hpp can replay, and why the others
    are left out: {reason: count}."""
    with open(FIT_OPS) as fh:
        runners = set(re.findall(r'^VFSIM_FIT_\w+\((\w+)\)', fh.read(), re.M))
    with open(SINGLE_OP) as fh:
        points = [p for p in json.load(fh)['datapoints'] if '/st_a5_fit/' in p['source']]
    chosen, skipped = [], {}
    for point in points:
        a = {k.lower().replace('_', ''): v for k, v in point['args'].items()}
        kind = a.get('vfimplkindvalue', a.get('vfimplkind'))
        if point['op'] not in runners:
            why = f"{point['op']}: no runner in scripts/vfsim/fit_ops.hpp (see there)"
        elif kind not in FIT_DEFAULT_FORMS:
            why = f'{kind}: pto-isa chose this form explicitly; the tile op takes the default one'
        elif a.get('opparams') not in (None, '', 'default'):
            why = f"{a['opparams']}: a variant the tile op's default does not take"
        elif (a.get('t') or a.get('dtype')) not in FIT_TYPES:
            why = f"{a.get('t') or a.get('dtype')}: element type not replayed"
        else:
            rows, cols = a['rows'], a['cols']
            # st_a5_fit passes a valid region of 0 x 0 (or none) for the whole tile
            valid = (a.get('validrows') or rows, a.get('validcols') or cols)
            chosen.append((point, (a.get('t') or a.get('dtype')), rows, cols, *valid, kind))
            continue
        skipped[why] = skipped.get(why, 0) + 1
    return chosen, skipped


def build_replay(work, clang, plugin, objects, prelude, src, name, what, tests):
    """Compiles a driver of one gtest per (test name, runner call of scripts/vfsim/fit_ops.hpp) into
    work/bin/NAME (`what` names it in the build's messages): the binary, or None and the compiler's errors."""
    lines = ['#include <gtest/gtest.h>', '#include "fit_ops.hpp"']
    lines += [f'TEST({test.replace(".", ", ")}) {{ vfsim_fit::{call}; }}' for test, call in tests]
    driver, binary = os.path.join(work, f'{name}.cpp'), os.path.join(work, 'bin', name)
    with open(driver, 'w') as fh:
        fh.write('\n'.join(lines) + '\n')
    os.makedirs(os.path.dirname(binary), exist_ok=True)
    error = compile_all([clang, *test_flags(src), '-include', prelude, '-I', pst.GTEST_STANDIN, '-I',
                         os.path.dirname(FIT_OPS), f'-fpass-plugin={plugin}', driver, *objects, '-lpthread', '-o',
                         binary], what)
    return (None, error) if error else (binary, None)


def replay(binary, test):
    """Runs one test of a replay binary alone (an op the A5 mock cannot record stops its process): what report.cpp
    printed for it, or None and why not."""
    result = subprocess.run([binary, f'--gtest_filter={test}'], capture_output=True, text=True)
    found = [json.loads(line[len('[VFSIM] '):]) for line in result.stdout.split('\n') if line.startswith('[VFSIM] ')]
    if found and not found[0]['failed'] and 'op' in found[0]:
        return found[0], None
    return None, result.stderr.strip().split('\n')[-1] or f'exit {result.returncode}'


def run_fit(work, clang, plugin, objects, prelude, src, forms, out):
    """Replays the chosen datapoints, each test alone (an op the A5 mock cannot record stops its process)."""
    chosen, skipped = fit_points()
    tests, calls = {}, []
    for point, ctype, rows, cols, vrows, vcols, _kind in chosen:
        key = (point['op'], ctype, rows, cols, vrows, vcols)
        if key not in tests:
            tests[key] = f'VfsimFit.p{len(tests)}'
            calls.append((tests[key], f'Run{point["op"]}<{FIT_TYPES[ctype][0]}, {rows}, {cols}, {vrows}, {vcols}>()'))
    binary, error = build_replay(work, clang, plugin, objects, prelude, src, 'fit', 'the st_a5_fit replay', calls)
    if error:
        return [], skipped, [f'the st_a5_fit replay does not compile:\n{error}']
    records, failures = {}, []
    for test in tests.values():
        record, why = replay(binary, test)
        records[test] = record or why
    if out:
        pst.write_json(os.path.join(out, 'fit-results.json'), records)
    ops = []
    for point, ctype, rows, cols, vrows, vcols, kind in chosen:
        record = records[tests[(point['op'], ctype, rows, cols, vrows, vcols)]]
        if isinstance(record, str):
            why = f"{point['op']}: {record}"
            skipped[why] = skipped.get(why, 0) + 1
            continue
        fields = {'test': point['test'], 'source': point['source'], 'op': point['op'], 'dtype': FIT_TYPES[ctype][1],
                  'shape': {'rows': rows, 'cols': cols, 'validRows': vrows, 'validCols': vcols}, 'vfImplKind': kind,
                  'profiled': point['profiled']}
        ops.append(entry(record, fields, forms))
    return ops, skipped, failures


# The tile ops pto-isa's A5 curves (a5-formula.json) lack, run at a few shapes each through the runners of
# scripts/vfsim/fit_ops.hpp: (op, element type, rows, cols, valid rows, valid cols). Row ops write or read a
# column-major rows x 1 tile, which must be 32-byte aligned: 8 rows of f32, 16 of f16 at least.
ROW_SHAPES = [('float', 16, 64, 16, 64), ('float', 8, 256, 8, 200), ('float', 8, 64, 1, 64), ('float', 16, 32, 16, 32),
              ('half', 16, 128, 16, 128), ('half', 16, 256, 16, 100)]
COL_SHAPES = [('float', 16, 64, 16, 64), ('float', 1, 64, 1, 64), ('float', 7, 256, 7, 200), ('half', 16, 128, 16, 128),
              ('half', 4, 256, 3, 100)]
FILL_SHAPES = [('float', 16, 64, 16, 64), ('float', 1, 512, 1, 512), ('float', 8, 256, 8, 200), ('half', 16, 128, 16, 128),
               ('half', 4, 256, 4, 100)]
COL_EXPAND_SHAPES = [('float', 16, 64, 16, 64), ('float', 1, 1024, 1, 1024), ('float', 8, 256, 8, 200),
                     ('half', 16, 128, 16, 128), ('half', 16, 256, 16, 100)]
NO_CURVE_CASES = [
    *[(op, *shape) for op in ('TROWSUM', 'TROWMAX', 'TROWMIN') for shape in ROW_SHAPES],
    *[(f'TROWEXPAND{op}', *shape) for op in ('ADD', 'SUB', 'MUL', 'DIV', 'MAX', 'MIN') for shape in ROW_SHAPES],
    *[(op, *shape) for op in ('TCOLSUM', 'TCOLMAX', 'TCOLMIN') for shape in COL_SHAPES],
    *[('TEXPANDS', *shape) for shape in FILL_SHAPES],
    *[(f'TCOLEXPAND{op}', *shape) for op in ('ADD', 'SUB', 'MUL', 'DIV', 'MAX', 'MIN') for shape in COL_EXPAND_SHAPES],
    # binary-scalar shapes the curves lack (a one-row tile narrower than a repeat: rmsnorm's), and 2-D ones
    ('TMULS', 'float', 1, 16, 1, 16), ('TADDS', 'float', 1, 16, 1, 16), ('TSUBS', 'float', 8, 256, 8, 200),
    ('TMAXS', 'half', 16, 256, 16, 100), ('TMAXS', 'float', 16, 64, 16, 64),
]


def run_no_curve(work, clang, plugin, objects, prelude, src, forms, out):
    """Runs NO_CURVE_CASES, each test alone; returns their entries (with each instruction's register names: the
    data flow a body's model must follow) the cases the mock recorded nothing for, and the cases that did not run."""
    calls = [(f'VfsimNoCurve.c{k}', f'Run{op}<{ctype}, {rows}, {cols}, {vrows}, {vcols}>()')
             for k, (op, ctype, rows, cols, vrows, vcols) in enumerate(NO_CURVE_CASES)]
    binary, error = build_replay(work, clang, plugin, objects, prelude, src, 'no-curve', 'the no-curve ops', calls)
    if error:
        return [], [], [f'the no-curve ops do not compile:\n{error}']
    ops, failures, records, unrecorded = [], [], [], []
    for k, (op, ctype, rows, cols, vrows, vcols) in enumerate(NO_CURVE_CASES):
        record, why = replay(binary, f'VfsimNoCurve.c{k}')
        name = f'{op} {ctype} {rows}x{cols} valid {vrows}x{vcols}'
        if not record:
            failures.append(f'{name}: {why}')
            continue
        records.append(record)
        if not record['insts']:
            # The mock's loop trace (vf_trace.hpp) keeps a loop only when every iteration records the same
            # instructions on the same operands: a row op whose source pointer moves by the row's padding between
            # rows (its post-update loads do not move the mock's pointer) names another UB address each row.
            unrecorded.append(f'{name}: the mock recorded no vector function (its loop trace found rows that differ)')
            continue
        fields = {'test': name, 'source': 'scripts/vfsim/fit_ops.hpp', 'op': op, 'dtype': FIT_TYPES[ctype][1],
                  'shape': {'rows': rows, 'cols': cols, 'validRows': vrows, 'validCols': vcols}}
        o = entry(record, fields, forms)
        o['vf'] = record['vf']
        o['registers'] = [inst['names'] for inst in record['insts']]
        ops.append(o)
    if out:
        pst.write_json(os.path.join(out, 'no-curve-results.json'), records)
    return ops, unrecorded, failures


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('--repo', default='/work/.mirror/hw-native-sys+pto-isa/repo')
    parser.add_argument('--commit', default='HEAD')
    parser.add_argument('--work', help='build here and keep it (default: a temporary directory, removed)')
    parser.add_argument('--out', help='keep each case\'s output and results.json (every record) in OUT')
    parser.add_argument('--only', nargs='*', help='only these cases (tadd, ...)')
    args = parser.parse_args()

    clang, config = find_llvm()
    commit = pst.run(['git', '-C', args.repo, 'rev-parse', args.commit]).stdout.strip()
    work = args.work or tempfile.mkdtemp(prefix='vfsim-')
    try:
        src = os.path.join(work, 'src')
        if os.path.exists(src):
            shutil.rmtree(src)
        pst.extract(args.repo, commit, src)
        prelude, applied = pst.apply_compat(src, work, A5_COMPAT_PRELUDE, A5_COMPAT_EDITS)
        plugin, objects = build_support(src, work, clang, config, prelude)
        forms = isa_forms(src)
        ops, records, failures = [], [], []
        for case in test_cases(src):
            if args.only and case not in args.only:
                continue
            source = f'{SUITE}/testcase/{case}/main.cpp'
            binary = os.path.join(work, 'bin', case)
            os.makedirs(os.path.dirname(binary), exist_ok=True)
            error = compile_all([clang, *test_flags(src), '-include', prelude, '-I', pst.GTEST_STANDIN,
                                 f'-fpass-plugin={plugin}', os.path.join(src, source), *objects, '-lpthread', '-o',
                                 binary], case)
            if error:
                failures.append(f'{case} does not compile:\n{error}')
                continue
            shapes = parse_tests(os.path.join(src, source))
            case_records, status = run_case(binary, case, args.out)
            records += case_records
            seen = set()
            for record in case_records:
                seen.add(record['test'])
                if record['failed'] or 'op' not in record:
                    failures.append(f"{record['test']}: the test failed or recorded no instruction")
                elif record['test'] not in shapes:
                    failures.append(f"{record['test']}: its TEST line does not give the runner's template arguments")
                else:
                    dtype, rows, cols = shapes[record['test']]
                    shape = {'rows': rows, 'cols': cols, 'validRows': rows, 'validCols': cols}
                    fields = {'test': record['test'], 'source': source, 'op': record['op'], 'dtype': dtype,
                              'shape': shape}
                    ops.append(entry(record, fields, forms))
            for test in sorted(set(shapes) - seen):
                failures.append(f'{test}: did not run (the case exited {status})')
        fit_ops, fit_skipped, fit_failures = run_fit(work, clang, plugin, objects, prelude, src, forms, args.out)
        failures += fit_failures
        no_curve_ops, no_curve_unrecorded, no_curve_failures = run_no_curve(work, clang, plugin, objects, prelude, src, forms, args.out)
        failures += no_curve_failures
        fixture = {
            'repository': 'hw-native-sys/pto-isa',
            'commit': commit,
            'measuredBy': {
                'script': 'scripts/vfsim-cycles.py',
                'compiler': pst.run([clang, '--version']).stdout.split('\n')[0],
                'compat': applied,
            },
            'note': ('VfSim\'s cycles for the vector function of each tests/costmodel/st_a5 test (the tests check '
                     'body and repeat only): vfsimCycles is PredictVfCycles over the op\'s recorded vector '
                     'functions, read after each test by scripts/vfsim/report.cpp. body is the loop\'s '
                     'instructions in order, repeat its iteration count; shape is the tile and its valid region'),
            'ops': ops,
            'fitNote': ('fitOps: st_a5_fit\'s hardware-profiled shapes (profiled, from single-op.json) replayed on '
                        'the same mock (scripts/vfsim/fit_ops.hpp), for the ops and forms it can replay; fitSkipped '
                        'counts the datapoints left out, by reason'),
            'fitOps': fit_ops,
            'fitSkipped': fit_skipped,
            'noCurveNote': ('noCurveOps: tile ops pto-isa\'s A5 curves lack, run at a few shapes each on the same '
                            'mock (NO_CURVE_CASES, through scripts/vfsim/fit_ops.hpp; the intrinsics the mock lacks '
                            'recorded as it records the others, NO_CURVE_INTRINSICS). vf is the loop tree, registers '
                            'each instruction\'s operand names (destinations first) in the order of forms. Where '
                            'PredictVfCycles falls back to its table (vfsimCycles null, notSimulated why), simCycles '
                            'is VfSim\'s simulator on the same tree past that guard (scripts/vfsim/report.cpp)'),
            'noCurveOps': no_curve_ops,
            'noCurveUnrecorded': no_curve_unrecorded,
        }
        pst.write_json(FIXTURE, fixture)
        if args.out:
            pst.write_json(os.path.join(args.out, 'results.json'), records)
        print(f'{len(ops)} tests recorded in {os.path.relpath(FIXTURE, ROOT)}', file=sys.stderr)
        return pst.report_failures(failures)
    finally:
        if not args.work:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == '__main__':
    sys.exit(main())
