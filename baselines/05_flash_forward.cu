// Baseline for puzzle 5 · standard attention forward on cuBLAS. Not a puzzle: the yardstick that
// `puzzle bench 5` times beside the learner's kernel and the solution (docs/baselines.md).
//
// Same launcher and contract as puzzles/05_flash_forward.cu, computed as textbook attention does it:
//   1. S = scale * Q K^T for every head at once (one strided-batched SGEMM) into a [bh, n_q, n_k] buffer
//   2. a row kernel: causal mask, softmax of each row written over S as P, and lse
//   3. O = P V (a second strided-batched SGEMM)
// fp32 throughout, like the solution.
//
// Memory: S/P is materialized, bh * n_q * n_k * 4 bytes (at 16k tokens, 32 heads of d = 64 and
// seqlen 4096: 4 batches x 32 heads x 4096^2 x 4 B = 8 GiB), against the solution's O(bh * n * d).
//
// Why FlashAttention beats it, though both do the same FLOPs: here S and P cross HBM. The first SGEMM
// writes S (4 N^2 bytes per head), the softmax reads it twice and writes P (12 N^2), the second SGEMM
// reads P (4 N^2): 20 N^2 bytes per head, 1.25 N / d times the 16 N d bytes of Q, K, V and O (80x at
// N = 4096, d = 64), most of it in a softmax that does a few flops per byte. FlashAttention keeps each
// tile of S and P on chip and never writes them.
#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <cmath>

#include "standard_attention.cuh"

namespace {

using standard_attention::kWarp;

constexpr int kRowsPerBlock = 8;  // one warp per row

struct Running {
  float m = -INFINITY;  // max so far
  float s = 0.0f;       // sum of exp(x - m) so far
};

// The union of two parts; exp(-inf - (-inf)) is NaN, so two empty parts stay empty.
__device__ Running merge(Running a, Running b) {
  const float m = fmaxf(a.m, b.m);
  if (m == -INFINITY) return a;
  return {m, a.s * expf(a.m - m) + b.s * expf(b.m - m)};
}

// Row r of s (query r % n_q of head r / n_q) becomes its softmax over the visible keys, 0 elsewhere; lse[r]
// is log sum exp over the visible keys, -inf when there is none (the row of P is then all 0, and so O's).
__global__ void masked_softmax_rows(float* __restrict__ s, float* __restrict__ lse, long long rows, int n_q,
                                    int n_k, bool causal) {
  const long long row = static_cast<long long>(blockIdx.x) * kRowsPerBlock + threadIdx.x / kWarp;
  if (row >= rows) return;  // the whole warp: a row belongs to one warp
  const int lane = threadIdx.x % kWarp;
  float* p = s + row * n_k;
  const int visible = standard_attention::visible_keys(static_cast<int>(row % n_q), n_q, n_k, causal);

  // One exp per element: only a new max rescales the sum.
  Running r;
#pragma unroll 4
  for (int j = lane; j < visible; j += kWarp) {
    const float x = p[j];
    if (x > r.m) {
      r.s = r.s * expf(r.m - x) + 1.0f;
      r.m = x;
    } else {
      r.s += expf(x - r.m);
    }
  }
  for (int offset = kWarp / 2; offset > 0; offset /= 2) {
    r = merge(r, {__shfl_xor_sync(0xffffffffu, r.m, offset), __shfl_xor_sync(0xffffffffu, r.s, offset)});
  }

  const float inv_s = 1.0f / r.s;
#pragma unroll 4
  for (int j = lane; j < n_k; j += kWarp) p[j] = j < visible ? expf(p[j] - r.m) * inv_s : 0.0f;
  if (lane == 0) lse[row] = visible > 0 ? r.m + logf(r.s) : -INFINITY;
}

}  // namespace

void flash_fwd(const float* q, const float* k, const float* v, float* o, float* lse, int bh, int n_q, int n_k,
               int d, float scale, bool causal) {
  static standard_attention::KeptBuffer<float> scores;
  float* s = scores.for_shape({bh, n_q, n_k, d, causal});
  if (!s) return;  // out of memory: cudaMalloc's error is the launcher's
  const cublasHandle_t handle = standard_attention::cublas_handle();
  if (!handle) return;
  const long long rows = static_cast<long long>(bh) * n_q;

  // S [n_q, n_k] = scale * Q [n_q, d] K^T, K stored [n_k, d]. To cuBLAS: S^T (n_k x n_q, ld n_k) =
  // K (op T on K's buffer, which it reads as K^T, d x n_k, ld d) * Q^T (op N, d x n_q, ld d).
  if (!standard_attention::batched_gemm(handle, CUBLAS_OP_N, CUBLAS_OP_T, n_q, n_k, d, scale, q, k, s, bh))
    return;

  masked_softmax_rows<<<static_cast<unsigned>((rows + kRowsPerBlock - 1) / kRowsPerBlock),
                        kRowsPerBlock * kWarp>>>(s, lse, rows, n_q, n_k, causal);

  // O [n_q, d] = P [n_q, n_k] V [n_k, d]. To cuBLAS: O^T (d x n_q, ld d) = V^T (op N, d x n_k, ld d) *
  // P^T (op N, n_k x n_q, ld n_k).
  standard_attention::batched_gemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, n_q, d, n_k, 1.0f, s, v, o, bh);
}
