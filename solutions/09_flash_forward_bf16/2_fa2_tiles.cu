// Puzzle 9 · Flash attention forward in bf16 — version 2: fast.
// Over 1_clear.cu:
//   - 128 query rows per block of 4 warps, each warp 32 rows (two m16 tiles): every K and V fragment a warp
//     loads with ldmatrix feeds twice the mma, and K and V are read from L2 once per 128 rows, not 64;
//   - key tiles of 128 at d = 64 (S is 32 x 128 per warp) and of 64 at d = 128 (O alone is 128 floats per
//     lane there); Q's fragments re-read from shared memory at each tile rather than held (registers go to
//     S and O). These are FlashAttention-2's tiles on sm_80+ (Flash_fwd_kernel_traits<64, 128, 128, 4> and
//     <128, 128, 64, 4>), and they measured fastest of the 13 configurations of this template tried;
//   - d, the warps, the rows per warp, the key tile (and kSub, the keys per softmax step within it) and
//     where Q lives are template parameters (Config): every loop unrolls, fragments and accumulators stay
//     in registers (255 of them, with a few loop constants spilled to the L1-backed stack);
//   - one __syncthreads per key tile (two in 1_clear.cu): the barrier at the top of tile t says both that
//     tile t has landed and that every warp is done with tile t - 1, whose stage tile t + 1 then refills;
//   - register double buffering of the K and V fragments (the ldmatrix of the next one issued before the
//     mma of this one), and of Q's (one 16-column slice ahead);
//   - shared-memory addresses as 32-bit offsets computed once per lane: the swizzle of a slice is one XOR
//     with a constant (lane offset ^ 32 ks), a tile's row offsets are immediates; the cp.async sources are
//     one pointer per thread plus constants, clamped only in the tail tile;
//   - the tiles that need no mask (before the diagonal and the tail) run a path without mask code;
//   - O and l are rescaled only when the max of some row of the warp moved (__any_sync): skipping a
//     multiplication by exactly 1 changes nothing, and after a few hundred keys most tiles move no max;
//   - P packed to bf16 A fragments as soon as it is computed (half the registers of the fp32 scores);
//   - o staged through the warp's own rows of the Q tile (swizzled, conflict-free) and written with 16-byte
//     coalesced stores;
//   - causal: the blocks of a head taken last-rows-first (they see the most keys), so that the grid ends on
//     short blocks; blocks of one head stay together (their K and V share L2).
// Layout, swizzle, fragments and the online softmax are those of 1_clear.cu.
// Measured on an H100 80GB HBM3 (FlashAttention's bench shapes, 16k tokens, hidden 2048, causal and not,
// n 1k-8k): 320-354 TFLOP/s at d 64 and 340-375 at d 128 non-causal, 227-337 causal; torch 2.11's SDPA
// flash backend (FlashAttention-2) on the same card in the same run: 277-309, 312-350, 203-313 (1.05-1.16x).
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include <cmath>
#include <cstdint>

#include "../common/tensor_core_ptx.cuh"

