/**
 * pto.comm ops on several ranks: each rank has its own buffers; `@K:NAME` bindings (src/cli/ranks.ts) hand a rank
 * the address of rank K's buffer, as a host hands a kernel a remote window address. Values are derived by hand.
 */
import { assemble } from '../../../src/verify/assemble';
import { formatAll } from '../../../src/diag/diagnostic';
import { LocatedError } from '../../../src/diag/located-error';
import { GlobalBuffer } from '../../../src/machine/memory';
import { RANK_WINDOW_BYTES, pointerAt } from '../../../src/machine/windows';
import { runRanks } from '../../../src/vm/interpreter';
import { BoundArguments } from '../../../src/vm/io/arguments';
import { bindRanks, rankedPairs } from '../../../src/cli/ranks';

/** Runs @k on `ranks` ranks with these `--arg` items; `fill` sets f32 buffers' elements before the run. */
function run(text: string, ranks: number, args: string[], fill: Record<string, number[]>[] = []): BoundArguments[] {
  const asm = assemble('k.pto', text, { target: 'a5' });
  if (asm.diags.hasErrors()) throw new Error(formatAll(asm.diags));
  const fn = [...asm.program.functions.values()].find((f) => f.symbol === 'k')!;
  const bound = bindRanks(asm.types, fn, rankedPairs(args, '--arg', ranks));
  fill.forEach((buffers, rank) => {
    for (const [name, values] of Object.entries(buffers)) {
      const buffer = bound[rank].values.get('%' + name) as GlobalBuffer;
      values.forEach((v, i) => buffer.view.setFloat32(i * 4, v, true));
    }
  });
  runRanks(
    asm.program,
    asm.types,
    fn,
    bound.map((b) => b.values),
    { numerics: 'npu', maxSteps: 10_000 },
    { blocks: 1 },
  );
  return bound;
}

function floats(bound: BoundArguments, name: string): number[] {
  const b = bound.values.get('%' + name) as GlobalBuffer;
  return Array.from({ length: b.length }, (_, i) => b.view.getFloat32(i * 4, true));
}

/** `%NAMEv`: a 1x8 f32 view of pointer %NAME. */
const view8 = (name: string) => `    %${name}t = pto.make_tensor_view %${name}, shape = [%c1, %c8], strides = [%c8, %c1] : !pto.tensor_view<1x8xf32>
    %${name}v = pto.partition_view %${name}t, offsets = [%c0, %c0], sizes = [%c1, %c8] : !pto.tensor_view<1x8xf32> -> !pto.partition_tensor_view<1x8xf32>`;
const flagView = (name: string) => `    %${name}t = pto.make_tensor_view %${name}, shape = [%c1], strides = [%c1] : !pto.tensor_view<1xi32>
    %${name}v = pto.partition_view %${name}t, offsets = [%c0], sizes = [%c1] : !pto.tensor_view<1xi32> -> !pto.partition_tensor_view<1xi32>`;
const PV = '!pto.partition_tensor_view<1x8xf32>';
const STAGE = '!pto.tile_buf<vec, 1x8xf32>';

/**
 * Rank 1 puts its %mine into rank 0's %inbox, then sets rank 0's %flag; rank 0 waits for the flag, copies its
 * inbox into %got (tget from a local view) and gets rank 1's %mine into %got2 (tget from a peer's view).
 */
function exchange(wait: boolean): string {
  return `func.func @k(%mine: !pto.ptr<f32>, %inbox: !pto.ptr<f32>, %got: !pto.ptr<f32>, %got2: !pto.ptr<f32>, %flag: !pto.ptr<i32>,
    %peer_inbox: !pto.ptr<f32>, %peer_flag: !pto.ptr<i32>, %peer_mine: !pto.ptr<f32>, %rank: i32) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %one = arith.constant 1 : i32
${['mine', 'inbox', 'got', 'got2', 'peer_inbox', 'peer_mine'].map(view8).join('\n')}
${['flag', 'peer_flag'].map(flagView).join('\n')}
    %stage = pto.alloc_tile : ${STAGE}
    %producer = arith.cmpi eq, %rank, %one : i32
    scf.if %producer {
      pto.comm.tput(%peer_inboxv, %minev, buf(%stage) : ${PV}, ${PV}, ${STAGE})
      pto.comm.tnotify(%peer_flagv, %one : !pto.partition_tensor_view<1xi32>, i32) {notifyOp = #pto<notify_op set>}
    } else {
${wait ? '      pto.comm.twait(%flagv, %one : !pto.partition_tensor_view<1xi32>, i32) {cmp = #pto<wait_cmp eq>}' : ''}
      pto.comm.tget(%gotv, %inboxv, buf(%stage) : ${PV}, ${PV}, ${STAGE})
      pto.comm.tget(%got2v, %peer_minev, buf(%stage) : ${PV}, ${PV}, ${STAGE})
    }
    return
}
`;
}

