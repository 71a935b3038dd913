#!/usr/bin/env python3
"""Build and run pto-isa's perf_sim kernel tests and record their totals in test/fixtures/costmodel (issue 39).

  python3 scripts/perf-sim-totals.py [--repo REPO] [--commit COMMIT] [--work DIR] [--out DIR] [--only TEST ...]

For every kernel test listed in test/fixtures/costmodel/perf-sim-kernels.json (tests/costmodel/perf_sim_st and
tests/costmodel/st/*_perf_sim, listed there by scripts/costmodel-fixtures.py), this script:

1. extracts the repository at COMMIT (git archive) into a temporary directory (or --work) and generates the
   formula headers pto-isa's own build generates (include/pto/costmodel/*/formula_costmodel/gen_*.py);
2. compiles the test's main.cpp with g++ (C++23, -O2) and the definitions and include directories its CMake files
   give, without CMake: googletest is replaced by scripts/perf-sim/gtest/gtest.h, our stand-in;
3. runs each test alone (--gtest_filter) in a directory of its own, since perf_sim writes
   ./perf_sim_output/<kernel function>.json and <kernel function>_pipeline_summary.csv and two tests may launch the
   same kernel function;
4. reads the summary CSV: the total cycles and each pipe's busy cycles, summed over the launch's cores and units
   (AIC, AIV0, AIV1), under the CSV's own column names without "_cycles";
5. writes totalCycles, pipeBusyCycles and measuredBy into each fixture entry, keeping its other fields.

perf_sim's step simulation can deadlock. It then still reports a total, and emits every op left in its queues as
a slice starting where its queue stood, so two slices overlap on one in-order pipe. Such a run gets
totalCycles null, "deadlock" saying so, and "reportedTotalCycles" holding the number perf_sim printed.

pto-isa 3186c381 does not compile as it is (a reformatting commit, b8af2457, brought back uses of names an
earlier commit, 56f4d478, had removed). COMPAT below supplies those names, each only while the tree lacks
it, and says why each supply leaves perf_sim's results unchanged. --out DIR keeps, per test, the trace, the
summary CSV, the test's output and ops.tsv (one line per trace slice: core, pipe, name, start, duration, sorted
by start).
"""
import argparse
import csv
import glob
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..')
FIXTURE = os.path.join(ROOT, 'test', 'fixtures', 'costmodel', 'perf-sim-kernels.json')
GTEST_STANDIN = os.path.join(ROOT, 'scripts', 'perf-sim')
CXX = os.environ.get('CXX', 'g++')

# Declarations prepended to every compile (g++ -include), each only when the tree does not define the name.
# (name, pattern that finds a definition in include/, the declaration, why it is safe)
COMPAT_PRELUDE = [
    ('kMicrosPerSecond', r'kMicrosPerSecond\s*=',
     'namespace pto::mocker::evaluator { inline constexpr long double kMicrosPerSecond = 1.0e6L; }',
     'a unit (microseconds per second): arch_config.hpp divides the clock in Hz by it to get MHz'),
    ('ev', r'namespace\s+ev\s*=',
     'namespace pto::mocker::evaluator {}\nnamespace ev = ::pto::mocker::evaluator;',
     'cce_costmodel_core.hpp writes ev::kBytesPerGb for pto::mocker::evaluator::kBytesPerGb'),
    ('MrgSortExecutedNumList', None,
     'namespace pto { struct MrgSortExecutedNumList { uint16_t mrgSortList0; uint16_t mrgSortList1; '
     'uint16_t mrgSortList2; uint16_t mrgSortList3; }; }',
     'costmodel/pto_instr.hpp takes the struct common/pto_instr.hpp defines, but stands in for that header'),
    # pto_tile.hpp calls these before cce_costmodel_*.hpp defines them; declaring them first is all it needs.
    # These and the struct above are added always: the tree defines them, only too late or in a header the
    # cost-model build does not read.
    ('get_ctrl', None, 'inline int get_ctrl(...);', 'a forward declaration of cce_costmodel_core.hpp\'s stub'),
    ('sbitset', None, 'inline int sbitset0(int val, int bit);\ninline int sbitset1(int val, int bit);',
     'forward declarations of cce_costmodel_core.hpp\'s stubs'),
    ('set_ctrl', None, 'inline void set_ctrl(auto ctrl);', 'a forward declaration of cce_costmodel_sync.hpp\'s stub'),
]

