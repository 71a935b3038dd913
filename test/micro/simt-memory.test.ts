/**
 * The SIMT level's memory ops (docs/isa/micro-isa/17-simt.md): ldg/stg with cache controls, and the atomics, which
 * return the old element and write the new one, in GM (from the outer kernel too) and in UB (from the threads of a
 * launch); VPTO.cpp's rules for them. Values worked out by hand.
 */
import { GlobalBuffer } from '../../src/machine/memory';
import { assemble } from '../../src/verify/assemble';
import { runMicroKernel } from '../fixtures/micro';

const HEADER = 'module attributes {pto.target_arch = "a5", pto.kernel_kind = #pto.kernel_kind<vector>} {';
const i32s = (values: number[]) => new GlobalBuffer('gm', 'i32', new Uint8Array(Int32Array.from(values).buffer));
const read = (b: GlobalBuffer) => Array.from({ length: b.length }, (_, i) => Number(b.readElement(i)));

const errors = (fn: string) =>
  assemble('m.pto', `${HEADER}\n${fn}\n}`)
    .diags.sorted()
    .filter((d) => d.severity === 'error')
    .map((d) => `${d.code}: ${d.message}`);

describe('SIMT atomics', () => {
  it('update a GM element and return the old one, integers by their signedness', () => {
    // gm = [10, -1, 6, 12, 5, ...]: add 5 -> 15 (old 10); max unsigned of -1 and 7 keeps -1 (0xffffffff) (old -1);
    // min signed of 6 and -3 -> -3 (old 6); and 12 & 10 = 8 (old 12); cas 5 == 5 -> 9 (old 5). Olds at 8..12.
    const gm = i32s([10, -1, 6, 12, 5, 0, 0, 0, 0, 0, 0, 0, 0]);
    const text = `${HEADER}
  func.func @k(%gm: !pto.ptr<i32, gm>) attributes {pto.aicore} {
    %v5 = arith.constant 5 : i32
    %v7 = arith.constant 7 : i32
    %vm3 = arith.constant -3 : i32
    %v10 = arith.constant 10 : i32
    %v9 = arith.constant 9 : i32
${[0, 1, 2, 3, 4, 8, 9, 10, 11, 12].map((i) => `    %c${i} = arith.constant ${i} : index\n    %p${i} = pto.addptr %gm, %c${i} : !pto.ptr<i32, gm> -> !pto.ptr<i32, gm>`).join('\n')}
    %o0 = pto.atomic_add %p0, %v5 l2cache(nmfv) signed : !pto.ptr<i32, gm>, i32 -> i32
    %o1 = pto.atomic_max %p1, %v7 unsigned : !pto.ptr<i32, gm>, i32 -> i32
    %o2 = pto.atomic_min %p2, %vm3 signed : !pto.ptr<i32, gm>, i32 -> i32
    %o3 = pto.atomic_and %p3, %v10 l2cache(wtsred) unsigned : !pto.ptr<i32, gm>, i32 -> i32
    %o4 = pto.atomic_cas %p4, %v5, %v9 signed : !pto.ptr<i32, gm>, i32 -> i32
    pto.store %o0, %gm[%c8] : !pto.ptr<i32, gm>, i32
    pto.store %o1, %gm[%c9] : !pto.ptr<i32, gm>, i32
    pto.store %o2, %gm[%c10] : !pto.ptr<i32, gm>, i32
    pto.store %o3, %gm[%c11] : !pto.ptr<i32, gm>, i32
    pto.store %o4, %gm[%c12] : !pto.ptr<i32, gm>, i32
    return
  }
}`;
    runMicroKernel(text, 'k', { gm });
    expect(read(gm)).toEqual([15, -1, -3, 8, 9, 0, 0, 0, 10, -1, 6, 12, 5]);
  });

  it('serialize the threads of a launch: each gets the sum before it', () => {
    // 4 threads add tid + 1 to one UB word (0 at first, written by thread 0's store of 0 before the barrier): the
    // olds are 0, 1, 3, 6 in thread order and the word ends 10; ldg/stg move them to GM.
    const gm = i32s([0, 0, 0, 0, 0]);
    const text = `${HEADER}
  func.func @k(%gm: !pto.ptr<i32, gm>) attributes {pto.aicore} {
    %c0_i64 = arith.constant 0 : i64
    %ub = pto.castptr %c0_i64 : i64 -> !pto.ptr<i32, ub>
    %x = arith.constant 4 : i32
    %one = arith.constant 1 : i32
    pto.simt_launch @body<<<%x, %one, %one>>>(%gm, %ub) : (!pto.ptr<i32, gm>, !pto.ptr<i32, ub>) -> ()
    return
  }
  func.func @body(%gm: !pto.ptr<i32, gm>, %ub: !pto.ptr<i32, ub>) attributes {pto.simt_entry} {
    %tx = pto.get_tid_x : i32
    %c0 = arith.constant 0 : index
    %c4 = arith.constant 4 : index
    %z = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %is0 = arith.cmpi eq, %tx, %z : i32
    scf.if %is0 {
      pto.store %z, %ub[%c0] : !pto.ptr<i32, ub>, i32
    }
    pto.syncthreads
    %v = arith.addi %tx, %c1 : i32
    %old = pto.atomic_add %ub, %v signed : !pto.ptr<i32, ub>, i32 -> i32
    %i = arith.index_castui %tx : i32 to index
    pto.stg %old, %gm[%i] l1cache(uncache) : !pto.ptr<i32, gm>, i32
    pto.syncthreads
    scf.if %is0 {
      %sum = pto.load %ub[%c0] : !pto.ptr<i32, ub> -> i32
      pto.stg %sum, %gm[%c4] l1cache(cache) l2cache(nmfv) : !pto.ptr<i32, gm>, i32
    }
    return
  }
}`;
    runMicroKernel(text, 'k', { gm });
    expect(read(gm)).toEqual([0, 1, 3, 6, 10]);
  });

  it('f32 add rounds once; max of -0 and +0 is +0; cas compares bits', () => {
    // 1 + 2^-24 rounds to 1 (ties to even); max(-0, +0) = +0 (1 / x = +inf); cas of -0 against +0 does not swap.
    const gm = new GlobalBuffer('gm', 'f32', new Uint8Array(Float32Array.from([1, -0, -0, 0, 0, 0]).buffer));
    const text = `${HEADER}
  func.func @k(%gm: !pto.ptr<f32, gm>) attributes {pto.aicore} {
    %tiny = arith.constant 5.9604644775390625e-08 : f32
    %pz = arith.constant 0.0 : f32
    %seven = arith.constant 7.0 : f32
${[0, 1, 2, 3].map((i) => `    %c${i} = arith.constant ${i} : index\n    %p${i} = pto.addptr %gm, %c${i} : !pto.ptr<f32, gm> -> !pto.ptr<f32, gm>`).join('\n')}
    %o0 = pto.atomic_add %p0, %tiny : !pto.ptr<f32, gm>, f32 -> f32
    %o1 = pto.atomic_max %p1, %pz : !pto.ptr<f32, gm>, f32 -> f32
    %o2 = pto.atomic_cas %p2, %pz, %seven : !pto.ptr<f32, gm>, f32 -> f32
    pto.store %o0, %gm[%c3] : !pto.ptr<f32, gm>, f32
    return
  }
}`;
    runMicroKernel(text, 'k', { gm });
    const v = Array.from({ length: 4 }, (_, i) => gm.readElement(i) as number);
    expect(v[0]).toBe(1);
    expect(Object.is(v[1], 0)).toBe(true);
    expect(Object.is(v[2], -0)).toBe(true);
    expect(v[3]).toBe(1);
  });

  it('moves a UB pointer by pto.addptr in whole elements (as the simt-atomic-s-core kernel does)', () => {
    // %ub + 2 elements of i32 is byte 8: an atomic through it adds to the element %ub[2].
    const gm = i32s([0]);
    const text = `${HEADER}
  func.func @k(%gm: !pto.ptr<i32, gm>) attributes {pto.aicore} {
    %c0_i64 = arith.constant 0 : i64
    %c0 = arith.constant 0 : index
    %c2 = arith.constant 2 : index
    %v = arith.constant 40 : i32
    %w = arith.constant 2 : i32
    %ub = pto.castptr %c0_i64 : i64 -> !pto.ptr<i32, ub>
    pto.store %v, %ub[%c2] : !pto.ptr<i32, ub>, i32
    %p = pto.addptr %ub, %c2 : !pto.ptr<i32, ub> -> !pto.ptr<i32, ub>
    %old = pto.atomic_add %p, %w signed : !pto.ptr<i32, ub>, i32 -> i32
    %now = pto.load %ub[%c2] : !pto.ptr<i32, ub> -> i32
    %both = arith.addi %old, %now : i32
    pto.store %both, %gm[%c0] : !pto.ptr<i32, gm>, i32
    return
  }
}`;
    runMicroKernel(text, 'k', { gm });
    expect(read(gm)).toEqual([82]);
  });

  it('rejects what verifyAtomicCommon and the ldg/stg verifiers reject', () => {
    const fn = (params: string, body: string, attrs = 'pto.simt_entry') => `  func.func @f(${params}) attributes {${attrs}} {\n${body}\n    return\n  }`;
    expect(errors(fn('%p: !pto.ptr<f32, gm>, %v: f32', '    %o = pto.atomic_and %p, %v : !pto.ptr<f32, gm>, f32 -> f32'))).toEqual([
      'E0451: pto.atomic_and: requires integer type for bitwise atomics',
    ]);
    expect(errors(fn('%p: !pto.ptr<f32, gm>, %v: f32', '    %o = pto.atomic_add %p, %v signed : !pto.ptr<f32, gm>, f32 -> f32'))).toEqual([
      'E0451: pto.atomic_add: does not accept signedness for floating-point atomics',
    ]);
    expect(errors(fn('%p: !pto.ptr<i64, ub>, %v: i64', '    %o = pto.atomic_add %p, %v signed : !pto.ptr<i64, ub>, i64 -> i64'))).toEqual([
      'E0451: pto.atomic_add: does not support i64 UB-space atomics',
    ]);
    expect(errors(fn('%p: !pto.ptr<i32, gm>, %i: index', '    %v = pto.ldg %p[%i] : !pto.ptr<i32, gm> -> i32', 'pto.aicore'))).toEqual([
      'E0451: pto.ldg: must be inside a pto.simt_entry function or pto.section.simt',
    ]);
    expect(errors(fn('%p: !pto.ptr<i32, gm>, %i: index', '    %v = pto.load %p[%i] : !pto.ptr<i32, gm> -> f32'))).toEqual([
      'E0451: pto.load: expects load value type to match pointer element type',
    ]);
    expect(errors(fn('%p: !pto.ptr<i32, gm>, %i: index', '    %v = pto.ldg %p[%i] l2cache(nmred) : !pto.ptr<i32, gm> -> i32'))[0]).toContain(
      `'l2cache' must be one of nmfv`,
    );
  });
});