const EXCHANGE_ARGS = [
  'mine=zeros:8',
  'inbox=zeros:8',
  'got=zeros:8',
  'got2=zeros:8',
  'flag=zeros:1',
  'peer_inbox=@0:inbox',
  'peer_flag=@0:flag',
  'peer_mine=@1:mine',
  'rank={rank}',
];
const RANK0_MINE = [-1, -2, -3, -4, -5, -6, -7, -8];
const RANK1_MINE = [1, 2, 3, 4, 5, 6, 7, 8];

describe('tput / tget / tnotify / twait between two ranks', () => {
  it("rank 1's tile lands in rank 0's inbox; rank 0 reads it after the wait, and gets rank 1's buffer directly", () => {
    const [rank0, rank1] = run(exchange(true), 2, EXCHANGE_ARGS, [{ mine: RANK0_MINE }, { mine: RANK1_MINE }]);
    expect(floats(rank0, 'inbox')).toEqual(RANK1_MINE);
    expect(floats(rank0, 'got')).toEqual(RANK1_MINE);
    expect(floats(rank0, 'got2')).toEqual(RANK1_MINE);
    expect((rank0.values.get('%flag') as GlobalBuffer).view.getInt32(0, true)).toBe(1);
    // Rank 1 wrote only rank 0's memory.
    expect(floats(rank1, 'inbox')).toEqual(new Array(8).fill(0));
    expect(floats(rank1, 'got')).toEqual(new Array(8).fill(0));
  });

  it('without the wait rank 0 (scheduled first) reads its inbox before the put lands', () => {
    const [rank0] = run(exchange(false), 2, EXCHANGE_ARGS, [{ mine: RANK0_MINE }, { mine: RANK1_MINE }]);
    expect(floats(rank0, 'got')).toEqual(new Array(8).fill(0));
    expect(floats(rank0, 'inbox')).toEqual(RANK1_MINE);
  });

  it('tput with atomic_add adds into the destination', () => {
    const text = exchange(true).replace(
      `buf(%stage) : ${PV}, ${PV}, ${STAGE})\n      pto.comm.tnotify`,
      `buf(%stage) : ${PV}, ${PV}, ${STAGE}) {atomicType = #pto<atomic_type atomic_add>}\n      pto.comm.tnotify`,
    );
    const [rank0] = run(text, 2, EXCHANGE_ARGS, [{ mine: RANK0_MINE, inbox: [10, 10, 10, 10, 10, 10, 10, 10] }, { mine: RANK1_MINE }]);
    expect(floats(rank0, 'inbox')).toEqual([11, 12, 13, 14, 15, 16, 17, 18]);
  });

  it('a wait nobody signals is a located deadlock naming the rank, the op and the signal', () => {
    // Rank 1 sets its own flag, not rank 0's: rank 0 waits for ever.
    const args = EXCHANGE_ARGS.map((a) => (a === 'peer_flag=@0:flag' ? 'peer_flag=@1:flag' : a));
    let error: unknown;
    try {
      run(exchange(true), 2, args);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(LocatedError);
    const e = error as LocatedError;
    expect(e.diagnostic.code).toBe('E0803');
    expect(e.message).toBe("deadlock: the one waiting core cannot go on: rank 0, block 0 waits at pto.comm.twait for signal rank 0's %flag[0] eq 1 (holds 0)");
  });
});

describe('collectives across ranks', () => {
  const GROUP_TYPES = [PV, PV, PV].join(', ');
  // Root 0 sums the three ranks' %part into its %sum, broadcasts %sum to every rank's %result, and gathers the
  // parts, one row each, into its 3x8 %rows.
  const text = `func.func @k(%part: !pto.ptr<f32>, %sum: !pto.ptr<f32>, %rows: !pto.ptr<f32>, %p0: !pto.ptr<f32>, %p1: !pto.ptr<f32>, %p2: !pto.ptr<f32>,
    %r0: !pto.ptr<f32>, %r1: !pto.ptr<f32>, %r2: !pto.ptr<f32>, %rank: i32, %result: !pto.ptr<f32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %c8 = arith.constant 8 : index
    %zero = arith.constant 0 : i32
${['sum', 'p0', 'p1', 'p2', 'r0', 'r1', 'r2'].map(view8).join('\n')}
    %rowst = pto.make_tensor_view %rows, shape = [%c3, %c8], strides = [%c8, %c1] : !pto.tensor_view<3x8xf32>
    %rowsv = pto.partition_view %rowst, offsets = [%c0, %c0], sizes = [%c3, %c8] : !pto.tensor_view<3x8xf32> -> !pto.partition_tensor_view<3x8xf32>
    %acc = pto.alloc_tile : ${STAGE}
    %recv = pto.alloc_tile : ${STAGE}
    %root = arith.cmpi eq, %rank, %zero : i32
    scf.if %root {
      pto.comm.treduce(%sumv, %acc, recv(%recv), group(%p0v, %p1v, %p2v) : ${PV}, ${STAGE}, ${STAGE}, ${GROUP_TYPES}) {reduceOp = #pto<reduce_op sum>, root = 0 : i32}
      pto.comm.tbroadcast(%sumv, recv(%recv), group(%r0v, %r1v, %r2v) : ${PV}, ${STAGE}, ${GROUP_TYPES}) {root = 0 : i32}
      pto.comm.tgather(%rowsv, recv(%recv), group(%p0v, %p1v, %p2v) : !pto.partition_tensor_view<3x8xf32>, ${STAGE}, ${GROUP_TYPES}) {root = 0 : i32}
    }
    return
}
`;
  const args = ['part=zeros:8', 'sum=zeros:8', 'rows=zeros:24', 'result=zeros:8', 'rank={rank}'];
  const members = ['p0=@0:part', 'p1=@1:part', 'p2=@2:part', 'r0=@0:result', 'r1=@1:result', 'r2=@2:result'];
  const parts = [
    [1, 10, 100, 0.5, -1, 0, 2, 3],
    [2, 20, 200, 0.25, -2, 0, 4, 5],
    [3, 30, 300, 0.125, -3, 0, 8, 7],
  ];

  it('treduce sums the members element by element; tbroadcast gives every rank the sum; tgather stacks the parts by rows', () => {
    const bound = run(
      text,
      3,
      [...args, ...members],
      parts.map((part) => ({ part })),
    );
    const sum = [6, 60, 600, 0.875, -6, 0, 14, 15];
    expect(floats(bound[0], 'sum')).toEqual(sum);
    for (const rank of bound) expect(floats(rank, 'result')).toEqual(sum);
    expect(floats(bound[0], 'rows')).toEqual(parts.flat());
  });
});

describe('rank windows (src/machine/windows.ts)', () => {
  const make = () => {
    const byRank = [0, 1, 2].map(() => new GlobalBuffer('x', 'f32', new Uint8Array(64)));
    byRank.forEach((b, rank) => (b.placement = { rank, byRank }));
    return byRank;
  };

  it('an address moved by whole windows reaches the same element of the peer rank', () => {
    const [x0, x1, x2] = make();
    const window = RANK_WINDOW_BYTES / 4;
    expect(pointerAt(x0, 2 * window + 3)).toEqual({ kind: 'pointer', buffer: x2, offset: 3 });
    expect(pointerAt(x2, -window + 5)).toEqual({ kind: 'pointer', buffer: x1, offset: 5 });
    expect(pointerAt(x1, 7)).toEqual({ kind: 'pointer', buffer: x1, offset: 7 });
  });

  it('an address past the last rank stays outside its buffer (an access there traps)', () => {
    const [x0] = make();
    expect(pointerAt(x0, 3 * (RANK_WINDOW_BYTES / 4))).toEqual({ kind: 'pointer', buffer: x0, offset: 3 * (RANK_WINDOW_BYTES / 4) });
  });
});

describe('pto.syncall: a barrier of the launch', () => {
  const kernel = (syncall: string) => `func.func @k(%ws: !pto.ptr<i32>, %used: i32) {
    %b = pto.get_block_idx
    %b32 = arith.index_cast %b : i64 to i32
    pto.print ins("before %d", %b32 : i32)
    ${syncall}
    pto.print ins("after %d", %b32 : i32)
    return
}
`;
  const launch = (text: string, seed?: number) => {
    const asm = assemble('k.pto', text, { target: 'a5' });
    if (asm.diags.hasErrors()) throw new Error(formatAll(asm.diags));
    const fn = [...asm.program.functions.values()].find((f) => f.symbol === 'k')!;
    const args = new Map<string, GlobalBuffer | bigint>([
      ['%ws', new GlobalBuffer('ws', 'i32', new Uint8Array(64))],
      ['%used', 0n],
    ]);
    return runRanks(asm.program, asm.types, fn, [args], { numerics: 'npu', maxSteps: 1000, scheduleSeed: seed }, { blocks: 2 }).printed;
  };
  const HARD = 'pto.syncall() mode = #pto.sync_all_mode<hard>, core_type = #pto.sync_core_type<aiv_only>';

  it('no core goes past it before every core has reached it (without it, block 0 runs to its end first)', () => {
    expect(launch(kernel(''))).toEqual(['before 0', 'after 0', 'before 1', 'after 1']);
    expect(launch(kernel(HARD))).toEqual(['before 0', 'before 1', 'after 0', 'after 1']);
    for (const seed of [1, 2, 3, 7]) expect(launch(kernel(HARD), seed).slice(0, 2).sort()).toEqual(['before 0', 'before 1']);
  });

  it('soft mode waits for used_cores arrivals: 3 on a launch of 2 cores could never complete, a located trap', () => {
    const soft = kernel('pto.syncall(%ws, %three : !pto.ptr<i32>, i32) mode = #pto.sync_all_mode<soft>, core_type = #pto.sync_core_type<aiv_only>').replace(
      '    %b = pto.get_block_idx',
      '    %three = arith.constant 3 : i32\n    %b = pto.get_block_idx',
    );
    expect(() => launch(soft)).toThrow('block 0: pto.syncall: used_cores is 3, but the launch has 2 cores of type aiv_only');
  });
});
