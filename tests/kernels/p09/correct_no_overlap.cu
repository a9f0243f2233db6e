// expect: passed
// Correct, written differently: the clear solution waiting for every copy before each tile (no double
// buffering: the next tile's copy no longer overlaps this tile's math). Slower, still right.
// mutant-of: solutions/09_flash_forward_bf16/1_clear.cu
// replace: cp_async_wait<1>();  // all but the newest group
// with: cp_async_wait<0>();  // every group