namespace {

constexpr float kLog2e = 1.4426950408889634f, kLn2 = 0.6931471805599453f;

template <bool B>
struct Flag {  // a compile-time bool as an argument: step(tile, Flag<true>{}) is the masked path
  static constexpr bool value = B;
};
// A block: kWarps warps of kMT m16 tiles (16 kMT query rows each), key tiles of kKeys staged at once and
// processed kSub at a time, head dim D.
template <int D_, int kWarps_, int kMT_, int kKeys_, int kSub_, bool kQInRegs_, int kMinBlocks_>
struct Config {
  static constexpr int D = D_, kWarps = kWarps_, kMT = kMT_, kKeys = kKeys_, kSub = kSub_,
                       kMinBlocks = kMinBlocks_;
  static constexpr bool kQInRegs = kQInRegs_;
  static constexpr int kThreads = 32 * kWarps, kRows = 16 * kMT * kWarps;
  static constexpr int kRowBytes = 2 * D, kChunks = D / 8;  // a row: D / 8 swizzled chunks of 16 bytes
  static constexpr int kRowsPerPass = kThreads / kChunks;   // rows one pass of the block's copies covers
  static constexpr int kQBytes = kRows * kRowBytes, kKVBytes = kKeys * kRowBytes;
  static constexpr int kSmem = kQBytes + 2 * 2 * kKVBytes;  // Q, then 2 stages of (K tile, V tile)
  static_assert(kRowsPerPass % 8 == 0 && kKeys % kRowsPerPass == 0 && kRows % kRowsPerPass == 0, "copy");
};

// Starts copying kCount rows of an [n, D] matrix into the swizzled tile at shared address `tile`. Thread
// tid copies chunk c = tid % kChunks of rows r0 = tid / kChunks, r0 + kRowsPerPass, ...: all of them have
// the same row % 8, so one swizzled offset (dst) and one source (src, at row r0 of the tile) serve every
// pass, with constant offsets. kFull: all rows exist; else rows >= rows_left (counted from r0) become
// zeros, their source clamped to `valid` (a source size of 0 reads nothing, the address must still be valid).
template <class C, int kCount, bool kFull>
__device__ __forceinline__ void load_rows(uint32_t dst, const __nv_bfloat16* src, int rows_left,
                                          const __nv_bfloat16* valid) {
#pragma unroll
  for (int p = 0; p < kCount / C::kRowsPerPass; ++p) {
    const bool inside = kFull || p * C::kRowsPerPass < rows_left;
    cp_async_16(dst + p * C::kRowsPerPass * C::kRowBytes, inside ? src + p * C::kRowsPerPass * C::D : valid,
                inside ? 16 : 0);
  }
}

template <class C>
__global__ void __launch_bounds__(C::kThreads, C::kMinBlocks)
    flash_fwd_bf16_fast(const __nv_bfloat16* __restrict__ q, const __nv_bfloat16* __restrict__ k,
                        const __nv_bfloat16* __restrict__ v, __nv_bfloat16* __restrict__ o,
                        float* __restrict__ lse, int n_q, int n_k, float scale_log2, bool causal) {
  constexpr int D = C::D, kMT = C::kMT, kKeys = C::kKeys, kRowBytes = C::kRowBytes;
  constexpr int kKS = D / 16;     // 16-column slices of Q K^T
  constexpr int kSub = C::kSub;   // keys per online-softmax step (a tile of kKeys is staged at once)
  constexpr int kKP = kSub / 16;  // 16-key slices of P V (and key pairs of n8 tiles of S)
  constexpr int kNB = kSub / 8;   // n8 tiles of S
  constexpr int kDB = D / 8;      // n8 tiles of O
  extern __shared__ __align__(128) uint8_t smem[];
  const uint32_t s_q = static_cast<uint32_t>(__cvta_generic_to_shared(smem));
  const uint32_t s_kv = s_q + C::kQBytes;  // stage st: K at s_kv + st * 2 kKVBytes, V kKVBytes further
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32, g = lane / 4, t = lane % 4;

  // Causal: the blocks that see the most keys (the last rows) first; blocks of one head stay together.
  const int m_block = causal ? gridDim.x - 1 - blockIdx.x : blockIdx.x;
  const int first_row = m_block * C::kRows;
  const size_t head = blockIdx.y;
  q += head * n_q * D, o += head * n_q * D, lse += head * n_q;
  k += head * n_k * D, v += head * n_k * D;
  const int warp_row = warp * 16 * kMT;  // the warp's first row in the block

  const int diagonal = n_k - n_q;  // row i sees keys j <= i + diagonal (causal)
  const int last_row = min(first_row + C::kRows, n_q) - 1;
  const int key_end = causal ? max(0, min(n_k, last_row + diagonal + 1)) : n_k;
  const int tiles = (key_end + kKeys - 1) / kKeys;
  // Tiles every row of the block sees whole: all keys < n_k and (causal) <= the first row's diagonal.
  const int unmasked = min(tiles, min(n_k, causal ? max(0, first_row + diagonal + 1) : n_k) / kKeys);

  // The lanes' ldmatrix rows (byte offsets) and chunks (the swizzle's key is the row % 8 = lane % 8):
  //   Q (A operand): rows lane % 16, chunk 2 ks + lane / 16;
  //   K (B operand, two n8 tiles): rows lane % 8 + 8 (lane / 16), chunk 2 ks + (lane / 8) % 2;
  //   V (.trans, two n8 tiles of O): rows lane % 8 + 8 ((lane / 8) % 2), chunk 2 dp + lane / 16.
  // Chunk (2 s + b) of a row with row % 8 = x is stored at (2 s + b) ^ x = (b ^ x) ^ 2 s: the lane's byte
  // offset row * kRowBytes + 16 (b ^ x) XOR 32 s (which changes only bits below kRowBytes).
  const uint32_t q_off = (warp_row + lane % 16) * kRowBytes + (((lane / 16) ^ (lane % 8)) << 4);
  const uint32_t k_off = (lane % 8 + lane / 16 * 8) * kRowBytes + (((lane / 8 % 2) ^ (lane % 8)) << 4);
  const uint32_t v_off = (lane % 8 + lane / 8 % 2 * 8) * kRowBytes + (((lane / 16) ^ (lane % 8)) << 4);

  // The thread's copies: chunk copy_c of rows copy_r, copy_r + kRowsPerPass, ... of a tile.
  const int copy_c = threadIdx.x % C::kChunks, copy_r = threadIdx.x / C::kChunks;
  const uint32_t copy_dst = copy_r * kRowBytes + ((copy_c ^ (copy_r % 8)) << 4);
  const int copy_src = copy_r * D + copy_c * 8;
  auto load_kv = [&](int tile, uint32_t stage) {  // K and V rows tile * kKeys .. + kKeys - 1
    const int first = tile * kKeys;
    const __nv_bfloat16 *k_src = k + static_cast<size_t>(first) * D + copy_src,
                        *v_src = v + static_cast<size_t>(first) * D + copy_src;
    if (first + kKeys <= n_k) {
      load_rows<C, kKeys, true>(stage + copy_dst, k_src, 0, k);
      load_rows<C, kKeys, true>(stage + C::kKVBytes + copy_dst, v_src, 0, v);
    } else {
      load_rows<C, kKeys, false>(stage + copy_dst, k_src, n_k - first - copy_r, k);
      load_rows<C, kKeys, false>(stage + C::kKVBytes + copy_dst, v_src, n_k - first - copy_r, v);
    }
  };

  // Prologue: Q and tile 0 of K and V, then (if kept in registers) the warp's Q fragments.
  load_rows<C, C::kRows, false>(s_q + copy_dst, q + static_cast<size_t>(first_row) * D + copy_src,
                                n_q - first_row - copy_r, q);
  if (tiles > 0) load_kv(0, s_kv);
  cp_async_commit();
  cp_async_wait<0>();
  __syncthreads();
  uint32_t q_frag[C::kQInRegs ? kMT : 1][C::kQInRegs ? kKS : 1][4];
  if constexpr (C::kQInRegs) {
#pragma unroll
    for (int mt = 0; mt < kMT; ++mt)
#pragma unroll
      for (int ks = 0; ks < kKS; ++ks)
        ldmatrix_x4(q_frag[mt][ks], s_q + (q_off ^ (32 * ks)) + mt * 16 * kRowBytes);
  }

  float acc[kMT][kDB][4];  // O: lane's rows g ([0], [1]) and g + 8 ([2], [3]) of each m16, cols 8 n + 2t, +1
  // m: the row's max score times scale log2(e); l: this lane's share of the row's sum (the quad adds at the
  // end).
  float m[kMT][2], l[kMT][2];
#pragma unroll
  for (int mt = 0; mt < kMT; ++mt) {
#pragma unroll
    for (int n = 0; n < kDB; ++n) acc[mt][n][0] = acc[mt][n][1] = acc[mt][n][2] = acc[mt][n][3] = 0.0f;
    m[mt][0] = m[mt][1] = -INFINITY;
    l[mt][0] = l[mt][1] = 0.0f;
  }

  // kSub keys of the staged tile (its keys sub0 .. sub0 + kSub - 1, key0 in the head): S = Q K^T, (mask),
  // the online softmax, O += P V.
  auto sub_tile = [&](uint32_t stage, int key0, int sub0, auto masked) {
    constexpr bool kMask = decltype(masked)::value;
    // S = Q K^T. Unit u = (slice ks, key pair jp): one ldmatrix.x4 of K, 2 kMT mma. K's fragments one
    // unit ahead; Q's (from shared memory) one slice ahead.
    float s[kMT][kNB][4];
#pragma unroll
    for (int mt = 0; mt < kMT; ++mt)
#pragma unroll
      for (int j = 0; j < kNB; ++j) s[mt][j][0] = s[mt][j][1] = s[mt][j][2] = s[mt][j][3] = 0.0f;
    uint32_t kb[2][4], qs[2][kMT][4];
    auto load_k = [&](uint32_t(&r)[4], int u) {
      ldmatrix_x4(r, stage + (k_off ^ (32 * (u / kKP))) + (sub0 + u % kKP * 16) * kRowBytes);
    };
    auto load_q = [&](uint32_t(&r)[kMT][4], int ks) {
#pragma unroll
      for (int mt = 0; mt < kMT; ++mt) ldmatrix_x4(r[mt], s_q + (q_off ^ (32 * ks)) + mt * 16 * kRowBytes);
    };
    if constexpr (!C::kQInRegs) load_q(qs[0], 0);
    load_k(kb[0], 0);
#pragma unroll
    for (int u = 0; u < kKS * kKP; ++u) {
      const int ks = u / kKP, jp = u % kKP;
      if (u + 1 < kKS * kKP) load_k(kb[(u + 1) % 2], u + 1);
      if constexpr (!C::kQInRegs)
        if (jp == 0 && ks + 1 < kKS) load_q(qs[(ks + 1) % 2], ks + 1);
#pragma unroll
      for (int mt = 0; mt < kMT; ++mt) {
        const uint32_t(&a)[4] =
            C::kQInRegs ? q_frag[C::kQInRegs ? mt : 0][C::kQInRegs ? ks : 0] : qs[ks % 2][mt];
        mma_bf16(s[mt][2 * jp], a, kb[u % 2][0], kb[u % 2][1]);
        mma_bf16(s[mt][2 * jp + 1], a, kb[u % 2][2], kb[u % 2][3]);
      }
    }

    // Masks (tiles across the diagonal or the end of the keys only): key key0 + 8j + 2t + e of the
    // sub-tile, row g + 8r of m16 tile mt: -inf past the row's last key.
    if constexpr (kMask) {
#pragma unroll
      for (int mt = 0; mt < kMT; ++mt)
#pragma unroll
        for (int r = 0; r < 2; ++r) {
          const int row = first_row + warp_row + mt * 16 + g + 8 * r;
          const int end = (causal ? min(n_k, max(0, row + diagonal + 1)) : n_k) - key0 - 2 * t;
#pragma unroll
          for (int j = 0; j < kNB; ++j)
#pragma unroll
            for (int e = 0; e < 2; ++e)
              if (8 * j + e >= end) s[mt][j][2 * r + e] = -INFINITY;
        }
    }

    // Online softmax of rows g (r = 0) and g + 8 (r = 1) of each m16: quad max, new max, rescale.
    float rescale[kMT][2];
    bool moved = false;
#pragma unroll
    for (int mt = 0; mt < kMT; ++mt)
#pragma unroll
      for (int r = 0; r < 2; ++r) {
        float tile_max = s[mt][0][2 * r];
#pragma unroll
        for (int j = 0; j < kNB; ++j) tile_max = fmaxf(tile_max, fmaxf(s[mt][j][2 * r], s[mt][j][2 * r + 1]));
        tile_max = fmaxf(tile_max, __shfl_xor_sync(0xffffffffu, tile_max, 1));
        tile_max = fmaxf(tile_max, __shfl_xor_sync(0xffffffffu, tile_max, 2));
        const float m_new = fmaxf(m[mt][r], tile_max * scale_log2);
        // Only a masked tile can leave a row without any key so far (m = -inf): subtract 0 there.
        const float base = (kMask && m_new == -INFINITY) ? 0.0f : m_new;
        rescale[mt][r] = exp2f(m[mt][r] - base);
        moved |= m_new != m[mt][r];
        m[mt][r] = m_new;
        l[mt][r] *= rescale[mt][r];
      }
    // O *= rescale, skipped (exactly: every factor is 1) when no row of the warp has a new max, as is
    // most often the case once a row has seen a few hundred keys.
    if (__any_sync(0xffffffffu, moved)) {
#pragma unroll
      for (int mt = 0; mt < kMT; ++mt)
#pragma unroll
        for (int n = 0; n < kDB; ++n)
#pragma unroll
          for (int e = 0; e < 4; ++e) acc[mt][n][e] *= rescale[mt][e / 2];
    }
    // p = 2^(s scale log2(e) - m scale log2(e)), summed into l and packed as bf16 A fragments:
    // keys 16kk .. +15 are s[2kk] (a0: row g, a1: row g + 8) and s[2kk + 1] (a2, a3).
    uint32_t p[kMT][kKP][4];
#pragma unroll
    for (int mt = 0; mt < kMT; ++mt)
#pragma unroll
      for (int j = 0; j < kNB; ++j)
#pragma unroll
        for (int r = 0; r < 2; ++r) {
          const float base = (kMask && m[mt][r] == -INFINITY) ? 0.0f : m[mt][r];
          const float p0 = exp2f(fmaf(s[mt][j][2 * r], scale_log2, -base));
          const float p1 = exp2f(fmaf(s[mt][j][2 * r + 1], scale_log2, -base));
          l[mt][r] += p0 + p1;
          p[mt][j / 2][j % 2 * 2 + r] = pack_bf16(p0, p1);
        }

    // O += P V. Unit u = (16-key slice kk, column pair dp): one ldmatrix.x4.trans of V, 2 kMT mma.
    uint32_t vb[2][4];
    auto load_v = [&](uint32_t(&r)[4], int u) {
      ldmatrix_x4_trans(
          r, stage + C::kKVBytes + (v_off ^ (32 * (u % (D / 16)))) + (sub0 + u / (D / 16) * 16) * kRowBytes);
    };
    load_v(vb[0], 0);
#pragma unroll
    for (int u = 0; u < kKP * (D / 16); ++u) {
      const int kk = u / (D / 16), dp = u % (D / 16);
      if (u + 1 < kKP * (D / 16)) load_v(vb[(u + 1) % 2], u + 1);
#pragma unroll
      for (int mt = 0; mt < kMT; ++mt) {
        mma_bf16(acc[mt][2 * dp], p[mt][kk], vb[u % 2][0], vb[u % 2][1]);
        mma_bf16(acc[mt][2 * dp + 1], p[mt][kk], vb[u % 2][2], vb[u % 2][3]);
      }
    }
  };

  // One key tile: wait for it, start the next, then its sub-tiles of kSub keys.
  auto step = [&](int tile, auto masked) {
    if (tile > 0) {
      cp_async_wait<0>();  // this thread's copies of tile `tile` have landed
      __syncthreads();     // everyone's; and every warp is done with tile - 1, whose stage is refilled now
    }
    if (tile + 1 < tiles) {
      load_kv(tile + 1, s_kv + (tile + 1) % 2 * 2 * C::kKVBytes);
      cp_async_commit();
    }
    const uint32_t stage = s_kv + tile % 2 * 2 * C::kKVBytes;
#pragma unroll
    for (int sub = 0; sub < kKeys / kSub; ++sub)
      sub_tile(stage, tile * kKeys + sub * kSub, sub * kSub, masked);
  };
  int tile = 0;
  for (; tile < unmasked; ++tile) step(tile, Flag<false>{});
  for (; tile < tiles; ++tile) step(tile, Flag<true>{});

  // Epilogue. o = O / l goes as bf16 pairs into the warp's own rows of the Q tile (swizzled as Q), then out
  // in 16-byte coalesced stores; lse = ln 2 (m scale log2(e) + log2 l). A row with l = 0 saw no key.
  cp_async_wait<0>();
  __syncthreads();  // (when no tile ran, other threads' copies of Q may still have been in flight)
#pragma unroll
  for (int mt = 0; mt < kMT; ++mt)
#pragma unroll
    for (int r = 0; r < 2; ++r) {
      float sum = l[mt][r];
      sum += __shfl_xor_sync(0xffffffffu, sum, 1);
      sum += __shfl_xor_sync(0xffffffffu, sum, 2);
      const float inv = sum > 0.0f ? 1.0f / sum : 0.0f;
      const int local = warp_row + mt * 16 + g + 8 * r;  // local % 8 == g
#pragma unroll
      for (int n = 0; n < kDB; ++n)
        *reinterpret_cast<uint32_t*>(smem + local * kRowBytes + ((n ^ g) << 4) + 4 * t) =
            pack_bf16(acc[mt][n][2 * r] * inv, acc[mt][n][2 * r + 1] * inv);
      if (t == 0 && first_row + local < n_q)
        lse[first_row + local] = sum > 0.0f ? kLn2 * (m[mt][r] + log2f(sum)) : -INFINITY;
    }
  __syncwarp();
#pragma unroll
  for (int i = lane; i < 16 * kMT * C::kChunks; i += 32) {
    const int local = warp_row + i / C::kChunks, c = i % C::kChunks;
    if (first_row + local < n_q)
      *reinterpret_cast<uint4*>(o + static_cast<size_t>(first_row + local) * D + 8 * c) =
          *reinterpret_cast<const uint4*>(smem + local * kRowBytes + ((c ^ (local % 8)) << 4));
  }
}

template <class C>
void launch(const __nv_bfloat16* q, const __nv_bfloat16* k, const __nv_bfloat16* v, __nv_bfloat16* o,
            float* lse, int bh, int n_q, int n_k, float scale, bool causal) {
  cudaFuncSetAttribute(flash_fwd_bf16_fast<C>, cudaFuncAttributeMaxDynamicSharedMemorySize, C::kSmem);
  const dim3 grid((n_q + C::kRows - 1) / C::kRows, bh);  // query blocks (fastest) x heads
  flash_fwd_bf16_fast<C><<<grid, C::kThreads, C::kSmem>>>(q, k, v, o, lse, n_q, n_k, scale * kLog2e, causal);
}

// 4 warps x 32 rows; d = 64: key tiles of 128 (80 KiB of shared memory), d = 128: key tiles of 64
// (96 KiB); Q from shared memory. 2 blocks per SM (8 warps), by registers and by shared memory.
using Fast64 = Config<64, 4, 2, 128, 128, false, 2>;
using Fast128 = Config<128, 4, 2, 64, 64, false, 2>;

}  // namespace

void flash_fwd_bf16(const __nv_bfloat16* q, const __nv_bfloat16* k, const __nv_bfloat16* v, __nv_bfloat16* o,
                    float* lse, int bh, int n_q, int n_k, int d, float scale, bool causal) {
  if (d == 64) launch<Fast64>(q, k, v, o, lse, bh, n_q, n_k, scale, causal);
  if (d == 128) launch<Fast128>(q, k, v, o, lse, bh, n_q, n_k, scale, causal);
}
