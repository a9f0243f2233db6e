// expect: failed
// expect-sim-diagnosis: sim_global_oob_read sim_global_oob_write
// expect-sim-cases: 255
// Wrong: no bounds guard. The last block's threads past the end read x and write y beyond n: on a GPU
// those writes land in whatever follows y (here the checker's guard zone: out_of_bounds_write); the
// simulator names the line of the read past x and of the write past y.
// mutant-of: solutions/00_map_and_sum/1_clear.cu
// replace: if (i < n) {
// with: {
