/**
 * The scalar micro-ops of spec/micro/scalar.json: sbitset0/1 clear or set one bit of a 64-bit word (PTOAS's
 * fixpipe-acc-store-sat-f16-cv golden sets bit 48 of the CTRL word), and pto.dsb, a barrier the VM's in-order
 * accesses already satisfy.
 */
import { GlobalBuffer } from '../../src/machine/memory';
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
