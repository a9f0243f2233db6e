// Puzzle 10 · Flash attention backward in bf16 — version 1: clear.
// The spec is in the stub, 10_flash_backward_bf16.cu. Puzzle 6's algorithm (its 1_clear.cu and docs page)
// on the tensor cores with puzzle 9's tools (mma.sync, ldmatrix, cp.async), as FlashAttention-2 does it:
//   1. dq_accum = 0: an fp32 scratch of bh * n_q * d floats, into which every block of keys adds its share
//      of dQ (atomicAdd: bf16 has no room for a sum of many terms, and atomics on it would round each);
//   2. delta_kernel: D_i = rowsum(dO_i * O_i) in fp32 from the bf16 inputs, one thread per query row;
//   3. flash_bwd_bf16_clear: one block of 4 warps per (tile of 64 keys, head), each warp 16 of the keys:
//      the M of one m16n8k16 mma. K and V are staged once in shared memory; the warp's dK and dV (16 x d,
//      fp32) live in registers as mma accumulators for the whole loop over tiles of 64 queries. Per tile:
//        S^T = K Q^T, dP^T = V dO^T  (16 keys x 64 queries per warp: the transposes, so that the rows
//                                     are the warp's keys, the rows of dK and dV)
//        P^T = exp2(S^T scale log2(e) - lse log2(e)), 0 where masked;  dS^T = P^T * (dP^T - D)
//        dV += P^T dO,  dK += dS^T Q  (P^T and dS^T go from accumulators to A fragments in registers,
//                                      exactly as puzzle 9 turns S into P; dO and Q by ldmatrix .trans)
//        dS^T (bf16) to shared memory; then each warp takes 16 of the queries for dQ += dS K (dS by
//        ldmatrix .trans of the stored dS^T, K by ldmatrix .trans) and adds its results into dq_accum;
//   4. dq_kernel: dq = bf16(scale * dq_accum); dK is scaled when it is written, dV is not.
// Rounding: P and dS are rounded to bf16 once each (mma operands), the outputs once; all sums are fp32.
// Shared rows are padded by 8 bf16 (16 bytes) instead of puzzle 9's XOR swizzle: a row of d + 8 bf16 starts
// 4 banks after the previous one, so the 8 rows an ldmatrix phase reads cover all 32 banks.
// Masks: a key past n_k or above the causal diagonal gets P = 0; a query past n_q or one that sees no key
// (lse = -inf) gets lse_log2 = +inf in shared memory, so P = exp2(finite - inf) = 0 there, never exp(+inf).
// Causal: a block starts at the first tile of queries that sees its first key, i >= k0 - (n_k - n_q).
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include <cmath>
#include <cstdint>

namespace {

constexpr int kKeys = 64;      // keys per block: 4 warps x 16
constexpr int kQueries = 64;   // queries per tile of the loop
constexpr int kThreads = 128;  // 4 warps
constexpr int kPad = 8;        // bf16 of padding per shared row: conflict-free ldmatrix
constexpr float kLog2e = 1.4426950408889634f;

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

// The A fragment of columns 16 kk .. +15 of a 16 x 64 accumulator (x[j]: columns 8j .. 8j + 7), as bf16:
// a0 row g columns 2t, +1; a1 row g + 8; a2 row g columns 2t + 8, +9; a3 row g + 8 (puzzle 9's P).
__device__ void to_a_fragment(uint32_t a[4], const float x[][4], int kk) {
  a[0] = pack_bf16(x[2 * kk][0], x[2 * kk][1]), a[1] = pack_bf16(x[2 * kk][2], x[2 * kk][3]);
  a[2] = pack_bf16(x[2 * kk + 1][0], x[2 * kk + 1][1]), a[3] = pack_bf16(x[2 * kk + 1][2], x[2 * kk + 1][3]);
}

// Starts copying rows first .. first + 63 of an [n, D] matrix into a tile of rows of D + kPad bf16; rows
// past n become zeros (source size 0; the source address must still be valid: row 0).
template <int D>
__device__ void load_tile(__nv_bfloat16* tile, const __nv_bfloat16* src, int first, int n) {
  for (int i = threadIdx.x; i < 64 * D / 8; i += kThreads) {
    const int row = i / (D / 8), col = i % (D / 8) * 8;
    const bool inside = first + row < n;
    cp_async_16(tile + row * (D + kPad) + col,
                src + (inside ? static_cast<size_t>(first + row) * D + col : 0), inside ? 16 : 0);
  }
}

template <int D>
__global__ void delta_kernel(const __nv_bfloat16* o, const __nv_bfloat16* dout, float* delta, int rows) {
  const int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= rows) return;
  float sum = 0.0f;  // exact bf16 products, summed in fp32
  for (int c = 0; c < D; ++c)
    sum += __bfloat162float(o[static_cast<size_t>(row) * D + c]) *
           __bfloat162float(dout[static_cast<size_t>(row) * D + c]);
  delta[row] = sum;
}

