/**
 * pto-infer-vpto-vecscope (src/micro/passes/vecscope-inference.ts): what PTOAS's PTOInferVPTOVecScope.cpp rejects,
 * read from its code. Vector ops outside any pto.vecscope are wrapped per run between boundaries (barrier, call,
 * explicit scope, an op with memory effects, control flow holding a boundary; mem_bar is not one). A vector value
 * used in another run is cloned there when its producer chain reads no memory (pset, vdup, vadd of those), else
 * rejected at the producer; a use inside a boundary op (an explicit scope) has no run to clone into. Each case has one
 * escaping value: with two, which one PTOAS names depends on the order of a pointer set.
 */
import { assemble } from '../../../src/verify/assemble';

/** Line 1 the module, 2 the function, 3 `%c0`, 4 the first line of `body`; columns are the op name's. */
function errors(body: string): string[] {
  const text = `module attributes {pto.target_arch = "a5", pto.kernel_kind = #pto.kernel_kind<vector>} {
  func.func @k(%p: !pto.ptr<f32, ub>, %s: f32) {
    %c0 = arith.constant 0 : index
${body}
    return
  }
}
`;
  const r = assemble('t.pto', text, { passes: ['pto-infer-vpto-vecscope'] });
  return r.diags
    .sorted()
    .filter((d) => d.severity === 'error')
    .map((d) => {
      const at = r.source.position(d.span.start);
      return `${d.code} ${at.line}:${at.col}`;
    });
}

const VLDS = (v: string) => `    ${v} = pto.vlds %p[%c0] : !pto.ptr<f32, ub> -> !pto.vreg<64xf32>`;
const PSET = (m: string) => `    ${m} = pto.pset_b32 "PAT_ALL" : !pto.mask<b32>`;
const VSTS = (v: string, m: string) => `    pto.vsts ${v}, %p[%c0], ${m} : !pto.vreg<64xf32>, !pto.ptr<f32, ub>, !pto.mask<b32>`;
const BARRIER = '    pto.barrier #pto.pipe<PIPE_ALL>';

test('a loaded register used past a barrier is rejected at its load; a mask (pset reads no memory) is made again', () => {
  expect(errors([VLDS('%v'), BARRIER, PSET('%m'), VSTS('%v', '%m')].join('\n'))).toEqual(['E0484 4:10']);
  expect(errors([PSET('%m'), VLDS('%v'), VSTS('%v', '%m'), BARRIER, VLDS('%w'), VSTS('%w', '%m')].join('\n'))).toEqual([]);
  // Without the barrier the four ops are one scope.
  expect(errors([VLDS('%v'), PSET('%m'), VSTS('%v', '%m')].join('\n'))).toEqual([]);
});

test('a pure producer is cloned only if its register operands are: vdup of a mask yes, vadds of a load no (reported at vadds)', () => {
  const vdup = '    %d = pto.vdup %s, %m : f32, !pto.mask<b32> -> !pto.vreg<64xf32>';
  expect(errors([PSET('%m'), vdup, VSTS('%d', '%m'), BARRIER, VSTS('%d', '%m')].join('\n'))).toEqual([]);
  const vadds = '    %a = pto.vadds %v, %s, %m : !pto.vreg<64xf32>, f32, !pto.mask<b32> -> !pto.vreg<64xf32>';
  expect(errors([PSET('%m'), VLDS('%v'), vadds, BARRIER, PSET('%n'), VSTS('%a', '%n')].join('\n'))).toEqual(['E0484 6:10']);
});

test('pto.mem_bar needs a vector scope: it does not end one', () => {
  const vadds = '    %a = pto.vadds %v, %s, %m : !pto.vreg<64xf32>, f32, !pto.mask<b32> -> !pto.vreg<64xf32>';
  expect(errors([PSET('%m'), VLDS('%v'), '    pto.mem_bar "VST_VLD"', vadds, VSTS('%a', '%m')].join('\n'))).toEqual([]);
});

