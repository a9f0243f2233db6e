// expect: failed
// expect-diagnosis: quad_sums_differ
// expect-sim-cases: 1x1x1x64_causal 1x17x17x64
// Wrong: the final quad sum of l takes its second partner 4 lanes away (a lane of the next row group)
// instead of 2: each lane ends with its own wrong l, half its row's and half another row's, and divides
// its columns of o by it.
// mutant-of: solutions/09_flash_forward_bf16/1_clear.cu
// replace: l[r] += __shfl_xor_sync(0xffffffffu, l[r], 2);
// with: l[r] += __shfl_xor_sync(0xffffffffu, l[r], 4);
