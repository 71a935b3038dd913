/**
 * What PTOAS's board harness generator (test/npu_validation/scripts/generate_testcase.py) fixes per case instead of
 * deriving it: scalar argument values and output buffers for named test cases. These are facts about the upstream
 * harness (a case's golden script builds its data for these values), restated as data; keys are the generator's
 * argument names (`v1` is the kernel's first argument).
 */

type Values = Record<string, number>;

/** Values for every case of a name, whatever its sample folder. */
const CASE_SCALARS: Record<string, Values> = {
  ...Object.fromEntries(
    [
      'attention_csa_test_refresh_incore_81',
      'attention_hca_test_incore_54',
      'attention_swa_test_incore_40',
      'decode_csa_test_incore_81',
      'decode_hca_test_incore_54',
      'decode_swa_test_incore_40',
      'sparse_attn_test_incore_7',
    ].map((c) => [c, { v4: 0, v5: 32 }]),
  ),
  hc_head_reduce: { v9: 0, v10: 1 },
  hc_post: { v6: 8, v7: 8, v8: 0, v9: 1 },
  qr_hadamard_quant: { v4: 0, v5: 1 },
  rms_norm: { v4: 0, v5: 1 },
  swa_gather_kv: { v4: 1, v5: 0, v6: 1 },
  // Qwen3 decode: the first batch/block/pair, one context block.
  down_proj_residual: { v6: 0, v7: 0 },
  gate_proj: { v4: 0, v5: 0, v6: 0 },
  kv_proj: { v6: 0, v7: 0 },
  online_softmax: { v6: 0 },
  out_proj_residual: { v6: 0, v7: 0 },
  q_proj: { v4: 0, v5: 0 },
  qk_matmul: { v4: 0, v6: 0 },
  rope_kv_cache: { v11: 0, v12: 1 },
  silu: { v4: 0, v5: 0, v6: 0 },
  softmax: { v7: 0, v8: 0 },
  sv_matmul: { v5: 0, v6: 0 },
  up_proj: { v4: 0, v5: 0, v6: 0 },
};

/** Values for a case of a sample folder (lower-cased); they take precedence over CASE_SCALARS. */
const SAMPLE_SCALARS: Record<string, Record<string, Values>> = {
  qwen3_14bdecodea3: {
    k_proj: { v4: 0, v5: 0, v6: 1 },
    v_proj: { v4: 0, v5: 0, v6: 1 },
    q_proj: { v4: 0, v5: 0, v6: 1 },
    down_proj: { v4: 0, v5: 0, v6: 0 },
    out_proj: { v4: 0, v5: 0, v6: 0 },
  },
  qwen3_14bprefilla3: {
    gate_up_proj: { v6: 0, v7: 0, v8: 0, v9: 128, v10: 5120, v11: 0, v12: 1 },
    kv_proj: { v6: 0, v7: 5120, v8: 0, v9: 1 },
    out_proj_aic: { v4: 0, v5: 5120, v6: 0, v7: 1 },
    q_proj: { v4: 0, v5: 5120, v6: 0, v7: 1 },
    lm_head: { v4: 1, v5: 1, v6: 0, v7: 1 },
    qk_pv_skew_probe: { v9: 0, v10: 0, v11: 1, v12: 0, v13: 0, v14: 0, v15: 1, v16: 128, v17: 0, v18: 1 },
    qk_pv_online_phase: { v9: 1, v10: 0, v11: 0, v12: 1, v13: 0, v14: 0, v15: 0, v16: 0, v17: 1, v18: 128, v19: 0, v20: 1 },
  },
  deepseekv4decodea3: {
    qk_pv: { v8: 0, v9: 1 },
    score: { v11: 1, v12: 0, v13: 1 },
    gate: { v7: 0, v8: 1 },
  },
  deepseekv4decodea5: {
    idx_qr_proj_matmul: { v4: 0, v5: 1 },
    kv_proj_matmul: { v6: 16, v7: 16, v8: 0, v9: 1 },
  },
  deepseekv4prodecodea5: {
    idx_qr_proj_matmul: { v4: 0, v5: 1 },
    kv_score_proj: { v8: 0, v9: 1 },
  },
  deepseekv4flashdsparka5: {
    kv_proj_matmul: { v8: 0, v9: 1 },
    qproj_matmul: { v6: 0, v7: 1 },
    qr_proj_matmul: { v8: 0, v9: 1 },
    lm_head_combine_gather: { v4: 0, v5: 1 },
    rmsnorm_rope: { v7: 0, v8: 1 },
  },
};

