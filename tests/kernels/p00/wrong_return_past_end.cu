// expect: failed
// backends: sim
// expect-sim-diagnosis: sim_barrier_exit
// expect-sim-cases: 1
// Wrong: the threads past the end return at once, before the block's __syncthreads(): every thread of a
// block must reach each barrier, and their slots of part[] are never written. Guard the load and the
// store, not the whole thread.
// mutant-of: solutions/00_map_and_sum/1_clear.cu
// replace: float value = 0.0f;                     // past the end: adds nothing to the sum
// with: if (i >= n) return; float value = 0.0f;
