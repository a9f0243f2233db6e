// Puzzle 6 · Flash-attention backward — version 4: tensor cores at fp32 accuracy (3xTF32).
// Over 3_d128_tiles.cu: up to d = 64, the five products run on the tensor cores with mma.sync m16n8k8 in
// tf32, each operand split in two tf32 values and each product summed from three mma, for fp32's accuracy
// (puzzle 5's three_tf32.cuh says how; torch's fp32 SDPA backward does the same): a warp per 16 keys, the
// products taken keys first so that P^T and dS^T feed the mma from registers (tensor_cores_3xtf32.cuh says
// each step). Steps 1 and 2 (dq = 0, D) are register_tiles.cuh's; d = 128 keeps version 3's kernel: this
// layout, one block of 4 warps an SM there, ran at 57-59% of its speed.
// The spec is in the stub, 06_flash_backward.cu; the walk-through is the puzzle's docs page.
#include "d128_tiles.cuh"
#include "tensor_cores_3xtf32.cuh"

void flash_bwd(const float* q, const float* k, const float* v, const float* o, const float* lse,
               const float* dout, float* dq, float* dk, float* dv, int bh, int n_q, int n_k, int d,
               float scale, bool causal) {
  flash_bwd_steps(
      q, k, v, o, lse, dout, dq, dk, dv, bh, n_q, n_k, d, scale, causal, [&](const BackwardArgs& args) {
        if (d == 128) {  // version 3's kernel: this one, 1 block of 4 warps an SM there, is slower
          launch_main<d128::Tiles>(d128::flash_bwd_kernel, args, bh);
        } else {
          tensor_cores::launch_up_to_64(args, bh, d);
        }
      });
}
