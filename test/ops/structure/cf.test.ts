import { assemble } from '../../../src/verify/assemble';
import { formatAll } from '../../../src/diag/diagnostic';
import { runFunction, Value } from '../../../src/vm/interpreter';
import { GlobalBuffer } from '../../../src/machine/memory';

/** The errors of a program (`CODE message`). */
function errors(text: string): string[] {
  return assemble('t.pto', text, { target: 'a2a3' })
    .diags.items.filter((d) => d.severity === 'error')
    .map((d) => `${d.code} ${d.message}`);
}

/** Runs @k with an i32 buffer %out of four elements and the given scalar arguments; returns %out. */
function run(text: string, scalars: Record<string, bigint> = {}): number[] {
  const asm = assemble('t.pto', text, { target: 'a2a3' });
  if (asm.diags.hasErrors()) throw new Error(formatAll(asm.diags));
  const out = new GlobalBuffer('out', 'i32', new Uint8Array(16));
  const args = new Map<string, Value>([['%out', out]]);
  for (const [name, v] of Object.entries(scalars)) args.set('%' + name, v);
  runFunction(asm.program, asm.types, asm.program.functions.get('k')!, args, { numerics: 'npu', maxSteps: 1000 });
  return [...new Int32Array(out.bytes.buffer.slice(0))];
}

const diamond = `module {
  func.func @k(%out: !pto.ptr<i32>, %cond: i1, %lhs: i32, %rhs: i32) {
    %c0 = arith.constant 0 : index
    cf.cond_br %cond, ^add, ^sub
  ^add:
    %sum = arith.addi %lhs, %rhs : i32
    cf.br ^join(%sum : i32)
  ^sub:
    %diff = arith.subi %lhs, %rhs : i32
    cf.br ^join(%diff : i32)
  ^join(%merged: i32):
    %twice = arith.addi %merged, %merged : i32
    pto.store_scalar %twice, %out[%c0] : !pto.ptr<i32>, i32
    return
  }
}`;

describe('cf.br and cf.cond_br', () => {
  it('a diamond: the taken arm hands its value to the join block', () => {
    // (5 + 3) * 2 = 16; (5 - 3) * 2 = 4
    expect(run(diamond, { cond: 1n, lhs: 5n, rhs: 3n })).toEqual([16, 0, 0, 0]);
    expect(run(diamond, { cond: 0n, lhs: 5n, rhs: 3n })).toEqual([4, 0, 0, 0]);
  });

  it('a loop of blocks: the header carries the counter and the sum', () => {
    // 0 + 1 + 2 + 3 = 6, stored at index 1
    const text = `module {
  func.func @k(%out: !pto.ptr<i32>) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c4 = arith.constant 4 : i32
    cf.br ^head(%c0, %c0 : i32, i32)
  ^head(%i: i32, %acc: i32):
    %more = arith.cmpi slt, %i, %c4 : i32
    cf.cond_br %more, ^body, ^exit
  ^body:
    %next = arith.addi %acc, %i : i32
    %inc = arith.addi %i, %c1 : i32
    cf.br ^head(%inc, %next : i32, i32)
  ^exit:
    %at = arith.constant 1 : index
    pto.store_scalar %acc, %out[%at] : !pto.ptr<i32>, i32
    return
  }
}`;
    expect(run(text)).toEqual([0, 6, 0, 0]);
  });

  it('a value is visible only in the blocks its block dominates', () => {
    const text = diamond.replace('%twice = arith.addi %merged, %merged', '%twice = arith.addi %merged, %sum');
    expect(errors(text)).toEqual(['E0302 %sum is not visible here (defined in a region that does not enclose this use)']);
  });

  it('rejects a branch to a block the region does not have, at the successor', () => {
    const text = diamond.replace('cf.br ^join(%diff : i32)', 'cf.br ^joint(%diff : i32)');
    expect(errors(text)).toEqual(['E0430 cf.br: no block ^joint in this region']);
  });

  it('rejects a branch that hands a block the wrong arguments', () => {
    expect(errors(diamond.replace('cf.br ^join(%diff : i32)', 'cf.br ^join'))).toEqual(['E0430 cf.br: ^join takes 1 argument(s), but the branch hands it 0']);
    const text = diamond
      .replace('%c0 = arith.constant 0 : index', '%c0 = arith.constant 0 : index\n    %z = arith.constant 0 : i64')
      .replace('cf.br ^join(%diff : i32)', 'cf.br ^join(%z : i64)');
    expect(errors(text)).toEqual(['E0430 cf.br: argument 0 of ^join is i32, but the branch hands it i64']);
  });

  it('rejects a condition that is not i1', () => {
    expect(errors(diamond.replace('cf.cond_br %cond,', 'cf.cond_br %lhs,'))).toEqual(['E0430 cf.cond_br condition must be i1']);
  });

  it('every block of a function ends with a terminator', () => {
    const text = diamond.replace('    cf.br ^join(%diff : i32)\n', '');
    expect(errors(text)).toEqual([expect.stringMatching(/^E0305 function @k must end with 'return'$/)]);
  });
});

describe('scf.execute_region', () => {
  it('runs its region once and yields its results, through blocks of its own', () => {
    // cond ? 7 : 9
    const text = `module {
  func.func @k(%out: !pto.ptr<i32>, %cond: i1) {
    %c2 = arith.constant 2 : index
    %r = scf.execute_region -> i32 {
      cf.cond_br %cond, ^seven, ^nine
    ^seven:
      %a = arith.constant 7 : i32
      scf.yield %a : i32
    ^nine:
      %b = arith.constant 9 : i32
      scf.yield %b : i32
    }
    pto.store_scalar %r, %out[%c2] : !pto.ptr<i32>, i32
    return
  }
}`;
    expect(run(text, { cond: 1n })).toEqual([0, 0, 7, 0]);
    expect(run(text, { cond: 0n })).toEqual([0, 0, 9, 0]);
  });

  it('rejects a yield of another type than its result', () => {
    const text = `module {
  func.func @k() {
    %r = scf.execute_region -> i32 {
      %a = arith.constant 7 : i64
      scf.yield %a : i64
    }
    return
  }
}`;
    expect(errors(text)).toEqual(["E0402 yielded value 0 has type i64, but 'scf.execute_region' expects i32"]);
  });
});
