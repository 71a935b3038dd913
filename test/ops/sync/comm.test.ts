/**
 * Communication between ranks and cores (pto.comm.*, pto.syncall), as the pypto DeepSeek layers write them: the
 * call forms parse with their `buf(...)`, `recv(...)`, `group(...)` clauses, verify, and print back as written.
 */
import { assemble } from '../../../src/verify/assemble';
import { formatAll } from '../../../src/diag/diagnostic';
import { printCanonical } from '../../../src/emit/canonical';
import { runFunction, Value } from '../../../src/vm/interpreter';
import { GlobalBuffer } from '../../../src/machine/memory';

const SIG = '!pto.partition_tensor_view<1x1xi32>';
const VIEW = '!pto.partition_tensor_view<256xf32>';
const STAGE = '!pto.tile_buf<vec, 1x256xf32>';

function kernel(lines: string[]): string {
  return [
    'module attributes {"pto.target_arch" = "a5"} {',
    `  func.func @k(%sig: ${SIG}, %dst: ${VIEW}, %src: ${VIEW}, %peer: ${VIEW}, %ws: !pto.ptr<i32, gm>, %n: i32) {`,
    '    %c1_i32 = arith.constant 1 : i32',
    `    %stage = pto.alloc_tile : ${STAGE}`,
    ...lines.map((l) => '    ' + l),
    '    return',
    '  }',
    '}',
  ].join('\n');
}

const LINES = [
  `pto.comm.tnotify(%sig, %c1_i32 : ${SIG}, i32) {notifyOp = #pto<notify_op atomic_add>}`,
  `pto.comm.twait(%sig, %c1_i32 : ${SIG}, i32) {cmp = #pto<wait_cmp ge>}`,
  `%ok = pto.comm.ttest(%sig, %c1_i32 : ${SIG}, i32) {cmp = #pto<wait_cmp eq>} -> i1`,
  `pto.comm.tput(%dst, %src, buf(%stage) : ${VIEW}, ${VIEW}, ${STAGE}) {atomicType = #pto<atomic_type atomic_none>}`,
  `pto.comm.treduce(%dst, %stage, recv(%stage), group(%src, %peer) : ${VIEW}, ${STAGE}, ${STAGE}, ${VIEW}, ${VIEW}) {reduceOp = #pto<reduce_op sum>, root = 0 : i32}`,
  'pto.syncall(%ws, %n : !pto.ptr<i32, gm>, i32) mode = #pto.sync_all_mode<soft>, core_type = #pto.sync_core_type<aiv_only>',
  'pto.syncall() mode = #pto.sync_all_mode<hard>, core_type = #pto.sync_core_type<mix>',
];

const errorsOf = (text: string) => formatAll(assemble('c.pto', text).diags);

test('the comm forms verify and print back as written (a fixed point)', () => {
  const asm = assemble('c.pto', kernel(LINES));
  expect(formatAll(asm.diags)).toBe('');
  const printed = printCanonical(asm.module, asm.types);
  for (const line of LINES) expect(printed).toContain(line.replace('root = 0 : i32', 'root = 0 : i32'));
  const again = assemble('c.pto', printed);
  expect(printCanonical(again.module, again.types)).toBe(printed);
});

test("PTOAS's rules on signals, staging tiles, groups and syncall", () => {
  expect(errorsOf(kernel([`pto.comm.twait(%sig, %c1_i32 : ${SIG}, i32) {cmp = #pto<wait_cmp between>}`]))).toContain(
    'pto.comm.twait: cmp must be #pto<wait_cmp eq|ne|gt|ge|lt|le>, got #pto<wait_cmp between>',
  );
  expect(errorsOf(kernel([`pto.comm.twait(%sig, %c1_i32 : ${SIG}, i32)`]))).toContain("pto.comm.twait needs the attribute 'cmp'");
  expect(errorsOf(kernel([`pto.comm.tnotify(%dst, %c1_i32 : ${VIEW}, i32) {notifyOp = #pto<notify_op set>}`]))).toContain(
    'pto.comm.tnotify expects the signal to hold i32',
  );
  expect(errorsOf(kernel([`pto.comm.tput(%dst, %src, buf(%stage, %stage, %stage) : ${VIEW}, ${VIEW}, ${STAGE}, ${STAGE}, ${STAGE})`]))).toContain(
    'pto.comm.tput takes buf(%ping) or buf(%ping, %pong), got 3 tile(s)',
  );
  expect(errorsOf(kernel([`pto.comm.tscatter(%src, recv(%stage), group(%dst, %peer) : ${VIEW}, ${STAGE}, ${VIEW}, ${VIEW}) {root = 2 : i32}`]))).toContain(
    'pto.comm.tscatter: root 2 is not a member of the group of 2',
  );
  expect(errorsOf(kernel(['pto.syncall(%ws : !pto.ptr<i32, gm>) mode = #pto.sync_all_mode<hard>, core_type = #pto.sync_core_type<mix>']))).toContain(
    'pto.syncall in hard mode takes no operands',
  );
  expect(errorsOf(kernel([`%ok = pto.comm.ttest(%sig, %c1_i32 : ${SIG}, i32) {cmp = #pto<wait_cmp eq>} -> i32`]))).toContain(
    'pto.comm.ttest: result is i1, not i32',
  );
});

