/**
 * The VM's synchronization checks (src/vm/sync/tracker.ts) on small kernels: the correct programs of
 * test/fixtures/sync give no findings, and each removed or replaced sync op gives exactly the findings
 * expected, located at the lines the test finds in the text itself.
 */
import * as fs from 'fs';
import * as path from 'path';
import { assemble } from '../../../src/verify/assemble';
import { formatAll } from '../../../src/diag/diagnostic';
import { TargetName } from '../../../src/spec/schema';
import { runFunction, Value } from '../../../src/vm/interpreter';
import { GlobalBuffer } from '../../../src/machine/memory';

const FIXTURES = path.join(__dirname, '..', '..', 'fixtures', 'sync');
const ADD = fs.readFileSync(path.join(FIXTURES, 'add.pto'), 'utf8');
const LOOP = fs.readFileSync(path.join(FIXTURES, 'double-loop.pto'), 'utf8');

/** Runs the only function with every pointer argument bound to `elements` f32 values; findings as `LINE:COL: message`. */
function runSync(text: string, elements: number, target: TargetName = 'a2a3') {
  const asm = assemble('test.pto', text, { target });
  if (asm.diags.hasErrors()) throw new Error(formatAll(asm.diags));
  const fn = [...asm.program.functions.values()][0];
  const values = new Map<string, Value>();
  const buffers = new Map<string, GlobalBuffer>();
  for (const param of fn.params ?? []) {
    const data = Float32Array.from({ length: elements }, (_, i) => i * 0.5 - 3);
    const buffer = new GlobalBuffer(param.name.slice(1), 'f32', new Uint8Array(data.buffer));
    buffers.set(param.name.slice(1), buffer);
    values.set(param.name, buffer);
  }
  const result = runFunction(asm.program, asm.types, fn, values, { numerics: 'npu', maxSteps: 1e6 });
  const lines: string[] = [];
  for (const f of result.sync) {
    const p = asm.source.position(f.span.start);
    lines.push(`${p.line}:${p.col}: ${f.message}`);
    for (const n of f.notes ?? []) {
      const q = asm.source.position(n.span.start);
      lines.push(`  note ${q.line}:${q.col}: ${n.message}`);
    }
  }
  const f32 = (name: string) => Array.from(new Float32Array(buffers.get(name)!.bytes.slice().buffer));
  return { lines, f32 };
}

/** The text without its `occurrence`-th (0-based) line containing `needle`. */
function withoutLine(text: string, needle: string, occurrence = 0): string {
  const lines = text.split('\n');
  const hits = lines.map((l, i) => (l.includes(needle) ? i : -1)).filter((i) => i >= 0);
  if (hits.length <= occurrence) throw new Error(`no line ${occurrence} with ${needle}`);
  lines.splice(hits[occurrence], 1);
  return lines.join('\n');
}

/** The text with the `occurrence`-th line containing `needle` replaced by `replacement` (same indentation). */
function replaceLine(text: string, needle: string, replacement: string, occurrence = 0): string {
  const lines = text.split('\n');
  const hits = lines.map((l, i) => (l.includes(needle) ? i : -1)).filter((i) => i >= 0);
  const i = hits[occurrence];
  lines[i] = lines[i].match(/^\s*/)![0] + replacement;
  return lines.join('\n');
}

/** LINE:COL of the first non-blank character of the `occurrence`-th line containing `needle`. */
function at(text: string, needle: string, occurrence = 0): string {
  const lines = text.split('\n');
  const hits = lines.map((l, i) => (l.includes(needle) ? i : -1)).filter((i) => i >= 0);
  const i = hits[occurrence];
  if (i === undefined) throw new Error(`no line ${occurrence} with ${needle}`);
  return `${i + 1}:${lines[i].search(/\S/) + 1}`;
}

