/** The runtime ops of src/ops/structure/runtime.ts: here pto.fusion_region, as PTOAS's FusionRegionOp::verify checks it. */
import { assemble } from '../../../src/verify/assemble';
import { formatAll } from '../../../src/diag/diagnostic';

const errorsOf = (body: string[]) =>
  formatAll(assemble('f.pto', ['module {', '  func.func @f() {', ...body.map((l) => '    ' + l), '    return', '  }', '}', ''].join('\n')).diags);

test('a fusion region yields its results', () => {
  expect(errorsOf(['%c = arith.constant 1 : index', '%0 = pto.fusion_region {', '  pto.yield(%c) : (index) -> ()', '} : index'])).toBe('');
});

test('its body block takes no arguments (test/lit/tile_fusion/fusion_region_verify_block_args.pto)', () => {
  const errors = errorsOf(['%0 = pto.fusion_region {', '^bb0(%arg0: index):', '  pto.yield(%arg0) : (index) -> ()', '} : index']);
  expect(errors).toContain("f.pto:4:10: error[E0408]: pto.fusion_region's body block takes no arguments, got 1");
  expect(errors.match(/error/g)).toHaveLength(1);
});
