/**
 * The SIMT level (docs/isa/micro-isa/17-simt.md): pto.simt_launch runs a pto.simt_entry function as x*y*z threads,
 * each with its own registers; pto.syncthreads is a barrier of the launch; votes and shuffles are collectives of a
 * 32-lane warp. Expected values are worked out by hand from the docs' formulas.
 */
import { GlobalBuffer } from '../../src/machine/memory';
import { assemble } from '../../src/verify/assemble';
import { runMicroKernel } from '../fixtures/micro';

const i32s = (n: number, fill = -1) => new GlobalBuffer('out', 'i32', new Uint8Array(Int32Array.from({ length: n }, () => fill).buffer));
const values = (b: GlobalBuffer) => Array.from({ length: b.length }, (_, i) => Number(b.readElement(i)));

function kernel(launch: string, body: string, bodyParams = '%gm: !pto.ptr<i32, gm>'): string {
  return `module attributes {pto.target_arch = "a5", pto.kernel_kind = #pto.kernel_kind<vector>} {
  func.func @k(%gm: !pto.ptr<i32, gm>) attributes {pto.aicore} {
    %c0_i64 = arith.constant 0 : i64
    %ub = pto.castptr %c0_i64 : i64 -> !pto.ptr<i32, ub>
${launch}
    return
  }
  func.func @body(${bodyParams}) attributes {pto.simt_entry} {
${body}
    return
  }
}`;
}

