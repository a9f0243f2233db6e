// expect: failed
// backends: sim
// expect-sim-diagnosis: sim_shared_race
// expect-sim-cases: 256
// Wrong: no barrier between the steps of the tree: thread t may read part[t + stride] before the thread
// that owns it has added into it. On a GPU the sums are often right anyway (the warps happen to run in
// step), which is why the simulator, which orders the threads adversarially and tracks every shared
// access, is the one to ask; it names both lines of the race.
// mutant-of: solutions/00_map_and_sum/1_clear.cu
// replace: __syncthreads();  // this step's sums are written before the next step reads them
// with: // (no barrier between the steps)
