// expect: failed
// expect-diagnosis: dv_alone_wrong
// expect-sim-cases: 1x1x1x64_causal 1x17x17x64_causal
// Wrong: dV += P^T dO with dO's B fragments loaded by ldmatrix without .trans, as Q and dO are for S^T and
// dP^T. Those contract over d; this product contracts over the queries, and dO is stored [queries][d], so
// B's columns must be dO's columns: .trans, as V in puzzle 9's O += P V. Each 8 x 8 block of dO arrives
// transposed, and dV mixes queries and dimensions. dK takes the same path with .trans and is right; dQ too.
// mutant-of: solutions/10_flash_backward_bf16/1_clear.cu
// replace: ldmatrix_x4_trans(b, do_tile + row * kStride + col);
// with: ldmatrix_x4(b, do_tile + row * kStride + col);