# Source edits: (file, text to find, replacement, why). Skipped when the text is absent and the replacement is
# already there; a file matching neither stops the run.
COMPAT_EDITS = [
    ('include/pto/costmodel/trace.hpp',
     '    std::array<CcePipeTraceState, kPipeKeyCount> cce_pipe_traces;\n};',
     '    std::array<CcePipeTraceState, kPipeKeyCount> cce_pipe_traces;\n    bool vector_count_mode = false;\n};',
     'IsVectorCountMode reads this member; SetVectorCountMode, the only writer, is never called, so false'),
    ('include/pto/costmodel/common/runtime_util.hpp',
     'inline int get_coreid() { return 0; }\ninline uint32_t get_block_num() { return 1; }\n',
     '',
     'common/cpu_stub.hpp defines both too (from the launch\'s execution context, which LAUNCH_KERNEL sets)'),
]


def run(cmd, **kw):
    return subprocess.run(cmd, check=True, capture_output=True, text=True, **kw)


def extract(repo, commit, src):
    os.makedirs(src)
    archive = subprocess.Popen(['git', '-C', repo, 'archive', commit], stdout=subprocess.PIPE)
    subprocess.run(['tar', '-x', '-C', src], stdin=archive.stdout, check=True)
    if archive.wait() != 0:
        sys.exit(f'git archive {commit} failed')
    for gen in sorted(glob.glob(os.path.join(src, 'include/pto/costmodel/*/formula_costmodel/gen_*.py'))):
        run([sys.executable, gen], cwd=src)


def apply_compat(src, work, extra_prelude=(), extra_edits=()):
    """Writes the prelude and makes the edits (the extra ones after ours, in the same form: scripts/vfsim-cycles.py
    adds the A5 build's); returns what was applied, for measuredBy."""
    headers = ''
    for path in glob.glob(os.path.join(src, 'include', '**', '*.*'), recursive=True):
        if path.endswith(('.hpp', '.h', '.inl')):
            with open(path, errors='replace') as fh:
                headers += fh.read()
    applied, lines = [], ['#include <cstdint>']
    for name, defined, decl, _why in [*COMPAT_PRELUDE, *extra_prelude]:
        if defined is None or not re.search(defined, headers):
            lines.append(decl)
            applied.append(name)
    prelude = os.path.join(work, 'compat-prelude.h')
    with open(prelude, 'w') as fh:
        fh.write('\n'.join(lines) + '\n')
    for rel, old, new, _why in [*COMPAT_EDITS, *extra_edits]:
        path = os.path.join(src, rel)
        with open(path) as fh:
            text = fh.read()
        if old in text:
            with open(path, 'w') as fh:
                fh.write(text.replace(old, new, 1))
            applied.append(rel)
        elif not (new and new in text):
            sys.exit(f'{rel}: neither the text to edit nor its edited form is there; update COMPAT_EDITS')
    return prelude, applied


def cmake_args(path, command):
    """The arguments of every `command(...)` in a CMakeLists.txt, comments dropped."""
    with open(path) as fh:
        text = re.sub(r'#[^\n]*', '', fh.read())
    return [m.group(1).split() for m in re.finditer(command + r'\s*\(([^)]*)\)', text)]


