// Puzzle 6 · Flash attention backward — version 1: clear.
// The spec is in the stub, 06_flash_backward.cu; the walk-through is the puzzle's docs page.
//
// FlashAttention-2's plan, one thread per key:
//   1. dq = 0: every key tile adds its share into it.
//   2. delta_kernel: D_i = rowsum(dO_i * O_i), one thread per query row, into a scratch of bh * n_q floats.
//   3. flash_bwd_kernel: one block of 32 threads per (tile of 32 keys, head); thread j owns key j: its
//      v_j, dk_j and dv_j stay in registers while the block walks the tiles of 16 queries. Per tile,
//      with P recomputed from q, k and lse (never stored):
//        p = exp(scale q_i.k_j - lse_i),  ds = p (dO_i.v_j - D_i)
//        dv_j += p dO_i,   dk_j += scale ds q_i,   dq_i += scale sum_j ds k_j (atomicAdd: other blocks
//        add to the same dq_i).
#include <cuda_runtime.h>

#include <cmath>

constexpr int kMaxD = 128;
constexpr int kKeys = 32;     // keys per block: one per thread
constexpr int kQueries = 16;  // queries per tile

__global__ void delta_kernel(const float* o, const float* dout, float* delta, int rows, int d) {
  const int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= rows) return;
  float sum = 0.0f;
  for (int c = 0; c < d; ++c)
    sum += o[static_cast<size_t>(row) * d + c] * dout[static_cast<size_t>(row) * d + c];
  delta[row] = sum;
}

__global__ void flash_bwd_kernel(const float* q, const float* k, const float* v, const float* lse,
                                 const float* delta, const float* dout, float* dq, float* dk, float* dv,
                                 int n_q, int n_k, int d, float scale, bool causal) {
  __shared__ float k_tile[kKeys][kMaxD];                               // the block's keys (for dq)
  __shared__ float q_tile[kQueries][kMaxD], do_tile[kQueries][kMaxD];  // a tile of queries and their dO
  __shared__ float ds_tile[kQueries][kKeys];                           // scale * dS of the tile
  const size_t head = blockIdx.y;
  const int k0 = blockIdx.x * kKeys, j = k0 + threadIdx.x;  // this thread's key
  const bool has_key = j < n_k;

  // 1. Load the block's K tile (shared: the dq step needs every key) and this thread's v_j; zero dK, dV.
  float v_j[kMaxD], dk_j[kMaxD], dv_j[kMaxD];
  for (int c = 0; c < d; ++c) {
    k_tile[threadIdx.x][c] = has_key ? k[(head * n_k + j) * d + c] : 0.0f;
    v_j[c] = has_key ? v[(head * n_k + j) * d + c] : 0.0f;
    dk_j[c] = dv_j[c] = 0.0f;
  }

  // 2. The query tiles. Causal (bottom-right aligned): query i sees key j iff j <= i + n_k - n_q, so the
  // queries before k0 - (n_k - n_q) see none of the block's keys: their tiles are skipped.
  const int first_query = causal ? max(0, k0 - (n_k - n_q)) : 0;
  for (int q0 = first_query / kQueries * kQueries; q0 < n_q; q0 += kQueries) {
    __syncthreads();  // every thread is done with the previous tile (and k_tile is written)
    for (int e = threadIdx.x; e < kQueries * d; e += kKeys) {  // zeros past n_q
      const int r = e / d, c = e % d;
      q_tile[r][c] = q0 + r < n_q ? q[(head * n_q + q0 + r) * d + c] : 0.0f;
      do_tile[r][c] = q0 + r < n_q ? dout[(head * n_q + q0 + r) * d + c] : 0.0f;
    }
    __syncthreads();

    for (int r = 0; r < kQueries; ++r) {
      const int i = q0 + r;
      const bool sees = has_key && i < n_q && (!causal || j <= i + n_k - n_q);
      float ds = 0.0f;  // a masked pair (also a query that sees no key, whose lse is -inf) adds nothing
      if (sees) {
        float s = 0.0f, dp = 0.0f;  // S = q_i . k_j and dP = dO_i . v_j
        for (int c = 0; c < d; ++c) {
          s += q_tile[r][c] * k_tile[threadIdx.x][c];
          dp += do_tile[r][c] * v_j[c];
        }
        const float p =
            expf(scale * s - lse[head * n_q + i]);  // P recomputed: exp(S - lse), never / exp(lse)
        ds = p * (dp - delta[head * n_q + i]);
        for (int c = 0; c < d; ++c) {
          dv_j[c] += p * do_tile[r][c];          // dV = P^T dO
          dk_j[c] += scale * ds * q_tile[r][c];  // dK = scale dS^T Q
        }
      }
      ds_tile[r][threadIdx.x] = scale * ds;
    }
    __syncthreads();

    // dQ = scale dS K for the tile's queries: each thread sums a few (query, dim) elements over the
    // block's 32 keys, and adds them into dq atomically (the other key tiles add to the same elements).
    for (int e = threadIdx.x; e < kQueries * d; e += kKeys) {
      const int r = e / d, c = e % d;
      if (q0 + r >= n_q) continue;
      float sum = 0.0f;
      for (int key = 0; key < kKeys; ++key) sum += ds_tile[r][key] * k_tile[key][c];
      atomicAdd(&dq[(head * n_q + q0 + r) * d + c], sum);
    }
  }

  // 3. Write dK and dV: only this block computes them.
  if (!has_key) return;
  for (int c = 0; c < d; ++c) {
    dk[(head * n_k + j) * d + c] = dk_j[c];
    dv[(head * n_k + j) * d + c] = dv_j[c];
  }
}

// clang-format off
void flash_bwd(const float* q, const float* k, const float* v, const float* o, const float* lse, const float* dout, float* dq, float* dk, float* dv, int bh, int n_q, int n_k, int d, float scale, bool causal) {
  // clang-format on
  const int rows = bh * n_q;
  float* delta = nullptr;  // D: bh * n_q floats of scratch
  cudaMalloc(&delta, sizeof(float) * rows);
  cudaMemsetAsync(dq, 0, sizeof(float) * rows * d);
  delta_kernel<<<(rows + 255) / 256, 256>>>(o, dout, delta, rows, d);
  const dim3 grid((n_k + kKeys - 1) / kKeys, bh);  // key tiles x heads
  flash_bwd_kernel<<<grid, kKeys>>>(q, k, v, lse, delta, dout, dq, dk, dv, n_q, n_k, d, scale, causal);
  cudaFree(delta);
}
