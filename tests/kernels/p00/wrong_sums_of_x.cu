// expect: failed
// expect-diagnosis: sums_of_x
// expect-sim-cases: 1000
// Wrong: the block adds the inputs x instead of the values it computed, exp(x).
// mutant-of: solutions/00_map_and_sum/1_clear.cu
// replace: part[t] = value;
// with: part[t] = i < n ? x[i] : 0.0f;
