// expect: failed
// expect-diagnosis: causal_off_by_one
// expect-sim-cases: 1x1x1x64_causal
// Wrong: the diagonal tile masks the key on the diagonal itself (>= where > belongs): each query misses
// the key it should see last.
// mutant-of: solutions/09_flash_forward_bf16/1_clear.cu
// replace: if (key >= n_k || (causal && key > row + diagonal)) s[j][e] = -INFINITY;
// with: if (key >= n_k || (causal && key >= row + diagonal)) s[j][e] = -INFINITY;
