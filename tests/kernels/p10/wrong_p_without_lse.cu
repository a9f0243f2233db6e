// expect: failed
// expect-diagnosis: p_without_lse
// expect-sim-cases: 1x1x1x64_causal
// Wrong: P = exp(scale q.k) without subtracting lse: the scores are never normalized by the softmax's
// denominator, so every gradient is off by the row factor exp(lse_i) (or overflows where scores are large).
// mutant-of: solutions/10_flash_backward_bf16/1_clear.cu
// replace: exp2f(s[j][e] * scale_log2 - lse_tile[row]);
// with: exp2f(s[j][e] * scale_log2);
