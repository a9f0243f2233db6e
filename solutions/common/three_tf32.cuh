// fp32 products on the tensor cores at fp32 accuracy (3xTF32): what puzzle 5's version 4 and puzzle 6's
// versions 4 to 6 share. tf32 keeps 10 of a float's 23
// significand bits, too few for these puzzles' tolerances, so each operand x is split into big = x
// rounded to tf32 and small = x - big (its next bits), and a * b is summed as big_a * big_b +
// big_a * small_b + small_a * big_b: three mma.sync for each product, with an error near fp32's
// (small_a * small_b, left out, is at most 2^-22 of a * b). torch's fp32 scaled_dot_product_attention does
// the same on sm_80 and later (CUTLASS's OpMultiplyAddFastF32 in its memory-efficient kernels). Puzzle 6's
// version 6 cuts big instead of rounding it (split_truncated): one instruction fewer a value. Puzzle 7
// teaches mma.sync and its fragments.
#pragma once
#include <cuda_runtime.h>

#include <cstdint>

namespace {

// c += a * b for one 16 x 8 x 8 tile in tf32. A: a[r] at row g + 8 (r % 2), column t + 4 (r / 2); B: b[r]
// at row t + 4r, column g; C: c[i] at row g + 8 (i / 2), column 2t + i % 2 (PTX ISA, m16n8k8 .tf32), for
// lane (g, t) = (lane / 4, lane % 4). The tensor core reads the top 19 bits of each A and B register.
__device__ __forceinline__ void mma_tf32(float (&c)[4], const uint32_t (&a)[4], const uint32_t (&b)[2]) {
  asm("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, "
      "{%0,%1,%2,%3};\n"
      : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
}

// x as big + small: big, x rounded to tf32 (half an ulp added, then the low 13 bits cut, as CUTLASS rounds:
// three instructions), and small, what is left (exact in a float, |small| <= 2^-11 |x|; the tensor core
// reads its top bits, so the pair holds x to about 2^-22 of it).
__device__ __forceinline__ void split_rounded(float x, uint32_t& big, uint32_t& small) {
  big = (__float_as_uint(x) + 0x1000u) & 0xFFFFE000u;
  small = __float_as_uint(x - __uint_as_float(big));
}
// The same with big = x's low 13 bits cut (toward zero): two instructions. small then carries what big
// dropped, up to 13 bits (0 <= small / x < 2^-10), exactly; the tensor core reads its top 11 significant
// bits, so the pair still holds x to about 2^-21 of it (the rounded split: 2^-22), and a * b from three mma
// is off by at most about 2^-19 of it. What changes is the sign: small is never of the other sign than x, so
// what the pair and the left-out small_a * small_b miss always shrinks the product, by 2^-22 of it on
// average (measured over normal random a and b; the rounded split's errors average out to nothing). A sum
// of products comes out too small by that fraction, 2.7e-7: harmless where the sum is the result (the
// checks allow 1e-4 of it), not where exp() of it is taken or it is nearly cancelled. Puzzle 6's version 6
// uses it for the products that sum its gradients.
__device__ __forceinline__ void split_truncated(float x, uint32_t& big, uint32_t& small) {
  big = __float_as_uint(x) & 0xFFFFE000u;
  small = __float_as_uint(x - __uint_as_float(big));
}
enum class Tf32Split { kRounded, kTruncated };  // which of the two a SplitFragment uses

// A fragment of kCount floats (A's 4 or B's 2) as two tf32 fragments, big and small, each value split as
// kSplit says.
template <int kCount, Tf32Split kSplit = Tf32Split::kRounded>
struct SplitFragment {
  uint32_t big[kCount], small[kCount];
  __device__ __forceinline__ explicit SplitFragment(const float (&x)[kCount]) {
#pragma unroll
    for (int i = 0; i < kCount; ++i) {
      if constexpr (kSplit == Tf32Split::kTruncated) {
        split_truncated(x[i], big[i], small[i]);
      } else {
        split_rounded(x[i], big[i], small[i]);
      }
    }
  }
};

// c += a * b at fp32 accuracy: the two small cross terms first, then big * big, as CUTLASS orders them.
template <Tf32Split kSplit>
__device__ __forceinline__ void mma_3xtf32(float (&c)[4], const SplitFragment<4, kSplit>& a,
                                           const SplitFragment<2, kSplit>& b) {
  mma_tf32(c, a.small, b.big);
  mma_tf32(c, a.big, b.small);
  mma_tf32(c, a.big, b.big);
}

// Fragments from shared memory, for a lane (g, t) = (lane / 4, lane % 4), from a tile whose rows are
// `stride` floats apart. With stride = 4 more than a multiple of 32 every one of these reads hits 32
// distinct banks (rows g and columns t: 4g + t; rows 2t and columns g: 8t + g).
// A (16 x 8, row-major at `tile`): rows g and g + 8, columns t and t + 4.
__device__ __forceinline__ void a_from_rows(const float* tile, int stride, int g, int t, float (&a)[4]) {
  a[0] = tile[g * stride + t];
  a[1] = tile[(g + 8) * stride + t];
  a[2] = tile[g * stride + t + 4];
  a[3] = tile[(g + 8) * stride + t + 4];
}
// B (8 x 8) whose column n is row n of the tile (B = tile^T, as K for Q K^T): row g, columns t and t + 4.
__device__ __forceinline__ void b_from_rows(const float* tile, int stride, int g, int t, float (&b)[2]) {
  b[0] = tile[g * stride + t];
  b[1] = tile[g * stride + t + 4];
}

// A product sums over k in any order, and so the k index may be renumbered as long as A and B agree. With
// A's columns t and t + 4 standing for k = 2t and 2t + 1, an accumulator fragment (which holds columns 2t
// and 2t + 1 of rows g and g + 8) is an A fragment as it stands, reordered: no shuffle.
__device__ __forceinline__ void a_from_accumulator(const float (&c)[4], float (&a)[4]) {
  a[0] = c[0];
  a[1] = c[2];
  a[2] = c[1];
  a[3] = c[3];
}
// B (8 x 8) as rows k of the tile, columns 0-7 (V for P V), k renumbered as above: rows 2t and 2t + 1,
// column g.
__device__ __forceinline__ void b_from_columns(const float* tile, int stride, int g, int t, float (&b)[2]) {
  b[0] = tile[2 * t * stride + g];
  b[1] = tile[(2 * t + 1) * stride + g];
}
// A (16 x 8) stored transposed (A's row r is the tile's column r, as dS^T for dS K), k renumbered as above:
// rows 2t and 2t + 1, columns g and g + 8.
__device__ __forceinline__ void a_from_columns(const float* tile, int stride, int g, int t, float (&a)[4]) {
  a[0] = tile[2 * t * stride + g];
  a[1] = tile[2 * t * stride + g + 8];
  a[2] = tile[(2 * t + 1) * stride + g];
  a[3] = tile[(2 * t + 1) * stride + g + 8];
}

// acc += F R for a warp: F (16 x 8 kSlices) held as accumulator fragments frag[j] (columns 8j .. 8j + 7),
// R the 8 kSlices rows of a shared tile (`stride` floats apart) and 8 kTiles columns, acc[n] the
// accumulator fragment of R's columns 8n .. 8n + 7. P V in the forward pass, P^T dO and dS^T Q in the
// backward; the operands split as kSplit says.
template <Tf32Split kSplit = Tf32Split::kRounded, int kSlices, int kTiles>
__device__ void add_product_from_accumulators(const float (&frag)[kSlices][4], const float* rows, int stride,
                                              int g, int t, float (&acc)[kTiles][4]) {
#pragma unroll
  for (int j = 0; j < kSlices; ++j) {
    float a[4];
    a_from_accumulator(frag[j], a);
    const SplitFragment<4, kSplit> part(a);
#pragma unroll
    for (int n = 0; n < kTiles; ++n) {
      float b[2];
      b_from_columns(rows + 8 * j * stride + 8 * n, stride, g, t, b);
      mma_3xtf32(acc[n], part, SplitFragment<2, kSplit>(b));
    }
  }
}

}  // namespace
