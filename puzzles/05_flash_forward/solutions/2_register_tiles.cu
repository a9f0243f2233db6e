// Puzzle 5 · Flash attention forward — version 2: register tiles.
// Over 1_clear.cu: 256 threads per 64 query rows and tiles of 64 keys, each thread a 4 x 4 block of
// scores in registers (16 FMAs per 8 floats read from shared memory, where a thread per row does 1 per
// 2); float4 loads from padded shared rows; P through shared memory; scores in base 2 (one exp2f each);
// d a template parameter (loops of known length); causal tiles above the diagonal skipped.
// The spec is in the stub, 05_flash_forward.cu; the walk-through is the puzzle's docs page.
//
// One block of 256 threads per 64 query rows of one head. Its Q rows stay in shared memory; tiles of 64
// keys go by, each K and V tile staged in shared memory once for all 64 rows:
//   1. S = Q K^T for the tile: the 256 threads as 16 x 16, thread (ty, tx) computing rows 4ty..4ty+3 and
//      keys tx, tx + 16, tx + 32, tx + 48 (a 4 x 4 block of scores in registers). Keys past n_k and
//      above the causal diagonal get -inf.
//   2. The online softmax of each row: the 16 threads of a row (one half-warp) agree on the tile's max
//      with __shfl_xor_sync; a new max m rescales the row's sum l and its accumulator O by exp(m_old - m).
//   3. P = exp(S - m) goes through shared memory (each thread needs a whole row of it), and O += P V,
//      each thread accumulating 4 rows x d/16 columns of O in registers.
// At the end o = O / l and lse = m + log(l). Scores are kept in base 2 (q is pre-multiplied by
// scale * log2(e)), so that each exponential is one exp2f; lse is converted back to the natural log.
// Causal: key tiles above the diagonal of the block's last row are skipped; only tiles that straddle it
// (or the end of the keys) are masked.
#include <cuda_runtime.h>

#include <cmath>

namespace {

constexpr int kRows = 64;  // query rows per block
constexpr int kKeys = 64;  // keys per tile
constexpr int kSide = 16;  // the block is kSide x kSide threads
constexpr int kMicro = 4;  // each thread's scores: kMicro rows x kMicro keys
// Q, K and P rows are padded by kPad floats, so that 16 threads' float4 reads of 16 rows hit distinct banks.
constexpr int kPad = 4;
constexpr int kThreads = kSide * kSide;
constexpr float kLog2e = 1.4426950408889634f, kLn2 = 0.6931471805599453f;

// The block's shared memory, carved out of one dynamic array. P reuses K's space: K is no longer
// needed once the tile's scores are computed, and sharing lets two blocks fit on an SM at d = 128.
template <int D>
struct Tiles {
  static constexpr int kStride = D + kPad;       // row stride of Q and K
  static constexpr int kPStride = kKeys + kPad;  // row stride of P
  static constexpr int kKOrP = (kKeys * kStride > kRows * kPStride) ? kKeys * kStride : kRows * kPStride;
  static constexpr size_t kBytes = (kRows * kStride + kKOrP + kKeys * D) * sizeof(float);
  float* q;  // [kRows][kStride], already multiplied by scale * log2(e)
  float* k;  // [kKeys][kStride]
  float* p;  // [kRows][kPStride], in K's space
  float* v;  // [kKeys][D]

