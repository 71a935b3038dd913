// The compilers' own kernels the bench times (PTOAS's pypto samples, found through PTO_UPSTREAM_DIR), each with the
// plain-JavaScript program of bench/kernels doing its arithmetic, and the check that the two compute the same bytes:
// the bench makes it before timing a kernel, test/bench/pypto-kernels.test.ts for each kernel. No dist/ imports.
'use strict';
const fs = require('fs');
const os = require('os');
const path = require('path');
const { spawnSync } = require('child_process');

const ROOT = path.join(__dirname, '..');

/**
 * sample: the kernel under test/samples; args: pto-vm's arguments beyond the generated inputs; out: the pointer the
 * baseline computes; js: the baseline; target: the ratio of pto-vm's time to the baseline's the issue asks for.
 */
const PYPTO_KERNELS = [
  { sample: 'Qwen3DecodeA3/kernels/aic/gate_proj.pto', args: ['--arg', 'arg3=0'], out: 'arg2', js: 'pypto-gate-proj.js', target: 2 },
  { sample: 'Qwen3DecodeA5/kernels/gate_proj.pto', args: ['--arg', 'arg3=0'], out: 'arg2', js: 'pypto-gate-proj.js', target: 2 },
  { sample: 'Qwen3DecodeA3/kernels/aiv/rmsnorm.pto', args: [], out: 'arg1', js: 'pypto-rmsnorm.js', target: 1.5 },
  { sample: 'Qwen3DecodeA5/kernels/rmsnorm.pto', args: [], out: 'arg1', js: 'pypto-rmsnorm.js', target: 1.5 },
  { sample: 'DeepseekV4DecodeA3/kernels/aiv/rms_norm.pto', args: [], out: 'arg1', js: 'pypto-deepseek-rms-norm.js', target: 1.5 },
  { sample: 'DeepseekV4DecodeA3/kernels/aic/weights_proj.pto', args: [], out: 'arg2', js: 'pypto-deepseek-weights-proj.js', target: 1.5 },
];

/** The kernel's file, or undefined without PTO_UPSTREAM_DIR (or a checkout without the sample). */
function sampleFile(kernel, root = process.env.PTO_UPSTREAM_DIR) {
  const file = root && path.join(root, 'test', 'samples', kernel.sample);
  return file && fs.existsSync(file) ? file : undefined;
}

/** pto-vm's command line for the kernel (after `node`), its notes left out. */
function vmArgs(kernel, file) {
  return [path.join('bin', 'pto-vm'), 'run', file, '--quiet', ...kernel.args];
}

/** FNV-1a of the bytes, as the baselines print it. */
function fnv1a(bytes) {
  let h = 0x811c9dc5;
  for (let i = 0; i < bytes.length; i++) h = Math.imul(h ^ bytes[i], 0x01000193);
  return (h >>> 0).toString(16).padStart(8, '0');
}

function node(args) {
  const run = spawnSync(process.execPath, args, { cwd: ROOT, encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`node ${args.join(' ')} exited with ${run.status}: ${run.stderr}`);
  return run.stdout;
}

/** The checksums of pto-vm's --out of the kernel's output and of its baseline's: { vm, js }. */
function checksums(kernel, file) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pto-pypto-'));
  try {
    const out = path.join(dir, 'out.bin');
    node([...vmArgs(kernel, file), '--out', `${kernel.out}=${out}`]);
    const printed = /fnv1a ([0-9a-f]{8})/.exec(node([path.join('bench', 'kernels', kernel.js)]));
    return { vm: fnv1a(fs.readFileSync(out)), js: printed ? printed[1] : 'none printed' };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** Throws unless pto-vm's output and the baseline's are the same bytes: a row must time the same computation. */
function requireSameOutput(kernel, file) {
  const { vm, js } = checksums(kernel, file);
  if (vm !== js) {
    throw new Error(
      `${kernel.sample}: pto-vm's --out ${kernel.out} has checksum ${vm}, bench/kernels/${kernel.js} prints ${js}: they no longer compute the same bytes`,
    );
  }
}

module.exports = { PYPTO_KERNELS, sampleFile, vmArgs, checksums, requireSameOutput };