describe('pto.ld_dev / pto.st_dev', () => {
  it('read and write GM integers from an AICore entry', () => {
    const gm = i32s([41, 0]);
    const text = `${HEADER}
  func.func @k(%gm: !pto.ptr<i32, gm>) attributes {pto.aicore} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %one = arith.constant 1 : i32
    %v = pto.ld_dev %gm[%c0] : !pto.ptr<i32, gm> -> i32
    %w = arith.addi %v, %one : i32
    pto.st_dev %w, %gm[%c1] : !pto.ptr<i32, gm>, i32
    return
  }
}`;
    runMicroKernel(text, 'k', { gm });
    expect(read(gm)).toEqual([41, 42]);
  });

  it('are rejected in SIMT code, through UB, in a helper and with a cache policy (verifyLdStDevAccess)', () => {
    const fn = (attrs: string, params: string, body: string) =>
      `  func.func @f(${params})${attrs ? ` attributes {${attrs}}` : ''} {\n    %c0 = arith.constant 0 : index\n${body}\n    return\n  }`;
    expect(errors(fn('pto.simt_entry', '%gm: !pto.ptr<i32, gm>', '    %v = pto.ld_dev %gm[%c0] : !pto.ptr<i32, gm> -> i32'))).toEqual([
      'E0451: pto.ld_dev: must be outside pto.simt_entry functions and pto.section.simt',
    ]);
    expect(errors(fn('pto.aicore', '%ub: !pto.ptr<i32, ub>, %x: i32', '    pto.st_dev %x, %ub[%c0] : !pto.ptr<i32, ub>, i32'))).toEqual([
      'E0451: pto.st_dev: requires GM pointer',
    ]);
    expect(errors(fn('', '%gm: !pto.ptr<i32, gm>', '    %v = pto.ld_dev %gm[%c0] : !pto.ptr<i32, gm> -> i32'))).toEqual([
      'E0451: pto.ld_dev: requires an enclosing ordinary AICore entry function',
    ]);
    expect(
      errors(fn('pto.aicore', '%gm: !pto.ptr<i32, gm>', '    %v = pto.ld_dev %gm[%c0] {l1cache = #pto.l1cache<cache>} : !pto.ptr<i32, gm> -> i32')),
    ).toEqual(['E0451: pto.ld_dev: does not accept l1cache or l2cache policy attributes']);
  });
});
