// expect: failed
// expect-diagnosis: lse_unscaled_max
// expect-sim-cases: 1x17x17x64_causal
// Wrong: lse from the row max m as the kernel keeps it, in raw units of q . k (the scale is folded into
// exp2's argument), without multiplying it by scale log2(e) first. o is right.
// mutant-of: solutions/09_flash_forward_bf16/1_clear.cu
// replace: kLn2 * (m[r] * scale_log2 + log2f(l[r]))
// with: kLn2 * (m[r] + log2f(l[r]))
