// expect: failed
// expect-diagnosis: lse_wrong_base
// expect-sim-cases: 1x1x1x64_causal
// Wrong: the kernel works in exp2 and takes lse as it is, as if it were a base-2 logsumexp: it is the
// natural log, so it must be multiplied by log2(e) like the scores. P is off by 2^(lse (log2(e) - 1)).
// mutant-of: solutions/10_flash_backward_bf16/1_clear.cu
// replace: lse[i] * kLog2e : INFINITY
// with: lse[i] : INFINITY
