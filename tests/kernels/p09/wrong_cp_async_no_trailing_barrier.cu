// expect: failed
// expect-sim-diagnosis: sim_shared_race
// expect-sim-cases: 2x127x129x64
// Wrong: the barrier at the end of each key tile is gone, so a fast warp issues tile t + 2's cp.async
// into the stage that slower warps are still reading (K with ldmatrix, V for P V): the copy overwrites
// their tile. A copy is in flight from its issue, so the simulator reports the issue as a write that
// races with those reads.
// mutant-of: solutions/09_flash_forward_bf16/1_clear.cu
// replace:     __syncthreads();  // every warp is done with this stage before tile t + 2 refills it
// with:     // (no barrier: tile t + 2 refills the stage while other warps may still read it)