test('sync and DMA-like ops with effects end a scope: set_flag between a load and its store', () => {
  const flag = '    pto.set_flag[<PIPE_V>, <PIPE_MTE3>, <EVENT_ID0>]';
  expect(errors([VLDS('%v'), flag, PSET('%m'), VSTS('%v', '%m')].join('\n'))).toEqual(['E0484 4:10']);
});

test('a register used inside an explicit pto.vecscope: no inferred scope can hold the clone, even of a mask', () => {
  expect(errors([VLDS('%v'), `    pto.vecscope {\n  ${PSET('%m')}\n  ${VSTS('%v', '%m')}\n    }`].join('\n'))).toEqual(['E0484 4:10']);
  expect(errors([PSET('%m'), `    pto.vecscope {\n  ${VLDS('%v')}\n  ${VSTS('%v', '%m')}\n    }`].join('\n'))).toEqual(['E0484 4:10']);
  expect(errors([`    pto.vecscope {\n  ${VLDS('%v')}\n  ${PSET('%m')}\n  ${VSTS('%v', '%m')}\n    }`].join('\n'))).toEqual([]);
});

test('the inference leaves explicit scopes alone (vecscopeInference explicit-scope): a scalar load inside one ends no run', () => {
  // Outside any scope the scalar load (a pointer in, a scalar out) ends the run: the loaded register escapes it.
  const LOAD = '    %x = pto.load %p[%c0] : !pto.ptr<f32, ub> -> f32';
  expect(errors([VLDS('%v'), LOAD, PSET('%m'), VSTS('%v', '%m')].join('\n'))).toEqual(['E0484 4:10']);
  // PTOInferVPTOVecScope does not enter pto.vecscope or pto.strict_vecscope (isExplicitVectorScopeCarrier).
  expect(errors([`    pto.vecscope {\n  ${VLDS('%v')}\n  ${LOAD}\n  ${PSET('%m')}\n  ${VSTS('%v', '%m')}\n    }`].join('\n'))).toEqual([]);
  const strict = (body: string[]) =>
    `    pto.strict_vecscope(%p, %c0) {\n    ^bb0(%q: !pto.ptr<f32, ub>, %z: index):\n${body.map((l) => '  ' + l.replace(/%p\b/g, '%q').replace(/%c0\b/g, '%z')).join('\n')}\n    } : (!pto.ptr<f32, ub>, index) -> ()`;
  expect(errors([strict([VLDS('%v'), LOAD, PSET('%m'), VSTS('%v', '%m')])].join('\n'))).toEqual([]);
});

test('control flow: a loop of vector ops is one unit with what surrounds it; a loop holding a barrier is a boundary', () => {
  const loop = (inner: string) =>
    `    %c1 = arith.constant 1 : index\n    %c2 = arith.constant 2 : index\n    scf.for %i = %c0 to %c2 step %c1 {\n${inner}\n    }`;
  expect(errors([PSET('%m'), VLDS('%v'), loop(`  ${VSTS('%v', '%m')}`)].join('\n'))).toEqual([]);
  expect(errors([VLDS('%v'), loop(`  ${BARRIER}\n  ${PSET('%m')}\n  ${VSTS('%v', '%m')}`)].join('\n'))).toEqual(['E0484 4:10']);
});

test("ptoas's vpto back end runs the inference: a vpto module is checked without --passes, an emitc one is not", () => {
  const text = (backend: string) => `module attributes {pto.target_arch = "a5", pto.backend = "${backend}"} {
  func.func @k(%p: !pto.ptr<f32, ub>) {
    %c0 = arith.constant 0 : index
${VLDS('%v')}
${BARRIER}
${PSET('%m')}
${VSTS('%v', '%m')}
    return
  }
}
`;
  const codes = (backend: string) =>
    assemble('t.pto', text(backend))
      .diags.items.filter((d) => d.severity === 'error')
      .map((d) => d.code);
  expect(codes('vpto')).toEqual(['E0484']);
  expect(codes('emitc')).toEqual([]);
});
