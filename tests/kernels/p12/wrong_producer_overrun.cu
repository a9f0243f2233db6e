// expect: failed
// expect-gpu: crashed
// expect-diagnosis: sim_mbarrier_deadlock
// expect-gpu-diagnosis: launch_error
// expect-sim-cases: 1x64x300x128
// mutant-of: solutions/12_flash_forward_hopper/1_clear.cu
// replace:         if (use > 0) mbarrier_wait(&s.empty[stage], (use - 1) % 2);
// with:         // (the producer does not wait for the stage to be empty)
// Wrong: the producer never waits on `empty`, so with three key tiles and two stages it arms full[0] for
// tile 2 while tile 0's phase is still open: the barrier completes two phases before the consumers wait for
// the first, they then wait for a phase of parity 0 that never comes again, and the block hangs. The
// simulator names the barrier, the parity and the phases it completed; an H200 ends every case of more
// than two key tiles with a launch failure, and the simulator's run of the small cases names the deadlock.
