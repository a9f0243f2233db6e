// Puzzle 12 · Flash attention forward on Hopper — version 2: two consumer warp groups in ping-pong.
// Over 1_clear.cu:
//   - a block takes 128 query rows: two consumer warp groups of 64 rows each share every K and V tile, so
//     K and V are read from global memory half as often;
//   - the two take turns at the tensor cores (two mbarriers, `turn`): while one issues its S = Q K^T or
//     O += P V, the other runs its softmax, so the exponentials of one hide behind the products of the other
//     (FlashAttention-3's ping-pong; it uses named barriers, the same handshake);
//   - the producer is a whole warp group that gives its registers to the consumers (setmaxnreg: 24 for the
//     producer, 240 for each consumer);
//   - causal blocks are launched longest first;
//   - d = 64 keeps 4 stages (144 KiB of shared memory), d = 128 two (160 KiB).
// The shared pieces (producer, softmax, epilogue) are in solutions/common/flash_hopper.cuh.
#include <cuda.h>
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include <cstdint>

#include "../common/flash_hopper.cuh"

namespace {

using namespace flash;

template <int D>
__global__ void __launch_bounds__(kThreads, 1)
    flash_fwd_pingpong(const __grid_constant__ CUtensorMap q_map, const __grid_constant__ CUtensorMap k_map,
                       const __grid_constant__ CUtensorMap v_map, __nv_bfloat16* o, float* lse, int n_q,
                       int n_k, float scale, bool causal) {
  extern __shared__ uint8_t shared_bytes[];
  Shared<D>& s = shared_of<D>(shared_bytes);
  constexpr int kStages = Shared<D>::kStages;
  const int head = blockIdx.y, row0 = block_row0(causal), tiles = key_tiles(row0, n_q, n_k, causal);
  if (!start_block(s, &q_map, &k_map, &v_map, head, row0, tiles)) return;  // the producer's work is done
  Consumer me = consumer_of(s.turn, row0);
  const float scale_log2 = scale * 1.4426950408889634f;  // exp(x) = exp2(x log2(e))
  float o_acc[D / 2] = {};
  RowState state;
  mbarrier_wait(&s.q_full, 0);
  for (int t = 0; t < tiles; ++t) {
    const int stage = t % kStages;
    mbarrier_wait(&s.full[stage], (t / kStages) % 2);

    // S = Q K^T in this consumer's turn; its softmax runs while the other consumer has the tensor cores.
    float s_acc[kBN / 2];
    me.turns.wait();
    wgmma_fence();
    for (int kk = 0; kk < D; kk += 16)
      wgmma_ss<kBN>(s_acc, q_descriptor(s, me.group, kk), k_descriptor(s, stage, kk), kk > 0);
    wgmma_commit();
    me.turns.pass();
    wgmma_wait<0>();
    softmax_tile(s_acc, state, me, t * kBN, n_q, n_k, causal, scale_log2);
    rescale(o_acc, state);
    uint32_t p[kBN / 16][4];
    pack_p(p, s_acc);

    // O += P V in the next turn.
    me.turns.wait();
    wgmma_fence();
    for (int kk = 0; kk < kBN / 16; ++kk)
      wgmma_rs<D, true>(o_acc, p[kk], v_descriptor(s, stage, kk * 16), true);
    wgmma_commit();
    me.turns.pass();
    wgmma_wait<0>();
    if (threadIdx.x % 32 == 0) mbarrier_arrive(&s.empty[stage]);
  }
  store_rows<D>(o_acc, state, me, o, lse, head, n_q, scale);
}

}  // namespace

void flash_fwd_hopper(const __nv_bfloat16* q, const __nv_bfloat16* k, const __nv_bfloat16* v,
                      __nv_bfloat16* o, float* lse, int bh, int n_q, int n_k, int d, float scale,
                      bool causal) {
  if (d == 64)
    launch<64>(flash_fwd_pingpong<64>, q, k, v, o, lse, bh, n_q, n_k, scale, causal);
  else
    launch<128>(flash_fwd_pingpong<128>, q, k, v, o, lse, bh, n_q, n_k, scale, causal);
}