template <int D>
__global__ void __launch_bounds__(kThreads)
    flash_bwd_bf16_clear(const __nv_bfloat16* q, const __nv_bfloat16* k, const __nv_bfloat16* v,
                         const float* lse, const float* delta, const __nv_bfloat16* dout, float* dq_accum,
                         __nv_bfloat16* dk, __nv_bfloat16* dv, int n_q, int n_k, float scale, bool causal) {
  constexpr int kStride = D + kPad;           // a row of the K, V, Q and dO tiles
  constexpr int kDsStride = kQueries + kPad;  // a row (a key) of the dS^T tile
  extern __shared__ __align__(128) __nv_bfloat16 smem[];
  __nv_bfloat16* k_tile = smem;                           // [64 keys][D]: the block's, all along
  __nv_bfloat16* v_tile = k_tile + kKeys * kStride;       // [64 keys][D]
  __nv_bfloat16* q_tile = v_tile + kKeys * kStride;       // [64 queries][D]: one tile of the loop
  __nv_bfloat16* do_tile = q_tile + kQueries * kStride;   // [64 queries][D]
  __nv_bfloat16* ds_tile = do_tile + kQueries * kStride;  // dS^T: [64 keys][64 queries]
  float* lse_tile = reinterpret_cast<float*>(ds_tile + kKeys * kDsStride);  // lse log2(e), or +inf
  float* delta_tile = lse_tile + kQueries;                                  // D
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const int g = lane / 4, t = lane % 4;  // the lane's rows g, g + 8 of the warp; its columns 2t, 2t + 1 of 8
  const int k0 = blockIdx.x * kKeys;
  const size_t head = blockIdx.y;
  q += head * n_q * D, dout += head * n_q * D, dq_accum += head * n_q * D;
  lse += head * n_q, delta += head * n_q;
  k += head * n_k * D, v += head * n_k * D, dk += head * n_k * D, dv += head * n_k * D;
  const int key0 = k0 + warp * 16 + g;  // this lane's keys: key0 and key0 + 8
  const int diagonal = n_k - n_q;
  const float scale_log2 = scale * kLog2e;

  // 1. K and V on their way (they land with the first tile's wait); dK and dV start at zero.
  load_tile<D>(k_tile, k, k0, n_k);
  load_tile<D>(v_tile, v, k0, n_k);
  float dk_acc[D / 8][4] = {}, dv_acc[D / 8][4] = {};  // columns 8n + 2t, +1 of rows g ([0], [1]), g + 8

  // 2. The tiles of queries; causal: queries before k0 - (n_k - n_q) see none of the block's keys (query
  //    n_q - 1 sees key k0 < n_k: every block runs at least one tile, whose wait covers K and V too).
  const int first_query = causal ? max(0, k0 - diagonal) : 0;
  for (int q0 = first_query / kQueries * kQueries; q0 < n_q; q0 += kQueries) {
    load_tile<D>(q_tile, q, q0, n_q);
    load_tile<D>(do_tile, dout, q0, n_q);
    cp_async_commit();
    if (threadIdx.x < kQueries) {
      const int i = q0 + threadIdx.x;
      const bool sees_a_key = i < n_q && lse[i] != -INFINITY;
      lse_tile[threadIdx.x] = sees_a_key ? lse[i] * kLog2e : INFINITY;  // +inf: P = 0, never exp(+inf)
      delta_tile[threadIdx.x] = i < n_q ? delta[i] : 0.0f;
    }
    cp_async_wait<0>();
    __syncthreads();  // every thread's copies and stores have landed

    // 3. S^T = K Q^T and dP^T = V dO^T, 16 keys x 64 queries per warp: s[j], dp[j] are queries 8j .. +7.
    //    A: the warp's K (V) rows, as puzzle 9's Q; B: Q (dO) rows without .trans, as puzzle 9's K.
    float s[kQueries / 8][4] = {}, dp[kQueries / 8][4] = {};
    for (int ks = 0; ks < D / 16; ++ks) {
      uint32_t a_k[4], a_v[4];
      ldmatrix_x4(a_k, k_tile + (warp * 16 + lane % 16) * kStride + 16 * ks + lane / 16 * 8);
      ldmatrix_x4(a_v, v_tile + (warp * 16 + lane % 16) * kStride + 16 * ks + lane / 16 * 8);
      for (int jj = 0; jj < kQueries / 16; ++jj) {
        const int row = 16 * jj + lane % 8 + lane / 16 * 8, col = 16 * ks + lane / 8 % 2 * 8;
        uint32_t b[4];
        ldmatrix_x4(b, q_tile + row * kStride + col);
        mma_m16n8k16(s[2 * jj], a_k, b);
        mma_m16n8k16(s[2 * jj + 1], a_k, b + 2);
        ldmatrix_x4(b, do_tile + row * kStride + col);
        mma_m16n8k16(dp[2 * jj], a_v, b);
        mma_m16n8k16(dp[2 * jj + 1], a_v, b + 2);
      }
    }

    // 4. P^T in place of S^T (0 where masked), then dS^T = P^T (dP^T - D) in place of dP^T.
    for (int j = 0; j < kQueries / 8; ++j)
      for (int e = 0; e < 4; ++e) {
        const int key = key0 + 8 * (e / 2), row = 8 * j + 2 * t + e % 2, query = q0 + row;
        const bool masked = key >= n_k || (causal && key > query + diagonal);
        const float p = exp2f(s[j][e] * scale_log2 - lse_tile[row]);  // masked pairs too: one path per warp
        s[j][e] = masked ? 0.0f : p;
        dp[j][e] = s[j][e] * (dp[j][e] - delta_tile[row]);
      }

    // 5. dV += P^T dO and dK += dS^T Q (16 keys x D, over the tile's 64 queries): A from the accumulators,
    //    B by ldmatrix .trans (puzzle 9's V). dS^T also goes to shared memory, the bf16 pairs as they are.
    for (int kk = 0; kk < kQueries / 16; ++kk) {
      uint32_t p[4], ds[4];
      to_a_fragment(p, s, kk);
      to_a_fragment(ds, dp, kk);
      for (int n = 0; n < D / 16; ++n) {
        const int row = 16 * kk + lane % 8 + lane / 8 % 2 * 8, col = 16 * n + lane / 16 * 8;
        uint32_t b[4];
        ldmatrix_x4_trans(b, do_tile + row * kStride + col);
        mma_m16n8k16(dv_acc[2 * n], p, b);
        mma_m16n8k16(dv_acc[2 * n + 1], p, b + 2);
        ldmatrix_x4_trans(b, q_tile + row * kStride + col);
        mma_m16n8k16(dk_acc[2 * n], ds, b);
        mma_m16n8k16(dk_acc[2 * n + 1], ds, b + 2);
      }
      uint32_t* ds_row = reinterpret_cast<uint32_t*>(ds_tile + (warp * 16 + g) * kDsStride + 16 * kk + 2 * t);
      ds_row[0] = ds[0], ds_row[4 * kDsStride] = ds[1];      // key g, g + 8: queries 2t, +1
      ds_row[4] = ds[2], ds_row[4 * kDsStride + 4] = ds[3];  // queries 2t + 8, +9 (a uint32_t is 2 bf16)
    }
    __syncthreads();  // the whole dS^T tile is written

    // 6. dQ += dS K for queries 16 warp .. +15 (M) and all D columns (N), over the block's 64 keys (K).
    //    A = dS: ldmatrix .trans of the stored dS^T (rows keys, columns queries); B = K, .trans as V was.
    uint32_t a_ds[kKeys / 16][4];
    for (int kk = 0; kk < kKeys / 16; ++kk)
      ldmatrix_x4_trans(a_ds[kk], ds_tile + (16 * kk + lane % 8 + lane / 16 * 8) * kDsStride + 16 * warp +
                                      lane / 8 % 2 * 8);
    for (int n = 0; n < D / 16; ++n) {
      float acc[2][4] = {};  // columns 16n .. +7 and 16n + 8 .. +15
      for (int kk = 0; kk < kKeys / 16; ++kk) {
        uint32_t b[4];
        ldmatrix_x4_trans(
            b, k_tile + (16 * kk + lane % 8 + lane / 8 % 2 * 8) * kStride + 16 * n + lane / 16 * 8);
        mma_m16n8k16(acc[0], a_ds[kk], b);
        mma_m16n8k16(acc[1], a_ds[kk], b + 2);
      }
      for (int e = 0; e < 8; ++e) {  // other blocks add to the same elements: atomics
        const int query = q0 + 16 * warp + g + 8 * (e % 4 / 2), col = 16 * n + 8 * (e / 4) + 2 * t + e % 2;
        if (query < n_q) atomicAdd(&dq_accum[static_cast<size_t>(query) * D + col], acc[e / 4][e % 4]);
      }
    }
    __syncthreads();  // every warp is done with Q, dO and dS^T before the next tile overwrites them
  }

  // 7. dK (times scale) and dV as bf16 pairs; only this block computes them. Keys past n_k are not stored.
  for (int r = 0; r < 2; ++r) {
    const int key = key0 + 8 * r;
    if (key >= n_k) continue;
    for (int n = 0; n < D / 8; ++n) {
      const size_t at = static_cast<size_t>(key) * D + 8 * n + 2 * t;
      *reinterpret_cast<__nv_bfloat162*>(dk + at) =
          __floats2bfloat162_rn(scale * dk_acc[n][2 * r], scale * dk_acc[n][2 * r + 1]);
      *reinterpret_cast<__nv_bfloat162*>(dv + at) =
          __floats2bfloat162_rn(dv_acc[n][2 * r], dv_acc[n][2 * r + 1]);
    }
  }
}

