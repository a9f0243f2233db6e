// What versions 2 and 3 of puzzle 5 share: a block of 64 query rows against tiles of 64 keys, each row's
// keys spread over the 16 threads of a half-warp (keys tx, tx + 16, tx + 32, tx + 48), and its output
// columns over the same 16 threads. The versions differ in how many rows a thread owns and which
// (ThreadRows), in their block size and in how K and V reach shared memory; the products, the online
// step and the end of a row are written once, here, for any ThreadRows. The walk-through is the puzzle's
// docs page.
#pragma once
#include <cuda_runtime.h>

#include <cmath>
#include <type_traits>

namespace {

constexpr int kRows = 64;  // query rows per block
constexpr int kKeys = 64;  // keys per tile
constexpr int kSide = 16;  // threads per row: a half-warp
// Q and K rows are padded by kPad floats, so that 16 threads' float4 reads of 16 rows hit distinct banks.
constexpr int kPad = 4;
constexpr float kLog2e = 1.4426950408889634f, kLn2 = 0.6931471805599453f;

// Rows first .. first + count - 1 of an [n, D] matrix into a tile of `stride`, times `factor`, by a
// block of kThreads; zeros past row n, so that no lane computes with uninitialized (possibly NaN) values.
template <int D, int kThreads>
__device__ void load_rows(float* tile, int stride, const float* src, int first, int count, int n,
                          float factor) {
  constexpr int kVectors = D / 4;  // float4 per row
  for (int i = threadIdx.x; i < count * kVectors; i += kThreads) {
    const int row = i / kVectors, col = i % kVectors * 4;
    float4 x = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
    if (first + row < n)
      x = *reinterpret_cast<const float4*>(src + static_cast<size_t>(first + row) * D + col);
    *reinterpret_cast<float4*>(tile + row * stride + col) =
        make_float4(x.x * factor, x.y * factor, x.z * factor, x.w * factor);
  }
}

// The max over the 16 threads of a half-warp, which hold one row between them.
__device__ float row_max(float x) {
  for (int offset = kSide / 2; offset > 0; offset /= 2) x = fmaxf(x, __shfl_xor_sync(0xffffffffu, x, offset));
  return x;
}

__device__ float row_sum(float x) {
  for (int offset = kSide / 2; offset > 0; offset /= 2) x += __shfl_xor_sync(0xffffffffu, x, offset);
  return x;
}

// Up to 4 consecutive floats of shared memory in one load.
template <int kWidth>
__device__ void load_floats(const float* from, float* to) {
  if constexpr (kWidth == 4) {
    const float4 x = *reinterpret_cast<const float4*>(from);
    to[0] = x.x, to[1] = x.y, to[2] = x.z, to[3] = x.w;
  } else if constexpr (kWidth == 2) {
    const float2 x = *reinterpret_cast<const float2*>(from);
    to[0] = x.x, to[1] = x.y;
  } else {
    to[0] = from[0];
  }
}

template <int D>
struct OutputColumns {  // the d / 16 columns of O a thread owns: groups of kWidth adjacent columns
  static constexpr int kCount = D / kSide;
  static constexpr int kWidth = kCount < 4 ? kCount : 4;
  // Column of element i of the thread's columns: the 16 threads of a row cover 16 * kWidth adjacent ones.
  static __device__ int of(int tx, int i) { return i / kWidth * kSide * kWidth + tx * kWidth + i % kWidth; }
};

constexpr int kKeysPerThread = kKeys / kSide;  // keys tx, tx + 16, tx + 32, tx + 48 of a tile

// The query rows a thread (ty, tx) owns in its block: kCount of them, row r at kFirst * ty + kApart * r.
template <int kCount_, int kFirst, int kApart>
struct ThreadRows {
  static constexpr int kCount = kCount_;
  static __device__ int of(int ty, int r) { return kFirst * ty + kApart * r; }
};

// The block's shared memory, carved out of one dynamic array, with P's rows kPStride_ floats apart (each
// version pads them for its own accesses). P reuses K's space: K is no longer needed once the tile's
// scores are computed, and sharing lets two blocks fit on an SM at d = 128.
template <int D, int kPStride_>
struct SharedTiles {
  static constexpr int kStride = D + kPad;  // row stride of Q and K
  static constexpr int kPStride = kPStride_;
  static constexpr int kKOrP = (kKeys * kStride > kRows * kPStride) ? kKeys * kStride : kRows * kPStride;
  static constexpr size_t kBytes = (kRows * kStride + kKOrP + kKeys * D) * sizeof(float);
  float* q;  // [kRows][kStride], already multiplied by scale * log2(e)
  float* k;  // [kKeys][kStride]
  float* p;  // [kRows][kPStride], in K's space
  float* v;  // [kKeys][D]

