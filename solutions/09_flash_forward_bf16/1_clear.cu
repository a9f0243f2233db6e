// Puzzle 9 · Flash attention forward in bf16 — version 1: clear.
// The spec is in the stub, 09_flash_forward_bf16.cu. Puzzle 5's algorithm (its 1_clear.cu and docs page)
// with puzzle 8's tools (mma.sync, ldmatrix, cp.async, the XOR swizzle), as FlashAttention-2 does it:
//   - a block of 4 warps owns 64 query rows of one head, each warp 16 rows: the M of one m16n8k16 mma.
//     The warp's Q rows go shared -> registers (ldmatrix) once, and stay there for the whole key loop;
//   - K and V go through shared memory in tiles of 64 keys, copied by cp.async into XOR-swizzled rows
//     (puzzle 8), two stages: tile t + 1 is on its way while tile t is computed;
//   - S = Q K^T (16 x 64 per warp) on the tensor cores, in fp32 accumulators. Lane l holds rows
//     g = l / 4 and g + 8, keys 2 (l % 4), +1 of every 8: the 4 lanes of a quad share a row, so the row
//     max and the row sum are the lane's own values, then __shfl_xor_sync with 1 and 2 (the quad
//     allreduce of FlashAttention's Softmax);
//   - exp2 with scale * log2(e) folded into one FFMA: p = exp2(s * scale_log2 - m * scale_log2);
//   - P never leaves the registers: the accumulator of S for 16 keys (two n8 tiles) has exactly the
//     layout of an A fragment of m16n8k16, so packing pairs to bf16 (__floats2bfloat162_rn) makes P the A
//     operand of O += P V. V's B fragments come from ldmatrix.trans (V is [keys, d]; P V contracts keys);
//   - the online softmax of puzzle 5: a new row max rescales O and l by exp2(m_old - m_new); o = O / l
//     once, at the end; lse = m + log(l).
// Causal (bottom-right): tiles past the block's last diagonal are never loaded; only tiles that cross it
// (and the tail tile past n_k) are masked. Rows past n_q and keys past n_k load as zeros (cp.async with
// a source size of 0) and are masked or not stored. d is 64 or 128 (a template parameter).
// Measured on an H100 80GB HBM3 (FlashAttention's bench shapes, 16k tokens, n 1k-8k, d 64 and 128):
// 208-226 TFLOP/s non-causal, 182-215 causal; 2_fa2_tiles.cu: 320-375 and 227-337.
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include <cmath>
#include <cstdint>

namespace {

constexpr int kRows = 64;      // query rows per block: 4 warps x 16
constexpr int kKeys = 64;      // keys per tile (as many as rows: one loader serves Q, K and V)
constexpr int kThreads = 128;  // 4 warps
constexpr float kLog2e = 1.4426950408889634f, kLn2 = 0.6931471805599453f;

// Element (row, col) of a tile whose rows are D bf16: the row's 16-byte chunk col / 8 is stored at chunk
// (col / 8) ^ (row % 8). The 8 rows an ldmatrix phase reads (same chunk, rows r..r+7) then sit in 8
// different chunks: all 32 banks, no conflict.
template <int D>
__device__ int swizzled(int row, int col) {
  return row * D + ((col / 8) ^ (row % 8)) * 8 + col % 8;
}

// 16 bytes global -> shared, asynchronously; bytes = 0 copies nothing and writes 16 zeros.
__device__ void cp_async_16(void* shared_dst, const void* global_src, int bytes) {
  const auto dst = static_cast<uint32_t>(__cvta_generic_to_shared(shared_dst));
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(dst), "l"(global_src), "r"(bytes)
               : "memory");
}
__device__ void cp_async_commit() {
  asm volatile("cp.async.commit_group;\n" ::: "memory");
}
template <int kPending>
__device__ void cp_async_wait() {  // at most kPending groups of this thread still in flight
  asm volatile("cp.async.wait_group %0;\n" ::"n"(kPending) : "memory");
}

