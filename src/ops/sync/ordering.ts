import { OpDefinition } from '../../ir/definition';
import { DeclaredOp, declaredDefinition, ptoEnum } from '../define/declared';

/**
 * Ordering and visibility of memory: a fence that orders a core's earlier memory accesses before its later ones
 * (`pto.fence.barrier_all #pto.fence_scope<gm>`), invalidating the data cache so that another core's writes to
 * global memory are seen (`pto.cmo.cacheinvalid`), and waiting for asynchronous tile work (`pto.tsync`). The VM
 * runs each core's ops in order against one memory with no cache, so all of them hold already: they run as no-ops.
 */

/** PTOAS's VPTO LLVM lowering (VPTOLLVMEmitter's LowerUnsupportedMemoryConsistencyOpPattern) stops on both. */
const VPTO_LOWERS_NO_FENCE = 'high-level CMO/fence ops must be lowered to `pto.dcci` or `pto.dsb` before VPTO LLVM lowering';

const ORDERING_OPS: DeclaredOp[] = [
  {
    name: 'pto.fence.barrier_all',
    syntax: 'FenceBody',
    properties: { notInVptoBackend: VPTO_LOWERS_NO_FENCE, delimitsVectorScope: true },
    attrs: [{ name: 'scope', type: ptoEnum('fence_scope', ['local_memory', 'gm', 'all']), required: true }],
    execute() {},
  },
  {
    name: 'pto.cmo.cacheinvalid',
    syntax: 'CacheInvalidBody',
    properties: { notInVptoBackend: VPTO_LOWERS_NO_FENCE, delimitsVectorScope: true },
    operands: [{ name: 'addr', is: ['ptr', 'tensor_view', 'partition_view'], optional: true, keyword: true }],
    attrs: [{ name: 'space', type: ptoEnum('address_space', ['gm', 'zero', 'vec', 'mat', 'left', 'right', 'acc', 'bias', 'scaling']) }],
    check(c) {
      const space = c.enumValue('space');
      if (space !== undefined && space !== 'gm' && space !== 'zero')
        c.error(c.binding.attrs.space.span, `pto.cmo.cacheinvalid invalidates the cache of global memory, not ${space}`);
      const addr = c.type('addr');
      if (addr?.kind === 'ptr' && addr.space !== 'gm') c.error(c.span('addr'), 'pto.cmo.cacheinvalid needs an address in global memory');
    },
    execute() {},
  },
  {
    name: 'pto.tsync',
    properties: { delimitsVectorScope: true },
    operands: [{ name: 'events', is: ['tile', 'tensor_view', 'partition_view'], variadic: true }],
    execute() {},
  },
];

export const ORDERING_DEFINITIONS: OpDefinition[] = ORDERING_OPS.map(declaredDefinition);