__global__ void dq_kernel(const float* dq_accum, __nv_bfloat16* dq, float scale, size_t n) {
  const size_t i = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) dq[i] = __float2bfloat16(scale * dq_accum[i]);
}

template <int D>
void launch(const __nv_bfloat16* q, const __nv_bfloat16* k, const __nv_bfloat16* v, const __nv_bfloat16* o,
            const float* lse, const __nv_bfloat16* dout, __nv_bfloat16* dq, __nv_bfloat16* dk,
            __nv_bfloat16* dv, int bh, int n_q, int n_k, float scale, bool causal) {
  const int rows = bh * n_q;
  const size_t elements = static_cast<size_t>(rows) * D;
  float *delta = nullptr, *dq_accum = nullptr;  // scratch: bh n_q (d + 1) floats
  cudaMalloc(&delta, sizeof(float) * rows);
  cudaMalloc(&dq_accum, sizeof(float) * elements);
  cudaMemsetAsync(dq_accum, 0, sizeof(float) * elements);
  delta_kernel<D><<<(rows + 127) / 128, 128>>>(o, dout, delta, rows);

  // K, V, Q, dO tiles, dS^T, lse and D: 45.5 KiB (d 64), 77.5 KiB (d 128).
  constexpr int kBytes =
      (2 * kKeys + 2 * kQueries) * (D + kPad) * 2 + kKeys * (kQueries + kPad) * 2 + 2 * kQueries * 4;
  cudaFuncSetAttribute(flash_bwd_bf16_clear<D>, cudaFuncAttributeMaxDynamicSharedMemorySize, kBytes);
  const dim3 grid((n_k + kKeys - 1) / kKeys, bh);  // blocks of 64 keys x heads
  flash_bwd_bf16_clear<D>
      <<<grid, kThreads, kBytes>>>(q, k, v, lse, delta, dout, dq_accum, dk, dv, n_q, n_k, scale, causal);

  dq_kernel<<<(elements + 255) / 256, 256>>>(dq_accum, dq, scale, elements);
  cudaFree(delta);
  cudaFree(dq_accum);
}

}  // namespace

void flash_bwd_bf16(const __nv_bfloat16* q, const __nv_bfloat16* k, const __nv_bfloat16* v,
                    const __nv_bfloat16* o, const float* lse, const __nv_bfloat16* dout, __nv_bfloat16* dq,
                    __nv_bfloat16* dk, __nv_bfloat16* dv, int bh, int n_q, int n_k, int d, float scale,
                    bool causal) {
  if (d == 64) launch<64>(q, k, v, o, lse, dout, dq, dk, dv, bh, n_q, n_k, scale, causal);
  if (d == 128) launch<128>(q, k, v, o, lse, dout, dq, dk, dv, bh, n_q, n_k, scale, causal);
}
