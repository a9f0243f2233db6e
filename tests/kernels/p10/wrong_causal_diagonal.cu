// expect: failed
// expect-diagnosis: causal_mask_shifted
// expect-sim-cases: 1x1x1x64_causal
// Wrong: the causal mask also hides the key on the diagonal itself (>= where > belongs): each query loses
// the last key it sees, in every gradient.
// mutant-of: solutions/10_flash_backward_bf16/1_clear.cu
// replace: const bool masked = key >= n_k || (causal && key > query + diagonal);
// with: const bool masked = key >= n_k || (causal && key >= query + diagonal);
