/**
 * Ops PTOAS's VPTO back end refuses (OpProperties.notInVptoBackend): the async SDMA session ops (PTOValidateVPTOIR:
 * "async SDMA session operations currently require the EmitC backend") and the high-level fence and CMO ops
 * (VPTOLLVMEmitter: lowered to pto.dcci / pto.dsb first). The back end is the command line's (`--pto-backend`), else
 * the module's `pto.backend`; under emitc they are accepted as before.
 */
import { assemble } from '../../src/verify/assemble';
import { formatAll } from '../../src/diag/diagnostic';
import { CodeBackend } from '../../src/ir/definition';

const withBackend = (backend: string, body: string) =>
  `module attributes {${backend ? `pto.backend = "${backend}", ` : ''}pto.target_arch = "a5"} {\n  func.func @k(%p: !pto.ptr<i8, gm>) {\n${body}\n    return\n  }\n}\n`;
const errors = (text: string, backend?: CodeBackend) =>
  formatAll(assemble('t.pto', text, { backend }).diags)
    .split('\n')
    .filter((l) => /error/.test(l));

const FENCE = '    pto.fence.barrier_all #pto.fence_scope<gm>';
const CMO = '    pto.cmo.cacheinvalid all #pto.address_space<gm>';

describe('ops the VPTO back end refuses', () => {
  test('a fence and a CMO op in a module the vpto back end compiles: E0309 at the op', () => {
    expect(errors(withBackend('vpto', FENCE))).toEqual([
      "t.pto:3:5: error[E0309]: 'pto.fence.barrier_all' is not supported by the VPTO backend: high-level CMO/fence ops must be lowered to `pto.dcci` or `pto.dsb` before VPTO LLVM lowering",
    ]);
    expect(errors(withBackend('vpto', CMO))).toHaveLength(1);
    expect(errors(withBackend('vpto', CMO))[0]).toMatch(/^t\.pto:3:5: error\[E0309\]: 'pto\.cmo\.cacheinvalid' is not supported/);
  });

  test('--pto-backend overrides the module: vpto refuses in an emitc module, emitc accepts in a vpto one', () => {
    expect(errors(withBackend('', FENCE))).toEqual([]);
    expect(errors(withBackend('emitc', FENCE), 'vpto')).toHaveLength(1);
    expect(errors(withBackend('vpto', FENCE), 'emitc')).toEqual([]);
  });

  test('the async session ops need the EmitC back end', () => {
    const session = [
      '    %s = pto.alloc_tile : !pto.tile_buf<vec, 1x256xi8>',
      '    %x = pto.comm.build_async_session(%s, %p : !pto.tile_buf<vec, 1x256xi8>, !pto.ptr<i8, gm>) -> !pto.async_session',
    ].join('\n');
    expect(errors(withBackend('emitc', session))).toEqual([]);
    expect(errors(withBackend('vpto', session))).toEqual([
      "t.pto:4:10: error[E0309]: 'pto.comm.build_async_session' is not supported by the VPTO backend: async SDMA session operations currently require the EmitC backend",
    ]);
  });
});
