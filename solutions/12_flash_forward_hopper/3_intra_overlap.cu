// Puzzle 12 · Flash attention forward on Hopper — version 3: each warp group overlaps its own softmax too.
// Changes over version 2: a consumer issues tile t's S = Q K^T and tile t - 1's O += P V together, in one
// turn, and runs tile t's softmax while O += P V still runs (FlashAttention-3's intra-warpgroup overlap):
//   - wgmma_wait<1>() waits for S(t) only (the older group), leaving P V (t - 1) in flight;
//   - the exponentials of tile t are computed in place in S's registers; P(t - 1), which the running wgmma
//     reads, is overwritten (packed from tile t) and O rescaled only after wgmma_wait<0>();
//   - one turn per tile instead of two: half the handshakes between the two warp groups.
// Stage t - 1 goes back to the producer once P V (t - 1) is done, so a stage is held a little longer.
#include <cuda.h>
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include <cstdint>

#include "../common/flash_hopper.cuh"

namespace {

using namespace flash;

template <int D>
__global__ void __launch_bounds__(kThreads, 1)
    flash_fwd_intra_overlap(const __grid_constant__ CUtensorMap q_map,
                            const __grid_constant__ CUtensorMap k_map,
                            const __grid_constant__ CUtensorMap v_map, __nv_bfloat16* o, float* lse, int n_q,
                            int n_k, float scale, bool causal) {
  extern __shared__ uint8_t shared_bytes[];
  Shared<D>& s = shared_of<D>(shared_bytes);
  constexpr int kStages = Shared<D>::kStages;
  const int head = blockIdx.y, row0 = block_row0(causal), tiles = key_tiles(row0, n_q, n_k, causal);
  if (threadIdx.x == 0) init_barriers(s);
  __syncthreads();

  if (threadIdx.x < 128) {  // the producer warp group
    setmaxnreg_dec<24>();
    if (threadIdx.x == 0) produce(s, &q_map, &k_map, &v_map, head, row0, tiles);
    return;
  }
  setmaxnreg_inc<240>();
  const Consumer me;
  const int rows = row0 + me.group * 64;  // this warp group's first row
  Turns turns{&s.turn[me.group], &s.turn[1 - me.group]};
  if (me.group == 1) turns.pass();  // consumer 0 goes first

  const float scale_log2 = scale * 1.4426950408889634f;  // exp(x) = exp2(x log2(e))
  float o_acc[D / 2] = {};
  RowState state;
  mbarrier_wait(&s.q_full, 0);
  float s_acc[kBN / 2];
  uint32_t p[kBN / 16][4];
  for (int t = 0; t < tiles; ++t) {
    const int stage = t % kStages, previous = (t + kStages - 1) % kStages;
    mbarrier_wait(&s.full[stage], (t / kStages) % 2);

    // In one turn: S(t) = Q K(t)^T, then O += P(t - 1) V(t - 1) (none before the first tile).
    turns.wait();
    wgmma_fence();
    for (int kk = 0; kk < D; kk += 16)
      wgmma_ss<kBN>(s_acc, q_descriptor(s, me.group, kk), k_descriptor(s, stage, kk), kk > 0);
    wgmma_commit();
    if (t > 0)
      for (int kk = 0; kk < kBN / 16; ++kk)
        wgmma_rs<D, true>(o_acc, p[kk], v_descriptor(s, previous, kk * 16), true);
    wgmma_commit();
    turns.pass();

    // Tile t's softmax while P V (t - 1) runs; then O's rescale and P(t), once that product is done.
    wgmma_wait<1>();
    softmax_tile(s_acc, state, me, rows, t * kBN, n_q, n_k, causal, scale_log2);
    wgmma_wait<0>();
    if (t > 0 && threadIdx.x % 32 == 0) mbarrier_arrive(&s.empty[previous]);
    rescale(o_acc, state);
    pack_p(p, s_acc);
  }
  // The last tile's O += P V.
  if (tiles > 0) {
    const int last = (tiles - 1) % kStages;
    turns.wait();
    wgmma_fence();
    for (int kk = 0; kk < kBN / 16; ++kk)
      wgmma_rs<D, true>(o_acc, p[kk], v_descriptor(s, last, kk * 16), true);
    wgmma_commit();
    turns.pass();
    wgmma_wait<0>();
    if (threadIdx.x % 32 == 0) mbarrier_arrive(&s.empty[last]);
  }
  store_rows<D>(o_acc, state, me, o, lse, head, rows, n_q, scale);
}

template <int D>
void launch(const __nv_bfloat16* q, const __nv_bfloat16* k, const __nv_bfloat16* v, __nv_bfloat16* o,
            float* lse, int bh, int n_q, int n_k, float scale, bool causal) {
  constexpr int bytes = kSharedBytes<D>;
  cudaFuncSetAttribute(flash_fwd_intra_overlap<D>, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes);
  const dim3 grid((n_q + kBM - 1) / kBM, bh);
  flash_fwd_intra_overlap<D><<<grid, kThreads, bytes>>>(
      tensor_map_3d_128b(q, bh, n_q, D, kBM), tensor_map_3d_128b(k, bh, n_k, D, kBN),
      tensor_map_3d_128b(v, bh, n_k, D, kBN), o, lse, n_q, n_k, scale, causal);
}

}  // namespace

void flash_fwd_hopper(const __nv_bfloat16* q, const __nv_bfloat16* k, const __nv_bfloat16* v,
                      __nv_bfloat16* o, float* lse, int bh, int n_q, int n_k, int d, float scale,
                      bool causal) {
  if (d == 64)
    launch<64>(q, k, v, o, lse, bh, n_q, n_k, scale, causal);
  else
    launch<128>(q, k, v, o, lse, bh, n_q, n_k, scale, causal);
}