// Four 8 x 8 bf16 matrices: lane l gives the address of row l % 8 of matrix l / 8, and gets in r[j] its
// pair of matrix j (row l / 4, columns 2 (l % 4), +1), or with .trans its pair of the transposed matrix.
__device__ void ldmatrix_x4(uint32_t r[4], const void* shared_row) {
  const auto address = static_cast<uint32_t>(__cvta_generic_to_shared(shared_row));
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];\n"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
               : "r"(address));
}
__device__ void ldmatrix_x4_trans(uint32_t r[4], const void* shared_row) {
  const auto address = static_cast<uint32_t>(__cvta_generic_to_shared(shared_row));
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0,%1,%2,%3}, [%4];\n"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
               : "r"(address));
}

// c += a * b on the tensor cores: a 16 x 16 (row), b 16 x 8 (col), bf16 in, fp32 accumulators.
__device__ void mma_m16n8k16(float c[4], const uint32_t a[4], const uint32_t b[2]) {
  asm volatile(
      "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, "
      "{%0,%1,%2,%3};\n"
      : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
}

// Two floats as one bf16x2 register, lo in the low half: an A-fragment register.
__device__ uint32_t pack_bf16(float lo, float hi) {
  __nv_bfloat162 two = __floats2bfloat162_rn(lo, hi);
  return *reinterpret_cast<uint32_t*>(&two);
}

// Starts copying rows first .. first + 63 of an [n, D] matrix into a swizzled tile; rows past n become
// zeros (source size 0; the source address must still be valid: row 0). 8 or 16 threads per row.
template <int D>
__device__ void load_tile(__nv_bfloat16* tile, const __nv_bfloat16* src, int first, int n) {
  for (int i = threadIdx.x; i < kRows * D / 8; i += kThreads) {
    const int row = i / (D / 8), col = i % (D / 8) * 8;
    const bool inside = first + row < n;
    cp_async_16(tile + swizzled<D>(row, col), src + (inside ? static_cast<size_t>(first + row) * D + col : 0),
                inside ? 16 : 0);
  }
}

template <int D>
__global__ void __launch_bounds__(kThreads)
    flash_fwd_bf16_clear(const __nv_bfloat16* q, const __nv_bfloat16* k, const __nv_bfloat16* v,
                         __nv_bfloat16* o, float* lse, int n_q, int n_k, float scale_log2, bool causal) {
  extern __shared__ __align__(128) __nv_bfloat16 smem[];
  __nv_bfloat16* q_tile = smem;                      // [64][D]
  __nv_bfloat16* k_tiles = smem + kRows * D;         // 2 stages of [64][D]
  __nv_bfloat16* v_tiles = k_tiles + 2 * kKeys * D;  // 2 stages of [64][D]
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const int g = lane / 4, t = lane % 4;  // the lane's rows g, g + 8 of the warp; its keys 2t, 2t + 1 of 8
  const int first_row = blockIdx.x * kRows;
  const size_t head = blockIdx.y;
  q += head * n_q * D, o += head * n_q * D, lse += head * n_q;
  k += head * n_k * D, v += head * n_k * D;
  const int row0 = first_row + warp * 16 + g;  // this lane's rows: row0 and row0 + 8

  // The keys the block sees: all, or (causal) up to its last row's diagonal, j <= i + n_k - n_q.
  const int diagonal = n_k - n_q;
  const int last_row = min(first_row + kRows, n_q) - 1;
  const int key_end = causal ? max(0, min(n_k, last_row + diagonal + 1)) : n_k;
  const int tiles = (key_end + kKeys - 1) / kKeys;

  // 1. Q and tile 0 of K and V on their way; then each warp's Q fragments into registers, for good:
  //    slice ks of 16 columns is one ldmatrix.x4 (rows lane % 16, columns 16 ks + 8 (lane / 16)).
  load_tile<D>(q_tile, q, first_row, n_q);
  if (tiles > 0) load_tile<D>(k_tiles, k, 0, n_k), load_tile<D>(v_tiles, v, 0, n_k);
  cp_async_commit();
  cp_async_wait<0>();
  __syncthreads();
  uint32_t q_frag[D / 16][4];
  for (int ks = 0; ks < D / 16; ++ks)
    ldmatrix_x4(q_frag[ks], q_tile + swizzled<D>(warp * 16 + lane % 16, ks * 16 + lane / 16 * 8));

  float acc[D / 8][4] = {};             // O: columns 8n + 2t, +1 of rows g ([0], [1]) and g + 8
  float m[2] = {-INFINITY, -INFINITY};  // running max of rows g, g + 8 (raw scores q.k)
  float l[2] = {0.0f, 0.0f};            // this lane's share of the running sum (the quad adds at the end)

  for (int tile = 0; tile < tiles; ++tile) {
    const int k0 = tile * kKeys;
    // 2. Tile t + 1 into the other stage (freed by the barrier that ended tile t - 1), then wait for t.
    if (tile + 1 < tiles) {
      load_tile<D>(k_tiles + (tile + 1) % 2 * kKeys * D, k, k0 + kKeys, n_k);
      load_tile<D>(v_tiles + (tile + 1) % 2 * kKeys * D, v, k0 + kKeys, n_k);
    }
    cp_async_commit();
    cp_async_wait<1>();  // all but the newest group: tile t has landed (this thread's copies)
    __syncthreads();     // ... and every thread's
    const __nv_bfloat16* k_tile = k_tiles + tile % 2 * kKeys * D;
    const __nv_bfloat16* v_tile = v_tiles + tile % 2 * kKeys * D;

    // 3. S = Q K^T, 16 x 64: s[j] is keys 8j .. 8j + 7. K's rows are the B operand's columns (no .trans):
    //    one ldmatrix.x4 = keys 16jj .. +15 x columns 16ks .. +15 = the B fragments of two n8 tiles.
    float s[kKeys / 8][4] = {};
    for (int ks = 0; ks < D / 16; ++ks)
      for (int jj = 0; jj < kKeys / 16; ++jj) {
        uint32_t b[4];
        ldmatrix_x4(b, k_tile + swizzled<D>(16 * jj + lane % 8 + lane / 16 * 8, 16 * ks + lane / 8 % 2 * 8));
        mma_m16n8k16(s[2 * jj], q_frag[ks], b);
        mma_m16n8k16(s[2 * jj + 1], q_frag[ks], b + 2);
      }

    // 4. Masks, only where a tile crosses the end of the keys or the causal diagonal: -inf scores.
    if (k0 + kKeys > n_k || (causal && k0 + kKeys - 1 > first_row + diagonal))
      for (int j = 0; j < kKeys / 8; ++j)
        for (int e = 0; e < 4; ++e) {
          const int key = k0 + 8 * j + 2 * t + e % 2, row = row0 + 8 * (e / 2);
          if (key >= n_k || (causal && key > row + diagonal)) s[j][e] = -INFINITY;
        }

    // 5. The online softmax of rows g (r = 0: s[j][0..1]) and g + 8 (r = 1: s[j][2..3]).
    for (int r = 0; r < 2; ++r) {
      float tile_max = -INFINITY;
      for (int j = 0; j < kKeys / 8; ++j) tile_max = fmaxf(tile_max, fmaxf(s[j][2 * r], s[j][2 * r + 1]));
      tile_max = fmaxf(tile_max, __shfl_xor_sync(0xffffffffu, tile_max, 1));  // the quad's 4 lanes
      tile_max = fmaxf(tile_max, __shfl_xor_sync(0xffffffffu, tile_max, 2));  // hold the row's 64 keys
      const float m_new = fmaxf(m[r], tile_max);
      // A row that has seen no key yet keeps m = -inf: subtract 0 then, not -inf (-inf - -inf is NaN).
      const float base = m_new == -INFINITY ? 0.0f : m_new * scale_log2;
      const float rescale = exp2f(m[r] * scale_log2 - base);  // 0 at the first key the row sees
      m[r] = m_new;
      l[r] *= rescale;
      for (int n = 0; n < D / 8; ++n) acc[n][2 * r] *= rescale, acc[n][2 * r + 1] *= rescale;
      for (int j = 0; j < kKeys / 8; ++j)
        for (int e = 2 * r; e < 2 * r + 2; ++e) {
          s[j][e] = exp2f(fmaf(s[j][e], scale_log2, -base));  // p = 2^(scale log2(e) (s - m)): 0 if masked
          l[r] += s[j][e];
        }
    }

    // 6. O += P V. Keys 16kk .. +15 of P are s[2kk] and s[2kk + 1]: as bf16 pairs, an A fragment
    //    (a0 row g keys 2t, a1 row g + 8, a2 row g keys 2t + 8, a3 row g + 8). V: ldmatrix.trans of
    //    keys 16kk .. +15 x columns 16n .. +15 = the B fragments of two n8 tiles of O.
    for (int kk = 0; kk < kKeys / 16; ++kk) {
      const uint32_t p[4] = {pack_bf16(s[2 * kk][0], s[2 * kk][1]), pack_bf16(s[2 * kk][2], s[2 * kk][3]),
                             pack_bf16(s[2 * kk + 1][0], s[2 * kk + 1][1]),
                             pack_bf16(s[2 * kk + 1][2], s[2 * kk + 1][3])};
      for (int n = 0; n < D / 16; ++n) {
        uint32_t b[4];
        ldmatrix_x4_trans(
            b, v_tile + swizzled<D>(16 * kk + lane % 8 + lane / 8 % 2 * 8, 16 * n + lane / 16 * 8));
        mma_m16n8k16(acc[2 * n], p, b);
        mma_m16n8k16(acc[2 * n + 1], p, b + 2);
      }
    }
    __syncthreads();  // every warp is done with this stage before tile t + 2 refills it
  }

  // 7. The quad adds its shares of l; o = O / l (bf16 pairs), lse = ln 2 (m scale log2(e) + log2 l).
  //    A row that saw no key has l = 0: o = 0, lse = -inf.
  for (int r = 0; r < 2; ++r) {
    l[r] += __shfl_xor_sync(0xffffffffu, l[r], 1);
    l[r] += __shfl_xor_sync(0xffffffffu, l[r], 2);
    const int row = row0 + 8 * r;
    if (row >= n_q) continue;
    const float inv_l = l[r] > 0.0f ? 1.0f / l[r] : 0.0f;
    for (int n = 0; n < D / 8; ++n)
      *reinterpret_cast<__nv_bfloat162*>(o + static_cast<size_t>(row) * D + 8 * n + 2 * t) =
          __floats2bfloat162_rn(acc[n][2 * r] * inv_l, acc[n][2 * r + 1] * inv_l);
    if (t == 0) lse[row] = l[r] > 0.0f ? kLn2 * (m[r] * scale_log2 + log2f(l[r])) : -INFINITY;
  }
}

template <int D>
void launch(const __nv_bfloat16* q, const __nv_bfloat16* k, const __nv_bfloat16* v, __nv_bfloat16* o,
            float* lse, int bh, int n_q, int n_k, float scale, bool causal) {
  constexpr int kBytes = (kRows + 4 * kKeys) * D * 2;  // Q + 2 stages of K and V: 40 KiB (d 64), 80 KiB
  cudaFuncSetAttribute(flash_fwd_bf16_clear<D>, cudaFuncAttributeMaxDynamicSharedMemorySize, kBytes);
  const dim3 grid((n_q + kRows - 1) / kRows, bh);  // blocks of 64 query rows x heads
  flash_fwd_bf16_clear<D><<<grid, kThreads, kBytes>>>(q, k, v, o, lse, n_q, n_k, scale * kLog2e, causal);
}

}  // namespace

void flash_fwd_bf16(const __nv_bfloat16* q, const __nv_bfloat16* k, const __nv_bfloat16* v, __nv_bfloat16* o,
                    float* lse, int bh, int n_q, int n_k, int d, float scale, bool causal) {
  if (d == 64) launch<64>(q, k, v, o, lse, bh, n_q, n_k, scale, causal);
  if (d == 128) launch<128>(q, k, v, o, lse, bh, n_q, n_k, scale, causal);
}
