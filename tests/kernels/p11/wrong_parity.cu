// expect: failed
// expect-gpu: crashed
// expect-sim-diagnosis: sim_mbarrier_deadlock
// expect-sim-cases: 128x128x512
// mutant-of: solutions/11_wgmma_gemm/1_clear.cu
// replace:           while (!mbarrier_try_wait(&s.empty[stage], (use - 1) % 2)) {
// with:           while (!mbarrier_try_wait(&s.empty[stage], use % 2)) {
// Wrong: the producer waits for the empty barrier's phase of its own use, not the one before. At the second
// pass that names a phase no consumer has started (a fresh barrier's "phase -1" passes at once), so the
// producer overwrites stages the consumers have not read and arrives on `full` barriers twice in a phase.
// An H200 stops the kernel ("unspecified launch failure", on the cases of more than 4 steps); the simulator
// stops the block and names each waiting thread's barrier, phase and parity.