test('the VM runs communication: on one core a wait for a signal nobody sets is a deadlock, at the op', () => {
  const asm = assemble('c.pto', kernel([LINES[1]]));
  expect(formatAll(asm.diags)).toBe('');
  const views = new Map<string, Value>();
  for (const name of ['%sig', '%dst', '%src', '%peer']) {
    const buffer = new GlobalBuffer(name.slice(1), name === '%sig' ? 'i32' : 'f32', new Uint8Array(1024));
    views.set(name, { kind: 'partition_view', buffer, shape: name === '%sig' ? [1, 1] : [256], strides: name === '%sig' ? [1, 1] : [1], offset: 0 });
  }
  views.set('%ws', new GlobalBuffer('ws', 'i32', new Uint8Array(16)));
  views.set('%n', 1n);
  expect(() => runFunction(asm.program, asm.types, asm.program.functions.get('k')!, views, { numerics: 'npu', maxSteps: 1e6 })).toThrow(
    'deadlock: the one waiting core cannot go on: block 0 waits at pto.comm.twait for signal %sig[0] ge 1 (holds 0)',
  );
});

test('pto.set_ffts %p : T takes the one type for its operand (it has no result) and prints back so', () => {
  const text = 'func.func @f(%ffts: !pto.ptr<i64>) {\n  pto.set_ffts %ffts : !pto.ptr<i64>\n  return\n}\n';
  const asm = assemble('f.pto', text);
  expect(formatAll(asm.diags)).toBe('');
  const printed = printCanonical(asm.module, asm.types);
  expect(printed).toContain('  pto.set_ffts %ffts : !pto.ptr<i64, gm>\n');
  const again = assemble('f.pto', printed);
  expect(printCanonical(again.module, again.types)).toBe(printed);
  expect(errorsOf('func.func @f(%n: i64) {\n  pto.set_ffts %n : i64\n  return\n}\n')).toContain('pto.set_ffts: ffts must be a !pto.ptr, got i64');
});

describe("PTOAS's global views of transfers and collectives", () => {
  const DYN = '!pto.partition_tensor_view<?x256xf32>';
  const dynamicKernel = (line: string, params: string) => kernel([line]).replace('func.func @k(', `func.func @k(${params}, `);

  test('tput/tget take dynamic dims on partitions whose shapes match, dim for dim', () => {
    const ok = dynamicKernel(`pto.comm.tput(%d, %s, buf(%stage) : ${DYN}, ${DYN}, ${STAGE})`, `%d: ${DYN}, %s: ${DYN}`);
    expect(errorsOf(ok)).toBe('');
    const other = '!pto.partition_tensor_view<?x128xf32>';
    expect(errorsOf(dynamicKernel(`pto.comm.tput(%d, %s, buf(%stage) : ${DYN}, ${other}, ${STAGE})`, `%d: ${DYN}, %s: ${other}`))).toContain(
      'pto.comm.tput expects src and dst to have the same static/dynamic shape signature',
    );
  });

  test('a dynamic dim on a tensor view (not a partition) is refused', () => {
    const tv = '!pto.tensor_view<?x256xf32>';
    expect(errorsOf(dynamicKernel(`pto.comm.tget(%d, %s, buf(%stage) : ${tv}, ${tv}, ${STAGE})`, `%d: ${tv}, %s: ${tv}`))).toContain(
      'pto.comm.tget allows dynamic dimensions on dst only for partition_tensor_view',
    );
  });

  test('collectives take static views only, group members included', () => {
    const text = dynamicKernel(`pto.comm.tbroadcast(%src, recv(%stage), group(%g) : ${VIEW}, ${STAGE}, ${DYN}) {root = 0 : i32}`, `%g: ${DYN}`);
    expect(errorsOf(text)).toContain('pto.comm.tbroadcast does not support dynamic dimensions on group[0]');
  });

  test("syncall's workspace is a pointer or a view, not a memref", () => {
    const memref = 'memref<16xi32, #pto.address_space<gm>>';
    const text = dynamicKernel(`pto.syncall(%m : ${memref}) mode = #pto.sync_all_mode<soft>, core_type = #pto.sync_core_type<aiv_only>`, `%m: ${memref}`);
    expect(errorsOf(text)).toContain('pto.syncall: gm_workspace must be a !pto.ptr, a !pto.tensor_view or a !pto.partition_tensor_view, got memref');
    const ok = kernel(['pto.syncall(%ws : !pto.ptr<i32, gm>) mode = #pto.sync_all_mode<soft>, core_type = #pto.sync_core_type<aiv_only>']);
    expect(errorsOf(ok)).toBe('');
  });
});
