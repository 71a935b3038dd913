#!/usr/bin/env python3
"""Extract pto-isa's cost-model datapoints into test/fixtures/costmodel/*.json (issue 39).

Reads the test sources of hw-native-sys/pto-isa at one commit (a bare git repo) and writes data only: for every
single-op test of tests/costmodel/{st,st_a5,st_fit,st_a5_fit}, the op, arch, the arguments the test varies (named as
the test names them), the profiled cycles and the accuracy pto-isa's own model is held to; for perf_sim_st, each
kernel test, the cores it launches and the pipes it requires (perf_sim's totals are measured by
scripts/perf-sim-totals.py, which this script keeps). Each datapoint names its source file and test.

  python3 scripts/costmodel-fixtures.py [/work/.mirror/hw-native-sys+pto-isa/repo] [commit]

The tests are C++ with a few regular shapes (a template runner called with literal template arguments, a
function-like macro wrapping TEST, constexpr arrays of case structs); this reader knows exactly those shapes and
fails loudly on a call it cannot bind, so a new shape upstream is noticed rather than skipped.
"""
import json
import os
import re
import subprocess
import sys

REPO = sys.argv[1] if len(sys.argv) > 1 else '/work/.mirror/hw-native-sys+pto-isa/repo'
COMMIT = sys.argv[2] if len(sys.argv) > 2 else 'HEAD'
OUT = os.path.join(os.path.dirname(__file__), '..', 'test', 'fixtures', 'costmodel')


def git(*args):
    return subprocess.run(['git', '-C', REPO, *args], check=True, capture_output=True, text=True).stdout


def strip_comments(text):
    text = re.sub(r'/\*.*?\*/', '', text, flags=re.S)
    return re.sub(r'//[^\n]*', '', text)


def split_top(text, sep=','):
    """Split at separators outside (), <>, {}, [] and string literals."""
    parts, depth, cur, in_str = [], 0, '', False
    for ch in text:
        if ch == '"':
            in_str = not in_str
        if not in_str:
            if ch in '(<{[':
                depth += 1
            elif ch in ')>}]':
                depth -= 1
            elif ch == sep and depth == 0:
                parts.append(cur.strip())
                cur = ''
                continue
        cur += ch
    if cur.strip():
        parts.append(cur.strip())
    return parts


def matching(text, start, open_ch, close_ch):
    """Index just past the bracket closing the one at text[start]."""
    depth = 0
    for i in range(start, len(text)):
        if text[i] == open_ch:
            depth += 1
        elif text[i] == close_ch:
            depth -= 1
            if depth == 0:
                return i + 1
    raise ValueError('unbalanced ' + open_ch)


def expand_macros(text):
    """Expand function-like macros (the TMOV_CASE kind) and object-like integer constants."""
    consts = {m.group(1): m.group(2) for m in re.finditer(r'#define\s+(\w+)\s+(-?\d+)\s*$', text, re.M)}
    consts.update({m.group(1): m.group(2) for m in re.finditer(r'constexpr\s+\w+\s+(\w+)\s*=\s*(-?\d+)\s*;', text)})
    macros = {}
    for m in re.finditer(r'#define\s+(\w+)\(([^)]*)\)((?:[^\n]*\\\n)*[^\n]*)', text):
        body = m.group(3).replace('\\\n', '\n')
        macros[m.group(1)] = ([p.strip() for p in m.group(2).split(',')], body)
    text = re.sub(r'#define[^\n]*(?:\\\n[^\n]*)*', '', text)
    for name, (params, body) in macros.items():
        while True:
            m = re.search(r'\b' + name + r'\s*\(', text)
            if not m:
                break
            end = matching(text, m.end() - 1, '(', ')')
            args = split_top(text[m.end():end - 1])
            out = body
            for p, a in zip(params, args):
                out = re.sub(r'\b' + p + r'\b', a, out)
            text = text[:m.start()] + out + text[end:]
    for k, v in consts.items():
        text = re.sub(r'(?<![\w.])' + k + r'\b', v, text)
    return text


def number(v):
    v = v.strip()
    m = re.fullmatch(r'\(?\s*(-?\d+(?:\.\d*)?(?:e-?\d+)?)f?\s*\)?', v)
    if m:
        f = float(m.group(1))
        return int(f) if f.is_integer() and '.' not in m.group(1) else f
    return None


def value(v):
    n = number(v)
    if n is not None:
        return n
    return v.strip().split('::')[-1].strip('"')


