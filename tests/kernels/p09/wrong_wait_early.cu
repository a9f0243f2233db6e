// expect: failed
// expect-sim-diagnosis: sim_async_copy_not_waited
// backends: sim
// expect-sim-cases: 2x127x129x64_causal
// Wrong: the wait before a tile is read lets two groups stay in flight: tile t itself may still be on its
// way. On a GPU a race that often goes unseen; the simulator tracks every pending cp.async and names the
// read.
// mutant-of: solutions/09_flash_forward_bf16/1_clear.cu
// replace: cp_async_wait<1>();  // all but the newest group
// with: cp_async_wait<2>();  // all but the newest group