describe('pto.simt_launch', () => {
  it('runs one thread per launch coordinate, x fastest', () => {
    const out = i32s(8);
    const text = kernel(
      `    %x = arith.constant 4 : i32
    %y = arith.constant 2 : i32
    %z = arith.constant 1 : i32
    pto.simt_launch @body<<<%x, %y, %z>>>(%gm) : (!pto.ptr<i32, gm>) -> ()`,
      `    %tx = pto.get_tid_x : i32
    %ty = pto.get_tid_y : i32
    %dx = pto.get_block_dim_x : i32
    %c10 = arith.constant 10 : i32
    %row = arith.muli %ty, %dx : i32
    %lin = arith.addi %row, %tx : i32
    %i = arith.index_castui %lin : i32 to index
    %ten_y = arith.muli %ty, %c10 : i32
    %v = arith.addi %tx, %ten_y : i32
    pto.store %v, %gm[%i] : !pto.ptr<i32, gm>, i32`,
    );
    runMicroKernel(text, 'k', { gm: out });
    // thread (x, y) writes x + 10 y at x + 4 y
    expect(values(out)).toEqual([0, 1, 2, 3, 10, 11, 12, 13]);
  });

  it("counts its threads' steps as the core's (--max-steps bounds the whole launch)", () => {
    // 32 threads of 11 ops each (10 and the return) make over 350 steps: a bound of 200 stops the run, which no
    // single thread reaches alone.
    const body = Array.from({ length: 10 }, (_, i) => `    %t${i} = pto.get_tid_x : i32`).join('\n');
    const text = kernel(
      `    %x = arith.constant 32 : i32
    %one = arith.constant 1 : i32
    pto.simt_launch @body<<<%x, %one, %one>>>(%gm) : (!pto.ptr<i32, gm>) -> ()`,
      body,
    );
    expect(() => runMicroKernel(text, 'k', { gm: i32s(1) }, 200)).toThrow(/stopped after 200 steps/);
    expect(() => runMicroKernel(text, 'k', { gm: i32s(1) }, 1000)).not.toThrow();
  });

  it('holds every thread at pto.syncthreads until all have reached it', () => {
    // Each thread writes its id to UB, waits, then reads its right neighbour's (wrapping): only a barrier between
    // the store and the load gives every thread its neighbour's id (run one after another, thread 0 would read 0).
    const out = i32s(4);
    const text = kernel(
      `    %x = arith.constant 4 : i32
    %one = arith.constant 1 : i32
    pto.simt_launch @body<<<%x, %one, %one>>>(%gm, %ub) : (!pto.ptr<i32, gm>, !pto.ptr<i32, ub>) -> ()`,
      `    %tx = pto.get_tid_x : i32
    %c1 = arith.constant 1 : i32
    %c3 = arith.constant 3 : i32
    %c100 = arith.constant 100 : i32
    %me = arith.index_castui %tx : i32 to index
    %mark = arith.addi %tx, %c100 : i32
    pto.store %mark, %ub[%me] : !pto.ptr<i32, ub>, i32
    pto.syncthreads
    %next = arith.addi %tx, %c1 : i32
    %wrapped = arith.andi %next, %c3 : i32
    %n = arith.index_castui %wrapped : i32 to index
    %got = pto.load %ub[%n] : !pto.ptr<i32, ub> -> i32
    pto.store %got, %gm[%me] : !pto.ptr<i32, gm>, i32`,
      '%gm: !pto.ptr<i32, gm>, %ub: !pto.ptr<i32, ub>',
    );
    runMicroKernel(text, 'k', { gm: out });
    expect(values(out)).toEqual([101, 102, 103, 100]);
  });

  it('gives the lanes of a warp their vote and shuffle results', () => {
    // 32 lanes; field 0: ballot of even lanes (0x55555555 = 1431655765), 1: vote_any of lane == 5 (1),
    // 2: vote_all of it (0), 3: shuffle_bfly of lane*2 by 1 ((lane ^ 1) * 2), 4: lanemask_lt (2^lane - 1).
    const out = i32s(32 * 5);
    const text = kernel(
      `    %x = arith.constant 32 : i32
    %one = arith.constant 1 : i32
    pto.simt_launch @body<<<%x, %one, %one>>>(%gm) : (!pto.ptr<i32, gm>) -> ()`,
      `    %lane = pto.get_laneid : i32
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c2 = arith.constant 2 : i32
    %c5 = arith.constant 5 : i32
    %low = arith.andi %lane, %c1 : i32
    %even = arith.cmpi eq, %low, %c0 : i32
    %ballot = pto.vote_ballot %even : i1 -> i32
    %is5 = arith.cmpi eq, %lane, %c5 : i32
    %any = pto.vote_any %is5 : i1 -> i1
    %all = pto.vote_all %is5 : i1 -> i1
    %any32 = arith.extui %any : i1 to i32
    %all32 = arith.extui %all : i1 to i32
    %twice = arith.muli %lane, %c2 : i32
    %bfly = pto.shuffle_bfly %twice, %c1 : i32, i32 -> i32
    %lt = pto.get_lanemask_lt : i32
    %c32 = arith.constant 32 : i32
    %b = arith.muli %lane, %c1 : i32
    %i0 = arith.index_castui %b : i32 to index
    pto.store %ballot, %gm[%i0] : !pto.ptr<i32, gm>, i32
    %b1 = arith.addi %b, %c32 : i32
    %i1 = arith.index_castui %b1 : i32 to index
    pto.store %any32, %gm[%i1] : !pto.ptr<i32, gm>, i32
    %b2 = arith.addi %b1, %c32 : i32
    %i2 = arith.index_castui %b2 : i32 to index
    pto.store %all32, %gm[%i2] : !pto.ptr<i32, gm>, i32
    %b3 = arith.addi %b2, %c32 : i32
    %i3 = arith.index_castui %b3 : i32 to index
    pto.store %bfly, %gm[%i3] : !pto.ptr<i32, gm>, i32
    %b4 = arith.addi %b3, %c32 : i32
    %i4 = arith.index_castui %b4 : i32 to index
    pto.store %lt, %gm[%i4] : !pto.ptr<i32, gm>, i32`,
    );
    runMicroKernel(text, 'k', { gm: out });
    const v = values(out);
    const lanes = Array.from({ length: 32 }, (_, l) => l);
    expect(v.slice(0, 32)).toEqual(lanes.map(() => 1431655765));
    expect(v.slice(32, 64)).toEqual(lanes.map(() => 1));
    expect(v.slice(64, 96)).toEqual(lanes.map(() => 0));
    expect(v.slice(96, 128)).toEqual(lanes.map((l) => (l ^ 1) * 2));
    expect(v.slice(128, 160)).toEqual(lanes.map((l) => (l === 31 ? 2147483647 : 2 ** l - 1)));
  });
});

describe('pto.store_vfsimt_info and func.call of an entry', () => {
  it('runs the call as the configured threads (dimensions given z, y, x)', () => {
    const out = i32s(6);
    const text = kernel(
      `    %z = arith.constant 1 : i32
    %y = arith.constant 2 : i32
    %x = arith.constant 3 : i32
    pto.store_vfsimt_info %z, %y, %x : i32, i32, i32
    func.call @body(%gm) : (!pto.ptr<i32, gm>) -> ()`,
      `    %tx = pto.get_tid_x : i32
    %ty = pto.get_tid_y : i32
    %c3 = arith.constant 3 : i32
    %c10 = arith.constant 10 : i32
    %row = arith.muli %ty, %c3 : i32
    %lin = arith.addi %row, %tx : i32
    %i = arith.index_castui %lin : i32 to index
    %ten_y = arith.muli %ty, %c10 : i32
    %v = arith.addi %tx, %ten_y : i32
    pto.store %v, %gm[%i] : !pto.ptr<i32, gm>, i32`,
    );
    runMicroKernel(text, 'k', { gm: out });
    expect(values(out)).toEqual([0, 1, 2, 10, 11, 12]);
  });
});

