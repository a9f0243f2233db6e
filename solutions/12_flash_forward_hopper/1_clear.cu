// Puzzle 12 · Flash attention forward on Hopper — version 1: clear.
// Puzzle 9's forward pass (o = softmax(scale Q K^T) V and lse, bf16 in and out) on puzzle 11's path. What
// it teaches:
//   - warp specialisation: a producer warp (one thread) loads Q once, then K and V tile after tile with TMA
//     into a pipeline of stages (full and empty mbarriers); a consumer warp group (128 threads) computes;
//   - three-dimensional tensor maps (d, n, bh): a tile past the end of a head arrives as zeros;
//   - S = Q K^T by wgmma with both operands K-major in shared memory;
//   - the online softmax on wgmma's accumulator layout: each thread holds two rows, a quad holds a row;
//   - O += P V by wgmma with A (P, bf16) in registers and B (V) MN-major: the transpose bit;
//   - causal block skipping: no key tile past the block's last visible key is loaded or computed.
// Block: 64 query rows, key tiles of 128 at d = 64 and of 64 at d = 128, 2 stages. Within a block no overlap
// yet beyond TMA's: each step waits for its wgmma before the softmax, and the softmax before the next wgmma
// (versions 2 and 3 overlap them); two or three blocks on an SM overlap each other.
#include <cuda.h>
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include <cmath>
#include <cstdint>