def template_params(text):
    """runner name -> list of overloads, each a list of (name, default or None)."""
    runners = {}
    for m in re.finditer(r'template\s*<', text):
        end = matching(text, m.end() - 1, '<', '>')
        after = re.match(r'\s*(?:inline\s+)?(?:void|auto)\s+(\w+)\s*\(', text[end:])
        if not after:
            continue
        params = []
        for p in split_top(text[m.end():end - 1]):
            default = None
            if '=' in p:
                p, default = [s.strip() for s in p.split('=', 1)]
            params.append((p.split()[-1], default))
        runners.setdefault(after.group(1), []).append(params)
    return runners


def bind(overloads, args, where):
    for params in overloads:
        required = sum(1 for _, d in params if d is None)
        if required <= len(args) <= len(params):
            bound = {}
            for i, (name, default) in enumerate(params):
                bound[name] = value(args[i]) if i < len(args) else value(default)
            return bound
    raise ValueError(f'{where}: no overload of the runner takes {len(args)} template arguments')


PROFILING = re.compile(r'^(profiling|Profiling|PROF|profiling_cycles)$')
ACCURACY = re.compile(r'^(accuracy|Accuracy|Precision|precision|ACC)$')


def datapoint(source, suite, test, op, arch, bound, model_check):
    prof = next((k for k in bound if PROFILING.match(k)), None)
    acc = next((k for k in bound if ACCURACY.match(k)), None)
    if prof is None or acc is None:
        raise ValueError(f'{source} {suite}.{test}: no profiling/accuracy argument in {sorted(bound)}')
    args = {k: v for k, v in bound.items() if k not in (prof, acc)}
    return {
        'source': source,
        'test': f'{suite}.{test}',
        'op': op,
        'arch': arch,
        'args': args,
        'profiled': bound[prof],
        'accuracy': bound[acc],
        'check': model_check,
    }


def tests_of(text):
    for m in re.finditer(r'\bTEST\s*\(\s*(\w+)\s*,\s*(\w+)\s*\)\s*\{', text):
        end = matching(text, m.end() - 1, '{', '}')
        yield m.group(1), m.group(2), text[m.end():end - 1]


def template_cases(source, text, op, arch, check):
    runners = template_params(text)
    points = []
    for suite, test, body in tests_of(text):
        for m in re.finditer(r'\b(\w+)\s*<', body):
            if m.group(1) not in runners:
                continue
            end = matching(body, m.end() - 1, '<', '>')
            bound = bind(runners[m.group(1)], split_top(body[m.end():end - 1]), f'{source} {suite}.{test}')
            points.append(datapoint(source, suite, test, op, arch, bound, check))
    return points


def struct_cases(source, text, arch):
    """st_a5_fit's constexpr arrays of case structs, run by a function that fills a CostModelInput."""
    fields = {}
    for m in re.finditer(r'struct\s+(\w+)\s*\{([^}]*)\}', text):
        fields[m.group(1)] = [f.split()[-1] for f in m.group(2).split(';') if f.strip()]
    runs = {}
    for m in re.finditer(r'void\s+(\w+)\s*\(([^)]*)\)\s*\{', text):
        end = matching(text, m.end() - 1, '{', '}')
        init = re.search(r'CostModelInput\s+\w+\s*\{([^}]*)\}', text[m.end():end])
        fixed = {}
        for item in split_top(init.group(1)) if init else []:
            k, v = [s.strip() for s in item.split('=', 1)]
            if not re.match(r'^(c\.|op$)', v):
                fixed[k.lstrip('.')] = value(v)
        runs[m.group(1)] = fixed
    arrays = {}
    for m in re.finditer(r'constexpr\s+(\w+)\s+(\w+)\[\]\s*=\s*\{', text):
        end = matching(text, m.end() - 1, '{', '}')
        rows = []
        for row in split_top(text[m.end():end - 1]):
            vals = split_top(row.strip()[1:-1])
            rows.append(dict(zip(fields[m.group(1)], (value(v) for v in vals))))
        arrays[m.group(2)] = rows
    points = []
    for suite, test, body in tests_of(text):
        arr = re.search(r'for\s*\(\s*const\s+auto\s*&\s*c\s*:\s*(\w+)\s*\)', body)
        call = re.search(r'(\w+)\s*\(\s*(?:PtoOpcode::(\w+)\s*,)?', body[arr.end():])
        fixed = dict(runs[call.group(1)])
        op = call.group(2) or fixed.pop('op')
        fixed.pop('arch', None)
        for row in arrays[arr.group(1)]:
            bound = {**fixed, **row}
            points.append(datapoint(source, suite, test, op, arch, bound, 'a5-formula-vs-profiling'))
    return points


