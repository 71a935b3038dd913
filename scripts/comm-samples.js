#!/usr/bin/env node
/*
 * Runs every PTOAS sample that uses pto.comm on the ranks it is written for, with generated inputs, and prints one
 * line per sample: ok / trap / deadlock and the first line of the report. Usage (after npm run build):
 *   node scripts/comm-samples.js [/work/upstream]
 * How a sample's ranks and arguments are chosen (docs/ranks.md):
 * - a collective's group(...) has one view per rank: as many ranks as members; member k's pointer argument is
 *   bound to rank k's buffer (`@k`); the first i32 scalar is the rank, the second the number of ranks;
 * - pypto's EP kernels (a !pto.ptr<i64> communication context, read by CommRemoteOffset) run on 2 ranks (README:
 *   `--ep 2`); each !pto.ptr<i64> context holds [0, 0, rank, ranks, window base of rank 0, of rank 1, ...]; i32
 *   scalars are the rank, index scalars 1, the SPMD block index 0 of 1 block;
 * - anything else runs on one rank.
 */
const fs = require('fs');
const os = require('os');
const path = require('path');
const { execFileSync } = require('child_process');
const { Buffer } = require('buffer');

const upstream = process.argv[2] ?? '/work/upstream';
const vm = path.join(__dirname, '..', 'bin', 'pto-vm');
const WINDOW = 2n ** 32n;

function find(dir) {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return find(p);
    return e.name.endsWith('.pto') && fs.readFileSync(p, 'utf8').includes('pto.comm') ? [p] : [];
  });
}

/** A 1-D little-endian int64 .npy file. */
function writeI64Npy(file, values) {
  let header = `{'descr': '<i8', 'fortran_order': False, 'shape': (${values.length},), }`;
  header += ' '.repeat(64 - ((10 + header.length + 1) % 64)) + '\n';
  const head = Buffer.alloc(10);
  Buffer.from('\x93NUMPY', 'latin1').copy(head);
  head[6] = 1;
  head.writeUInt16LE(header.length, 8);
  const body = Buffer.alloc(values.length * 8);
  values.forEach((v, i) => body.writeBigInt64LE(BigInt(v), i * 8));
  fs.writeFileSync(file, Buffer.concat([head, Buffer.from(header, 'latin1'), body]));
}

function params(text) {
  const sig = /func\.func @\w+\(([^)]*)\)/.exec(text)[1];
  return sig.split(/,\s*(?=%)/).map((p) => {
    const [name, type] = p.split(/:\s*/);
    return { name: name.trim().slice(1), type: type.trim() };
  });
}

/** The pointer argument under a view value: `%v = pto.partition_view %t` <- `%t = pto.make_tensor_view %argN`. */
function pointerOf(text, value) {
  for (let v = value, depth = 0; depth < 8; depth++) {
    const m = new RegExp(`${v.replace('%', '%')} = pto\\.(?:partition_view|make_tensor_view) (%\\w+)`).exec(text);
    if (!m) return v.slice(1);
    v = m[1];
  }
  return undefined;
}

function plan(file, work) {
  const text = fs.readFileSync(file, 'utf8');
  const args = [];
  const ps = params(text);
  const group = /group\(([^)]*)\)/.exec(text);
  if (group) {
    const members = group[1].split(',').map((s) => s.trim());
    members.forEach((m, k) => args.push(`${pointerOf(text, m)}=@${k}`));
    const scalars = ps.filter((p) => p.type === 'i32');
    if (scalars[0]) args.push(`${scalars[0].name}={rank}`);
    if (scalars[1]) args.push(`${scalars[1].name}={ranks}`);
    return { ranks: members.length, args, why: `group of ${members.length}` };
  }
  if (ps.some((p) => p.type === '!pto.ptr<i64>')) {
    const ranks = 2;
    for (let r = 0; r < ranks; r++)
      writeI64Npy(path.join(work, `ctx_${r}.npy`), [0, 0, r, ranks, ...Array.from({ length: ranks }, (_, k) => BigInt(k) * WINDOW), ...new Array(58).fill(0)]);
    for (const p of ps) {
      if (p.type === '!pto.ptr<i64>') args.push(`${p.name}=${path.join(work, 'ctx_{rank}.npy')}`);
      else if (p.name === '__pypto_spmd_block_idx') args.push(`${p.name}=0`);
      else if (p.name === '__pypto_spmd_block_num') args.push(`${p.name}=1`);
      else if (p.type === 'i32') args.push(`${p.name}={rank}`);
      else if (p.type === 'index') args.push(`${p.name}=1`);
    }
    return { ranks, args, why: 'pypto EP kernel, --ep 2' };
  }
  for (const p of ps) {
    if (p.type === 'i32' || p.type === 'index') args.push(`${p.name}=0`);
    // A workspace no view sizes (the prefetch context's).
    else if (p.type.startsWith('!pto.ptr') && !new RegExp(`make_tensor_view %${p.name}\\b`).test(text)) args.push(`${p.name}=zeros:1024`);
  }
  return { ranks: 1, args, why: 'no peer' };
}

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'comm-samples-'));
const files = find(path.join(upstream, 'test', 'samples')).sort();
const tally = {};
for (const file of files) {
  const { ranks, args, why } = plan(file, work);
  const entry = /func\.func @(\w+)/.exec(fs.readFileSync(file, 'utf8'))[1];
  const argv = ['run', file, '--entry', entry, '--ranks', String(ranks), ...args.flatMap((a) => ['--arg', a])];
  let status;
  let detail = '';
  try {
    execFileSync(vm, argv, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], cwd: work });
    status = 'ok';
  } catch (e) {
    const err = String(e.stderr ?? '');
    status = /deadlock/.test(err) ? 'deadlock' : e.status === 2 ? 'usage' : 'trap';
    detail = err
      .split('\n')[0]
      .replace(/^.*?error/, 'error')
      .slice(0, 240);
  }
  // A wait nobody in this launch signals: the signals come from another kernel (the push kernel's tnotify on the
  // peer). Run again with the signal words as that kernel leaves them, to show the wait then passes.
  const waited = /%(\w+)\[\d+\] (ge|eq|gt) (-?\d+)/.exec(detail);
  if (status === 'deadlock' && waited) {
    const [, name, cmp, value] = waited;
    const file = path.join(work, `signals_${name}.bin`);
    const words = Buffer.alloc(4 * 65536);
    for (let i = 0; i < 65536; i++) words.writeInt32LE(Number(value) + (cmp === 'gt' ? 1 : 0), i * 4);
    fs.writeFileSync(file, words);
    try {
      execFileSync(vm, [...argv.filter((a) => !a.startsWith(`${name}=`)), '--arg', `${name}=${file}`], { stdio: ['ignore', 'pipe', 'pipe'], cwd: work });
      detail += `\n         with %${name} signalled (${cmp} ${value}) as the push kernel leaves it: ok`;
    } catch (e) {
      detail += `\n         with %${name} signalled: ${String(e.stderr ?? '')
        .split('\n')[0]
        .slice(0, 200)}`;
    }
  }
  tally[status] = (tally[status] ?? 0) + 1;
  console.log(
    `${status.padEnd(8)} ranks=${ranks} (${why}) ${path.relative(path.join(upstream, 'test', 'samples'), file)}${detail ? '\n         ' + detail : ''}`,
  );
}
console.log(
  Object.entries(tally)
    .map(([k, v]) => `${k} ${v}`)
    .join(', '),
);