namespace {

constexpr int kBM = 64, kStages = 2;  // query rows per block
// Keys per tile. At d = 128, tiles of 64 keep shared memory at 80 KB, so that two blocks share an SM and
// one's softmax runs while the other's wgmma do (tiles of 128: 144 KB, one block per SM, 0.71-0.92x the
// speed on an H200).
template <int D>
constexpr int kBN = D == 128 ? 64 : 128;
constexpr int kConsumers = 128, kThreads = kConsumers + 32;  // warps 0-3: the warp group; warp 4: producer

template <int D>
struct Shared {                       // 1024-byte aligned: the 128B swizzle repeats every 8 rows of 128 bytes
  __nv_bfloat16 q[D / 64][kBM * 64];  // d = 128: two boxes of 64 columns
  __nv_bfloat16 k[kStages][D / 64][kBN<D> * 64];
  __nv_bfloat16 v[kStages][D / 64][kBN<D> * 64];
  uint64_t q_full, full[kStages], empty[kStages];
};

// ---- PTX wrappers (puzzle 11's, and the two wgmma forms attention needs) ----
__device__ uint32_t smem_u32(const void* p) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}
__device__ void mbarrier_init(uint64_t* bar, int count) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;\n" ::"r"(smem_u32(bar)), "r"(count) : "memory");
}
__device__ void mbarrier_arrive_expect_tx(uint64_t* bar, uint32_t bytes) {
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;\n" ::"r"(smem_u32(bar)), "r"(bytes)
               : "memory");
}
__device__ void mbarrier_arrive(uint64_t* bar) {
  asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];\n" ::"r"(smem_u32(bar)) : "memory");
}
__device__ void mbarrier_wait(uint64_t* bar, uint32_t parity) {
  uint32_t done = 0;
  while (!done)
    asm volatile(
        "{\n"
        ".reg .pred p;\n"
        "mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n"
        "selp.u32 %0, 1, 0, p;\n"
        "}\n"
        : "=r"(done)
        : "r"(smem_u32(bar)), "r"(parity)
        : "memory");
}
// The box at (column col, row row, head head) of the map's tensor into shared memory at dst.
__device__ void tma_load(void* dst, const CUtensorMap* map, uint64_t* bar, int col, int row, int head) {
  asm volatile(
      "cp.async.bulk.tensor.3d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3, "
      "%4}], [%5];\n" ::"r"(smem_u32(dst)),
      "l"(map), "r"(col), "r"(row), "r"(head), "r"(smem_u32(bar))
      : "memory");
}
// A 128B-swizzled operand whose boxes of 64 columns (128-byte rows) lie `box_bytes` apart. K-major (Q, K):
// 8-row groups 1024 bytes apart (SBO). MN-major (V): 8 keys 1024 bytes apart (SBO), the next 64 columns
// of d one box further (LBO).
__device__ uint64_t smem_descriptor(const void* tile, uint32_t box_bytes = 0) {
  return (static_cast<uint64_t>(smem_u32(tile) & 0x3FFFF) >> 4) |
         (static_cast<uint64_t>(box_bytes >> 4) << 16) | (static_cast<uint64_t>(1024 >> 4) << 32) |
         (static_cast<uint64_t>(1) << 62);
}
__device__ void wgmma_fence() {
  asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory");
}
__device__ void wgmma_commit() {
  asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory");
}
__device__ void wgmma_wait_all() {
  asm volatile("wgmma.wait_group.sync.aligned 0;\n" ::: "memory");
}
// Thread t of the warp group holds d[4j .. 4j + 3] = (r, c), (r, c + 1), (r + 8, c), (r + 8, c + 1),
// r = 16 (t / 32) + (t % 32) / 4, c = 8j + 2 (t % 4).
// S (64 x N) = A (64 x 16) * B^T (B: N x 16), plus S when `accumulate`; both K-major in shared memory.
template <int N>
__device__ void wgmma_ss(float (&d)[N / 2], uint64_t a_desc, uint64_t b_desc, bool accumulate) {
  if constexpr (N == 64)
    asm volatile(
        "{\n.reg .pred p;\nsetp.ne.b32 p, %34, 0;\n"
        "wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16 {"
        "%0,%1,%2,%3,%4,%5,%6,%7,%8,%9,%10,%11,%12,%13,%14,%15,"
        "%16,%17,%18,%19,%20,%21,%22,%23,%24,%25,%26,%27,%28,%29,%30,%31"
        "}, %32, %33, p, 1, 1, 0, 0;\n}\n"
        : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]),
          "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]),
          "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]),
          "+f"(d[22]), "+f"(d[23]), "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]),
          "+f"(d[29]), "+f"(d[30]), "+f"(d[31])
        : "l"(a_desc), "l"(b_desc), "r"(static_cast<int>(accumulate)));
  else
    asm volatile(
        "{\n.reg .pred p;\nsetp.ne.b32 p, %66, 0;\n"
        "wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16 {"
        "%0,%1,%2,%3,%4,%5,%6,%7,%8,%9,%10,%11,%12,%13,%14,%15,"
        "%16,%17,%18,%19,%20,%21,%22,%23,%24,%25,%26,%27,%28,%29,%30,%31,"
        "%32,%33,%34,%35,%36,%37,%38,%39,%40,%41,%42,%43,%44,%45,%46,%47,"
        "%48,%49,%50,%51,%52,%53,%54,%55,%56,%57,%58,%59,%60,%61,%62,%63"
        "}, %64, %65, p, 1, 1, 0, 0;\n}\n"
        : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]),
          "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]),
          "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]),
          "+f"(d[22]), "+f"(d[23]), "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]),
          "+f"(d[29]), "+f"(d[30]), "+f"(d[31]), "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]),
          "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]), "+f"(d[40]), "+f"(d[41]), "+f"(d[42]),
          "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]), "+f"(d[48]), "+f"(d[49]),
          "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]), "+f"(d[56]),
          "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63])
        : "l"(a_desc), "l"(b_desc), "r"(static_cast<int>(accumulate)));
}
// O (64 x N) += A (64 x 16, bf16 pairs in registers: a[i] holds row r + 8 (i % 2), columns 2 (t % 4) +
// 8 (i / 2) and the next) * B (16 x N), B MN-major in shared memory (the transpose bit).
template <int N>
__device__ void wgmma_rs(float (&d)[N / 2], const uint32_t (&a)[4], uint64_t b_desc) {
  if constexpr (N == 64)
    asm volatile(
        "wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16 {"
        "%0,%1,%2,%3,%4,%5,%6,%7,%8,%9,%10,%11,%12,%13,%14,%15,"
        "%16,%17,%18,%19,%20,%21,%22,%23,%24,%25,%26,%27,%28,%29,%30,%31"
        "}, {%32,%33,%34,%35}, %36, 1, 1, 1, 1;\n"
        : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]),
          "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]),
          "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]),
          "+f"(d[22]), "+f"(d[23]), "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]),
          "+f"(d[29]), "+f"(d[30]), "+f"(d[31])
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(b_desc));
  else
    asm volatile(
        "wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16 {"
        "%0,%1,%2,%3,%4,%5,%6,%7,%8,%9,%10,%11,%12,%13,%14,%15,"
        "%16,%17,%18,%19,%20,%21,%22,%23,%24,%25,%26,%27,%28,%29,%30,%31,"
        "%32,%33,%34,%35,%36,%37,%38,%39,%40,%41,%42,%43,%44,%45,%46,%47,"
        "%48,%49,%50,%51,%52,%53,%54,%55,%56,%57,%58,%59,%60,%61,%62,%63"
        "}, {%64,%65,%66,%67}, %68, 1, 1, 1, 1;\n"
        : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]),
          "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]),
          "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]),
          "+f"(d[22]), "+f"(d[23]), "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]),
          "+f"(d[29]), "+f"(d[30]), "+f"(d[31]), "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]),
          "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]), "+f"(d[40]), "+f"(d[41]), "+f"(d[42]),
          "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]), "+f"(d[48]), "+f"(d[49]),
          "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]), "+f"(d[56]),
          "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63])
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(b_desc));
}
// ---- End of the wrappers ----