def input_literal(block):
    return {k.strip().lstrip('.'): value(v) for k, v in (s.split('=', 1) for s in split_top(block) if '=' in s)}


def st_fit_cases(source, text):
    """st_fit checks pto-isa's formula model's exact output (model values, not profiles)."""
    points = []
    for suite, test, body in tests_of(text):
        inputs = [(m.group(1), input_literal(body[m.end():matching(body, m.end() - 1, '{', '}') - 1]))
                  for m in re.finditer(r'CostModelInput\s+(\w+)\s*\{', body)]
        k = re.search(r'kExpectedCycles\s*=\s*([\d.]+)', body)
        for name, inp in inputs:
            res = re.search(r'EXPECT_DOUBLE_EQ\(\s*\w+\.cycles\s*,\s*([\d.]+)\s*\)', body)
            expected = float(k.group(1)) if k else float(res.group(1)) if res else None
            if expected is None or len(inputs) > 1 and not res:
                continue
            if len(inputs) > 1:
                continue
            points.append({'source': source, 'test': f'{suite}.{test}', 'input': inp, 'modelCycles': expected})
        if len(inputs) > 1 or not inputs:
            continue
    return points


def csv_rows(path):
    lines = [l for l in git('show', f'{COMMIT}:{path}').split('\n') if l.strip()]
    header = lines[0].split(',')
    return [dict(zip(header, l.split(','))) for l in lines[1:]]


def write_spec(origin):
    """spec/costmodel/: the two formula tables and VfSim's tables as JSON (the numbers only; the evaluation is src/timing)."""
    spec = os.path.join(os.path.dirname(__file__), '..', 'spec', 'costmodel')
    os.makedirs(spec, exist_ok=True)
    a2 = 'include/pto/costmodel/a2a3/formula_costmodel/formula_params.csv'
    a5 = 'include/pto/costmodel/a5/formula_costmodel/formula_params.csv'
    rows2 = [{'op': r['op'], 'dtype': r['dtype'].lower(), 'cols': None if r['cols'] == '*' else int(r['cols']),
              'slope': float(r['slope']), 'bias': float(r['bias'])} for r in csv_rows(a2)]
    rows5 = [{'op': r['op'], 'srcDtype': r['src_dtype'], 'dstDtype': r['dst_dtype'], 'shapePath': r['shape_path'].upper(),
              'vfImplKind': r['vf_impl_kind'], 'tailKind': r['tail_kind'].lower(), 'opParams': r['op_params'],
              'formula': r['formula_kind'].lower(), 'params': [float(r[f'param{i}']) for i in range(4)]}
             for r in csv_rows(a5)]
    for name, path, rows in (('a2a3-formula.json', a2, rows2), ('a5-formula.json', a5, rows5)):
        with open(os.path.join(spec, name), 'w') as fh:
            json.dump({**origin, 'source': path, 'rows': rows}, fh, indent=1)
            fh.write('\n')
    write_vfsim(origin, spec)


VFSIM = 'include/pto/costmodel/a5/VfSim/params'


def typed(kind, text):
    """A uarch.csv value by its declared type."""
    return int(text) if kind == 'int' else text == 'true' if kind == 'bool' else text


def pair_table(path, first, second):
    """forwarding.csv / initiation_interval.csv as {first: {second: cycles}}, each op named OP.form as VfSim does."""
    table = {}
    for r in csv_rows(path):
        table.setdefault(r[first], {})[r[second]] = int(r['cycles'])
    return table


def write_vfsim(origin, spec):
    """spec/costmodel/a5-vfsim.json: VfSim's parameter tables (A5 vector micro-ops), numbers only."""
    rows = [{'op': r['op'], 'form': r['form'], 'startupCost': int(r['pipeline_startup_cost']), 'latency': int(r['latency']),
             'throughput': int(r['throughput']), 'drainCost': int(r['pipeline_drain_cost']),
             'loadCost': int(r['data_load_cost']), 'storeCost': int(r['data_store_cost']), 'exu': r['EXU'],
             'dispatchExu': r['dispatch_exu'], 'opClass': r['op_class']} for r in csv_rows(f'{VFSIM}/isa.csv')]
    defaults = {r['key']: int(r['value']) for r in csv_rows(f'{VFSIM}/isa_defaults.csv')}
    doc = {**origin, 'source': VFSIM,
           'defaults': {'vfStartupCost': defaults['vf_startup_cost'], 'vfDrainCost': defaults['vf_drain_cost']},
           'uarch': {r['key']: typed(r['type'], r['value']) for r in csv_rows(f'{VFSIM}/uarch.csv')},
           'instructions': rows,
           'forwarding': pair_table(f'{VFSIM}/forwarding.csv', 'producer', 'consumer'),
           'initiationInterval': pair_table(f'{VFSIM}/initiation_interval.csv', 'previous', 'current')}
    with open(os.path.join(spec, 'a5-vfsim.json'), 'w') as fh:
        json.dump(doc, fh, indent=1)
        fh.write('\n')


