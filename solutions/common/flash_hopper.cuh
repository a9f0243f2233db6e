// What puzzle 12's fast versions share: the block's shared memory, its producer warp group, the turns of
// the two consumer warp groups, and a consumer's online softmax and epilogue on wgmma's accumulator layout.
// The versions differ only in how a consumer orders its products and its softmax (their main loops).
// A block: 128 query rows of one head; warp group 0 the producer, warp groups 1 and 2 the consumers, each
// 64 of the rows; key tiles of 128.
#pragma once
#include <cmath>

#include "hopper_ptx.cuh"

namespace {
namespace flash {

constexpr int kBM = 128, kBN = 128, kThreads = 3 * 128;
// Stages of K and V by default: 4 at d = 64 (144 KiB of shared memory), 2 at d = 128 (160 KiB; 3 take 224
// of the 227 KiB a block may have).
constexpr int stages(int d) {
  return d == 64 ? 4 : 2;
}

template <int D, int S = stages(D)>
struct Shared {  // 1024-byte aligned: the 128B swizzle repeats every 8 rows of 128 bytes
  static constexpr int kStages = S;
  __nv_bfloat16 q[D / 64][kBM * 64];  // d = 128: two boxes of 64 columns, kBM rows each
  __nv_bfloat16 k[kStages][D / 64][kBN * 64];
  __nv_bfloat16 v[kStages][D / 64][kBN * 64];
  uint64_t q_full, full[kStages], empty[kStages];
  uint64_t turn[2];  // turn[g]: consumer g may issue its wgmma
};
template <int D, int S = stages(D)>
constexpr int kSharedBytes = sizeof(Shared<D, S>) + 1024;  // + room to align

template <int D, int S = stages(D)>
__device__ Shared<D, S>& shared_of(uint8_t* bytes) {
  return *reinterpret_cast<Shared<D, S>*>((reinterpret_cast<uintptr_t>(bytes) + 1023) & ~uintptr_t{1023});
}

// The key tiles the block's rows see: all of them, or (causal) up to the one holding the last row's last
// visible key. 0 when no row sees a key.
__device__ __forceinline__ int key_tiles(int row0, int n_q, int n_k, bool causal) {
  const int tiles = (n_k + kBN - 1) / kBN;
  if (!causal) return tiles;
  const int last_key = min(row0 + kBM, n_q) - 1 + n_k - n_q;
  return last_key < 0 ? 0 : min(tiles, last_key / kBN + 1);
}

// Causal blocks of late rows see more keys: start those first, so that the short ones fill the end.
__device__ __forceinline__ int block_row0(bool causal) {
  return (causal ? gridDim.x - 1 - blockIdx.x : blockIdx.x) * kBM;
}

// One thread: full[s] counts the producer's arrival and the stage's bytes, empty[s] one arrival per
// consumer warp (8), turn[g] one per warp of the other consumer (4).
template <int D, int S>
__device__ void init_barriers(Shared<D, S>& s) {
  mbarrier_init(&s.q_full, 1);
  for (int i = 0; i < S; ++i) {
    mbarrier_init(&s.full[i], 1);
    mbarrier_init(&s.empty[i], 8);
  }
  for (uint64_t& turn : s.turn) mbarrier_init(&turn, 4);
  fence_barrier_init();
}

// The producer (one thread): Q once, then K and V of tile t into stage t % kStages once both consumers
// are done with tile t - kStages.
template <int D, int S>
__device__ void produce(Shared<D, S>& s, const CUtensorMap* q_map, const CUtensorMap* k_map,
                        const CUtensorMap* v_map, int head, int row0, int tiles) {
  constexpr int kStages = S;
  mbarrier_arrive_expect_tx(&s.q_full, sizeof(s.q));
  for (int box = 0; box < D / 64; ++box) tma_load_3d(s.q[box], q_map, &s.q_full, box * 64, row0, head);
  for (int t = 0; t < tiles; ++t) {
    const int stage = t % kStages, use = t / kStages;
    if (use > 0) mbarrier_wait(&s.empty[stage], (use - 1) % 2);
    mbarrier_arrive_expect_tx(&s.full[stage], sizeof(s.k[0]) + sizeof(s.v[0]));
    for (int box = 0; box < D / 64; ++box) {
      tma_load_3d(s.k[stage][box], k_map, &s.full[stage], box * 64, t * kBN, head);
      tma_load_3d(s.v[stage][box], v_map, &s.full[stage], box * 64, t * kBN, head);
    }
  }
}

// The two consumers take turns at the tensor cores: one issues its wgmma while the other runs its softmax.
struct Turns {
  uint64_t* mine;
  uint64_t* other;
  int taken = 0;
  __device__ void wait() { mbarrier_wait(mine, taken++ % 2); }
  __device__ void pass() const {
    if (threadIdx.x % 32 == 0) mbarrier_arrive(other);
  }
};

// A consumer thread: it holds rows r and r + 8 of its warp group's 64, which start at row0, in quad
// `quad`. Consumer 1 starts by handing the first turn to consumer 0.
struct Consumer {
  int group, r, quad, row0;
  Turns turns;
};
__device__ __forceinline__ Consumer consumer_of(uint64_t (&turn)[2], int block_row0) {
  const int t = threadIdx.x, group = t / 128 - 1;
  Consumer me{group,
              t % 128 / 32 * 16 + t % 32 / 4,
              t % 4,
              block_row0 + group * 64,
              {&turn[group], &turn[1 - group]}};
  if (group == 1) me.turns.pass();
  return me;
}

// What every version's block does first: one thread sets up the barriers; the producer warp group gives
// its registers away and its first thread does all the loading; the consumers take the registers. True
// for a consumer thread.
template <int D, int S>
__device__ __forceinline__ bool start_block(Shared<D, S>& s, const CUtensorMap* q_map,
                                            const CUtensorMap* k_map, const CUtensorMap* v_map, int head,
                                            int row0, int tiles) {
  if (threadIdx.x == 0) init_barriers(s);
  __syncthreads();
  if (threadIdx.x < 128) {
    setmaxnreg_dec<24>();
    if (threadIdx.x == 0) produce(s, q_map, k_map, v_map, head, row0, tiles);
    return false;
  }
  setmaxnreg_inc<240>();
  return true;
}

// The descriptors of one 16-wide slice: Q's (this consumer's 64 rows) and K's along d, V's along keys.
template <int D, int S>
__device__ __forceinline__ uint64_t q_descriptor(Shared<D, S>& s, int group, int kk) {
  return smem_descriptor(&s.q[kk / 64][group * 64 * 64 + kk % 64]);
}
template <int D, int S>
__device__ __forceinline__ uint64_t k_descriptor(Shared<D, S>& s, int stage, int kk) {
  return smem_descriptor(&s.k[stage][kk / 64][kk % 64]);
}
template <int D, int S>
__device__ __forceinline__ uint64_t v_descriptor(Shared<D, S>& s, int stage, int kk) {
  return smem_descriptor_mn_major(&s.v[stage][0][kk * 64], sizeof(s.v[0][0]));
}

// The running max m and sum l of the thread's two rows, and the factor by which the last tile rescaled them.
struct RowState {
  float m[2] = {-INFINITY, -INFINITY}, l[2] = {0, 0}, correction[2] = {1, 1};
};

// Scores -> probabilities in place, for a 64 x 128 tile of S whose first key is key0: masks keys past n_k
// and (causal) above the diagonal, updates m and l, keeps the rescale factor of O in state.correction.
__device__ __forceinline__ void softmax_tile(float (&s_acc)[kBN / 2], RowState& state, const Consumer& me,
                                             int key0, int n_q, int n_k, bool causal, float scale_log2) {
  if (key0 + kBN > n_k || (causal && key0 + kBN - 1 > me.row0 + n_k - n_q))
    for (int j = 0; j < kBN / 8; ++j)
      for (int i = 0; i < 4; ++i) {
        const int key = key0 + 8 * j + 2 * me.quad + i % 2, row = me.row0 + me.r + 8 * (i / 2);
        if (key >= n_k || (causal && key > row + n_k - n_q)) s_acc[4 * j + i] = -INFINITY;
      }
  for (int h = 0; h < 2; ++h) {
    float tile_max = -INFINITY;
    for (int j = 0; j < kBN / 8; ++j)
      tile_max = fmaxf(tile_max, fmaxf(s_acc[4 * j + 2 * h], s_acc[4 * j + 2 * h + 1]));
    tile_max = fmaxf(tile_max, __shfl_xor_sync(0xffffffff, tile_max, 1));
    tile_max = fmaxf(tile_max, __shfl_xor_sync(0xffffffff, tile_max, 2));
    const float m_new = fmaxf(state.m[h], tile_max);
    // A row that has seen no key yet keeps m = -inf: subtract 0 instead, so that exp2 gives 0, not NaN.
    const float m_scaled = m_new == -INFINITY ? 0.f : m_new * scale_log2;
    state.correction[h] = exp2f(state.m[h] * scale_log2 - m_scaled);
    state.m[h] = m_new;
    float sum = 0;
    for (int j = 0; j < kBN / 8; ++j)
      for (int i = 2 * h; i < 2 * h + 2; ++i) {
        s_acc[4 * j + i] = exp2f(s_acc[4 * j + i] * scale_log2 - m_scaled);
        sum += s_acc[4 * j + i];
      }
    state.l[h] = state.l[h] * state.correction[h] + sum;  // the thread's share; the quad's comes at the end
  }
}

template <int N>
__device__ __forceinline__ void rescale(float (&o_acc)[N], const RowState& state) {
  for (int j = 0; j < N; ++j) o_acc[j] *= state.correction[j % 4 / 2];
}

// P's 8-key blocks 2kk and 2kk + 1, packed to bf16, are wgmma's A fragment of keys 16kk .. 16kk + 15.
__device__ __forceinline__ void pack_p(uint32_t (&p)[kBN / 16][4], const float (&s_acc)[kBN / 2]) {
  for (int kk = 0; kk < kBN / 16; ++kk)
    for (int i = 0; i < 4; ++i) {
      const __nv_bfloat162 pair = __floats2bfloat162_rn(s_acc[8 * kk + 2 * i], s_acc[8 * kk + 2 * i + 1]);
      p[kk][i] = *reinterpret_cast<const uint32_t*>(&pair);
    }
}

// o = O / l in bf16 and lse = m scale + log(l) for the thread's two rows;
// a row that saw no key gets o = 0, lse = -inf.
template <int D>
__device__ void store_rows(const float (&o_acc)[D / 2], RowState& state, const Consumer& me, __nv_bfloat16* o,
                           float* lse, int head, int n_q, float scale) {
  for (int h = 0; h < 2; ++h) {
    float l = state.l[h];
    l += __shfl_xor_sync(0xffffffff, l, 1);
    l += __shfl_xor_sync(0xffffffff, l, 2);
    const int row = me.row0 + me.r + 8 * h;
    if (row >= n_q) continue;
    const size_t at = static_cast<size_t>(head) * n_q + row;
    const float inv = l > 0 ? 1.f / l : 0.f;
    for (int j = 0; j < D / 8; ++j)
      *reinterpret_cast<__nv_bfloat162*>(o + at * D + 8 * j + 2 * me.quad) =
          __floats2bfloat162_rn(o_acc[4 * j + 2 * h] * inv, o_acc[4 * j + 2 * h + 1] * inv);
    if (me.quad == 0) lse[at] = l > 0 ? state.m[h] * scale + logf(l) : -INFINITY;
  }
}

// A version's kernel, and its launch: blocks of 128 query rows x heads, the three tensor maps, the shared
// memory of Shared<D, S>.
using Kernel = void (*)(CUtensorMap, CUtensorMap, CUtensorMap, __nv_bfloat16*, float*, int, int, float, bool);
template <int D, int S = stages(D)>
void launch(Kernel kernel, const __nv_bfloat16* q, const __nv_bfloat16* k, const __nv_bfloat16* v,
            __nv_bfloat16* o, float* lse, int bh, int n_q, int n_k, float scale, bool causal) {
  constexpr int bytes = kSharedBytes<D, S>;
  cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes);
  const dim3 grid((n_q + kBM - 1) / kBM, bh);
  kernel<<<grid, kThreads, bytes>>>(tensor_map_3d_128b(q, bh, n_q, D, kBM),
                                    tensor_map_3d_128b(k, bh, n_k, D, kBN),
                                    tensor_map_3d_128b(v, bh, n_k, D, kBN), o, lse, n_q, n_k, scale, causal);
}

}  // namespace flash
}  // namespace
