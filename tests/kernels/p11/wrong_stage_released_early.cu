// expect: failed
// expect-sim-diagnosis: sim_wgmma_operand_overwritten
// expect-sim-cases: 128x128x512
// backends: sim
// mutant-of: solutions/11_wgmma_gemm/2_two_consumer_warpgroups.cu
// replace:     wgmma_wait<1>();  // step t - 1's wgmma are done: its stage goes back to the producer
// with:     wgmma_wait<2>();  // step t - 1's wgmma may still run: its stage goes back too early
// Wrong: the wait leaves two groups in flight, so stage t - 1 is handed back while its wgmma may still read
// it, and the producer's next copy into it races with that read. A GPU usually finishes the wgmma before the
// copy lands and passes; the simulator reports the overwrite of operands still being read.
