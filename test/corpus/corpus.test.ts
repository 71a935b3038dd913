/**
 * The PTOAS sample corpus (zhangstevenunity/PTOAS: test/samples/**\/*.pto, tools/ptobc/testdata/*.pto and
 * test/basic/*.mlir), read in place from PTO_CORPUS_DIR, an export of that repository; nothing of it is committed.
 *
 *   PTO_CORPUS_DIR=/path/to/PTOAS npx jest test/corpus
 *
 * Every file must assemble without errors (deprecated spellings are warnings), and its canonical form must
 * assemble again and be a fixed point. The files that do not assemble yet are listed below with the first error
 * they give and why: such a file must still give that error, so that fixing one shows here and the list shrinks.
 */
import * as fs from 'fs';
import * as path from 'path';
import { assemble } from '../../src/assemble';
import { formatAll } from '../../src/diag/diagnostic';
import { printCanonical } from '../../src/emit/canonical';

const root = process.env.PTO_CORPUS_DIR;

/** Corpus file (relative to the root) -> [the start of its first error, why it fails]. */
const NOT_YET: Record<string, [string, string]> = {
  'test/samples/Complex/5-post-insert-sync.pto': ['syntax error: unexpected \'a\'', 'affine.apply with an affine_map is not parsed yet'],
  'test/samples/Complex/mix_kernel.pto': ['syntax error: unexpected \'<\'', 'pto.sync.set/wait with a <PIPE> operand is not parsed yet'],
  'test/samples/DataMovement/5-post-insert-sync.pto': ['syntax error: unexpected \'a\'', 'affine.apply with an affine_map is not parsed yet'],
  'test/samples/Elementwise/5-post-insert-sync.pto': ['syntax error: unexpected \'a\'', 'affine.apply with an affine_map is not parsed yet'],
  'test/samples/MatMul/0.pto': ['shape has 2 entries, but the view has rank 1', 'a rank-1 !pto.tensor_view with two shape entries (older PTOAS output) is not accepted yet'],
  'test/samples/MatMul/tmatmulk.pto': ['shape has 2 entries, but the view has rank 1', 'a rank-1 !pto.tensor_view with two shape entries (older PTOAS output) is not accepted yet'],
  'test/samples/Matmul_transpose/Matmul_transpose-pto-ir.pto': ['syntax error: unexpected \'[\'', 'sync ops with bracketed operands (pto.get_buf[...], pto.record_event[...]) are not parsed yet'],
  'test/samples/Memory/5-post-insert-sync.pto': ['syntax error: unexpected \'a\'', 'affine.apply with an affine_map is not parsed yet'],
  'test/samples/Subset/Subset.pto': ['unknown blayout \'#pto.address_space<ub>\'', 'the legacy #pto.address_space<ub> tile spelling is not accepted yet'],
  'test/samples/Sync/test_a5_buf_sync.pto': ['syntax error: unexpected \'[\'', 'sync ops with bracketed operands (pto.get_buf[...], pto.record_event[...]) are not parsed yet'],
  'test/samples/Sync/test_inject_sync_intra_pipe_barrier.pto': ['syntax error: unexpected \'(\'', 'the memref form (memref.alloc, memref-typed tile operands) is not supported yet'],
  'test/samples/TileScalar/5-post-insert-sync.pto': ['syntax error: unexpected \'a\'', 'affine.apply with an affine_map is not parsed yet'],
  'tools/ptobc/testdata/matmul_static_singlecore.pto': ['syntax error: unexpected \'[\'', 'sync ops with bracketed operands (pto.get_buf[...], pto.record_event[...]) are not parsed yet'],
  'test/basic/plan_memory_bind_tile_alias_liveness.mlir': ['syntax error: unexpected \'(\'', 'the memref form (memref.alloc, memref-typed tile operands) is not supported yet'],
  'test/basic/plan_memory_for_iter_args_yield.mlir': ['syntax error: unexpected \'(\'', 'the memref form (memref.alloc, memref-typed tile operands) is not supported yet'],
  'test/basic/plan_memory_fragmentation_hole_fit.mlir': ['syntax error: unexpected \'(\'', 'the memref form (memref.alloc, memref-typed tile operands) is not supported yet'],
  'test/basic/plan_memory_fragmentation_two_holes.mlir': ['syntax error: unexpected \'(\'', 'the memref form (memref.alloc, memref-typed tile operands) is not supported yet'],
  'test/basic/plan_memory_if_in_loop.mlir': ['syntax error: unexpected \'(\'', 'the memref form (memref.alloc, memref-typed tile operands) is not supported yet'],
  'test/basic/plan_memory_if_yield.mlir': ['syntax error: unexpected \'(\'', 'the memref form (memref.alloc, memref-typed tile operands) is not supported yet'],
  'test/basic/plan_memory_loop_in_if.mlir': ['syntax error: unexpected \'(\'', 'the memref form (memref.alloc, memref-typed tile operands) is not supported yet'],
  'test/basic/plan_memory_loop_no_reuse_outer_live.mlir': ['syntax error: unexpected \'(\'', 'the memref form (memref.alloc, memref-typed tile operands) is not supported yet'],
  'test/basic/plan_memory_nested_loops.mlir': ['syntax error: unexpected \'(\'', 'the memref form (memref.alloc, memref-typed tile operands) is not supported yet'],
  'test/basic/plan_memory_no_reuse_overlap.mlir': ['syntax error: unexpected \'(\'', 'the memref form (memref.alloc, memref-typed tile operands) is not supported yet'],
  'test/basic/plan_memory_peak_8_overlapping.mlir': ['syntax error: unexpected \'(\'', 'the memref form (memref.alloc, memref-typed tile operands) is not supported yet'],
  'test/basic/plan_memory_peak_exact_capacity.mlir': ['syntax error: unexpected \'(\'', 'the memref form (memref.alloc, memref-typed tile operands) is not supported yet'],
  'test/basic/plan_memory_reuse_sequential.mlir': ['syntax error: unexpected \'(\'', 'the memref form (memref.alloc, memref-typed tile operands) is not supported yet'],
  'test/basic/record_wait_event.mlir': ['syntax error: unexpected \'[\'', 'sync ops with bracketed operands (pto.get_buf[...], pto.record_event[...]) are not parsed yet'],
};