/** Output buffers the harness pins for a case of a sample folder (its writer scan would pick another). */
const SAMPLE_OUTPUTS: Record<string, Record<string, string[]>> = {
  tpipe: { a3_pipe_roundtrip: ['v2'] },
  deepseekv4decodea5: { kv_proj_matmul: ['v1'] },
  deepseekv4flashdsparka5: { kv_proj_matmul: ['v1'], qr_proj_matmul: ['v1'] },
};

/** Cases whose integer scalars are all 0 (a row offset, for a single-block run). */
const ZERO_INTEGER_SCALAR_CASES = new Set(['rmsnorm_incore_0', 'decode_projection_incore_0']);

/** The value the harness gives integer scalar `name` of case `testcase` in sample folder `sample`; 1 by default. */
export function integerScalarValue(sample: string, testcase: string, name: string): number {
  if (ZERO_INTEGER_SCALAR_CASES.has(testcase)) return 0;
  return SAMPLE_SCALARS[sample.toLowerCase()]?.[testcase]?.[name] ?? CASE_SCALARS[testcase]?.[name] ?? 1;
}

/** The outputs the harness pins for the case, if it does. */
export function pinnedOutputs(sample: string, testcase: string): string[] | undefined {
  return SAMPLE_OUTPUTS[sample.toLowerCase()]?.[testcase];
}

/** The harness launches one block, except for the inter-core sync cases that read the block index (two). */
export function launchBlocks(testcase: string, readsBlockIndex: boolean): number {
  return testcase.startsWith('test_intercore_sync_') && readsBlockIndex ? 2 : 1;
}

/**
 * Cases whose own golden script the harness does not use on A3 boards (its UNSTABLE_A3_CUSTOM_GOLDEN_CASES): there
 * it checks the board against its simulator instead, which the VM stands in for, so these cases check nothing more
 * than that the kernel runs (their golden script still writes the inputs).
 */
const UNSTABLE_ON_A3 = new Set(['abs', 'partmin', 'prelu', 'rowexpanddiv', 'rowexpandmul', 'rowexpandsub', 'scatter', 'sel', 'sels', 'sub', 'xor']);

/** Whether the harness checks the case against its own golden script's expected outputs on this target. */
export function usesCaseGolden(testcase: string, target: 'a2a3' | 'a5'): boolean {
  return !(target === 'a2a3' && UNSTABLE_ON_A3.has(testcase.toLowerCase()));
}

/**
 * Cases PTOAS's board runner (run_remote_npu_validation.sh) does not run, with its reason: limits of the board's
 * runtime path or harness, not of the kernel. The VM runs them all; a report names the board's reason beside the
 * VM's verdict. Keys: `<sample folder>/<case>`, `*` for any folder (`qwen*`: folders starting with qwen).
 */
const BOARD_SKIPS: [RegExp, string][] = [
  [/^[^/]*\/async_comm$/, 'async remote DMA on plain local buffers faults on a single-rank board run'],
  [/^DeepseekV4DecodeA3\/hc_head_reduce$/, 'A3 legacy EmitC dynamic-stride MTE runtime incompatibility'],
  [
    /^DeepseekV4DecodeA3\/(qr_hadamard_quant|rope_interleave|rmsnorm_rope_cache_write|rmsnorm_rope|rope_cs|swa_cache_insert_valid_bias)$/,
    'A3 level2 implicit-tmp fallback cannot preserve explicit UB address aliases',
  ],
  [/^DeepseekV4ProDecodeA5\/rmsnorm_rope$/, 'A5 single-row 1024-element index TGATHER runtime incompatibility'],
  [/^qwen[^/]*\/out_proj_residual$/i, 'legacy EmitC mixed C2V runtime incompatibility'],
  [/^qwen[^/]*\/down_proj_residual$/i, 'legacy EmitC Qwen down-projection C2V runtime incompatibility'],
  [/^[^/]*\/(moe_signal_clear|lm_head_signal_clear)$/, 'legacy EmitC partition-tensor CMO host-compile incompatibility'],
];

/** Why the board runner does not run a case, if it does not; `usesComm`: the kernel talks to other ranks. */
export function boardSkipReason(sample: string, testcase: string, usesComm: boolean): string | undefined {
  const id = `${sample}/${testcase}`;
  const listed = BOARD_SKIPS.find(([pattern]) => pattern.test(id));
  if (listed) return listed[1];
  return usesComm ? 'requires multi-card communication harness' : undefined;
}
