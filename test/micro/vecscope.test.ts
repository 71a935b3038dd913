/**
 * pto.vecscope and pto.strict_vecscope (src/micro/run/vecscope.ts): VPTO.cpp's VecScopeOp and StrictVecScopeOp
 * verifiers (no synchronization inside; a strict scope's entry arguments one per capture, of its type) and a run of
 * a strict scope through its captures.
 */
import { GlobalBuffer } from '../../src/machine/memory';
import { opRegistry } from '../../src/ops/registry';
import { microErrors as errors, runMicroKernel } from '../fixtures/micro';

const BODY = `    ^bb0(%p: !pto.ptr<f32, ub>, %off: index, %s: f32):
      %all = pto.pset_b32 "PAT_ALL" : !pto.mask<b32>
      %v = pto.vlds %p[%off] : !pto.ptr<f32, ub> -> !pto.vreg<64xf32>
      %w = pto.vadds %v, %s, %all : !pto.vreg<64xf32>, f32, !pto.mask<b32> -> !pto.vreg<64xf32>
      pto.vsts %w, %p[%off], %all : !pto.vreg<64xf32>, !pto.ptr<f32, ub>, !pto.mask<b32>`;

test('verification: synchronization delimits vector scopes; a strict scope takes one argument per capture, of its type', () => {
  const params = '%ub: !pto.ptr<f32, ub>, %i: index, %x: f32';
  expect(errors('  pto.vecscope {\n    pto.mem_bar "VV_ALL"\n  }', params)).toEqual([]);
  expect(
    errors(
      '  pto.vecscope {\n    scf.if %c {\n      pto.barrier #pto.pipe<PIPE_V>\n    }\n  }'.replace(
        '  pto.vecscope',
        '  %c = arith.constant true\n  pto.vecscope',
      ),
      params,
    ),
  ).toEqual(["E0452: pto.barrier must be outside 'pto.vecscope'; synchronization operations delimit vector scopes"]);
  expect(errors(`  pto.strict_vecscope(%ub, %i, %x) {\n${BODY}\n  } : (!pto.ptr<f32, ub>, index, f32) -> ()`, params)).toEqual([]);
  expect(
    errors(`  pto.strict_vecscope(%ub, %i, %x) {\n${BODY.replace('%s: f32', '%s: f16')}\n  } : (!pto.ptr<f32, ub>, index, f32) -> ()`, params).filter((e) =>
      e.startsWith('E0451: pto.strict_vecscope'),
    ),
  ).toEqual(['E0451: pto.strict_vecscope: expects body block argument #2 to have type f32, got f16']);
  expect(
    errors(
      `  pto.strict_vecscope(%ub, %i, %x) {\n${BODY}\n    pto.wait_flag["PIPE_V", "PIPE_MTE3", "EVENT_ID0"]\n  } : (!pto.ptr<f32, ub>, index, f32) -> ()`,
      params,
    ),
  ).toEqual(["E0452: pto.wait_flag must be outside 'pto.strict_vecscope'; synchronization operations delimit vector scopes"]);
});

test('a strict scope runs its body with the captured values: x + 0.5 over the 64 f32 at the captured offset', () => {
  const kernel = `module attributes {pto.target_arch = "a5", pto.kernel_kind = #pto.kernel_kind<vector>} {
  func.func @k(%io: !pto.ptr<f32, gm>) attributes {pto.kernel} {
    %c0_i64 = arith.constant 0 : i64
    %c1_i64 = arith.constant 1 : i64
    %n = arith.constant 512 : i64
    %c64 = arith.constant 64 : index
    %half = arith.constant 0.5 : f32
    %ub = pto.castptr %c0_i64 : i64 -> !pto.ptr<f32, ub>
    pto.mte_gm_ub %io, %ub, %c0_i64, %n nburst(%c1_i64, %n, %n) : !pto.ptr<f32, gm>, !pto.ptr<f32, ub>, i64, i64, i64, i64, i64
    pto.set_flag["PIPE_MTE2", "PIPE_V", "EVENT_ID0"]
    pto.wait_flag["PIPE_MTE2", "PIPE_V", "EVENT_ID0"]
    pto.strict_vecscope(%ub, %c64, %half) {
${BODY}
    } : (!pto.ptr<f32, ub>, index, f32) -> ()
    pto.set_flag["PIPE_V", "PIPE_MTE3", "EVENT_ID0"]
    pto.wait_flag["PIPE_V", "PIPE_MTE3", "EVENT_ID0"]
    pto.mte_ub_gm %ub, %io, %n nburst(%c1_i64, %n, %n) : !pto.ptr<f32, ub>, !pto.ptr<f32, gm>, i64, i64, i64, i64
    return
  }
}
`;
  const x = Float32Array.from({ length: 128 }, (_, i) => i);
  const buffers = { io: new GlobalBuffer('io', 'f32', new Uint8Array(x.buffer.slice(0))) };
  runMicroKernel(kernel, 'k', buffers);
  // Elements 64..127 (the captured offset) gain 0.5; 0..63 are untouched.
  expect(Array.from(new Float32Array(buffers.io.bytes.buffer.slice(0)))).toEqual(Array.from({ length: 128 }, (_, i) => (i < 64 ? i : i + 0.5)));
});

test("the ops that delimit vector scopes are PTOAS's isForbiddenSynchronizationInsideVecScope list; pto.mem_bar is not", () => {
  // VPTO.cpp: RecordEvent, WaitEvent, BarrierSync; SetFlag, WaitFlag, SetFlagDyn, WaitFlagDyn, GetBuf, RlsBuf, Barrier;
  // SyncSet, SyncWait, CmoCacheInvalid, FenceBarrierAll, TSync, SyncAll, Dsb, Dcci, Syncthreads, Threadfence,
  // ThreadfenceBlock (GetBufDyn and RlsBufDyn too, which the toolchain does not define yet).
  const delimiting = [
    'pto.record_event',
    'pto.wait_event',
    'pto.barrier_sync',
    'pto.set_flag',
    'pto.wait_flag',
    'pto.set_flag_dyn',
    'pto.wait_flag_dyn',
    'pto.get_buf',
    'pto.rls_buf',
    'pto.barrier',
    'pto.sync.set',
    'pto.sync.wait',
    'pto.cmo.cacheinvalid',
    'pto.fence.barrier_all',
    'pto.tsync',
    'pto.syncall',
    'pto.dsb',
    'pto.dcci',
    'pto.syncthreads',
    'pto.threadfence',
    'pto.threadfence_block',
  ];
  const registry = opRegistry();
  const marked = registry.definitions.filter((d) => d.properties?.delimitsVectorScope).map((d) => d.name);
  expect(marked.sort()).toEqual([...delimiting].sort());
  expect(registry.lookup('pto.mem_bar')?.def.properties?.delimitsVectorScope).toBeUndefined();
  expect(errors('  pto.vecscope {\n    pto.syncthreads\n  }', '')).toContain(
    "E0452: pto.syncthreads must be outside 'pto.vecscope'; synchronization operations delimit vector scopes",
  );
});
