// Version 6's operands (6_truncated_split_ldmatrix.cu): how its kernels read the K, V, Q and dO fragments
// of S^T and dP^T, and how their products split operands into tf32 pairs. The kernels are version 5's at
// d = 128 (d128_split_queries.cuh) and version 4's below (tensor_cores_3xtf32.cuh), which take this as
// their Operands.
#pragma once
#include "../common/tensor_core_ptx.cuh"
#include "tensor_cores_3xtf32.cuh"

namespace tensor_cores {

struct LdmatrixTruncatedSplit {
  // dV += P^T dO, dK += scale dS^T Q and dq += scale dS K split their operands with big = x's low 13 bits
  // cut: two instructions a value instead of three (three_tf32.cuh's split_truncated). Its errors all shrink
  // a product, by 2^-22 of it on average, so each of these sums, a gradient, comes out that fraction too
  // small: far inside the tolerance. S^T and dP^T keep the rounded split, for what comes after them turns
  // their errors into larger ones: P = exp(s - lse) makes an error e of a score a relative error e of P,
  // and scores reach the hundreds (the large_logits cases: 2^-22 of 400 is 1e-4); dS = P (dP - D) is the
  // difference of two nearly equal numbers where a query sees few keys (dP = D where it sees one).
  // Measured: with S^T's split cut too, the worst error of the checks' small cases came to two thirds of
  // the tolerance instead of a third (the simulator, 3 seeds); with dP^T's cut too, dq of a query that
  // sees one key came out at 1.1e-5 instead of 0, past the check's 1e-5 (an H200, d = 128).
  static constexpr Tf32Split kScoresSplit = Tf32Split::kRounded, kGradientSplit = Tf32Split::kTruncated;
  static constexpr int kBSlices = 2;  // B fragments a load gives

  // ldmatrix reads 8 x 8 matrices of 16-bit values: 8 rows of 16 bytes, one row address from each of 8
  // lanes, and hands lane l the 32 bits at row l / 4, bytes 4 (l % 4) to 4 (l % 4) + 3: one float. So one
  // ldmatrix.x4 gives four blocks of 8 rows x 4 floats of a tile, lane (g, t) getting row g, column t of
  // each: an m16n8k8 tf32 fragment as it lies (three_tf32.cuh). Lanes 8m to 8m + 7 give the rows of block
  // m. The rows must be 16 bytes aligned (stride a multiple of 4 floats); with stride 4 more than a multiple
  // of 32, the 8 rows of a block hit 32 distinct banks.
  // A (16 x 8): blocks rows 0-7 and 8-15 at columns 0-3, then the same at columns 4-7: a_from_rows's a[0..3]
  // in one instruction instead of 4 loads.
  __device__ static void a_fragment(const float* tile, int stride, int g, int t, float (&a)[4]) {
    const int lane = 4 * g + t;
    uint32_t r[4];
    ldmatrix_x4(r, tile + lane % 16 * stride + lane / 16 * 4);
#pragma unroll
    for (int i = 0; i < 4; ++i) a[i] = __uint_as_float(r[i]);
  }
  // B (B = tile^T) of the slices of rows 0-7 and 8-15: blocks rows 0-7 at columns 0-3 and 4-7, then rows
  // 8-15 the same: b_from_rows's b for each slice, in one instruction instead of 4 loads.
  __device__ static void b_fragments(const float* tile, int stride, int g, int t, float (&b)[kBSlices][2]) {
    const int lane = 4 * g + t;
    uint32_t r[4];
    ldmatrix_x4(r, tile + (lane / 16 * 8 + lane % 8) * stride + lane / 8 % 2 * 4);
#pragma unroll
    for (int i = 0; i < 4; ++i) b[i / 2][i % 2] = __uint_as_float(r[i]);
  }
};

}  // namespace tensor_cores
