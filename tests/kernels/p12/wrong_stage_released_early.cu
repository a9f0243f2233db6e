// expect: failed
// expect-diagnosis: sim_wgmma_operand_overwritten
// expect-gpu-diagnosis: sim_wgmma_accumulator_pending
// expect-sim-cases: 1x64x300x128
// mutant-of: solutions/12_flash_forward_hopper/1_clear.cu
// replace:     wgmma_wait_all();  // O += P V has read the stage's V: it may go back to the producer
// with:     // (no wait: the stage goes back while O += P V may still read its V)
// Wrong: each consumer warp hands its stage back as soon as O += P V is issued, not once it is done, so the
// producer's copy of tile t + 2 into that stage races with the wgmma still reading tile t's V (three key
// tiles: the first stage is reused). A GPU usually finishes the product before the copy lands and gets the
// right values; the simulator reports the overwrite of operands still being read, and the epilogue's read of
// O before its last product is waited for. On the GPU backend, the simulator's run of the small cases fails
// them with both findings (an H200 gave the right values on every case).
