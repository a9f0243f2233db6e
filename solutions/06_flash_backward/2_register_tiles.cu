// Puzzle 6 · Flash-attention backward — version 2: register tiles.
// Over 1_clear.cu: blocks of 256 threads per 64 keys, each thread a 4 x 4 tile of S and dP in registers
// (16 FMAs per 8 floats read from shared memory, where a thread per key does about 1 per float), dK and
// dV for 4 keys x d/16 dims in registers, K, V, Q and dO tiles in padded shared rows read as float4,
// a warp per row for D. The same kernel at every d.
// The spec is in the stub, 06_flash_backward.cu; register_tiles.cuh says what each step does.
#include "register_tiles.cuh"

void flash_bwd(const float* q, const float* k, const float* v, const float* o, const float* lse,
               const float* dout, float* dq, float* dk, float* dv, int bh, int n_q, int n_k, int d,
               float scale, bool causal) {
  flash_bwd_steps(q, k, v, o, lse, dout, dq, dk, dv, bh, n_q, n_k, d, scale, causal,
                  [&](const BackwardArgs& args) { launch_register_tiles(args, bh, d); });
}
