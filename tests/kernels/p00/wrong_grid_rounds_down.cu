// expect: failed
// expect-diagnosis: grid_too_small
// expect-sim-cases: 257 1000
// Wrong: the grid is n / 256 blocks, rounded down: the elements of the last, partial chunk get no thread
// (and n < 256 launches no block at all, which CUDA refuses).
// mutant-of: solutions/00_map_and_sum/1_clear.cu
// replace: const int blocks = (n + kBlock - 1) / kBlock;
// with: const int blocks = n / kBlock;