def build_flags(src, suite, case):
    """g++ flags for tests/costmodel/SUITE/testcase/CASE, from the three CMake files that configure it."""
    suite_dir = os.path.join(src, 'tests', 'costmodel', suite)
    flags = [a for args in cmake_args(os.path.join(suite_dir, 'CMakeLists.txt'), 'add_definitions') for a in args]
    # CMAKE_CPP_COMPILE_OPTIONS in the suite's CMakeLists.txt
    flags += ['-std=c++23', '-O2', '-xc++', '-include', 'stdint.h', '-include', 'stddef.h']
    dirs = []
    for file in (os.path.join(suite_dir, 'testcase', 'CMakeLists.txt'),
                 os.path.join(suite_dir, 'testcase', case, 'CMakeLists.txt')):
        for args in cmake_args(file, 'target_include_directories'):
            dirs += [a.replace('${PROJECT_SOURCE_DIR}', suite_dir) for a in args if '${PROJECT_SOURCE_DIR}' in a]
        for args in cmake_args(file, 'target_compile_options'):
            flags += [a for a in args if a.startswith('-D')]
    return flags, [os.path.normpath(d) for d in dirs]


def build(src, work, prelude, suite, case):
    flags, dirs = build_flags(src, suite, case)
    binary = os.path.join(work, 'bin', f'{suite}_{case}')
    os.makedirs(os.path.dirname(binary), exist_ok=True)
    cmd = [CXX, *flags, '-include', prelude, '-Wno-ignored-attributes', '-Wno-attributes', '-I', GTEST_STANDIN]
    for d in dirs:
        cmd += ['-I', d]
    cmd += [os.path.join(src, 'tests', 'costmodel', suite, 'testcase', case, 'main.cpp'), '-o', binary, '-lpthread',
            '-lm', '-ldl']
    print(f'build {suite}/{case}', file=sys.stderr)
    result = subprocess.run(cmd, capture_output=True, text=True)
    if result.returncode != 0:
        errors = [line for line in result.stderr.split('\n') if 'error' in line]
        return None, '\n'.join(errors[:10]) or result.stderr[-2000:]
    return binary, None


def overlapping_slices(trace):
    """Slices that start before the previous one on the same core and pipe has ended."""
    by_pipe = {}
    for e in trace:
        if e.get('ph') == 'X':
            by_pipe.setdefault((e['pid'], e['tid']), []).append(e)
    count = 0
    for slices in by_pipe.values():
        end = 0
        for e in sorted(slices, key=lambda e: (e['ts'], e['dur'])):
            count += e['ts'] < end
            end = max(end, e['ts'] + e['dur'])
    return count


def ops_tsv(trace):
    slices = sorted((e for e in trace if e.get('ph') == 'X'), key=lambda e: e['ts'])
    lines = ['core\tpipe\tname\tstart\tduration']
    for e in slices:
        name = re.sub(r':\d+$', '', e['name'])  # perf_sim appends the record's index
        lines.append(f"{e['pid']}\t{e['tid']}\t{name}\t{e['ts']}\t{e['dur']}")
    return '\n'.join(lines) + '\n'


def run_test(binary, test, work, out):
    cwd = os.path.join(work, 'run', test)
    os.makedirs(cwd)
    result = subprocess.run([binary, f'--gtest_filter={test}'], cwd=cwd, capture_output=True, text=True)
    stdout = result.stdout + result.stderr
    if result.returncode != 0 or f'[       OK ] {test}' not in stdout:
        return None, f'the test failed (exit {result.returncode})'
    traces = glob.glob(os.path.join(cwd, 'perf_sim_output', '*.json'))
    summaries = glob.glob(os.path.join(cwd, 'perf_sim_output', '*_pipeline_summary.csv'))
    if len(traces) != 1 or len(summaries) != 1:
        return None, 'perf_sim wrote no trace or summary'
    with open(traces[0]) as fh:
        trace = json.load(fh)
    with open(summaries[0]) as fh:
        rows = list(csv.DictReader(fh))
    pipes = [c for c in rows[0] if c.endswith('_cycles') and c not in ('total_cycles', 'active_cycles', 'busy_cycles')]
    measured = {
        'total': max(int(r['total_cycles']) for r in rows),
        'cores': len({r['core_id'] for r in rows}),
        'busy': {p[: -len('_cycles')]: sum(int(r[p]) for r in rows) for p in pipes},
        'overlapping': overlapping_slices(trace),
        'slices': sum(1 for e in trace if e.get('ph') == 'X'),
    }
    if out:
        dest = os.path.join(out, test)
        os.makedirs(dest, exist_ok=True)
        shutil.copy(traces[0], os.path.join(dest, 'trace.json'))
        shutil.copy(summaries[0], os.path.join(dest, 'pipeline_summary.csv'))
        with open(os.path.join(dest, 'stdout.txt'), 'w') as fh:
            fh.write(stdout)
        with open(os.path.join(dest, 'ops.tsv'), 'w') as fh:
            fh.write(ops_tsv(trace))
    return measured, None


