/**
 * The scalar micro-ops of spec/micro/scalar.json: sbitset0/1 clear or set one bit of a 64-bit word (PTOAS's
 * fixpipe-acc-store-sat-f16-cv golden sets bit 48 of the CTRL word), and pto.dsb, a barrier the VM's in-order
 * accesses already satisfy; pto.dcci, cache maintenance, which a VM without a data cache runs as nothing (its
 * assembly writes the cache word right after the pointer, no comma: PTO.cpp's parseLegacyOrAttrDcciCacheLine).
 */
import { printCanonical } from '../../src/emit/canonical';
import { GlobalBuffer } from '../../src/machine/memory';
import { assemble } from '../../src/verify/assemble';
import { microErrors, runMicroKernel } from '../fixtures/micro';

const KERNEL = `module attributes {pto.target_arch = "a5"} {
  func.func @bits(%out: !pto.ptr<i64, gm>) attributes {pto.kernel_kind = #pto.kernel_kind<vector>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %zero = arith.constant 0 : i64
    %ones = arith.constant -1 : i64
    %b48 = arith.constant 48 : i64
    %b63 = arith.constant 63 : i64
    %set = pto.sbitset1 %zero, %b48 : i64, i64 -> i64
    %cleared = pto.sbitset0 %ones, %b63 : i64, i64 -> i64
    pto.dsb "ALL"
    pto.store_scalar %set, %out[%c0] : !pto.ptr<i64, gm>, i64
    pto.store_scalar %cleared, %out[%c1] : !pto.ptr<i64, gm>, i64
    return
  }
}
`;

test('sbitset1 sets a bit of 0, sbitset0 clears the sign bit of -1', () => {
  const out = new GlobalBuffer('out', 'i64', new Uint8Array(16));
  runMicroKernel(KERNEL, 'bits', { out });
  const words = new BigInt64Array(out.bytes.slice().buffer);
  expect(Array.from(words)).toEqual([2n ** 48n, 2n ** 63n - 1n]);
});

test('the operands are i64 and the barrier names a memory domain of mem_dsb_t', () => {
  expect(microErrors('    %w = pto.sbitset1 %a, %b : i32, i64 -> i64', '%a: i32, %b: i64')).toEqual([expect.stringMatching(/^E045\d: .*'first'.*i64/)]);
  expect(microErrors('    pto.dsb "L2"', '')).toEqual([expect.stringMatching(/^E045\d: .*L2/)]);
});

describe('pto.dcci', () => {
  const P = '%gm: !pto.ptr<i8, gm>, %ub: !pto.ptr<i8, ub>, %l1: !pto.ptr<i8, l1>';
  test('a gm or ub pointer, the cache word right after it, an optional destination after a comma; printed back as written', () => {
    const body = [
      '    pto.dcci %gm "SINGLE_CACHE_LINE" : !pto.ptr<i8, gm>',
      '    pto.dcci %gm "ENTIRE_DATA_CACHE", "CACHELINE_OUT" : !pto.ptr<i8, gm>',
      '    pto.dcci %ub "SINGLE_CACHE_LINE" : !pto.ptr<i8, ub>',
    ].join('\n');
    expect(microErrors(body, P)).toEqual([]);
    const a = assemble('m.pto', `func.func @k(${P}) {\n${body}\n  return\n}\n`);
    expect(printCanonical(a.module, a.types)).toContain(body.replace(/^ {4}/gm, '  '));
  });

  test('a comma before the cache word, an unknown word, another address space are errors', () => {
    expect(microErrors('    pto.dcci %gm, "SINGLE_CACHE_LINE" : !pto.ptr<i8, gm>', P)).toEqual([
      "E0450: pto.dcci writes 'cache' after the operand before it, without a comma; its format is 'ptr cache : ptr'",
    ]);
    expect(microErrors('    pto.dcci %gm "ENTIRE" : !pto.ptr<i8, gm>', P)).toEqual([
      'E0451: pto.dcci: \'cache\' must be one of SINGLE_CACHE_LINE, ENTIRE_DATA_CACHE, got "ENTIRE"',
    ]);
    expect(microErrors('    pto.dcci %l1 "SINGLE_CACHE_LINE" : !pto.ptr<i8, l1>', P)).toEqual([
      "E0451: pto.dcci: 'ptr' must point to gm or ub, got !pto.ptr<i8, l1>",
    ]);
  });

  test('runs as nothing: the bytes of GM stay as they are', () => {
    const gm = new GlobalBuffer(
      'gm',
      'i8',
      Uint8Array.from({ length: 64 }, (_, i) => i),
    );
    runMicroKernel(
      `module attributes {pto.target_arch = "a5"} {\n  func.func @k(%gm: !pto.ptr<i8, gm>) {\n    pto.dcci %gm "ENTIRE_DATA_CACHE", "CACHELINE_ALL" : !pto.ptr<i8, gm>\n    return\n  }\n}\n`,
      'k',
      { gm },
    );
    expect(Array.from(gm.bytes)).toEqual(Array.from({ length: 64 }, (_, i) => i));
  });
});
