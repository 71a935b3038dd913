// Runs PTOAS's A5 tile-op suite (test/tilelang_st/npu/a5/src/st/testcase of a PTOAS export) through pto-vm, as
// its board flow runs it: the case's gen_data.py writes inputs and goldens, the kernel runs (here on the VM, with
// --pto-backend vpto, the back end the suite compiles with), and the case's compare.py judges the output.
//
//   node scripts/tilelang-suite.js PTOAS_EXPORT [TESTCASE...] [--keep] [-- PTO_VM_FLAGS...]
//
// A case is a row of the test's main.cpp case table: its name (the data folder gen_data.py writes) and its launch
// wrapper, whose kernel launch.cpp names. The kernel's pointer parameters take input*.bin in order; the rest are
// outputs, the first written to output.bin, sized like golden.bin (an in-place kernel's output is its last input). Needs python3 with numpy (and ml_dtypes for the
// bf16/fp8 tests). Prints one line per case that does not pass, then the counts.
'use strict';
const fs = require('fs');
const os = require('os');
const path = require('path');
const cp = require('child_process');

const argv = process.argv.slice(2);
const dash = argv.indexOf('--');
const vmFlags = dash >= 0 ? argv.slice(dash + 1) : [];
const own = dash >= 0 ? argv.slice(0, dash) : argv;
const keep = own.includes('--keep');
const [exportRoot, ...only] = own.filter((a) => a !== '--keep');
if (!exportRoot) {
  process.stderr.write('usage: node scripts/tilelang-suite.js PTOAS_EXPORT [TESTCASE...] [--keep] [-- PTO_VM_FLAGS...]\n');
  process.exit(2);
}
const suite = path.join(exportRoot, 'test', 'tilelang_st', 'npu', 'a5', 'src', 'st', 'testcase');
const ptoVm = path.join(__dirname, '..', 'bin', 'pto-vm');
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'tilelang-suite-'));
const python = { env: { ...process.env, PYTHONPATH: suite }, encoding: 'utf8' };

/** The kernels' parameter names, by function name. */
function kernelParameters(text) {
  const params = new Map();
  for (const m of text.matchAll(/func\.func @(\w+)\(([^)]*)\)/g))
    params.set(
      m[1],
      [...m[2].matchAll(/%(\w+)\s*:/g)].map((x) => x[1]),
    );
  return params;
}

/** [case name, kernel name] for each row of main.cpp's case table. */
function caseTable(dir) {
  const launch = fs.existsSync(path.join(dir, 'launch.cpp')) ? fs.readFileSync(path.join(dir, 'launch.cpp'), 'utf8') : '';
  const kernelOf = new Map();
  for (const m of launch.matchAll(/void\s+Launch(\w+)\s*\([^)]*\)\s*\{\s*(\w+)\s*(?:<<<|\()/g)) kernelOf.set(m[1], m[2]);
  const rows = [];
  for (const part of fs.readFileSync(path.join(dir, 'main.cpp'), 'utf8').split(/(?=\{\s*"\w+")/)) {
    const m = /^\{\s*"(\w+)"[\s\S]*?Launch(?!Fn\b)(\w+)/.exec(part);
    if (m) rows.push([m[1], kernelOf.get(m[2]) ?? m[2]]);
  }
  return rows;
}

const failures = [];
let passed = 0;
for (const test of fs.readdirSync(suite).sort()) {
  if (only.length > 0 && !only.includes(test)) continue;
  const source = path.join(suite, test);
  const kernelFile = fs.existsSync(path.join(source, 'gen_data.py')) && fs.readdirSync(source).find((f) => f.endsWith('.pto'));
  if (!kernelFile) continue;
  const work = path.join(scratch, test);
  fs.cpSync(source, work, { recursive: true });
  const gen = cp.spawnSync('python3', ['gen_data.py'], { ...python, cwd: work });
  if (gen.status !== 0) {
    failures.push(`${test}: gen_data.py failed: ${(gen.stderr || '').trim().split('\n').pop()}`);
    continue;
  }
  const params = kernelParameters(fs.readFileSync(path.join(work, kernelFile), 'utf8'));
  for (const [name, kernel] of caseTable(work)) {
    const data = path.join(work, name);
    const names = params.get(kernel);
    if (!names || !fs.existsSync(data)) {
      failures.push(`${test}/${name}: no kernel @${kernel} or no data folder`);
      continue;
    }
    const inputs = fs
      .readdirSync(data)
      .filter((f) => /^input\d*\.bin$/.test(f))
      .sort((a, b) => (parseInt(a.slice(5), 10) || 0) - (parseInt(b.slice(5), 10) || 0));
    const args = ['run', path.join(work, kernelFile), '--target', 'a5', '--pto-backend', 'vpto', '--entry', kernel, ...vmFlags];
    inputs.forEach((f, i) => args.push(`--arg=${names[i]}=${path.join(data, f)}`));
    // An in-place kernel writes its last input.
    const output = names[inputs.length] ?? names[inputs.length - 1];
    if (output !== undefined) {
      // The output buffer is as large as the host allocates it: the golden's size.
      const golden = path.join(data, 'golden.bin');
      const initial = path.join(data, 'output.bin');
      fs.writeFileSync(initial, new Uint8Array(fs.existsSync(golden) ? fs.statSync(golden).size : 0));
      if (fs.statSync(initial).size > 0 && names.indexOf(output) >= inputs.length) args.push(`--arg=${output}=${initial}`);
      args.push(`--out=${output}=${initial}`);
    }
    const run = cp.spawnSync(process.execPath, [ptoVm, ...args], { encoding: 'utf8' });
    if (run.status !== 0) {
      failures.push(`${test}/${name}: pto-vm: ${(run.stderr || '').split('\n').find((l) => /error/.test(l)) ?? `exit ${run.status}`}`);
      continue;
    }
    const compare = cp.spawnSync('python3', ['compare.py', name], { ...python, cwd: work });
    if (compare.status === 0) passed++;
    else
      failures.push(
        `${test}/${name}: compare.py: ${`${compare.stdout}${compare.stderr}`.split('\n').find((l) => /ERROR|Error/.test(l)) ?? `exit ${compare.status}`}`,
      );
  }
}
for (const f of failures) process.stdout.write(f + '\n');
process.stdout.write(`tilelang_st a5: ${passed} cases pass, ${failures.length} do not${keep ? ` (scratch kept: ${scratch})` : ''}\n`);
if (!keep) fs.rmSync(scratch, { recursive: true, force: true });
