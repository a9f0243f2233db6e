// expect: failed
// expect-sim-diagnosis: sim_wgmma_accumulator_pending
// expect-sim-cases: 128x128x64
// mutant-of: solutions/11_wgmma_gemm/2_two_consumer_warpgroups.cu
// replace:   wgmma_wait<0>();
// with:   // no final wgmma_wait<0>()
// Wrong: the last step's wgmma group is never waited for, so the epilogue reads accumulators that wgmma is
// still writing. On a GPU the compiler notices and waits itself (ptxas: "C7517 warpgroup.wait is injected
// ... to allow use of registers defined by GMMA"), so its values are right there; the PTX is still wrong, and
// another compiler need not rescue it. The simulator reports the read, with the wgmma it waits for, and a GPU
// check fails too: it takes the finding from the simulator cross-check it runs on the smallest cases.