def keep_measured(kernels, commit):
    """Keeps what scripts/perf-sim-totals.py measured (it builds and runs perf_sim) for the same commit: every
    field of an entry this script does not compute, and its totalCycles."""
    path = os.path.join(OUT, 'perf-sim-kernels.json')
    if not os.path.exists(path):
        return
    with open(path) as fh:
        old = json.load(fh)
    if old.get('commit') != commit:
        return
    previous = {(k['source'], k['test']): k for k in old['kernels']}
    for kernel in kernels:
        for field, v in previous.get((kernel['source'], kernel['test']), {}).items():
            if field not in kernel or field == 'totalCycles':
                kernel[field] = v


def main():
    files = [f for f in git('ls-tree', '-r', '--name-only', COMMIT, 'tests/costmodel').split('\n') if f.endswith('main.cpp')]
    single, st_fit, kernels, no_profile = [], [], [], []
    for f in files:
        parts = f.split('/')
        suite_dir, case = parts[2], parts[4]
        text = expand_macros(strip_comments(git('show', f'{COMMIT}:{f}')))
        op = re.sub(r'_fit$', '', case).upper()
        if suite_dir == 'perf_sim_st' or case.endswith('_perf_sim'):
            for suite, test, body in tests_of(text):
                launch = re.search(r'LAUNCH_KERNEL\(\s*(\w+)\s*,[^,]*,\s*\(\s*(\d+)', body)
                kernels.append({
                    'source': f,
                    'test': f'{suite}.{test}',
                    'kernel': launch.group(1) if launch else None,
                    'cores': int(launch.group(2)) if launch else None,
                    # The stages the test requires to appear in the recorded trace (its only assertions).
                    'requiresStages': sorted(set(re.findall(r'\bhas_(\w+)\s*=\s*true', body))),
                    'totalCycles': None,
                })
        elif suite_dir == 'st':
            single += template_cases(f, text, op, 'a2a3', 'cce-model-vs-profiling')
        elif suite_dir == 'st_a5':
            # st_a5 checks VfSim's micro-op sequence per tile op: no cycles, so no datapoints here.
            no_profile.append(f)
        elif suite_dir == 'st_a5_fit':
            if 'struct ' in text:
                single += struct_cases(f, text, 'a5')
            else:
                single += template_cases(f, text, op, 'a5', 'a5-formula-vs-profiling')
        elif suite_dir == 'st_fit':
            st_fit += st_fit_cases(f, text)
    commit = git('rev-parse', COMMIT).strip()
    origin = {'repository': 'hw-native-sys/pto-isa', 'commit': commit, 'extractedBy': 'scripts/costmodel-fixtures.py'}
    os.makedirs(OUT, exist_ok=True)
    write_spec(origin)

    def write(name, doc):
        with open(os.path.join(OUT, name), 'w') as fh:
            json.dump(doc, fh, indent=1)
            fh.write('\n')

    write('single-op.json', {
        **origin,
        'note': 'profiled = cycles measured on hardware (0 = not profiled); accuracy = the precision '
                '1 - |profiled - model| / profiled pto-isa requires of its own model (st: the instruction-level '
                'cce model; st_a5_fit: the A5 formula model, with 0.05 of slack)',
        'withoutCycles': no_profile,
        'datapoints': single,
    })
    write('formula-model.json', {**origin, 'note': "st_fit: the a2a3 formula model's exact outputs", 'cases': st_fit})
    keep_measured(kernels, commit)
    write('perf-sim-kernels.json', {
        **origin,
        'note': 'perf_sim_st asserts which pipes a kernel uses, never its total. totalCycles, pipeBusyCycles and '
                'measuredBy come from running perf_sim: python3 scripts/perf-sim-totals.py builds and runs each test '
                'and writes them here (null where perf_sim deadlocks, with the reason)',
        'kernels': kernels,
    })
    profiled = [p for p in single if p['profiled'] > 0]
    print(f'{len(single)} single-op datapoints ({len(profiled)} profiled), {len(st_fit)} st_fit cases, {len(kernels)} kernel tests')


if __name__ == '__main__':
    main()
