// expect: failed
// expect-sim-diagnosis: sim_shared_race
// expect-sim-cases: 384x128x192
// Wrong: the barrier at the end of each k step is gone, so a fast warp issues step t + 1's cp.async into
// the stage that slower warps are still reading with ldmatrix: the copy overwrites their tile. A copy is
// in flight from its issue, so the simulator reports the issue as a write that races with those reads.
// mutant-of: solutions/08_swizzled_gemm/1_clear.cu
// replace:     __syncthreads();  // 5. Every warp is done with this stage before step t + 1 refills it.
// with:     // (no barrier: step t + 1 refills the stage while other warps may still read it)