__device__ uint32_t bf16_pair(float lo, float hi) {
  const __nv_bfloat162 pair = __floats2bfloat162_rn(lo, hi);
  return *reinterpret_cast<const uint32_t*>(&pair);
}

// The key tiles the block's rows see: all of them, or (causal) up to the one holding the last row's last
// visible key. 0 when no row sees a key.
template <int D>
__device__ int key_tiles(int row0, int n_q, int n_k, bool causal) {
  const int tiles = (n_k + kBN<D> - 1) / kBN<D>;
  if (!causal) return tiles;
  const int last_key = min(row0 + kBM, n_q) - 1 + n_k - n_q;
  return last_key < 0 ? 0 : min(tiles, last_key / kBN<D> + 1);
}

template <int D>
__global__ void __launch_bounds__(kThreads)
    flash_fwd_hopper_clear(const __grid_constant__ CUtensorMap q_map,
                           const __grid_constant__ CUtensorMap k_map,
                           const __grid_constant__ CUtensorMap v_map, __nv_bfloat16* o, float* lse, int n_q,
                           int n_k, float scale, bool causal) {
  extern __shared__ uint8_t shared_bytes[];
  Shared<D>& s =
      *reinterpret_cast<Shared<D>*>((reinterpret_cast<uintptr_t>(shared_bytes) + 1023) & ~uintptr_t{1023});
  const int head = blockIdx.y, row0 = blockIdx.x * kBM;
  const int tiles = key_tiles<D>(row0, n_q, n_k, causal);

  // 1. Barriers: full[s] counts the producer's arrival and the stage's bytes; empty[s] one arrival per
  //    consumer warp.
  if (threadIdx.x == 0) {
    mbarrier_init(&s.q_full, 1);
    for (int i = 0; i < kStages; ++i) {
      mbarrier_init(&s.full[i], 1);
      mbarrier_init(&s.empty[i], kConsumers / 32);
    }
  }
  __syncthreads();

  // 2. The producer: Q once, then K and V of tile t into stage t % kStages once its consumers are done
  //    with tile t - kStages (phase parity alternates with each use of a stage).
  if (threadIdx.x >= kConsumers) {
    if (threadIdx.x == kConsumers) {
      mbarrier_arrive_expect_tx(&s.q_full, sizeof(s.q));
      for (int box = 0; box < D / 64; ++box) tma_load(s.q[box], &q_map, &s.q_full, box * 64, row0, head);
      for (int t = 0; t < tiles; ++t) {
        const int stage = t % kStages, use = t / kStages;
        if (use > 0) mbarrier_wait(&s.empty[stage], (use - 1) % 2);
        mbarrier_arrive_expect_tx(&s.full[stage], sizeof(s.k[0]) + sizeof(s.v[0]));
        for (int box = 0; box < D / 64; ++box) {
          tma_load(s.k[stage][box], &k_map, &s.full[stage], box * 64, t * kBN<D>, head);
          tma_load(s.v[stage][box], &v_map, &s.full[stage], box * 64, t * kBN<D>, head);
        }
      }
    }
    return;
  }

  // 3. The consumer warp group. Thread t holds rows r and r + 8 of the block (index h = 0, 1).
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const int r = warp * 16 + lane / 4, quad = lane % 4;
  const float scale_log2 = scale * 1.4426950408889634f;  // exp(x) = exp2(x log2(e))
  float o_acc[D / 2] = {}, m[2] = {-INFINITY, -INFINITY}, l[2] = {0, 0};
  mbarrier_wait(&s.q_full, 0);
  for (int t = 0; t < tiles; ++t) {
    const int stage = t % kStages;
    mbarrier_wait(&s.full[stage], (t / kStages) % 2);

    // S = Q K^T, over d in slices of 16.
    float s_acc[kBN<D> / 2];
    wgmma_fence();
    for (int kk = 0; kk < D; kk += 16)
      wgmma_ss<kBN<D>>(s_acc, smem_descriptor(&s.q[kk / 64][kk % 64]),
                       smem_descriptor(&s.k[stage][kk / 64][kk % 64]), kk > 0);
    wgmma_commit();
    wgmma_wait_all();

    // Mask keys past n_k and (causal) above the diagonal: only the tiles that have such keys.
    const int key0 = t * kBN<D>;
    if (key0 + kBN < D >> n_k || (causal && key0 + kBN<D> - 1 > row0 + n_k - n_q))
      for (int j = 0; j < kBN<D> / 8; ++j)
        for (int i = 0; i < 4; ++i) {
          const int key = key0 + 8 * j + 2 * quad + i % 2, row = row0 + r + 8 * (i / 2);
          if (key >= n_k || (causal && key > row + n_k - n_q)) s_acc[4 * j + i] = -INFINITY;
        }

    // Online softmax of both rows: max over the thread's 32 values, then its quad's.
    float correction[2];
    for (int h = 0; h < 2; ++h) {
      float tile_max = -INFINITY;
      for (int j = 0; j < kBN<D> / 8; ++j)
        tile_max = fmaxf(tile_max, fmaxf(s_acc[4 * j + 2 * h], s_acc[4 * j + 2 * h + 1]));
      tile_max = fmaxf(tile_max, __shfl_xor_sync(0xffffffff, tile_max, 1));
      tile_max = fmaxf(tile_max, __shfl_xor_sync(0xffffffff, tile_max, 2));
      const float m_new = fmaxf(m[h], tile_max);
      // A row that has seen no key yet keeps m = -inf: subtract 0 instead, so that exp2 gives 0, not NaN.
      const float m_scaled = m_new == -INFINITY ? 0.f : m_new * scale_log2;
      correction[h] = exp2f(m[h] * scale_log2 - m_scaled);
      m[h] = m_new;
      l[h] *= correction[h];
      for (int j = 0; j < kBN<D> / 8; ++j)
        for (int i = 2 * h; i < 2 * h + 2; ++i) {
          s_acc[4 * j + i] = exp2f(s_acc[4 * j + i] * scale_log2 - m_scaled);
          l[h] += s_acc[4 * j + i];  // the thread's share; the quad's sum comes at the end
        }
    }
    for (int j = 0; j < D / 2; ++j) o_acc[j] *= correction[j % 4 / 2];  // O's sums to the new max

    // O += P V: P's 8-key blocks 2kk and 2kk + 1, packed to bf16, are the A fragment of keys 16kk..16kk+15.
    // Packed before wgmma_fence: a register written between two wgmma would make them wait for each other.
    uint32_t p[kBN<D> / 16][4];
    for (int kk = 0; kk < kBN<D> / 16; ++kk)
      for (int i = 0; i < 4; ++i) p[kk][i] = bf16_pair(s_acc[8 * kk + 2 * i], s_acc[8 * kk + 2 * i + 1]);
    wgmma_fence();
    for (int kk = 0; kk < kBN<D> / 16; ++kk)
      wgmma_rs<D>(o_acc, p[kk], smem_descriptor(&s.v[stage][0][kk * 16 * 64], sizeof(s.v[0][0])));
    wgmma_commit();
    wgmma_wait_all();  // O += P V has read the stage's V: it may go back to the producer
    if (lane == 0) mbarrier_arrive(&s.empty[stage]);
  }

  // 4. o = O / l in bf16 and lse = m scale + log(l); a row that saw no key: o = 0, lse = -inf.
  for (int h = 0; h < 2; ++h) {
    l[h] += __shfl_xor_sync(0xffffffff, l[h], 1);
    l[h] += __shfl_xor_sync(0xffffffff, l[h], 2);
    const int row = row0 + r + 8 * h;
    if (row >= n_q) continue;
    const size_t at = static_cast<size_t>(head) * n_q + row;
    const float inv = l[h] > 0 ? 1.f / l[h] : 0.f;
    for (int j = 0; j < D / 8; ++j)
      *reinterpret_cast<__nv_bfloat162*>(o + at * D + 8 * j + 2 * quad) =
          __floats2bfloat162_rn(o_acc[4 * j + 2 * h] * inv, o_acc[4 * j + 2 * h + 1] * inv);
    if (quad == 0) lse[at] = l[h] > 0 ? m[h] * scale + logf(l[h]) : -INFINITY;
  }
}