  __device__ explicit Tiles(float* base)
      : q(base), k(base + kRows * kStride), p(k), v(base + kRows * kStride + kKOrP) {}
};

// Rows first .. first + count - 1 of an [n, D] matrix into a tile of `stride`, times `factor`; zeros
// past row n, so that no lane computes with uninitialized (possibly NaN) values.
template <int D>
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

// The thread's 4 x 4 block of scores (base-2 units) of rows 4ty.., keys tx + 16c of the tile.
template <int D>
__device__ void tile_scores(const Tiles<D>& t, int ty, int tx, float (&s)[kMicro][kMicro]) {
  for (int r = 0; r < kMicro; ++r)
    for (int c = 0; c < kMicro; ++c) s[r][c] = 0.0f;
#pragma unroll 4
  for (int x = 0; x < D; x += 4) {
    float4 a[kMicro], b[kMicro];
#pragma unroll
    for (int r = 0; r < kMicro; ++r)
      a[r] = *reinterpret_cast<const float4*>(t.q + (kMicro * ty + r) * t.kStride + x);
#pragma unroll
    for (int c = 0; c < kMicro; ++c)
      b[c] = *reinterpret_cast<const float4*>(t.k + (tx + kSide * c) * t.kStride + x);
#pragma unroll
    for (int r = 0; r < kMicro; ++r)
#pragma unroll
      for (int c = 0; c < kMicro; ++c)
        s[r][c] =
            fmaf(a[r].x, b[c].x, fmaf(a[r].y, b[c].y, fmaf(a[r].z, b[c].z, fmaf(a[r].w, b[c].w, s[r][c]))));
  }
}

// -inf for the keys a row must not see: past n_k, or (causal) past its diagonal, j > i + n_k - n_q.
__device__ void mask_scores(float (&s)[kMicro][kMicro], int first_row, int first_key, int n_k, int diagonal,
                            bool causal) {
#pragma unroll
  for (int r = 0; r < kMicro; ++r)
#pragma unroll
    for (int c = 0; c < kMicro; ++c) {
      const int key = first_key + kSide * c;
      if (key >= n_k || (causal && key > first_row + r + diagonal)) s[r][c] = -INFINITY;
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

// O += P V over one tile: P rows 4ty.. from shared memory, V rows from shared memory.
template <int D>
__device__ void accumulate_pv(const Tiles<D>& t, int ty, int tx, float (&acc)[kMicro][D / kSide]) {
  using Columns = OutputColumns<D>;
#pragma unroll 2
  for (int j = 0; j < kKeys; j += 4) {
    float p[kMicro][4];
#pragma unroll
    for (int r = 0; r < kMicro; ++r) load_floats<4>(t.p + (kMicro * ty + r) * t.kPStride + j, p[r]);
#pragma unroll
    for (int jj = 0; jj < 4; ++jj) {
      float v[Columns::kCount];
#pragma unroll
      for (int i = 0; i < Columns::kCount; i += Columns::kWidth)
        load_floats<Columns::kWidth>(t.v + (j + jj) * D + Columns::of(tx, i), v + i);
#pragma unroll
      for (int r = 0; r < kMicro; ++r)
#pragma unroll
        for (int i = 0; i < Columns::kCount; ++i) acc[r][i] = fmaf(p[r][jj], v[i], acc[r][i]);
    }
  }
}

template <int D>
__global__ void __launch_bounds__(kThreads)
    flash_fwd_kernel(const float* __restrict__ q, const float* __restrict__ k, const float* __restrict__ v,
                     float* __restrict__ o, float* __restrict__ lse, int n_q, int n_k, float q_factor,
                     bool causal) {
  extern __shared__ float4 shared_memory[];
  const Tiles<D> t(reinterpret_cast<float*>(shared_memory));
  using Columns = OutputColumns<D>;

  // Causal blocks lower down have more keys to see: start those first, so that the short ones fill
  // the gaps at the end of the grid.
  const int first_row = (causal ? gridDim.x - 1 - blockIdx.x : blockIdx.x) * kRows;
  const size_t head = blockIdx.y;
  q += head * n_q * D;
  o += head * n_q * D;
  lse += head * n_q;
  k += head * n_k * D;
  v += head * n_k * D;
  const int ty = threadIdx.x / kSide, tx = threadIdx.x % kSide;
  const int my_row = first_row + kMicro * ty;  // the first of this thread's rows

  // The keys any row of the block sees: all, or (causal) up to the last row's diagonal.
  const int diagonal = n_k - n_q;
  const int last_row = min(first_row + kRows, n_q) - 1;
  const int key_end = causal ? max(0, min(n_k, last_row + diagonal + 1)) : n_k;

  load_rows<D>(t.q, t.kStride, q, first_row, kRows, n_q, q_factor);
  float m[kMicro], l[kMicro], acc[kMicro][Columns::kCount];  // l: this thread's share of the row's sum
  for (int r = 0; r < kMicro; ++r) {
    m[r] = -INFINITY;
    l[r] = 0.0f;
    for (int i = 0; i < Columns::kCount; ++i) acc[r][i] = 0.0f;
  }

  for (int first_key = 0; first_key < key_end; first_key += kKeys) {
    __syncthreads();  // the last tile's P and V are read: K and V may be overwritten
    load_rows<D>(t.k, t.kStride, k, first_key, kKeys, n_k, 1.0f);
    load_rows<D>(t.v, D, v, first_key, kKeys, n_k, 1.0f);
    __syncthreads();

    float s[kMicro][kMicro];
    tile_scores(t, ty, tx, s);
    const bool straddles =
        first_key + kKeys > n_k || (causal && first_key + kKeys - 1 > first_row + diagonal);
    if (straddles) mask_scores(s, my_row, first_key + tx, n_k, diagonal, causal);

#pragma unroll
    for (int r = 0; r < kMicro; ++r) {
      float tile_max = s[r][0];
      for (int c = 1; c < kMicro; ++c) tile_max = fmaxf(tile_max, s[r][c]);
      const float m_new = fmaxf(m[r], row_max(tile_max));
      // A row that has seen no key yet keeps m = -inf. Subtracting 0 instead gives its masked scores
      // and its rescale exp2(-inf) = 0, where exp2(-inf - -inf) would be NaN.
      const float base = m_new == -INFINITY ? 0.0f : m_new;
      const float rescale = exp2f(m[r] - base);
      m[r] = m_new;
      l[r] *= rescale;
      for (int i = 0; i < Columns::kCount; ++i) acc[r][i] *= rescale;
      for (int c = 0; c < kMicro; ++c) {
        s[r][c] = exp2f(s[r][c] - base);
        l[r] += s[r][c];
      }
    }

    __syncthreads();  // every thread is done with K: P takes its place
#pragma unroll
    for (int r = 0; r < kMicro; ++r)
#pragma unroll
      for (int c = 0; c < kMicro; ++c) t.p[(kMicro * ty + r) * t.kPStride + tx + kSide * c] = s[r][c];
    __syncwarp();  // a row's P is written and read by the same half-warp
    accumulate_pv(t, ty, tx, acc);
  }

  // o = O / l; lse = ln(2) * (m + log2(l)) since m is in base-2 units. A row that saw no key: o = 0,
  // lse = -inf.
#pragma unroll
  for (int r = 0; r < kMicro; ++r) {
    const float row_l = row_sum(l[r]);
    const int row = my_row + r;
    if (row >= n_q) continue;
    const float inv_l = row_l > 0.0f ? 1.0f / row_l : 0.0f;
    for (int i = 0; i < Columns::kCount; ++i)
      o[static_cast<size_t>(row) * D + Columns::of(tx, i)] = acc[r][i] * inv_l;
    if (tx == 0) lse[row] = row_l > 0.0f ? kLn2 * (m[r] + log2f(row_l)) : -INFINITY;
  }
}

template <int D>
void launch(const float* q, const float* k, const float* v, float* o, float* lse, int bh, int n_q, int n_k,
            float scale, bool causal) {
  constexpr size_t kBytes = Tiles<D>::kBytes;  // above the default 48 KiB from d = 64 on
  cudaFuncSetAttribute(flash_fwd_kernel<D>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                       static_cast<int>(kBytes));
  const dim3 grid((n_q + kRows - 1) / kRows, bh);
  flash_fwd_kernel<D><<<grid, kThreads, kBytes>>>(q, k, v, o, lse, n_q, n_k, scale * kLog2e, causal);
}

}  // namespace

void flash_fwd(const float* q, const float* k, const float* v, float* o, float* lse, int bh, int n_q, int n_k,
               int d, float scale, bool causal) {
  switch (d) {  // d is a template parameter: loops over it unroll and arrays of it stay in registers
    case 16:
      return launch<16>(q, k, v, o, lse, bh, n_q, n_k, scale, causal);
    case 32:
      return launch<32>(q, k, v, o, lse, bh, n_q, n_k, scale, causal);
    case 64:
      return launch<64>(q, k, v, o, lse, bh, n_q, n_k, scale, causal);
    case 128:
      return launch<128>(q, k, v, o, lse, bh, n_q, n_k, scale, causal);
  }
}
