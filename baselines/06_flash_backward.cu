// Baseline for puzzle 6 · standard attention backward on cuBLAS. Not a puzzle: the yardstick that
// `puzzle bench 6` times beside the learner's kernel and the solution (docs/baselines.md).
//
// Same launcher and contract as puzzles/06_flash_backward.cu, computed with materialized matrices:
//   1. S = scale * Q K^T into buffer P, and dP = dO V^T into buffer dS (strided-batched SGEMMs)
//   2. a row kernel: P = exp(S - lse) over the visible keys (0 elsewhere), D = rowsum(dO * O) and
//      dS = P * (dP - D), each written over its input
//   3. dV = P^T dO, dQ = scale * dS K, dK = scale * dS^T Q (strided-batched SGEMMs)
// fp32 throughout, like the solution.
//
// Memory: two N x N matrices, P and dP/dS, 2 * bh * n_q * n_k * 4 bytes, against the solution's
// O(bh * n * d).
//
// Why FlashAttention beats it, though both do the same FLOPs: here P and dS cross HBM. The first two
// SGEMMs write S and dP (8 N^2 bytes per head), the row kernel reads both and writes P and dS (16 N^2),
// the last three SGEMMs read P once and dS twice (12 N^2): 36 N^2 bytes per head, against 32 N d for the
// eight [N, d] inputs and outputs. FlashAttention recomputes each tile of P from lse on chip instead.
#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <cmath>

#include "standard_attention.cuh"

namespace {

using standard_attention::kWarp;

constexpr int kRowsPerBlock = 8;  // one warp per row

// The sum of `value` over the warp, in every lane.
__device__ float warp_sum(float value) {
  for (int offset = kWarp / 2; offset > 0; offset /= 2) value += __shfl_xor_sync(0xffffffffu, value, offset);
  return value;
}

// Row r of the [bh * n_q, n_k] matrices (query r % n_q of head r / n_q): p holds S and becomes P, ds
// holds dP and becomes dS. A row with no visible key (its lse is -inf) gets P = dS = 0 without computing
// exp(-inf - (-inf)).
__global__ void probabilities_and_score_grads(float* __restrict__ p, float* __restrict__ ds,
                                              const float* __restrict__ lse, const float* __restrict__ o,
                                              const float* __restrict__ dout, long long rows, int n_q,
                                              int n_k, int d, bool causal) {
  const long long row = static_cast<long long>(blockIdx.x) * kRowsPerBlock + threadIdx.x / kWarp;
  if (row >= rows) return;  // the whole warp: a row belongs to one warp
  const int lane = threadIdx.x % kWarp;

  // D = dO_r . O_r, which equals rowsum(P * dP) (docs/06_flash_backward.md).
  float partial = 0.0f;
  for (int c = lane; c < d; c += kWarp) partial += dout[row * d + c] * o[row * d + c];
  const float row_d = warp_sum(partial);

  const int visible = standard_attention::visible_keys(static_cast<int>(row % n_q), n_q, n_k, causal);
  const float row_lse = lse[row];
  float* p_row = p + row * n_k;
  float* ds_row = ds + row * n_k;
#pragma unroll 4
  for (int j = lane; j < n_k; j += kWarp) {
    const bool seen = j < visible;
    const float pj = seen ? expf(p_row[j] - row_lse) : 0.0f;
    p_row[j] = pj;
    ds_row[j] = seen ? pj * (ds_row[j] - row_d) : 0.0f;
  }
}

}  // namespace

void flash_bwd(const float* q, const float* k, const float* v, const float* o, const float* lse,
               const float* dout, float* dq, float* dk, float* dv, int bh, int n_q, int n_k, int d,
               float scale, bool causal) {
  static standard_attention::KeptBuffer<float> probabilities, score_grads;
  const standard_attention::Shape shape{bh, n_q, n_k, d, causal};
  standard_attention::start_shape(shape, probabilities, score_grads);
  float* p = probabilities.for_shape(shape);
  if (!p) return;  // out of memory: cudaMalloc's error is the launcher's
  float* ds = score_grads.for_shape(shape);
  if (!ds) return;
  const cublasHandle_t handle = standard_attention::cublas_handle();
  if (!handle) return;
  const long long rows = static_cast<long long>(bh) * n_q;

  // The mapping of each row-major product to cuBLAS is in batched_gemm; per product, what cuBLAS computes
  // (column-major; a buffer holding row-major X is read as X^T with the row length as leading dimension):
  // S [n_q, n_k] = scale * Q K^T: S^T (ld n_k) = K (op T on K's buffer, d x n_k) * Q^T (op N, d x n_q).
  if (!standard_attention::batched_gemm(handle, CUBLAS_OP_N, CUBLAS_OP_T, n_q, n_k, d, scale, q, k, p, bh))
    return;
  // dP [n_q, n_k] = dO V^T: dP^T (ld n_k) = V (op T on V's buffer, d x n_k) * dO^T (op N, d x n_q).
  if (!standard_attention::batched_gemm(handle, CUBLAS_OP_N, CUBLAS_OP_T, n_q, n_k, d, 1.0f, dout, v, ds, bh))
    return;

  probabilities_and_score_grads<<<static_cast<unsigned>((rows + kRowsPerBlock - 1) / kRowsPerBlock),
                                  kRowsPerBlock * kWarp>>>(p, ds, lse, o, dout, rows, n_q, n_k, d, causal);

  // dV [n_k, d] = P^T dO, P stored [n_q, n_k]: dV^T (ld d) = dO^T (op N, d x n_q) * P (op T on P's buffer,
  // which holds P^T, n_k x n_q, ld n_k).
  if (!standard_attention::batched_gemm(handle, CUBLAS_OP_T, CUBLAS_OP_N, n_k, d, n_q, 1.0f, p, dout, dv, bh))
    return;
  // dQ [n_q, d] = scale * dS K: dQ^T (ld d) = K^T (op N, d x n_k) * dS^T (op N, n_k x n_q, ld n_k).
  if (!standard_attention::batched_gemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, n_q, d, n_k, scale, ds, k, dq, bh))
    return;
  // dK [n_k, d] = scale * dS^T Q: dK^T (ld d) = Q^T (op N, d x n_q) * dS (op T on dS's buffer, n_k x n_q).
  standard_attention::batched_gemm(handle, CUBLAS_OP_T, CUBLAS_OP_N, n_k, d, n_q, scale, ds, q, dk, bh);
}