function corpusFiles(dir: string): string[] {
  const under = (sub: string, ext: string) => {
    const base = path.join(dir, sub);
    if (!fs.existsSync(base)) return [];
    return fs
      .readdirSync(base, { recursive: true })
      .map(String)
      .filter((f) => f.endsWith(ext))
      .map((f) => path.join(sub, f));
  };
  return [...under('test/samples', '.pto'), ...under('tools/ptobc/testdata', '.pto'), ...under('test/basic', '.mlir')].sort();
}

if (!root) {
  test.skip('PTO_CORPUS_DIR is not set: export zhangstevenunity/PTOAS and point PTO_CORPUS_DIR at it to run the corpus', () => undefined);
} else {
  const files = corpusFiles(root);

  test('the corpus is there: 66 sample programs and 15 test/basic files', () => {
    expect(files.filter((f) => f.endsWith('.pto')).length).toBe(66);
    expect(files.filter((f) => f.endsWith('.mlir')).length).toBe(15);
  });

  describe.each(files)('%s', (file) => {
    const text = fs.readFileSync(path.join(root, file), 'utf8');
    const known = NOT_YET[file];
    if (known) {
      test(`does not assemble yet: ${known[1]}`, () => {
        const first = assemble(file, text).diags.sorted().find((d) => d.severity === 'error');
        expect(first?.message.startsWith(known[0])).toBe(true);
      });
      return;
    }
    test('assembles, and its canonical form assembles again and is a fixed point', () => {
      const original = assemble(file, text);
      expect(original.diags.hasErrors() ? formatAll(original.diags) : '').toBe('');
      const canonical = printCanonical(original.module, original.types);
      const again = assemble(file, canonical);
      expect(again.diags.hasErrors() ? formatAll(again.diags) : '').toBe('');
      expect(printCanonical(again.module, again.types)).toBe(canonical);
    });
  });
}