const MTE2_V = 'PIPE_MTE2>, <PIPE_V>';
const V_MTE3 = 'PIPE_V>, <PIPE_MTE3>';
const raceNote = (text: string, needle: string, occurrence: number, what: string) => `  note ${at(text, needle, occurrence)}: ${what}`;

describe('a straight-line kernel: tload (MTE2) -> tadd (V) -> tstore (MTE3)', () => {
  test('with its flags: no findings, and the sum is computed', () => {
    const { lines, f32 } = runSync(ADD, 256);
    expect(lines).toEqual([]);
    const input = Array.from({ length: 256 }, (_, i) => i * 0.5 - 3);
    expect(f32('c')).toEqual(input.map((v) => v + v));
  });

  test('without the wait for the loads: the add reads both tiles unsynchronized, and the flag is never waited', () => {
    const text = withoutLine(ADD, `pto.wait_flag[<${MTE2_V}`);
    expect(runSync(text, 256).lines).toEqual([
      `${at(text, 'pto.tadd')}: pto.tadd (PIPE_V) reads %ta, written by pto.tload (PIPE_MTE2), with no set_flag/wait_flag from PIPE_MTE2 to PIPE_V between them`,
      raceNote(text, 'pto.tload', 0, 'pto.tload (PIPE_MTE2) writes %ta here'),
      `${at(text, 'pto.tadd')}: pto.tadd (PIPE_V) reads %tb, written by pto.tload (PIPE_MTE2), with no set_flag/wait_flag from PIPE_MTE2 to PIPE_V between them`,
      raceNote(text, 'pto.tload', 1, 'pto.tload (PIPE_MTE2) writes %tb here'),
      `${at(text, `pto.set_flag[<${MTE2_V}`)}: pto.set_flag[PIPE_MTE2, PIPE_V, EVENT_ID0] is never waited (its flag is still set when the kernel ends)`,
    ]);
  });

  test('without the set for the loads: the wait has nothing to wait for, and the add races with both loads', () => {
    const text = withoutLine(ADD, `pto.set_flag[<${MTE2_V}`);
    expect(runSync(text, 256).lines).toEqual([
      `${at(text, `pto.wait_flag[<${MTE2_V}`)}: pto.wait_flag[PIPE_MTE2, PIPE_V, EVENT_ID0] has no matching set_flag before it (it would wait forever)`,
      `${at(text, 'pto.tadd')}: pto.tadd (PIPE_V) reads %ta, written by pto.tload (PIPE_MTE2), with no set_flag/wait_flag from PIPE_MTE2 to PIPE_V between them`,
      raceNote(text, 'pto.tload', 0, 'pto.tload (PIPE_MTE2) writes %ta here'),
      `${at(text, 'pto.tadd')}: pto.tadd (PIPE_V) reads %tb, written by pto.tload (PIPE_MTE2), with no set_flag/wait_flag from PIPE_MTE2 to PIPE_V between them`,
      raceNote(text, 'pto.tload', 1, 'pto.tload (PIPE_MTE2) writes %tb here'),
    ]);
  });

  test('without the wait before the store: the store reads the sum unsynchronized', () => {
    const text = withoutLine(ADD, `pto.wait_flag[<${V_MTE3}`);
    expect(runSync(text, 256).lines).toEqual([
      `${at(text, 'pto.tstore')}: pto.tstore (PIPE_MTE3) reads %tc, written by pto.tadd (PIPE_V), with no set_flag/wait_flag from PIPE_V to PIPE_MTE3 between them`,
      raceNote(text, 'pto.tadd', 0, 'pto.tadd (PIPE_V) writes %tc here'),
      `${at(text, `pto.set_flag[<${V_MTE3}`)}: pto.set_flag[PIPE_V, PIPE_MTE3, EVENT_ID0] is never waited (its flag is still set when the kernel ends)`,
    ]);
  });

  test('without the set before the store', () => {
    const text = withoutLine(ADD, `pto.set_flag[<${V_MTE3}`);
    expect(runSync(text, 256).lines).toEqual([
      `${at(text, `pto.wait_flag[<${V_MTE3}`)}: pto.wait_flag[PIPE_V, PIPE_MTE3, EVENT_ID0] has no matching set_flag before it (it would wait forever)`,
      `${at(text, 'pto.tstore')}: pto.tstore (PIPE_MTE3) reads %tc, written by pto.tadd (PIPE_V), with no set_flag/wait_flag from PIPE_V to PIPE_MTE3 between them`,
      raceNote(text, 'pto.tadd', 0, 'pto.tadd (PIPE_V) writes %tc here'),
    ]);
  });

  test('a flag on another event id does not pair with the wait', () => {
    const text = replaceLine(ADD, `pto.set_flag[<${MTE2_V}`, 'pto.set_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID1>]');
    const lines = runSync(text, 256).lines;
    expect(lines[0]).toBe(
      `${at(text, `pto.wait_flag[<${MTE2_V}`)}: pto.wait_flag[PIPE_MTE2, PIPE_V, EVENT_ID0] has no matching set_flag before it (it would wait forever)`,
    );
    expect(lines[lines.length - 1]).toBe(
      `${at(text, `pto.set_flag[<${MTE2_V}`)}: pto.set_flag[PIPE_MTE2, PIPE_V, EVENT_ID1] is never waited (its flag is still set when the kernel ends)`,
    );
  });

  test('with no sync op at all the kernel is left to PTOAS --enable-insert-sync: no findings', () => {
    let text = ADD;
    for (const needle of ['pto.set_flag', 'pto.wait_flag']) while (text.includes(needle)) text = withoutLine(text, needle);
    expect(runSync(text, 256).lines).toEqual([]);
  });

  test('record_event/wait_event order the same pipes through their op types', () => {
    let text = replaceLine(ADD, `pto.set_flag[<${MTE2_V}`, 'pto.record_event[#pto.pipe_event_type<TLOAD>, #pto.pipe_event_type<TVEC>, #pto.event<EVENT_ID0>]');
    text = replaceLine(text, `pto.wait_flag[<${MTE2_V}`, 'pto.wait_event[#pto.sync_op_type<TLOAD>, #pto.sync_op_type<TVEC>, <EVENT_ID0>]');
    text = replaceLine(text, `pto.set_flag[<${V_MTE3}`, 'pto.record_event[#pto.sync_op_type<TVEC>, #pto.sync_op_type<TSTORE_VEC>, <EVENT_ID0>]');
    text = replaceLine(text, `pto.wait_flag[<${V_MTE3}`, 'pto.wait_event[#pto.sync_op_type<TVEC>, #pto.sync_op_type<TSTORE_VEC>, <EVENT_ID0>]');
    expect(runSync(text, 256).lines).toEqual([]);
  });

  test('an event between other op types orders other pipes: TMATMUL -> TVEC does not cover the loads', () => {
    let text = replaceLine(ADD, `pto.set_flag[<${MTE2_V}`, 'pto.record_event[#pto.sync_op_type<TMATMUL>, #pto.sync_op_type<TVEC>, <EVENT_ID0>]');
    text = replaceLine(text, `pto.wait_flag[<${MTE2_V}`, 'pto.wait_event[#pto.sync_op_type<TMATMUL>, #pto.sync_op_type<TVEC>, <EVENT_ID0>]');
    expect(runSync(text, 256).lines.filter((l) => !l.startsWith('  note'))).toEqual([
      `${at(text, 'pto.tadd')}: pto.tadd (PIPE_V) reads %ta, written by pto.tload (PIPE_MTE2), with no set_flag/wait_flag from PIPE_MTE2 to PIPE_V between them`,
      `${at(text, 'pto.tadd')}: pto.tadd (PIPE_V) reads %tb, written by pto.tload (PIPE_MTE2), with no set_flag/wait_flag from PIPE_MTE2 to PIPE_V between them`,
    ]);
  });

  test('pto.barrier <PIPE_ALL> synchronizes every pipe; pto.barrier <PIPE_V> orders only the vector pipe', () => {
    let all = withoutLine(ADD, `pto.wait_flag[<${MTE2_V}`);
    all = replaceLine(all, `pto.set_flag[<${MTE2_V}`, 'pto.barrier <PIPE_ALL>');
    expect(runSync(all, 256).lines).toEqual([]);
    let vector = withoutLine(ADD, `pto.wait_flag[<${MTE2_V}`);
    vector = replaceLine(vector, `pto.set_flag[<${MTE2_V}`, 'pto.barrier <PIPE_V>');
    expect(runSync(vector, 256).lines.filter((l) => !l.startsWith('  note')).length).toBe(2);
  });

  test('tiles that alias (alloc_tile addr) count as the same bytes', () => {
    // %tq is placed over %ta; loading into it again after the add needs V -> MTE2 (the add read those bytes).
    let text = ADD.replace(
      '%ta = pto.alloc_tile : !tile',
      '%addr = arith.constant 0 : index\n    %ta = pto.alloc_tile addr = %addr : !tile\n    %tq = pto.alloc_tile addr = %addr : !tile',
    );
    text = text.replace('%tb = pto.alloc_tile : !tile', '%addr_b = arith.constant 1024 : index\n    %tb = pto.alloc_tile addr = %addr_b : !tile');
    text = text.replace('%tc = pto.alloc_tile : !tile', '%addr_c = arith.constant 2048 : index\n    %tc = pto.alloc_tile addr = %addr_c : !tile');
    text = text.replace('    return\n', '    pto.tload ins(%bp : !pto.partition_tensor_view<16x16xf32>) outs(%tq : !tile)\n    return\n');
    expect(runSync(text, 256).lines).toEqual([
      `${at(text, 'outs(%tq')}: pto.tload (PIPE_MTE2) overwrites %tq, read by pto.tadd (PIPE_V), with no set_flag/wait_flag from PIPE_V to PIPE_MTE2 between them`,
      raceNote(text, 'pto.tadd', 0, 'pto.tadd (PIPE_V) reads %ta here'),
    ]);
  });

  test('global memory: loading what a store wrote needs MTE3 -> MTE2', () => {
    const reload = '    pto.tload ins(%cp : !pto.partition_tensor_view<16x16xf32>) outs(%tb : !tile)\n    return\n';
    const racy = ADD.replace('    return\n', reload);
    const lines = runSync(racy, 256).lines;
    expect(lines).toContain(
      `${at(racy, 'ins(%cp')}: pto.tload (PIPE_MTE2) reads %cp, written by pto.tstore (PIPE_MTE3), with no set_flag/wait_flag from PIPE_MTE3 to PIPE_MTE2 between them`,
    );
    const ordered = ADD.replace(
      '    return\n',
      '    pto.set_flag[<PIPE_MTE3>, <PIPE_MTE2>, <EVENT_ID0>]\n    pto.wait_flag[<PIPE_MTE3>, <PIPE_MTE2>, <EVENT_ID0>]\n' + reload,
    );
    // The reload overwrites %tb, which the add read: that is ordered too, through V -> MTE3 -> MTE2.
    expect(runSync(ordered, 256).lines).toEqual([]);
  });

  test('a second set of a flag that is still set is a finding', () => {
    const text = ADD.replace(`pto.set_flag[<${MTE2_V}, <EVENT_ID0>]`, `pto.set_flag[<${MTE2_V}, <EVENT_ID0>]\n    pto.set_flag[<${MTE2_V}, <EVENT_ID0>]`);
    expect(runSync(text, 256).lines).toEqual([
      `${at(text, `pto.set_flag[<${MTE2_V}`, 1)}: pto.set_flag[PIPE_MTE2, PIPE_V, EVENT_ID0] sets a flag that is already set and not yet waited`,
      `  note ${at(text, `pto.set_flag[<${MTE2_V}`, 0)}: pto.set_flag[PIPE_MTE2, PIPE_V, EVENT_ID0] set it here`,
      `${at(text, `pto.set_flag[<${MTE2_V}`, 1)}: pto.set_flag[PIPE_MTE2, PIPE_V, EVENT_ID0] is never waited (its flag is still set when the kernel ends)`,
    ]);
  });
});

describe('a flag from a pipe to itself (PTOAS verifies it): it orders nothing new, and is set and waited like any flag', () => {
  const VV = 'pto.set_flag[<PIPE_V>, <PIPE_V>, <EVENT_ID1>]';
  const WAIT_VV = 'pto.wait_flag[<PIPE_V>, <PIPE_V>, <EVENT_ID1>]';

  test('set and waited around the add: no findings, and the sum is computed', () => {
    const text = ADD.replace('    pto.tadd', `    ${VV}\n    ${WAIT_VV}\n    pto.tadd`);
    const { lines, f32 } = runSync(text, 256);
    expect(lines).toEqual([]);
    expect(f32('c')).toEqual(Array.from({ length: 256 }, (_, i) => 2 * (i * 0.5 - 3)));
  });

  test('in place of the MTE2 -> V pair it orders V after nothing of MTE2: the add races with both loads', () => {
    const text = replaceLine(replaceLine(ADD, `pto.set_flag[<${MTE2_V}`, VV), `pto.wait_flag[<${MTE2_V}`, WAIT_VV);
    expect(runSync(text, 256).lines).toEqual([
      `${at(text, 'pto.tadd')}: pto.tadd (PIPE_V) reads %ta, written by pto.tload (PIPE_MTE2), with no set_flag/wait_flag from PIPE_MTE2 to PIPE_V between them`,
      raceNote(text, 'pto.tload', 0, 'pto.tload (PIPE_MTE2) writes %ta here'),
      `${at(text, 'pto.tadd')}: pto.tadd (PIPE_V) reads %tb, written by pto.tload (PIPE_MTE2), with no set_flag/wait_flag from PIPE_MTE2 to PIPE_V between them`,
      raceNote(text, 'pto.tload', 1, 'pto.tload (PIPE_MTE2) writes %tb here'),
    ]);
  });

  test('a set never waited, a wait with no set, and a second set of a set flag are findings, as for two pipes', () => {
    const unwaited = ADD.replace('    pto.tadd', `    ${VV}\n    pto.tadd`);
    expect(runSync(unwaited, 256).lines).toEqual([
      `${at(unwaited, VV)}: pto.set_flag[PIPE_V, PIPE_V, EVENT_ID1] is never waited (its flag is still set when the kernel ends)`,
    ]);
    const orphan = ADD.replace('    pto.tadd', `    ${WAIT_VV}\n    pto.tadd`);
    expect(runSync(orphan, 256).lines).toEqual([
      `${at(orphan, WAIT_VV)}: pto.wait_flag[PIPE_V, PIPE_V, EVENT_ID1] has no matching set_flag before it (it would wait forever)`,
    ]);
    const twice = ADD.replace(
      '    pto.tadd',
      `    ${VV}\n    pto.record_event[#pto.pipe_event_type<TVEC>, #pto.pipe_event_type<TMOV_M2V>, <EVENT_ID1>]\n    ${WAIT_VV}\n    pto.tadd`,
    );
    expect(runSync(twice, 256).lines).toEqual([
      `${at(twice, 'pto.record_event')}: pto.record_event[TVEC, TMOV_M2V, EVENT_ID1] sets a flag that is already set and not yet waited`,
      `  note ${at(twice, VV)}: pto.set_flag[PIPE_V, PIPE_V, EVENT_ID1] set it here`,
      `${at(twice, 'pto.record_event')}: pto.record_event[TVEC, TMOV_M2V, EVENT_ID1] is never waited (its flag is still set when the kernel ends)`,
    ]);
  });
});

describe('event ids given at run time (set_flag_dyn / wait_flag_dyn)', () => {
  /** ADD with its MTE2 -> V flag pair given event ids %set and %wait at run time. */
  const dynamic = (setId: number, waitId: number) =>
    replaceLine(
      replaceLine(ADD, `pto.set_flag[<${MTE2_V}`, `%set = arith.constant ${setId} : index\n    pto.set_flag_dyn [<${MTE2_V}, %set]`),
      `pto.wait_flag[<${MTE2_V}`,
      `%wait = arith.constant ${waitId} : index\n    pto.wait_flag_dyn [<${MTE2_V}, %wait]`,
    );

  test('the same id at run time pairs the set with the wait, as a static event does', () => {
    expect(runSync(dynamic(5, 5), 256).lines).toEqual([]);
  });

  test('different ids at run time do not pair: the wait has no set, the loads race with the add', () => {
    const text = dynamic(1, 2);
    const lines = runSync(text, 256).lines;
    expect(lines[0]).toBe(
      `${at(text, 'pto.wait_flag_dyn')}: pto.wait_flag_dyn[PIPE_MTE2, PIPE_V, %wait] has no matching set_flag before it (it would wait forever)`,
    );
    expect(lines[lines.length - 1]).toBe(
      `${at(text, 'pto.set_flag_dyn')}: pto.set_flag_dyn[PIPE_MTE2, PIPE_V, %set] is never waited (its flag is still set when the kernel ends)`,
    );
  });

  test('an id that names no event (8) traps at the operand', () => {
    expect(() => runSync(dynamic(8, 8), 256)).toThrow('pto.set_flag_dyn: event id 8 is out of range 0..7');
  });
});

describe('flags through the pipes of the PIPE enum no instruction runs on (MTE4, MTE5, V2) and the rest', () => {
  /** ADD with its MTE2 -> V hand-off made through `lines` instead of one flag pair. */
  const through = (lines: string[]) => replaceLine(withoutLine(ADD, `pto.wait_flag[<${MTE2_V}`), `pto.set_flag[<${MTE2_V}`, lines.join('\n    '));
  const viaMte4 = [
    'pto.set_flag_dyn [<PIPE_MTE2>, <PIPE_MTE4>, %c1]',
    'pto.wait_flag_dyn [<PIPE_MTE2>, <PIPE_MTE4>, %c1]',
    'pto.set_flag[<PIPE_MTE4>, <PIPE_V>, <EVENT_ID0>]',
    'pto.wait_flag[<PIPE_MTE4>, <PIPE_V>, <EVENT_ID0>]',
  ];

  test('MTE2 -> MTE4, then MTE4 -> V: MTE4 passes on what it waited for, so the add is ordered after the loads', () => {
    const { lines, f32 } = runSync(through(viaMte4), 256);
    expect(lines).toEqual([]);
    expect(f32('c')).toEqual(Array.from({ length: 256 }, (_, i) => 2 * (i * 0.5 - 3)));
  });

  test('MTE4 signals V before it waits for the loads: V learns nothing of them, and the add races with both', () => {
    const text = through([viaMte4[2], viaMte4[3], viaMte4[0], viaMte4[1]]);
    expect(runSync(text, 256).lines).toEqual([
      `${at(text, 'pto.tadd')}: pto.tadd (PIPE_V) reads %ta, written by pto.tload (PIPE_MTE2), with no set_flag/wait_flag from PIPE_MTE2 to PIPE_V between them`,
      raceNote(text, 'pto.tload', 0, 'pto.tload (PIPE_MTE2) writes %ta here'),
      `${at(text, 'pto.tadd')}: pto.tadd (PIPE_V) reads %tb, written by pto.tload (PIPE_MTE2), with no set_flag/wait_flag from PIPE_MTE2 to PIPE_V between them`,
      raceNote(text, 'pto.tload', 1, 'pto.tload (PIPE_MTE2) writes %tb here'),
    ]);
  });

  test('a flag through PIPE_ALL (no one queue) stops the checked run as not implemented; unchecked, the kernel runs', () => {
    const text = through(['pto.set_flag[<PIPE_ALL>, <PIPE_V>, <EVENT_ID0>]', 'pto.wait_flag[<PIPE_ALL>, <PIPE_V>, <EVENT_ID0>]']);
    expect(() => runSync(text, 256)).toThrow(
      'the synchronization check of pto.set_flag[PIPE_ALL, PIPE_V, EVENT_ID0] (through PIPE_ALL) is not implemented yet (pto-vm --no-sync-check runs without it)',
    );
    const asm = assemble('test.pto', text, { target: 'a2a3' });
    const fn = [...asm.program.functions.values()][0];
    const buffers = ['a', 'b', 'c'].map((name) => new GlobalBuffer(name, 'f32', new Uint8Array(new Float32Array(256).fill(1.5).buffer)));
    const values = new Map<string, Value>(buffers.map((b) => [`%${b.name}`, b]));
    const result = runFunction(asm.program, asm.types, fn, values, { numerics: 'npu', maxSteps: 1e6, syncCheck: false });
    expect(result.sync).toEqual([]);
    expect(Array.from(new Float32Array(buffers[2].bytes.slice().buffer))).toEqual(new Array(256).fill(3));
  });
});

describe('a loop reusing its tiles every iteration', () => {
  test('with forward and back-edge flags: no findings, and every block is doubled', () => {
    const { lines, f32 } = runSync(LOOP, 64 * 16);
    expect(lines).toEqual([]);
    expect(f32('out')).toEqual(Array.from({ length: 64 * 16 }, (_, i) => 2 * (i * 0.5 - 3)));
  });

  test('without the back-edge flags: the next iteration overwrites tiles the previous one still reads (WAR)', () => {
    let text = LOOP;
    for (const slot of ['PIPE_V>, <PIPE_MTE2>', 'PIPE_MTE3>, <PIPE_V>']) {
      for (const op of ['pto.set_flag', 'pto.wait_flag']) while (text.includes(`${op}[<${slot}`)) text = withoutLine(text, `${op}[<${slot}`);
    }
    expect(runSync(text, 64 * 16).lines).toEqual([
      `${at(text, 'pto.tload')}: pto.tload (PIPE_MTE2) overwrites %tx, read by pto.tadd (PIPE_V), with no set_flag/wait_flag from PIPE_V to PIPE_MTE2 between them`,
      raceNote(text, 'pto.tadd', 0, 'pto.tadd (PIPE_V) reads %tx here'),
      `${at(text, 'pto.tadd')}: pto.tadd (PIPE_V) overwrites %ty, read by pto.tstore (PIPE_MTE3), with no set_flag/wait_flag from PIPE_MTE3 to PIPE_V between them`,
      raceNote(text, 'pto.tstore', 0, 'pto.tstore (PIPE_MTE3) reads %ty here'),
    ]);
  });

  test('without the wait after the loop, the last back-edge flag is never waited', () => {
    const text = withoutLine(LOOP, 'pto.wait_flag[<PIPE_MTE3>, <PIPE_V>', 1);
    expect(runSync(text, 64 * 16).lines).toEqual([
      `${at(text, 'pto.set_flag[<PIPE_MTE3>, <PIPE_V>', 1)}: pto.set_flag[PIPE_MTE3, PIPE_V, EVENT_ID0] is never waited (its flag is still set when the kernel ends)`,
    ]);
  });
});

describe('buffer ids (A5 get_buf / rls_buf)', () => {
  const guarded = (text: string) => {
    let t = withoutLine(text, `pto.set_flag[<${MTE2_V}`);
    t = withoutLine(t, `pto.wait_flag[<${MTE2_V}`);
    t = t.replace(/(\s+)(pto\.tload ins\(%ap[^\n]*)/, '$1pto.get_buf[#pto.pipe_event_type<TLOAD>, 0]$1$2');
    t = t.replace(/(pto\.tload ins\(%bp[^\n]*)/, '$1\n    pto.rls_buf[#pto.pipe_event_type<TLOAD>, 0]');
    t = t.replace(/(\s+)(pto\.tadd[^\n]*)/, '$1pto.get_buf[#pto.pipe_event_type<TVEC>, 0]$1$2$1pto.rls_buf[#pto.pipe_event_type<TVEC>, 0]');
    return t;
  };

  test('the vector pipe acquiring the id the loads released is ordered after them', () => {
    expect(runSync(guarded(ADD), 256, 'a5').lines).toEqual([]);
  });

  test("PTOAS's other form (a pipe or an op type as a string, mode written) pairs as the bracketed one does", () => {
    const text = guarded(ADD)
      .replace('pto.get_buf[#pto.pipe_event_type<TLOAD>, 0]', 'pto.get_buf "PIPE_MTE2", 0, 0')
      .replace('pto.rls_buf[#pto.pipe_event_type<TLOAD>, 0]', 'pto.rls_buf "TLOAD", 0')
      .replace('pto.get_buf[#pto.pipe_event_type<TVEC>, 0]', 'pto.get_buf[#pto.pipe<PIPE_V>, 0, 0]')
      .replace('pto.rls_buf[#pto.pipe_event_type<TVEC>, 0]', 'pto.rls_buf "PIPE_V", 0');
    const { lines, f32 } = runSync(text, 256, 'a5');
    expect(lines).toEqual([]);
    expect(f32('c')).toEqual(Array.from({ length: 256 }, (_, i) => 2 * (i * 0.5 - 3)));
    // Acquired by op type, released by pipe: the same pipe's buffer id; a release of another id is unmatched.
    const other = text.replace('pto.rls_buf "PIPE_V", 0', 'pto.rls_buf "PIPE_V", 1');
    expect(runSync(other, 256, 'a5').lines).toEqual([
      `${at(other, 'pto.rls_buf "PIPE_V"')}: pto.rls_buf PIPE_V, 1 releases buffer id 1 on PIPE_V, which no get_buf acquired`,
      `${at(other, 'pto.get_buf[#pto.pipe<PIPE_V>')}: pto.get_buf[PIPE_V, 0, 0] acquires buffer id 0 and no rls_buf releases it`,
    ]);
  });

  test('mode 1 (get_buf does not wait; rls_buf waits for every pipe) stops the checked run as not implemented', () => {
    const text = guarded(ADD).replace('pto.get_buf[#pto.pipe_event_type<TVEC>, 0]', 'pto.get_buf[#pto.pipe_event_type<TVEC>, 0, 1]');
    expect(() => runSync(text, 256, 'a5')).toThrow(
      'the synchronization check of pto.get_buf[TVEC, 0, 1] in mode 1 is not implemented yet (pto-vm --no-sync-check runs without it)',
    );
  });

  test('a release without an acquire, and an acquire never released, are findings', () => {
    const text = withoutLine(withoutLine(guarded(ADD), 'pto.get_buf[#pto.pipe_event_type<TLOAD>'), 'pto.rls_buf[#pto.pipe_event_type<TVEC>');
    expect(runSync(text, 256, 'a5').lines).toEqual([
      `${at(text, 'pto.rls_buf')}: pto.rls_buf[TLOAD, 0] releases buffer id 0 on PIPE_MTE2, which no get_buf acquired`,
      `${at(text, 'pto.get_buf')}: pto.get_buf[TVEC, 0] acquires buffer id 0 and no rls_buf releases it`,
    ]);
  });
});
