// expect: failed
// expect-diagnosis: dq_lost_updates
// expect-sim-cases: 2x127x129x64_causal
// Wrong: each block stores its share of dQ into the fp32 accumulator with a plain store, as it does for its
// own dK and dV rows. But dq_i is a sum over every block of keys: the stores overwrite each other and one
// block's share is left. Right only where one block of 64 keys holds every key (n_k <= 64).
// mutant-of: solutions/10_flash_backward_bf16/1_clear.cu
// replace: atomicAdd(&dq_accum[static_cast<size_t>(query) * D + col], acc[e / 4][e % 4]);
// with: dq_accum[static_cast<size_t>(query) * D + col] = acc[e / 4][e % 4];
