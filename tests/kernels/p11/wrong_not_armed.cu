// expect: failed
// expect-gpu: timeout
// expect-sim-diagnosis: sim_mbarrier_tx_mismatch
// expect-sim-cases: 128x128x64 128x128x512
// mutant-of: solutions/11_wgmma_gemm/1_clear.cu
// replace:         mbarrier_arrive_expect_tx(&s.full[stage], kStageBytes);
// with:         mbarrier_arrive(&s.full[stage]);
// Wrong: the producer arrives on full[stage] without announcing the stage's bytes, so the phase completes on
// that arrival alone, before the copies land, and their bytes count against the next phase, which then never
// completes. A GPU reads stages too early and hangs at a stage's second use; the simulator names the barrier
// that holds bytes no expect_tx announced (with one step along k, at the end of the block).
