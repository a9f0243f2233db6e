// expect: failed
// expect-gpu-diagnosis: dq_lost_updates
// expect-sim-diagnosis: sim_global_race
// Wrong: a data race. Each block adds its share of dQ into the fp32 accumulator with a plain +=: a load,
// an add, a store. Blocks of other keys load the same element between this block's load and store, and
// their shares are lost. The simulator names the race (global_race), whatever the values came out as.
// mutant-of: solutions/10_flash_backward_bf16/1_clear.cu
// replace: atomicAdd(&dq_accum[static_cast<size_t>(query) * D + col], acc[e / 4][e % 4]);
// with: dq_accum[static_cast<size_t>(query) * D + col] += acc[e / 4][e % 4];