// A tensor map of a [heads, rows, d] bf16 tensor, copied in boxes of 64 columns x box_rows x 1 head that
// land 128B-swizzled; rows past the head's end arrive as zeros.
CUtensorMap tensor_map(const __nv_bfloat16* tensor, int heads, int rows, int d, int box_rows) {
  CUtensorMap map;
  const cuuint64_t size[3] = {static_cast<cuuint64_t>(d), static_cast<cuuint64_t>(rows),
                              static_cast<cuuint64_t>(heads)};
  const cuuint64_t stride[2] = {static_cast<cuuint64_t>(d) * 2, static_cast<cuuint64_t>(rows) * d * 2};
  const cuuint32_t box[3] = {64, static_cast<cuuint32_t>(box_rows), 1}, element_stride[3] = {1, 1, 1};
  cuTensorMapEncodeTiled(&map, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 3, const_cast<__nv_bfloat16*>(tensor), size,
                         stride, box, element_stride, CU_TENSOR_MAP_INTERLEAVE_NONE,
                         CU_TENSOR_MAP_SWIZZLE_128B, CU_TENSOR_MAP_L2_PROMOTION_L2_256B,
                         CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  return map;
}

template <int D>
void launch(const __nv_bfloat16* q, const __nv_bfloat16* k, const __nv_bfloat16* v, __nv_bfloat16* o,
            float* lse, int bh, int n_q, int n_k, float scale, bool causal) {
  constexpr int shared_bytes = sizeof(Shared<D>) + 1024;  // + room to align
  cudaFuncSetAttribute(flash_fwd_hopper_clear<D>, cudaFuncAttributeMaxDynamicSharedMemorySize, shared_bytes);
  const dim3 grid((n_q + kBM - 1) / kBM, bh);
  flash_fwd_hopper_clear<D>
      <<<grid, kThreads, shared_bytes>>>(tensor_map(q, bh, n_q, D, kBM), tensor_map(k, bh, n_k, D, kBN<D>),
                                         tensor_map(v, bh, n_k, D, kBN<D>), o, lse, n_q, n_k, scale, causal);
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
