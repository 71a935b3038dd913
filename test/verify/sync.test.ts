/**
 * The verifier's checks of the synchronization ops (spec/sync.json, src/verify/sync.ts): every op in its
 * PTOAS spellings verifies, and each kind of mistake is one located error.
 */
import { at, diagLines, kernel as anyKernel, run } from '../fixtures/verify/helpers';
import { syncOps, syncTables } from '../../src/spec/sync';
import { knownOps } from '../../src/spec/isa';
import { printCanonical } from '../../src/emit/canonical';

/**
 * A kernel whose module names its kind of core: a flag alone on a pipe both cores have (PIPE_MTE2, PIPE_S) is
 * otherwise a run PTOAS cannot give a section (E0432, test/verify/sections.test.ts), and these tests are about spellings.
 */
function kernel(lines: string[], args = '', attrs = ''): string {
  const kind = 'pto.kernel_kind = #pto.kernel_kind<vector>';
  return anyKernel(lines, args, attrs ? attrs.replace(/^\{/, `{${kind}, `) : `{${kind}}`);
}

/** The diagnostics of a kernel holding just these lines. */
function check(lines: string[], target?: 'a2a3' | 'a5', args = ''): { text: string; diags: string[] } {
  const text = kernel([...lines, 'return'], args);
  return { text, diags: diagLines(run(text, target)) };
}

/** A2/A3 code with cross-core flags sets their base address first (PTOAS's EmitC backend requires it). */
const FFTS_ARG = '%ffts: !pto.ptr<i64>';
const withFfts = (lines: string[]) => ['pto.set_ffts %ffts : !pto.ptr<i64>', ...lines];

describe('sync ops verify in every PTOAS spelling', () => {
  test.each([
    'pto.set_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID0>]',
    'pto.wait_flag[#pto.pipe<PIPE_MTE2>, <PIPE_V>, #pto.event<EVENT_ID7>]',
    'pto.set_flag[<PIPE_M>, <PIPE_FIX>, <EVENT_ID3>]',
    'pto.record_event[#pto.sync_op_type<TLOAD>, #pto.pipe_event_type<TMOV_M2L>, <EVENT_ID0>]',
    'pto.wait_event[#pto.pipe_event_type<TLOAD>, #pto.sync_op_type<TMOV_M2L>, #pto.event<EVENT_ID0>]',
    'pto.barrier <PIPE_V>',
    'pto.barrier <PIPE_ALL>',
    'pto.barrier_sync[<TVEC>]',
    'pto.barrier_sync[#pto.sync_op_type<TLOAD>]',
    'pto.sync.set <PIPE_FIX>, 16',
    'pto.sync.wait <PIPE_V>, 0',
    'pto.set_intra_block <PIPE_MTE1>, 15',
    'pto.wait_intra_block <PIPE_V>, 0',
    'pto.set_cross_block <PIPE_FIX>, 0 {ffts_mode = 0 : i32}',
    'pto.wait_cross_block <PIPE_MTE3>, 15',
  ])('%s', (line) => {
    expect(check(withFfts([line]), 'a2a3', FFTS_ARG).diags).toEqual([]);
  });

  test('get_buf and rls_buf on a5, with the optional mode', () => {
    expect(check(['pto.get_buf[#pto.pipe_event_type<TVEC>, 0]', 'pto.rls_buf[#pto.pipe_event_type<TVEC>, 31, 1]'], 'a5').diags).toEqual([]);
  });

  test('a flag or event from a pipe to itself verifies (PTOAS: SetFlagOp ... WaitEventOp have no verifier)', () => {
    const lines = [
      '%e = arith.constant 2 : index',
      'pto.set_flag[<PIPE_V>, <PIPE_V>, <EVENT_ID0>]',
      'pto.wait_flag["PIPE_MTE2", "PIPE_MTE2", "EVENT_ID1"]',
      'pto.set_flag_dyn [<PIPE_S>, <PIPE_S>, %e]',
      'pto.wait_flag_dyn [<PIPE_S>, <PIPE_S>, %e]',
      'pto.record_event[#pto.pipe_event_type<TVEC>, #pto.pipe_event_type<TMOV_M2V>, <EVENT_ID2>]',
      'pto.wait_event[#pto.pipe_event_type<TSTORE_ACC>, #pto.sync_op_type<TMOV_V2M>, <EVENT_ID3>]',
    ];
    const r = run(kernel([...lines, 'return']));
    expect(diagLines(r).filter((d) => !d.includes('W0105'))).toEqual([]);
    expect([...r.program.syncOps.values()].map((s) => s.pipes)).toEqual([
      ['PIPE_V', 'PIPE_V'],
      ['PIPE_MTE2', 'PIPE_MTE2'],
      ['PIPE_S', 'PIPE_S'],
      ['PIPE_S', 'PIPE_S'],
      ['PIPE_V', 'PIPE_V'],
      ['PIPE_FIX', 'PIPE_FIX'],
    ]);
  });

  test('an event id given at run time is an index operand: set_flag_dyn, and the named signals', () => {
    const ids = ['%c1 = arith.constant 1 : index'];
    expect(check([...ids, 'pto.set_flag_dyn [#pto.pipe<PIPE_MTE2>, #pto.pipe<PIPE_V>, %c1]', 'pto.wait_flag_dyn [<PIPE_MTE2>, <PIPE_V>, %c1]']).diags).toEqual(
      [],
    );
    expect(check([...ids, 'pto.set_intra_block <PIPE_V>, %c1', 'pto.wait_cross_block <PIPE_FIX>, %c1'], 'a5').diags).toEqual([]);
    const r = run(kernel([...ids, 'pto.set_flag_dyn [<PIPE_MTE2>, <PIPE_V>, %c1]', 'return']));
    const [verified] = [...r.program.syncOps.values()];
    expect(verified.text).toBe('pto.set_flag_dyn[PIPE_MTE2, PIPE_V, %c1]');
    expect(verified.dynamicId).toBe(0);
  });

  test('intra-block flags: 0..15 on a2a3, 0..31 on a5', () => {
    expect(check(['pto.set_intra_block <PIPE_MTE1>, 31'], 'a5').diags).toEqual([]);
    const { text, diags } = check(withFfts(['pto.set_intra_block <PIPE_MTE1>, 16']), 'a2a3', FFTS_ARG);
    expect(diags).toEqual([`${at(text, '16')}: error[E0701]: pto.set_intra_block: event_id: must be in 0..15, got 16`]);
  });

  test('the verified program records each op with its values and pipes', () => {
    const r = run(kernel(['pto.record_event[#pto.sync_op_type<TMATMUL>, #pto.sync_op_type<TSTORE_ACC>, <EVENT_ID2>]', 'return']));
    const [verified] = [...r.program.syncOps.values()];
    expect(verified.text).toBe('pto.record_event[TMATMUL, TSTORE_ACC, EVENT_ID2]');
    expect(verified.pipes).toEqual(['PIPE_M', 'PIPE_FIX']);
    expect(verified.id).toBe(2);
  });
});

describe('located errors', () => {
  const cases: [string, string[], string, string, ('a2a3' | 'a5')?][] = [
    [
      'an unknown pipe, with a suggestion',
      ['pto.set_flag[<PIPE_MTE>, <PIPE_V>, <EVENT_ID0>]'],
      '<PIPE_MTE>',
      "pto.set_flag: src_pipe: unknown pipe 'PIPE_MTE' (did you mean 'PIPE_MTE1'?)",
    ],
    [
      'a pipe in lower case',
      ['pto.wait_flag[<PIPE_MTE2>, <pipe_v>, <EVENT_ID0>]'],
      '<pipe_v>',
      "pto.wait_flag: dst_pipe: unknown pipe 'pipe_v' (did you mean 'PIPE_V'?)",
    ],
    [
      'a pipe the PIPE enum does not have',
      ['pto.barrier <PIPE_MTE6>'],
      '<PIPE_MTE6>',
      "pto.barrier: pipe: unknown pipe 'PIPE_MTE6' (did you mean 'PIPE_MTE1'?)",
    ],
    [
      'an event id out of range',
      ['pto.set_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID8>]'],
      '<EVENT_ID8>',
      'pto.set_flag: event_id: EVENT_ID8 is out of range: events are EVENT_ID0..EVENT_ID7',
    ],
    [
      'an unknown event',
      ['pto.set_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_I0>]'],
      '<EVENT_I0>',
      "pto.set_flag: event_id: unknown event 'EVENT_I0' (did you mean 'EVENT_ID0'?)",
    ],
    [
      'a pipe where an event goes',
      ['pto.set_flag[<PIPE_MTE2>, <PIPE_V>, #pto.pipe<PIPE_S>]'],
      '#pto.pipe<PIPE_S>',
      'pto.set_flag: event_id: expected <EVENT_IDn> or #pto.event<EVENT_IDn>, got #pto.pipe<PIPE_S>',
    ],
    [
      'an unknown op type',
      ['pto.record_event[#pto.sync_op_type<TLAOD>, #pto.sync_op_type<TVEC>, <EVENT_ID0>]'],
      '#pto.sync_op_type<TLAOD>',
      "pto.record_event: src_op: unknown op type 'TLAOD' (did you mean 'TLOAD'?)",
    ],
    [
      "the IR manual's op-type names",
      ['pto.wait_event[#pto.sync_op_type<TLOAD>, #pto.pipe_event_type<EVENT_COMPUTE_VEC>, <EVENT_ID0>]'],
      '#pto.pipe_event_type<EVENT_COMPUTE_VEC>',
      "pto.wait_event: dst_op: unknown op type 'EVENT_COMPUTE_VEC' (the IR manual's name; PTOAS spells it TVEC)",
    ],
    [
      'barrier_sync takes sync_op_type only (PTOAS: PTO_SyncOpTypeAttr)',
      ['pto.barrier_sync[#pto.pipe_event_type<TVEC>]'],
      '#pto.pipe_event_type<TVEC>',
      'pto.barrier_sync: op_type: expected <OP_TYPE> or #pto.sync_op_type<OP_TYPE>, got #pto.pipe_event_type<TVEC>',
    ],
    [
      'too few attributes',
      ['pto.set_flag[<PIPE_MTE2>, <PIPE_V>]'],
      '<PIPE_MTE2>',
      'pto.set_flag takes 3 attributes, got 2: pto.set_flag[<PIPE_x>, <PIPE_x>, <EVENT_IDn>]',
    ],
    ['brackets on a bare op', ['pto.barrier [<PIPE_V>]'], 'pto.barrier', 'pto.barrier writes its attributes without brackets: pto.barrier <PIPE_x>'],
    ['a buffer id out of range', ['pto.rls_buf[#pto.pipe_event_type<TVEC>, 32]'], '32', 'pto.rls_buf: buf_id: must be in 0..31, got 32', 'a5'],
    ['a negative mode', ['pto.get_buf[#pto.pipe_event_type<TVEC>, 0, -1]'], '-1', 'pto.get_buf: mode: must be in 0..2147483647, got -1', 'a5'],
    [
      'set_flag_dyn with a literal event (its id is an index value)',
      ['pto.set_flag_dyn [<PIPE_MTE2>, <PIPE_V>, <EVENT_ID0>]'],
      '<EVENT_ID0>',
      'pto.set_flag_dyn: event_id: must be an SSA value of type index',
    ],
    [
      'a dynamic event id of another type',
      ['%e = arith.constant 1 : i32', 'pto.wait_flag_dyn [<PIPE_MTE2>, <PIPE_V>, %e]'],
      '%e]',
      'pto.wait_flag_dyn: event_id must be of type index, got i32',
    ],
    [
      'a named signal on a pipe PTOAS does not allow (PIPE_M)',
      ['pto.set_cross_block <PIPE_M>, 0'],
      '<PIPE_M>',
      'pto.set_cross_block: pipe: pto.set_cross_block expects the pipe to be one of <PIPE_FIX>, <PIPE_MTE1>, <PIPE_MTE2>, <PIPE_MTE3>, <PIPE_V>, got <PIPE_M>',
      'a5',
    ],
    ['a cross-block flag out of range', ['pto.wait_cross_block <PIPE_V>, 16'], '16', 'pto.wait_cross_block: event_id: must be in 0..15, got 16', 'a5'],
    [
      'set_cross_block in FFTS mode other than 0',
      ['pto.set_cross_block <PIPE_V>, 1 {ffts_mode = 2 : i32}'],
      '2 : i32',
      'pto.set_cross_block: ffts_mode: must be in 0..0, got 2',
      'a5',
    ],
  ];
  // Every row gets its target, so that jest does not take a missing last column for a `done` callback.
  const rows = cases.map(([why, lines, needle, message, target]) => [why, lines, needle, message, target ?? 'a2a3'] as const);
  test.each(rows)('%s', (_why, lines, needle, message, target) => {
    const { text, diags } = check(lines, target);
    expect(diags).toEqual([`${at(text, needle)}: error[E0701]: ${message}`]);
  });
});

test('an attribute the sync op does not define is kept with a warning, as MLIR keeps it', () => {
  const { text, diags } = check(['pto.sync.set <PIPE_V>, 0 {ffts_mod = 0}'], 'a5');
  expect(diags).toEqual([
    `${at(text, 'ffts_mod =')}: warning[W0411]: pto.sync.set has no attribute 'ffts_mod': it is kept but has no effect; it takes ffts_mode`,
  ]);
});

describe('pipes and events as strings (PTOAS parseLegacyOrAttrPipe/Event, printed so from 87a8429d to 812e800c)', () => {
  const lines = ['pto.set_flag["PIPE_MTE2", "PIPE_V", "EVENT_ID0"]', 'pto.wait_flag["PIPE_MTE2", "PIPE_V", "EVENT_ID0"]'];

  test('set_flag and wait_flag accept them, with a warning at the strings naming the form PTOAS prints today', () => {
    const { text, diags } = check(lines);
    expect(diags).toEqual([
      `${at(text, '"PIPE_MTE2"')}: warning[W0105]: pto.set_flag names its pipes and event with strings, as PTOAS printed them before; today it prints pto.set_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID0>]`,
      `${at(text, '"PIPE_MTE2"', 1)}: warning[W0105]: pto.wait_flag names its pipes and event with strings, as PTOAS printed them before; today it prints pto.wait_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID0>]`,
    ]);
    const [set, wait] = [...run(text).program.syncOps.values()];
    expect([set.text, set.pipes, set.id]).toEqual(['pto.set_flag[PIPE_MTE2, PIPE_V, EVENT_ID0]', ['PIPE_MTE2', 'PIPE_V'], 0]);
    expect([wait.text, wait.pipes, wait.id]).toEqual(['pto.wait_flag[PIPE_MTE2, PIPE_V, EVENT_ID0]', ['PIPE_MTE2', 'PIPE_V'], 0]);
  });

  test('a string next to a bracketed name: only the strings are the old spelling', () => {
    const { text, diags } = check(['pto.set_flag[<PIPE_MTE1>, "PIPE_M", "EVENT_ID3"]']);
    expect(diags).toEqual([
      `${at(text, '"PIPE_M"')}: warning[W0105]: pto.set_flag names its pipes and event with strings, as PTOAS printed them before; today it prints pto.set_flag[<PIPE_MTE1>, <PIPE_M>, <EVENT_ID3>]`,
    ]);
  });

  test('--emit canonical prints them as PTOAS does today, which assembles again with no warning, a fixed point', () => {
    const first = run(kernel([...lines, 'return']));
    const printed = printCanonical(first.module, first.types);
    expect(printed).toContain('    pto.set_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID0>]\n    pto.wait_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID0>]\n');
    const again = run(printed);
    expect(diagLines(again)).toEqual([]);
    expect(printCanonical(again.module, again.types)).toBe(printed);
  });

  test('a string that names no pipe or event is an error (PTOAS: invalid pipe/event token), without the warning', () => {
    const { text, diags } = check(['pto.set_flag["PIPE_MTE2", "PIPE_V", "EVENT_ID8"]']);
    expect(diags).toEqual([`${at(text, '"EVENT_ID8"')}: error[E0701]: pto.set_flag: event_id: EVENT_ID8 is out of range: events are EVENT_ID0..EVENT_ID7`]);
  });

  test('only set_flag and wait_flag read strings: set_flag_dyn takes its pipes in the attribute form (its assembly format)', () => {
    const { text, diags } = check(['%c1 = arith.constant 1 : index', 'pto.set_flag_dyn ["PIPE_MTE2", <PIPE_V>, %c1]']);
    expect(diags).toEqual([
      `${at(text, '"PIPE_MTE2"')}: error[E0701]: pto.set_flag_dyn: src_pipe: expected <PIPE_x> or #pto.pipe<PIPE_x>, got a string attribute`,
    ]);
  });
});

describe("get_buf / rls_buf in PTOAS's two forms (PTO.cpp parseBufSyncOp, printBufSyncOp, verifyBufSyncOp)", () => {
  /** A kernel for the VPTO back end, which lowers every form (EmitC takes op types only). */
  const vpto = (lines: string[]) => kernel([...lines, 'return'], '', '{pto.backend = "vpto"}');

  test('bare after a string (a pipe or an op type), or bracketed with an attribute (a pipe or an op type); mode optional', () => {
    const lines = [
      'pto.get_buf "PIPE_MTE2", 0, 0',
      'pto.rls_buf "PIPE_MTE2", 0',
      'pto.get_buf "TLOAD", 1, 1',
      'pto.rls_buf[#pto.pipe<PIPE_V>, 2]',
      'pto.get_buf[#pto.sync_op_type<TMATMUL>, 31, 2147483647]',
      'pto.rls_buf "PIPE_MTE4", 3',
    ];
    const r = run(vpto(lines), 'a5');
    expect(diagLines(r)).toEqual([]);
    const verified = [...r.program.syncOps.values()].map((v) => [v.text, v.pipes[0], v.id, v.values.get('mode')]);
    expect(verified).toEqual([
      ['pto.get_buf PIPE_MTE2, 0, 0', 'PIPE_MTE2', 0, 0],
      ['pto.rls_buf PIPE_MTE2, 0', 'PIPE_MTE2', 0, 0],
      ['pto.get_buf TLOAD, 1, 1', 'PIPE_MTE2', 1, 1],
      ['pto.rls_buf[PIPE_V, 2]', 'PIPE_V', 2, 0],
      ['pto.get_buf[TMATMUL, 31, 2147483647]', 'PIPE_M', 31, 2147483647],
      ['pto.rls_buf PIPE_MTE4, 3', 'PIPE_MTE4', 3, 0],
    ]);
  });

  test('--emit canonical prints a pipe bare as a string, an op type bracketed as its attribute, mode always: a fixed point', () => {
    const first = run(
      vpto(['pto.get_buf "PIPE_MTE2", 0', 'pto.rls_buf[#pto.pipe<PIPE_MTE2>, 0, 1]', 'pto.get_buf "TVEC", 1', 'pto.rls_buf[#pto.sync_op_type<TVEC>, 1]']),
      'a5',
    );
    const printed = printCanonical(first.module, first.types);
    expect(printed).toContain(
      [
        '    pto.get_buf "PIPE_MTE2", 0, 0',
        '    pto.rls_buf "PIPE_MTE2", 0, 1',
        '    pto.get_buf[#pto.pipe_event_type<TVEC>, 1, 0]',
        '    pto.rls_buf[#pto.sync_op_type<TVEC>, 1, 0]',
      ].join('\n'),
    );
    const again = run(printed, 'a5');
    expect(diagLines(again)).toEqual([]);
    expect(printCanonical(again.module, again.types)).toBe(printed);
  });

  test("with PTOAS's default back end a pipe is a warning at it (its EmitC lowering takes op types only); an op type is not", () => {
    const { text, diags } = check(['pto.get_buf "PIPE_V", 0', 'pto.rls_buf[#pto.pipe<PIPE_V>, 0]', 'pto.get_buf "TVEC", 1', 'pto.rls_buf "TVEC", 1'], 'a5');
    const warning = (op: string, emitc: string) =>
      `warning[W0705]: PTOAS's EmitC back end (the default) cannot lower ${op} named by a pipe: it takes an op type (${emitc}), e.g. #pto.pipe_event_type<TVEC>; its VPTO back end lowers both`;
    expect(diags).toEqual([
      `${at(text, '"PIPE_V"')}: ${warning('pto.get_buf', 'PTOGetBufToEmitC')}`,
      `${at(text, '#pto.pipe<PIPE_V>')}: ${warning('pto.rls_buf', 'PTORlsBufToEmitC')}`,
    ]);
  });

  const form = (op: string) => `${op}[#pto.pipe_event_type<OP_TYPE>, buf_id, mode?] or ${op} "PIPE_x", buf_id, mode?`;
  const expected = 'expected #pto.pipe<PIPE_x> or #pto.pipe_event_type<OP_TYPE> or #pto.sync_op_type<OP_TYPE>';
  test.each([
    [
      'PIPE_ALL (not a concrete pipe)',
      'pto.get_buf "PIPE_ALL", 0',
      '"PIPE_ALL"',
      'pto.get_buf: op_type: pto.get_buf expects a pipe other than <PIPE_ALL> and <PIPE_UNASSIGNED>, got <PIPE_ALL>',
    ],
    [
      'PIPE_UNASSIGNED',
      'pto.rls_buf[#pto.pipe<PIPE_UNASSIGNED>, 0]',
      '#pto.pipe',
      'pto.rls_buf: op_type: pto.rls_buf expects a pipe other than <PIPE_ALL> and <PIPE_UNASSIGNED>, got <PIPE_UNASSIGNED>',
    ],
    [
      'a string naming neither',
      'pto.get_buf "PIPE_VV", 0',
      '"PIPE_VV"',
      "pto.get_buf: op_type: 'PIPE_VV' names neither a pipe nor an op type (did you mean 'PIPE_V'?)",
    ],
    [
      "the IR manual's op-type name",
      'pto.get_buf "EVENT_COMPUTE_VEC", 0',
      '"EVENT',
      "pto.get_buf: op_type: unknown op type 'EVENT_COMPUTE_VEC' (the IR manual's name; PTOAS spells it TVEC)",
    ],
    [
      'a string in brackets (MLIR reads a string attribute there)',
      'pto.get_buf ["PIPE_V", 0]',
      '"PIPE_V"',
      `pto.get_buf: op_type: ${expected}, got a string attribute (a string names it in the bare form only: pto.get_buf "PIPE_x", ...)`,
    ],
    [
      "the short <TVEC> (MLIR's generic attribute parser does not read it)",
      'pto.rls_buf[<TVEC>, 0]',
      '<TVEC>',
      `pto.rls_buf: op_type: ${expected}, got <TVEC>`,
    ],
    ['an op type where a pipe goes', 'pto.rls_buf[#pto.pipe<TVEC>, 0]', '#pto.pipe', "pto.rls_buf: op_type: unknown pipe 'TVEC'"],
    [
      'bare without a string',
      'pto.get_buf #pto.pipe<PIPE_V>, 0',
      'pto.get_buf',
      `pto.get_buf writes its attributes in brackets, or bare after a string naming its pipe or op type: ${form('pto.get_buf')}`,
    ],
    ['too few', 'pto.rls_buf "TVEC"', '"TVEC"', `pto.rls_buf takes 2 or 3 attributes, got 1: ${form('pto.rls_buf')}`],
    ['too many', 'pto.rls_buf "TVEC", 0, 0, 0', '"TVEC"', `pto.rls_buf takes 2 or 3 attributes, got 4: ${form('pto.rls_buf')}`],
    ['a buffer id past 31', 'pto.get_buf "PIPE_V", 32, 0', '32', 'pto.get_buf: buf_id: must be in 0..31, got 32'],
  ])('%s', (_why, line, needle, message) => {
    const { text, diags } = check([line], 'a5');
    expect(diags).toEqual([`${at(text, needle)}: error[E0701]: ${message}`]);
  });
});

describe('sync.set / sync.wait with an event id given at run time (PTOAS: Optional<Index>:$event_id_dyn)', () => {
  const lines = ['%e = arith.constant 3 : index', 'pto.sync.set <PIPE_MTE3>, %e', 'pto.sync.wait <PIPE_V>, %e {ffts_mode = 2 : i32}'];

  test('an index value verifies on both targets and is recorded as the dynamic id', () => {
    expect(check(lines, 'a5').diags).toEqual([]);
    expect(check(withFfts(lines), 'a2a3', FFTS_ARG).diags).toEqual([]);
    const [set, wait] = [...run(kernel([...lines, 'return']), 'a5').program.syncOps.values()];
    expect([set.text, set.dynamicId, wait.text, wait.dynamicId]).toEqual(['pto.sync.set PIPE_MTE3, %e', 0, 'pto.sync.wait PIPE_V, %e', 0]);
  });

  test('prints back as written, a fixed point', () => {
    const first = run(kernel([...lines, 'return']), 'a5');
    const printed = printCanonical(first.module, first.types);
    expect(printed).toContain('    pto.sync.set <PIPE_MTE3>, %e\n    pto.sync.wait <PIPE_V>, %e {ffts_mode = 2 : i32}\n');
    const again = run(printed, 'a5');
    expect(diagLines(again)).toEqual([]);
    expect(printCanonical(again.module, again.types)).toBe(printed);
  });

  test('a value of another type is an error at it', () => {
    const { text, diags } = check(['%e = arith.constant 3 : i32', 'pto.sync.wait <PIPE_V>, %e'], 'a5');
    expect(diags).toEqual([`${at(text, '%e', 1)}: error[E0701]: pto.sync.wait: event_id must be of type index, got i32`]);
  });
});

describe('pipes each op names, per target (PTOAS PTO_PipeEnum; SyncSetOp/SyncWaitOp::verify)', () => {
  test('set_flag, wait_flag, their _dyn forms and barrier have no verifier: any PIPE enum value, on both targets', () => {
    const lines = [
      '%e = arith.constant 7 : index',
      'pto.wait_flag_dyn [<PIPE_MTE3>, <PIPE_MTE4>, %e]',
      'pto.set_flag_dyn [#pto.pipe<PIPE_MTE5>, #pto.pipe<PIPE_V>, %e]',
      'pto.set_flag_dyn [#pto.pipe<PIPE_FIX>, #pto.pipe<PIPE_V2>, %e]',
      'pto.set_flag[<PIPE_ALL>, <PIPE_V>, <EVENT_ID0>]',
      'pto.wait_flag[<VIRTUAL_PIPE_MTE2_L1A>, <VIRTUAL_PIPE_MTE2_L1B>, <EVENT_ID1>]',
      'pto.barrier <PIPE_MTE4>',
    ];
    expect(check(lines, 'a2a3').diags).toEqual([]);
    expect(check(lines, 'a5').diags).toEqual([]);
  });

  test('sync.set / sync.wait take any pipe on a2a3, and only FIX, MTE1, MTE2, MTE3 or V on a5', () => {
    const lines = ['pto.sync.set <PIPE_M>, 0', 'pto.sync.wait <PIPE_S>, 0'];
    expect(check(withFfts(lines), 'a2a3', FFTS_ARG).diags).toEqual([]);
    const { text, diags } = check(lines, 'a5');
    const allowed = '<PIPE_FIX>, <PIPE_MTE1>, <PIPE_MTE2>, <PIPE_MTE3>, <PIPE_V>';
    expect(diags).toEqual([
      `${at(text, '<PIPE_M>')}: error[E0701]: pto.sync.set: pipe: on a5, pto.sync.set expects the pipe to be one of ${allowed}, got <PIPE_M>`,
      `${at(text, '<PIPE_S>')}: error[E0701]: pto.sync.wait: pipe: on a5, pto.sync.wait expects the pipe to be one of ${allowed}, got <PIPE_S>`,
    ]);
  });
});

describe('the static event id of sync.set / sync.wait: 0..15 on a5, any i32 on a2a3 (PTOAS: A5 ... expects static FFTS event_id in [0, 15])', () => {
  test.each(['sync.set <PIPE_FIX>', 'sync.wait <PIPE_V>'])('pto.%s', (head) => {
    expect(check([`pto.${head}, 15`], 'a5').diags).toEqual([]);
    const { text, diags } = check([`pto.${head}, 16`], 'a5');
    const name = head.split(' ')[0];
    expect(diags).toEqual([`${at(text, '16')}: error[E0701]: pto.${name}: event_id: must be in 0..15, got 16`]);
    expect(check(withFfts([`pto.${head}, 16`]), 'a2a3', FFTS_ARG).diags).toEqual([]);
  });

  // parseSyncEventOpCommon reads the id as an i32 attribute: MLIR takes -2^31..2^32-1, the upper half as its bits.
  test('on a2a3 any i32: negatives, and 2^31..2^32-1 as the negative i32 of the same bits', () => {
    const ids = ['-1', '-2147483648', '2147483647', '4294967295', '2147483648'];
    const r = run(kernel(withFfts([...ids.map((id) => `pto.sync.set <PIPE_FIX>, ${id}`), 'return']), FFTS_ARG), 'a2a3');
    expect(diagLines(r)).toEqual([]);
    expect([...r.program.syncOps.values()].map((s) => s.id)).toEqual([-1, -2147483648, 2147483647, -1, -2147483648]);
  });

  test('past an i32 it is an error on a2a3; on a5 a negative one is out of 0..15', () => {
    const big = check(withFfts(['pto.sync.wait <PIPE_V>, 4294967296', 'pto.sync.set <PIPE_FIX>, -2147483649']), 'a2a3', FFTS_ARG);
    expect(big.diags).toEqual([
      `${at(big.text, '4294967296')}: error[E0701]: pto.sync.wait: event_id: must be a 32-bit integer (an i32 literal), got 4294967296`,
      `${at(big.text, '-2147483649')}: error[E0701]: pto.sync.set: event_id: must be a 32-bit integer (an i32 literal), got -2147483649`,
    ]);
    const a5 = check(['pto.sync.set <PIPE_FIX>, -1', 'pto.sync.wait <PIPE_V>, 4294967295'], 'a5');
    expect(a5.diags).toEqual([
      `${at(a5.text, '-1')}: error[E0701]: pto.sync.set: event_id: must be in 0..15, got -1`,
      `${at(a5.text, '4294967295')}: error[E0701]: pto.sync.wait: event_id: must be in 0..15, got 4294967295 (-1 as i32)`,
    ]);
  });

  test('--emit canonical prints the id as PTOAS does (its i32 value: 4294967295 is -1), a fixed point', () => {
    const first = run(kernel(withFfts(['pto.sync.set <PIPE_FIX>, 4294967295', 'pto.sync.wait <PIPE_V>, -7', 'return']), FFTS_ARG), 'a2a3');
    const printed = printCanonical(first.module, first.types);
    expect(printed).toContain('    pto.sync.set <PIPE_FIX>, -1\n    pto.sync.wait <PIPE_V>, -7\n');
    const again = run(printed, 'a2a3');
    expect(diagLines(again)).toEqual([]);
    expect(printCanonical(again.module, again.types)).toBe(printed);
  });
});

describe('a dictionary naming an attribute the list gives (PTOAS parses these ops by hand and adds the list to it)', () => {
  test.each([
    ['pto.set_flag[<PIPE_V>, <PIPE_MTE3>, <EVENT_ID0>] {event_id = #pto.event<EVENT_ID1>}', 'event_id =', 'pto.set_flag', 'event_id', 'a2a3'],
    ['pto.rls_buf[#pto.pipe_event_type<TVEC>, 0] {mode = 1 : i32}', 'mode =', 'pto.rls_buf', 'mode', 'a5'],
    ['pto.sync.wait <PIPE_V>, 0 {pipe = #pto.pipe<PIPE_V>}', 'pipe =', 'pto.sync.wait', 'pipe', 'a5'],
  ] as const)('%s', (line, needle, op, key, target) => {
    const { text, diags } = check([line], target);
    expect(diags).toEqual([
      `${at(text, needle)}: error[E0701]: ${op}: the dictionary names ${key}, which the op writes in its list: PTOAS adds the list's attributes to the dictionary's and stops ("attribute '${key}' occurs more than once in the attribute list")`,
    ]);
  });
});

describe('a2a3 code with cross-core flags needs pto.set_ffts in the same function (PTOAS EmitPTOManualPass)', () => {
  const codes = (diags: string[]) => diags.map((d) => (d.startsWith('  note') ? 'note' : /\[(\w+)\]/.exec(d)![1]));

  test('missing: one error per function, at its first cross-core op, with a note at the function', () => {
    const { text, diags } = check(['pto.sync.set <PIPE_FIX>, 0', 'pto.sync.wait <PIPE_V>, 0', 'pto.set_intra_block <PIPE_V>, 1'], 'a2a3');
    expect(diags).toEqual([
      `${at(text, 'pto.sync.set')}: error[E0704]: pto.sync.set on a2a3 needs a pto.set_ffts in its function (the cross-core flags' base address): PTOAS requires one in every function with cross-core flags`,
      `  note ${at(text, 'func.func')}: @k has no pto.set_ffts`,
    ]);
  });

  test.each([
    'set_intra_block <PIPE_V>, 1',
    'wait_intra_block <PIPE_V>, 1',
    'set_cross_block <PIPE_MTE3>, 2',
    'wait_cross_block <PIPE_V>, 2',
    'sync.wait <PIPE_V>, 0',
  ])('each cross-core op needs it: pto.%s', (line) => {
    const { diags } = check([`pto.${line}`], 'a2a3');
    expect(codes(diags)).toEqual(['E0704', 'note']);
  });

  test('anywhere in the function counts, after the op or in a nested region', () => {
    expect(check(['pto.sync.set <PIPE_FIX>, 0', 'pto.set_ffts %ffts : !pto.ptr<i64>'], 'a2a3', FFTS_ARG).diags).toEqual([]);
    const nested = ['scf.if %c {', '  pto.set_ffts %ffts : !pto.ptr<i64>', '}', 'pto.sync.wait <PIPE_V>, 0'];
    expect(check(nested, 'a2a3', `${FFTS_ARG}, %c: i1`).diags).toEqual([]);
  });

  test('in another function it does not count', () => {
    const text = [
      'func.func @setup(%ffts: !pto.ptr<i64>) {',
      '  pto.set_ffts %ffts : !pto.ptr<i64>',
      '  return',
      '}',
      'func.func @k() {',
      '  pto.sync.set <PIPE_FIX>, 0',
      '  return',
      '}',
      '',
    ].join('\n');
    expect(codes(diagLines(run(text, 'a2a3')))).toEqual(['E0704', 'note']);
  });

  test('not on a5, nor with the VPTO back end (the check is in the EmitC back end)', () => {
    expect(check(['pto.sync.set <PIPE_FIX>, 0'], 'a5').diags).toEqual([]);
    const vpto = kernel(['pto.sync.set <PIPE_FIX>, 0', 'return'], '', '{pto.backend = "vpto"}');
    expect(diagLines(run(vpto, 'a2a3'))).toEqual([]);
  });
});

describe('the table', () => {
  test('describes the sixteen sync ops of PTOAS, each a known op', () => {
    expect([...syncOps().keys()].sort()).toEqual(
      [
        'pto.barrier',
        'pto.barrier_sync',
        'pto.get_buf',
        'pto.record_event',
        'pto.rls_buf',
        'pto.set_flag',
        'pto.sync.set',
        'pto.sync.wait',
        'pto.wait_event',
        'pto.wait_flag',
        'pto.set_flag_dyn',
        'pto.wait_flag_dyn',
        'pto.set_intra_block',
        'pto.wait_intra_block',
        'pto.set_cross_block',
        'pto.wait_cross_block',
      ].sort(),
    );
    for (const name of syncOps().keys()) expect(knownOps().names.has(name)).toBe(true);
  });

  test("maps op types to pipes as PTOAS's mapSyncOpTypeToPipe does", () => {
    expect(syncTables().opTypePipes).toEqual({
      TLOAD: 'PIPE_MTE2',
      TSTORE_ACC: 'PIPE_FIX',
      TSTORE_VEC: 'PIPE_MTE3',
      TMOV_M2L: 'PIPE_MTE1',
      TMOV_M2S: 'PIPE_FIX',
      TMOV_M2B: 'PIPE_MTE1',
      TMOV_M2V: 'PIPE_V',
      TMOV_V2M: 'PIPE_FIX',
      TMATMUL: 'PIPE_M',
      TVEC: 'PIPE_V',
      TVECWAIT_EVENT: 'PIPE_V',
    });
  });
});
