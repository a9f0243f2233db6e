// expect: failed
// expect-diagnosis: dk_scale_missing
// expect-sim-cases: 1x17x17x64_causal
// Wrong: dK written without its factor scale (dK = scale dS^T Q: the scores were scale Q K^T). dQ keeps
// its scale (applied in dq_kernel) and dV has none to lose, so dK alone is off, by the factor 1 / scale.
// mutant-of: solutions/10_flash_backward_bf16/1_clear.cu
// replace: __floats2bfloat162_rn(scale * dk_acc[n][2 * r], scale * dk_acc[n][2 * r + 1]);
// with: __floats2bfloat162_rn(dk_acc[n][2 * r], dk_acc[n][2 * r + 1]);
