// Puzzle 12 · Flash attention forward on Hopper — version 3: each warp group overlaps its own softmax too.
// Over 2_pingpong.cu: a consumer issues tile t's S = Q K^T and tile t - 1's O += P V together, in one
// turn, and runs tile t's softmax while O += P V still runs (FlashAttention-3's intra-warpgroup overlap):
//   - wgmma_wait<1>() waits for S(t) only (the older group), leaving P V (t - 1) in flight;
//   - the exponentials of tile t are computed in place in S's registers; P(t - 1), which the running wgmma
//     reads, is overwritten (packed from tile t) and O rescaled only after wgmma_wait<0>();
//   - one turn per tile instead of two: half the handshakes between the two warp groups;
//   - a stage goes back to the producer once P V of its tile is done, one turn later than in version 2:
//     3 stages at d = 128 (224 KiB of shared memory) instead of 2, so that the next tile's load does not
//     wait for it;
//   - a second wait on tile t's stage between its softmax and wgmma_wait<0>(). It returns at once (the
//     phase is complete), but ptxas does not move code across a loop: without it, the scheduler moved the
//     wait for P V (t - 1) above the softmax (to pack P early) and the overlap was lost.
#include <cuda.h>
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include <cstdint>

#include "../common/flash_hopper.cuh"

namespace {

using namespace flash;

template <int D>
constexpr int kIntraStages = D == 64 ? 4 : 3;

template <int D>
__global__ void __launch_bounds__(kThreads, 1)
    flash_fwd_intra_overlap(const __grid_constant__ CUtensorMap q_map,
                            const __grid_constant__ CUtensorMap k_map,
                            const __grid_constant__ CUtensorMap v_map, __nv_bfloat16* o, float* lse, int n_q,
                            int n_k, float scale, bool causal) {
  extern __shared__ uint8_t shared_bytes[];
  constexpr int kStages = kIntraStages<D>;
  Shared<D, kStages>& s = shared_of<D, kStages>(shared_bytes);
  const int head = blockIdx.y, row0 = block_row0(causal), tiles = key_tiles(row0, n_q, n_k, causal);
  if (!start_block(s, &q_map, &k_map, &v_map, head, row0, tiles)) return;  // the producer's work is done
  Consumer me = consumer_of(s.turn, row0);
  const float scale_log2 = scale * 1.4426950408889634f;  // exp(x) = exp2(x log2(e))
  float o_acc[D / 2] = {};
  RowState state;
  mbarrier_wait(&s.q_full, 0);
  float s_acc[kBN / 2];
  uint32_t p[kBN / 16][4];
  // The two products, each a wgmma group; a turn issues S(t), then P V (t - 1).
  const auto issue_s = [&](int t) {
    const int stage = t % kStages;
    mbarrier_wait(&s.full[stage], (t / kStages) % 2);
    me.turns.wait();
    wgmma_fence();
    for (int kk = 0; kk < D; kk += 16)
      wgmma_ss<kBN>(s_acc, q_descriptor(s, me.group, kk), k_descriptor(s, stage, kk), kk > 0);
    wgmma_commit();
  };
  const auto issue_pv = [&](int t) {
    for (int kk = 0; kk < kBN / 16; ++kk)
      wgmma_rs<D, true>(o_acc, p[kk], v_descriptor(s, t % kStages, kk * 16), true);
    wgmma_commit();
    me.turns.pass();
  };
  // Once P V (t) is done, its stage goes back to the producer.
  const auto release = [&](int t) {
    if (threadIdx.x % 32 == 0) mbarrier_arrive(&s.empty[t % kStages]);
  };

  if (tiles > 0) {  // tile 0: S and its softmax alone, no P V before them
    issue_s(0);
    me.turns.pass();
    wgmma_wait<0>();
    softmax_tile(s_acc, state, me, 0, n_q, n_k, causal, scale_log2);
    pack_p(p, s_acc);
  }
  for (int t = 1; t < tiles; ++t) {
    issue_s(t);
    issue_pv(t - 1);
    // Tile t's softmax while P V (t - 1) runs; then O's rescale and P(t), once that product is done.
    wgmma_wait<1>();
    softmax_tile(s_acc, state, me, t * kBN, n_q, n_k, causal, scale_log2);
    mbarrier_wait(&s.full[t % kStages], (t / kStages) % 2);  // complete: a loop that keeps the wait below
    wgmma_wait<0>();
    release(t - 1);
    rescale(o_acc, state);
    pack_p(p, s_acc);
  }
  if (tiles > 0) {  // the last tile's P V, in a turn of its own
    me.turns.wait();
    wgmma_fence();
    issue_pv(tiles - 1);
    wgmma_wait<0>();
    release(tiles - 1);
  }
  store_rows<D>(o_acc, state, me, o, lse, head, n_q, scale);
}

}  // namespace

void flash_fwd_hopper(const __nv_bfloat16* q, const __nv_bfloat16* k, const __nv_bfloat16* v,
                      __nv_bfloat16* o, float* lse, int bh, int n_q, int n_k, int d, float scale,
                      bool causal) {
  if (d == 64)
    launch<64, kIntraStages<64>>(flash_fwd_intra_overlap<64>, q, k, v, o, lse, bh, n_q, n_k, scale, causal);
  else
    launch<128, kIntraStages<128>>(flash_fwd_intra_overlap<128>, q, k, v, o, lse, bh, n_q, n_k, scale,
                                   causal);
}