def write_json(path, doc):
    """`doc` as indented JSON with a final newline (the fixtures' form)."""
    with open(path, 'w') as fh:
        json.dump(doc, fh, indent=1)
        fh.write('\n')


def report_failures(failures):
    """Each test that could not be measured on stderr; the exit status: 1 when there was one."""
    for failure in failures:
        print(f'not measured: {failure}', file=sys.stderr)
    return 1 if failures else 0


def record(kernel, measured, how):
    kernel.pop('deadlock', None)
    kernel.pop('reportedTotalCycles', None)
    if measured['cores'] != kernel['cores']:
        sys.exit(f"{kernel['test']}: perf_sim reports {measured['cores']} cores, the test launches {kernel['cores']}")
    if measured['overlapping']:
        kernel['totalCycles'] = None
        kernel['reportedTotalCycles'] = measured['total']
        kernel['deadlock'] = (f"perf_sim's simulation deadlocked: {measured['overlapping']} of {measured['slices']} "
                              'slices overlap on their pipe (ops left in the queues are emitted as stuck), so its '
                              'reported total is not the kernel\'s time')
    else:
        kernel['totalCycles'] = measured['total']
    kernel['pipeBusyCycles'] = measured['busy']
    kernel['measuredBy'] = how


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('--repo', default='/work/.mirror/hw-native-sys+pto-isa/repo')
    parser.add_argument('--commit', default='HEAD')
    parser.add_argument('--work', help='build here and keep it (default: a temporary directory, removed)')
    parser.add_argument('--out', help='copy each test\'s trace, summary, output and ops.tsv to OUT/<Suite.Name>/')
    parser.add_argument('--only', nargs='*', help='only these tests (Suite.Name)')
    args = parser.parse_args()

    with open(FIXTURE) as fh:
        fixture = json.load(fh)
    commit = run(['git', '-C', args.repo, 'rev-parse', args.commit]).stdout.strip()
    if commit != fixture['commit']:
        sys.exit(f"the fixture lists the tests of {fixture['commit']}; run scripts/costmodel-fixtures.py for {commit}")
    work = args.work or tempfile.mkdtemp(prefix='perf-sim-')
    try:
        src = os.path.join(work, 'src')
        extract(args.repo, commit, src)
        prelude, applied = apply_compat(src, work)
        how = {
            'script': 'scripts/perf-sim-totals.py',
            'compiler': run([CXX, '--version']).stdout.split('\n')[0],
            'commit': commit,
            'compat': applied,
        }
        binaries, failures = {}, []
        for kernel in fixture['kernels']:
            if args.only and kernel['test'] not in args.only:
                continue
            _, _, suite, _, case, _ = kernel['source'].split('/')
            if (suite, case) not in binaries:
                binaries[(suite, case)] = build(src, work, prelude, suite, case)
            binary, error = binaries[(suite, case)]
            if not binary:
                failures.append(f"{kernel['test']}: {suite}/{case} does not compile" + (':\n' + error if error else ''))
                binaries[(suite, case)] = (None, '')  # the compiler's errors once per test file
                continue
            measured, error = run_test(binary, kernel['test'], work, args.out)
            if error:
                failures.append(f"{kernel['test']}: {error}")
                continue
            record(kernel, measured, how)
            print(f"{kernel['test']}: {kernel['totalCycles']}"
                  + (f" (deadlock; perf_sim reports {measured['total']})" if measured['overlapping'] else ''))
        write_json(FIXTURE, fixture)
        return report_failures(failures)
    finally:
        if not args.work:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == '__main__':
    sys.exit(main())
