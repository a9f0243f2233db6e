// Baseline for puzzle 10 · standard attention backward in bf16 on cuBLAS. Not a puzzle: the yardstick that
// `puzzle bench 10` times beside the learner's kernel and the solution (docs/baselines.md).
//
// Same launcher and contract as puzzles/10_flash_backward_bf16/10_flash_backward_bf16.cu, computed with
// materialized matrices, the five products on the tensor cores (cublasGemmStridedBatchedEx, bf16 operands,
// fp32 sums):
//   1. S = scale * Q K^T and dP = dO V^T, both stored in fp32 (bf16 S would move P by ~|s| * 2^-8: see
//      09_flash_forward_bf16.cu)
//   2. a row kernel: P = exp(S - lse) over the visible keys (0 elsewhere), D = rowsum(dO * O) and
//      dS = P * (dP - D), P and dS rounded to bf16, as FlashAttention-2 rounds them for its products
//   3. dV = P^T dO, dQ = scale * dS K, dK = scale * dS^T Q, each rounded once to bf16
//
// Memory: S and dP in fp32, P and dS in bf16: bh * n_q * n_k * 12 bytes (at 16k tokens, 32 heads of d = 64
// and seqlen 4096: 25 GiB), against the solution's O(bh * n * d).
//
// Why FlashAttention beats it, though both do the same FLOPs on the same tensor cores: here the N x N
// matrices cross HBM. The first two GEMMs write S and dP (8 N^2 bytes per head), the row kernel reads both
// and writes P and dS (12 N^2), the last three GEMMs read P once and dS twice (6 N^2): 26 N^2 bytes per
// head, against 16 N d for the eight bf16 [N, d] inputs and outputs. FlashAttention recomputes each tile of
// P from lse on chip instead.
#include <cublas_v2.h>
#include <cuda_bf16.h>
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

// Row r of the [bh * n_q, n_k] matrices (query r % n_q of head r / n_q): from S and dP (fp32) to P and dS
// (bf16). A row with no visible key (its lse is -inf) gets P = dS = 0 without computing exp(-inf - (-inf)).
__global__ void probabilities_and_score_grads(const float* __restrict__ s, const float* __restrict__ dp,
                                              __nv_bfloat16* __restrict__ p, __nv_bfloat16* __restrict__ ds,
                                              const float* __restrict__ lse,
                                              const __nv_bfloat16* __restrict__ o,
                                              const __nv_bfloat16* __restrict__ dout, long long rows, int n_q,
                                              int n_k, int d, bool causal) {
  const long long row = static_cast<long long>(blockIdx.x) * kRowsPerBlock + threadIdx.x / kWarp;
  if (row >= rows) return;  // the whole warp: a row belongs to one warp
  const int lane = threadIdx.x % kWarp;

  // D = dO_r . O_r, which equals rowsum(P * dP) (docs/06_flash_backward.md).
  float partial = 0.0f;
  for (int c = lane; c < d; c += kWarp)
    partial += __bfloat162float(dout[row * d + c]) * __bfloat162float(o[row * d + c]);
  const float row_d = warp_sum(partial);

  const int visible = standard_attention::visible_keys(static_cast<int>(row % n_q), n_q, n_k, causal);
  const float row_lse = lse[row];
  const long long first = row * n_k;
#pragma unroll 4
  for (int j = lane; j < n_k; j += kWarp) {
    const bool seen = j < visible;
    const float pj = seen ? expf(s[first + j] - row_lse) : 0.0f;
    p[first + j] = __float2bfloat16_rn(pj);
    ds[first + j] = __float2bfloat16_rn(seen ? pj * (dp[first + j] - row_d) : 0.0f);
  }
}

}  // namespace

void flash_bwd_bf16(const __nv_bfloat16* q, const __nv_bfloat16* k, const __nv_bfloat16* v,
                    const __nv_bfloat16* o, const float* lse, const __nv_bfloat16* dout, __nv_bfloat16* dq,
                    __nv_bfloat16* dk, __nv_bfloat16* dv, int bh, int n_q, int n_k, int d, float scale,
                    bool causal) {
  static standard_attention::KeptBuffer<float> scores, prob_grads;
  static standard_attention::KeptBuffer<__nv_bfloat16> probabilities, score_grads;
  const standard_attention::Shape shape{bh, n_q, n_k, d, causal};
  standard_attention::start_shape(shape, scores, prob_grads, probabilities, score_grads);
  float* s = scores.for_shape(shape);
  float* dp = s ? prob_grads.for_shape(shape) : nullptr;
  __nv_bfloat16* p = dp ? probabilities.for_shape(shape) : nullptr;
  __nv_bfloat16* ds = p ? score_grads.for_shape(shape) : nullptr;
  if (!ds) return;  // out of memory: cudaMalloc's error is the launcher's
  const cublasHandle_t handle = standard_attention::cublas_handle();
  if (!handle) return;
  const long long rows = static_cast<long long>(bh) * n_q;
  using standard_attention::batched_gemm_bf16;

  // The products as 06_flash_backward.cu maps them to cuBLAS, with bf16 operands:
  // S [n_q, n_k] = scale * Q K^T and dP [n_q, n_k] = dO V^T, fp32 out.
  if (!batched_gemm_bf16(handle, CUBLAS_OP_N, CUBLAS_OP_T, n_q, n_k, d, scale, q, k, s, CUDA_R_32F, bh))
    return;
  if (!batched_gemm_bf16(handle, CUBLAS_OP_N, CUBLAS_OP_T, n_q, n_k, d, 1.0f, dout, v, dp, CUDA_R_32F, bh))
    return;

  probabilities_and_score_grads<<<static_cast<unsigned>((rows + kRowsPerBlock - 1) / kRowsPerBlock),
                                  kRowsPerBlock * kWarp>>>(s, dp, p, ds, lse, o, dout, rows, n_q, n_k, d,
                                                           causal);

  // dV [n_k, d] = P^T dO; dQ [n_q, d] = scale * dS K; dK [n_k, d] = scale * dS^T Q; bf16 out.
  if (!batched_gemm_bf16(handle, CUBLAS_OP_T, CUBLAS_OP_N, n_k, d, n_q, 1.0f, p, dout, dv, CUDA_R_16BF, bh))
    return;
  if (!batched_gemm_bf16(handle, CUBLAS_OP_N, CUBLAS_OP_N, n_q, d, n_k, scale, ds, k, dq, CUDA_R_16BF, bh))
    return;
  batched_gemm_bf16(handle, CUBLAS_OP_T, CUBLAS_OP_N, n_k, d, n_q, scale, ds, q, dk, CUDA_R_16BF, bh);
}
