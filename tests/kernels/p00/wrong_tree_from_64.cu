// expect: failed
// expect-diagnosis: chunk_partly_summed
// expect-sim-cases: 1000
// Wrong: the tree starts at stride 64, as for a block of 128: it adds the first 128 values of each chunk
// and never the other 128.
// mutant-of: solutions/00_map_and_sum/1_clear.cu
// replace: for (int stride = kBlock / 2; stride > 0; stride /= 2) {
// with: for (int stride = kBlock / 4; stride > 0; stride /= 2) {
