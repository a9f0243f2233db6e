// Puzzle 6 · Flash-attention backward — version 3: 8 x 8 tiles at d = 128.
// Over 2_register_tiles.cu: at d = 128 a kernel whose threads hold 8 x 8 tiles (64 FMAs per 16 floats
// read from shared memory, where the 4 x 4 tiles leave the SM waiting on shared memory), the warps
// sharing each product between them, and the next Q and dO tiles prefetched into registers
// (d128_tiles.cuh). d = 16, 32 and 64 keep version 2's kernel.
// The spec is in the stub, 06_flash_backward.cu; the walk-through is the puzzle's docs page.
#include "d128_tiles.cuh"

void flash_bwd(const float* q, const float* k, const float* v, const float* o, const float* lse,
               const float* dout, float* dq, float* dk, float* dv, int bh, int n_q, int n_k, int d,
               float scale, bool causal) {
  flash_bwd_steps(q, k, v, o, lse, dout, dq, dk, dv, bh, n_q, n_k, d, scale, causal,
                  [&](const BackwardArgs& args) {
                    if (d == 128) {
                      launch_main<d128::Tiles>(d128::flash_bwd_kernel, args, bh);
                    } else {
                      launch_register_tiles(args, bh, d);
                    }
                  });
}