describe('pto.section.simt', () => {
  it('runs its region as x*y*z threads, each with its own values, pto.syncthreads a barrier among them', () => {
    // As the launch test: each thread marks UB with 100 + tid, waits, then copies its right neighbour's mark.
    const out = i32s(4);
    const text = `module attributes {pto.target_arch = "a5", pto.kernel_kind = #pto.kernel_kind<vector>} {
  func.func @k(%gm: !pto.ptr<i32, gm>) attributes {pto.aicore} {
    %c0_i64 = arith.constant 0 : i64
    %ub = pto.castptr %c0_i64 : i64 -> !pto.ptr<i32, ub>
    pto.section.simt <<<4, 1, 1>>> {
      %tx = pto.get_tid_x : i32
      %c1 = arith.constant 1 : i32
      %c3 = arith.constant 3 : i32
      %c100 = arith.constant 100 : i32
      %me = arith.index_castui %tx : i32 to index
      %mark = arith.addi %tx, %c100 : i32
      pto.store %mark, %ub[%me] : !pto.ptr<i32, ub>, i32
      pto.syncthreads
      %next = arith.addi %tx, %c1 : i32
      %wrapped = arith.andi %next, %c3 : i32
      %n = arith.index_castui %wrapped : i32 to index
      %got = pto.load %ub[%n] : !pto.ptr<i32, ub> -> i32
      pto.store %got, %gm[%me] : !pto.ptr<i32, gm>, i32
    }
    return
  }
}`;
    runMicroKernel(text, 'k', { gm: out });
    expect(values(out)).toEqual([101, 102, 103, 100]);
  });
});

describe('pto.keep / pto.resume', () => {
  it('carries a value of each thread from one launch to the same thread of the next', () => {
    // Launch 1: thread t keeps 7 * t in slot 3 and an i64 t - 1 in slot 8; launch 2 resumes both and stores their
    // sum at gm[t]: 8t - 1.
    const out = i32s(4);
    const text = `module attributes {pto.target_arch = "a5", pto.kernel_kind = #pto.kernel_kind<vector>} {
  func.func @k(%gm: !pto.ptr<i32, gm>) attributes {pto.aicore} {
    %x = arith.constant 4 : i32
    %one = arith.constant 1 : i32
    pto.simt_launch @stage0<<<%x, %one, %one>>>() : () -> ()
    pto.simt_launch @stage1<<<%x, %one, %one>>>(%gm) : (!pto.ptr<i32, gm>) -> ()
    return
  }
  func.func @stage0() attributes {pto.simt_entry} {
    %tx = pto.get_tid_x : i32
    %c7 = arith.constant 7 : i32
    %c1 = arith.constant 1 : i64
    %v = arith.muli %tx, %c7 : i32
    %w0 = arith.extsi %tx : i32 to i64
    %w = arith.subi %w0, %c1 : i64
    pto.keep %v {slot = 3 : i64} : i32
    pto.keep %w {slot = 8 : i64} : i64
    return
  }
  func.func @stage1(%gm: !pto.ptr<i32, gm>) attributes {pto.simt_entry} {
    %v = pto.resume {slot = 3 : i64} : i32
    %w = pto.resume {slot = 8 : i64} : i64
    %tx = pto.get_tid_x : i32
    %w32 = arith.trunci %w : i64 to i32
    %s = arith.addi %v, %w32 : i32
    %i = arith.index_castui %tx : i32 to index
    pto.store %s, %gm[%i] : !pto.ptr<i32, gm>, i32
    return
  }
}`;
    runMicroKernel(text, 'k', { gm: out });
    expect(values(out)).toEqual([-1, 7, 15, 23]);
  });
});