  __device__ explicit SharedTiles(float* base)
      : q(base), k(base + kRows * kStride), p(k), v(base + kRows * kStride + kKOrP) {}
};

// Moves the pointers to the block's head, blockIdx.y: q and o are [n_q, D] per head, k and v [n_k, D].
template <int D>
__device__ void seek_head(const float* __restrict__& q, const float* __restrict__& k,
                          const float* __restrict__& v, float* __restrict__& o, float* __restrict__& lse,
                          int n_q, int n_k) {
  const size_t head = blockIdx.y;
  q += head * n_q * D;
  k += head * n_k * D;
  v += head * n_k * D;
  o += head * n_q * D;
  lse += head * n_q;
}

// The keys the block's rows see: all, or (causal) up to its last row's diagonal.
__device__ int key_end_of(int first_row, int n_q, int n_k, bool causal) {
  const int last_row = min(first_row + kRows, n_q) - 1;
  return causal ? max(0, min(n_k, last_row + n_k - n_q + 1)) : n_k;
}

// Causal blocks lower down have more keys to see: start those first, so that the short ones fill the gaps
// at the end of the grid.
__device__ int first_row_of_block(bool causal) {
  return (causal ? gridDim.x - 1 - blockIdx.x : blockIdx.x) * kRows;
}

// A tile that some of the block's rows see only in part: it runs past n_k, or (causal) past the first
// row's diagonal. The others need no mask.
__device__ bool straddles(int first_key, int first_row, int n_q, int n_k, bool causal) {
  return first_key + kKeys > n_k || (causal && first_key + kKeys - 1 > first_row + n_k - n_q);
}

// Whether key `key` is hidden from row `row`: past n_k, or (causal) past its diagonal, key > row + n_k - n_q.
__device__ bool masked(int row, int key, int n_q, int n_k, bool causal) {
  return key >= n_k || (causal && key > row + n_k - n_q);
}

// The thread's scores (base-2 units) of its rows against its keys of the tile, from float4 reads along d
// of Q and K rows `stride` floats apart.
template <int D, class Rows, int kUnroll>
__device__ void tile_scores(const float* q, const float* k, int stride, int ty, int tx,
                            float (&s)[Rows::kCount][kKeysPerThread]) {
  for (int r = 0; r < Rows::kCount; ++r)
    for (int c = 0; c < kKeysPerThread; ++c) s[r][c] = 0.0f;
#pragma unroll kUnroll
  for (int x = 0; x < D; x += 4) {
    float4 a[Rows::kCount], b[kKeysPerThread];
#pragma unroll
    for (int r = 0; r < Rows::kCount; ++r)
      a[r] = *reinterpret_cast<const float4*>(q + Rows::of(ty, r) * stride + x);
#pragma unroll
    for (int c = 0; c < kKeysPerThread; ++c)
      b[c] = *reinterpret_cast<const float4*>(k + (tx + kSide * c) * stride + x);
#pragma unroll
    for (int r = 0; r < Rows::kCount; ++r)
#pragma unroll
      for (int c = 0; c < kKeysPerThread; ++c)
        s[r][c] =
            fmaf(a[r].x, b[c].x, fmaf(a[r].y, b[c].y, fmaf(a[r].z, b[c].z, fmaf(a[r].w, b[c].w, s[r][c]))));
  }
}

// One tile's step of a row's online softmax, in base 2: the row's new max m over its 16 threads' scores
// s; l and the thread's O columns rescaled; s becomes P = exp2(s - m), added into l.
template <int kColumns>
__device__ void online_step(float (&s)[kKeysPerThread], float& m, float& l, float (&acc)[kColumns]) {
  float tile_max = s[0];
  for (int c = 1; c < kKeysPerThread; ++c) tile_max = fmaxf(tile_max, s[c]);
  const float m_new = fmaxf(m, row_max(tile_max));
  // A row that has seen no key yet keeps m = -inf. Subtracting 0 instead gives its masked scores
  // and its rescale exp2(-inf) = 0, where exp2(-inf - -inf) would be NaN.
  const float base = m_new == -INFINITY ? 0.0f : m_new;
  const float rescale = exp2f(m - base);
  m = m_new;
  l *= rescale;
  for (int i = 0; i < kColumns; ++i) acc[i] *= rescale;
  for (int c = 0; c < kKeysPerThread; ++c) {
    s[c] = exp2f(s[c] - base);
    l += s[c];
  }
}

// The end of a row: o = O / l; lse = ln(2) * (m + log2(l)) since m is in base-2 units. A row that saw
// no key: o = 0, lse = -inf. l is this thread's share of the row's sum.
template <int D>
__device__ void write_row(float* o, float* lse, int row, int n_q, int tx, float m, float l,
                          const float (&acc)[D / kSide]) {
  const float row_l = row_sum(l);
  if (row >= n_q) return;
  const float inv_l = row_l > 0.0f ? 1.0f / row_l : 0.0f;
  for (int i = 0; i < OutputColumns<D>::kCount; ++i)
    o[static_cast<size_t>(row) * D + OutputColumns<D>::of(tx, i)] = acc[i] * inv_l;
  if (tx == 0) lse[row] = row_l > 0.0f ? kLn2 * (m + log2f(row_l)) : -INFINITY;
}

// The thread's rows before the first tile: no max yet, nothing summed.
template <int kRowCount, int kColumns>
__device__ void start_rows(float (&m)[kRowCount], float (&l)[kRowCount], float (&acc)[kRowCount][kColumns]) {
  for (int r = 0; r < kRowCount; ++r) {
    m[r] = -INFINITY;
    l[r] = 0.0f;
    for (int i = 0; i < kColumns; ++i) acc[r][i] = 0.0f;
  }
}

// A tile's scores into the online state of the thread's rows: -inf where a row must not see the key (only
// in tiles that straddle the end of the keys or the diagonal), then each row's online step; s becomes P.
template <class Rows, int kColumns>
__device__ void fold_tile(float (&s)[Rows::kCount][kKeysPerThread], float (&m)[Rows::kCount],
                          float (&l)[Rows::kCount], float (&acc)[Rows::kCount][kColumns], int first_row,
                          int first_key, int ty, int tx, int n_q, int n_k, bool causal) {
  if (straddles(first_key, first_row, n_q, n_k, causal)) {
#pragma unroll
    for (int r = 0; r < Rows::kCount; ++r)
#pragma unroll
      for (int c = 0; c < kKeysPerThread; ++c)
        if (masked(first_row + Rows::of(ty, r), first_key + tx + kSide * c, n_q, n_k, causal))
          s[r][c] = -INFINITY;
  }
#pragma unroll
  for (int r = 0; r < Rows::kCount; ++r) online_step(s[r], m[r], l[r], acc[r]);
}

// The thread's P into shared memory (rows `stride` floats apart), for its half-warp's O += P V.
template <class Rows>
__device__ void store_p(float* p, int stride, int ty, int tx,
                        const float (&s)[Rows::kCount][kKeysPerThread]) {
#pragma unroll
  for (int r = 0; r < Rows::kCount; ++r)
#pragma unroll
    for (int c = 0; c < kKeysPerThread; ++c) p[Rows::of(ty, r) * stride + tx + kSide * c] = s[r][c];
}

// O += P V over one tile: the thread's rows of P (`p_stride` apart), 4 keys at a time, against its d/16
// columns of V.
template <int D, class Rows, int kUnroll>
__device__ void accumulate_pv(const float* p, int p_stride, const float* v, int ty, int tx,
                              float (&acc)[Rows::kCount][D / kSide]) {
  using Columns = OutputColumns<D>;
#pragma unroll kUnroll
  for (int j = 0; j < kKeys; j += 4) {
    float pj[Rows::kCount][4];
#pragma unroll
    for (int r = 0; r < Rows::kCount; ++r) load_floats<4>(p + Rows::of(ty, r) * p_stride + j, pj[r]);
#pragma unroll
    for (int jj = 0; jj < 4; ++jj) {
      float vj[Columns::kCount];
#pragma unroll
      for (int i = 0; i < Columns::kCount; i += Columns::kWidth)
        load_floats<Columns::kWidth>(v + (j + jj) * D + Columns::of(tx, i), vj + i);
#pragma unroll
      for (int r = 0; r < Rows::kCount; ++r)
#pragma unroll
        for (int i = 0; i < Columns::kCount; ++i) acc[r][i] = fmaf(pj[r][jj], vj[i], acc[r][i]);
    }
  }
}

// The end of the block: o and lse of the thread's rows.
template <int D, class Rows>
__device__ void write_rows(float* o, float* lse, int first_row, int n_q, int ty, int tx,
                           const float (&m)[Rows::kCount], const float (&l)[Rows::kCount],
                           const float (&acc)[Rows::kCount][D / kSide]) {
#pragma unroll
  for (int r = 0; r < Rows::kCount; ++r)
    write_row<D>(o, lse, first_row + Rows::of(ty, r), n_q, tx, m[r], l[r], acc[r]);
}

// The launch of a version's kernel for one d: a block per 64 query rows of a head, `bytes` of dynamic
// shared memory (above the default 48 KiB from d = 64 on, so the limit is raised first).
template <typename Kernel>
void launch_blocks(Kernel kernel, size_t bytes, int threads, const float* q, const float* k, const float* v,
                   float* o, float* lse, int bh, int n_q, int n_k, float scale, bool causal) {
  cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(bytes));
  const dim3 grid((n_q + kRows - 1) / kRows, bh);
  kernel<<<grid, threads, bytes>>>(q, k, v, o, lse, n_q, n_k, scale * kLog2e, causal);
}

// Calls launch(std::integral_constant<int, D>()) for d: the version's kernel for that d, in which loops over
// d unroll and arrays of it stay in registers.
template <typename Launch>
void dispatch_d(int d, Launch launch) {
  switch (d) {
    case 16:
      return launch(std::integral_constant<int, 16>());
    case 32:
      return launch(std::integral_constant<int, 32>());
    case 64:
      return launch(std::integral_constant<int, 64>());
    case 128:
      return launch(std::integral_constant<int, 128>());
  }
}

}  // namespace
