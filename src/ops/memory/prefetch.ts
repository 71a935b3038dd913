import { OpDefinition } from '../../ir/definition';
import { printType } from '../../types/type';
import { DeclaredOp, declaredDefinition } from '../define/declared';
import { handle } from '../sync/comm-run';

/**
 * Asynchronous prefetching into the L2 cache (PTOAS's make_prefetch_async_context, tprefetch_async,
 * get_prefetch_async_session; pto-isa's TPREFETCH_ASYNC): a context built on a global i8 workspace, a prefetch of a
 * flat global view that gives an event, the context's session to wait on it with pto.comm.wait_async_event.
 * A prefetch changes no value (the VM has no cache): the VM completes it at once, and its event is complete.
 */
const PREFETCH_OPS: DeclaredOp[] = [
  {
    name: 'pto.make_prefetch_async_context',
    operands: [{ name: 'workspace', is: ['ptr'] }],
    results: [{ name: 'ctx', is: ['prefetch_async_context'], fixed: { kind: 'handle', handle: 'prefetch_async_context' } }],
    execute: (x, op) => x.setResults(op, [handle('prefetch_async_context')]),
    check(c) {
      const ws = c.type('workspace');
      if (ws?.kind === 'ptr' && ws.elem !== 'i8' && ws.elem !== 'u8')
        c.error(c.span('workspace'), `pto.make_prefetch_async_context expects the workspace to be a pointer to 8-bit integers, got ${printType(ws)}`);
    },
  },
  {
    name: 'pto.tprefetch_async',
    operands: [
      { name: 'src', is: ['partition_view', 'tensor_view'] },
      { name: 'ctx', is: ['prefetch_async_context'] },
    ],
    results: [{ name: 'event', is: ['async_event'], fixed: { kind: 'handle', handle: 'async_event' } }],
    execute: (x, op) => x.setResults(op, [handle('async_event', { complete: true })]),
    check(c) {
      // PTOAS: a static view whose dims before the last are 1 (one contiguous run of global memory).
      const src = c.type('src');
      if (src && (src.kind === 'partition_view' || src.kind === 'tensor_view')) {
        if (src.shape.some((d) => d === null) || src.shape.slice(0, -1).some((d) => d !== 1))
          c.error(c.span('src'), `pto.tprefetch_async expects src to be a static flat contiguous 1D view in global memory, got ${printType(src)}`);
      }
    },
  },
  {
    name: 'pto.get_prefetch_async_session',
    operands: [{ name: 'ctx', is: ['prefetch_async_context'] }],
    results: [{ name: 'session', is: ['async_session'], fixed: { kind: 'handle', handle: 'async_session' } }],
    execute: (x, op) => x.setResults(op, [handle('async_session')]),
  },
];

export const PREFETCH_DEFINITIONS: OpDefinition[] = PREFETCH_OPS.map(declaredDefinition);