describe('pto.simt_launch verification (PTOAS SimtLaunchOp::verify)', () => {
  const module = (fns: string) => `module attributes {pto.target_arch = "a5"} {\n${fns}\n}`;
  const errors = (text: string) => {
    return assemble('m.pto', text)
      .diags.sorted()
      .filter((d) => d.severity === 'error')
      .map((d) => `${d.code}: ${d.message}`);
  };
  const launch = (callee: string, args = '', types = '') =>
    `  func.func @k(%p: !pto.ptr<i32, ub>) {\n    %one = arith.constant 1 : i32\n    pto.simt_launch ${callee}<<<%one, %one, %one>>>(${args}) : (${types}) -> ()\n    return\n  }`;

  it('accepts a launch of a simt_entry function with matching operands', () => {
    expect(
      errors(module(`${launch('@b', '%p', '!pto.ptr<i32, ub>')}\n  func.func @b(%q: !pto.ptr<i32, ub>) attributes {pto.simt_entry} {\n    return\n  }`)),
    ).toEqual([]);
  });

  it('rejects a callee not marked pto.simt_entry, a wrong operand count or type, and a launch inside an entry', () => {
    expect(errors(module(`${launch('@b')}\n  func.func @b() {\n    return\n  }`))).toEqual([
      "E0451: pto.simt_launch: callee 'b' must be marked with 'pto.simt_entry'",
    ]);
    expect(errors(module(`${launch('@b')}\n  func.func @b(%q: !pto.ptr<i32, ub>) attributes {pto.simt_entry} {\n    return\n  }`))).toEqual([
      'E0451: pto.simt_launch: incorrect number of operands for callee',
    ]);
    expect(
      errors(module(`${launch('@b', '%p', '!pto.ptr<i32, ub>')}\n  func.func @b(%q: !pto.ptr<f32, ub>) attributes {pto.simt_entry} {\n    return\n  }`)),
    ).toEqual(['E0451: pto.simt_launch: operand type mismatch: expected operand type !pto.ptr<f32, ub>, but provided !pto.ptr<i32, ub> for operand number 0']);
    expect(errors(module(`${launch('@nope')}`))).toEqual(["E0451: pto.simt_launch: 'nope' does not reference a valid function"]);
    const inEntry = `  func.func @b() attributes {pto.simt_entry} {\n    %one = arith.constant 1 : i32\n    pto.simt_launch @b<<<%one, %one, %one>>>() : () -> ()\n    return\n  }`;
    const entry = (body: string) => `  func.func @b() attributes {pto.simt_entry} {\n${body}\n    return\n  }`;
    expect(errors(module(entry('    %w = arith.constant 1 : i64\n    pto.keep %w {slot = 7 : i64} : i64')))).toEqual([
      'E0451: pto.keep: requires an even slot for 64-bit keep/resume values',
    ]);
    expect(errors(module(entry('    %r = pto.resume {slot = 123 : i64} : i32')))).toEqual(['E0451: pto.resume: requires slot in range [0, 122]']);
    // PTO.cpp: the scope, the resume prologue, the keep epilogue, distinct slot words in a group.
    expect(errors(module('  func.func @n() {\n    pto.syncthreads\n    return\n  }'))).toEqual([
      "E0451: pto.syncthreads: must appear inside a function marked with 'pto.simt_entry' or inside pto.section.simt",
    ]);
    expect(errors(module(entry('    %c = arith.constant 1 : i32\n    %t = pto.get_tid_x : i32\n    %r = pto.resume {slot = 0 : i64} : i32')))).toEqual([
      'E0451: pto.resume: must be in the contiguous SIMT resume prologue group after constant-like operations',
    ]);
    expect(errors(module(entry('    %c = arith.constant 1 : i32\n    pto.keep %c {slot = 0 : i64} : i32\n    %t = pto.get_tid_x : i32')))[0]).toContain(
      "E0451: pto.keep: must be placed in the SIMT epilogue before func.return; only 'pto.syncthreads' may appear",
    );
    expect(
      errors(
        module(
          entry(
            '    %c = arith.constant 1 : i64\n    %d = arith.constant 2 : i32\n    pto.keep %c {slot = 4 : i64} : i64\n    pto.keep %d {slot = 5 : i64} : i32\n    pto.syncthreads',
          ),
        ),
      ),
    ).toEqual(['E0451: pto.keep: duplicates an earlier slot 5 in the SIMT keep epilogue group']);
    expect(errors(module(entry('    %v = arith.constant 7 : i32\n    %r = pto.shuffle_idx %v, %v {width = 24 : i32} : i32, i32 -> i32')))).toEqual([
      'E0451: pto.shuffle_idx: requires width to be 16 or 32',
    ]);
    expect(errors(module('  func.func @s() {\n    pto.section.simt <<<64, 64, 1>>> {\n      pto.syncthreads\n    }\n    return\n  }'))[0]).toContain(
      'pto.section.simt: SIMT launch dimensions must have a positive product no greater than 2048, got (64, 64, 1)',
    );
    expect(errors(module(inEntry))).toEqual([
      "E0451: pto.simt_launch: must not appear inside a function marked with 'pto.simt_entry'; launch the SIMT entry from an outer non-simt function",
    ]);
  });
});
