// Puzzle 5 · Flash attention forward — version 2: register tiles.
// Over 1_clear.cu: 256 threads per 64 query rows and tiles of 64 keys, each thread a 4 x 4 block of
// scores in registers (16 FMAs per 8 floats read from shared memory, where a thread per row does 1 per
// 2); float4 loads from padded shared rows; P through shared memory; scores in base 2 (one exp2f each);
// d a template parameter (loops of known length); causal tiles above the diagonal skipped.
// The spec is in the stub, 05_flash_forward.cu; the walk-through is the puzzle's docs page; what version 3
// shares with this one (the two products, the online step, the end of a row) is in forward_tiles.cuh.
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
#include "forward_tiles.cuh"

namespace {

constexpr int kMicro = 4;  // each thread's scores: kMicro rows x kMicro keys
constexpr int kThreads = kSide * kSide;

// P rows padded by 4, as Q and K: a half-warp reads float4s of 16 rows in distinct banks.
template <int D>
using Tiles = SharedTiles<D, kKeys + kPad>;

using Rows = ThreadRows<kMicro, kMicro, 1>;  // rows 4ty .. 4ty + 3

template <int D>
__global__ void __launch_bounds__(kThreads)
    flash_fwd_kernel(const float* __restrict__ q, const float* __restrict__ k, const float* __restrict__ v,
                     float* __restrict__ o, float* __restrict__ lse, int n_q, int n_k, float q_factor,
                     bool causal) {
  extern __shared__ float4 shared_memory[];
  const Tiles<D> t(reinterpret_cast<float*>(shared_memory));

  const int first_row = first_row_of_block(causal);
  seek_head<D>(q, k, v, o, lse, n_q, n_k);
  const int ty = threadIdx.x / kSide, tx = threadIdx.x % kSide;
  const int key_end = key_end_of(first_row, n_q, n_k, causal);

  load_rows<D, kThreads>(t.q, t.kStride, q, first_row, kRows, n_q, q_factor);
  float m[kMicro], l[kMicro], acc[kMicro][D / kSide];  // l: this thread's share of the row's sum
  start_rows(m, l, acc);

  for (int first_key = 0; first_key < key_end; first_key += kKeys) {
    __syncthreads();  // the last tile's P and V are read: K and V may be overwritten
    load_rows<D, kThreads>(t.k, t.kStride, k, first_key, kKeys, n_k, 1.0f);
    load_rows<D, kThreads>(t.v, D, v, first_key, kKeys, n_k, 1.0f);
    __syncthreads();

    float s[kMicro][kMicro];
    tile_scores<D, Rows, 4>(t.q, t.k, t.kStride, ty, tx, s);
    fold_tile<Rows>(s, m, l, acc, first_row, first_key, ty, tx, n_q, n_k, causal);

    __syncthreads();  // every thread is done with K: P takes its place
    store_p<Rows>(t.p, t.kPStride, ty, tx, s);
    __syncwarp();  // a row's P is written and read by the same half-warp
    accumulate_pv<D, Rows, 2>(t.p, t.kPStride, t.v, ty, tx, acc);
  }
  write_rows<D, Rows>(o, lse, first_row, n_q, ty, tx, m, l, acc);
}

}  // namespace

void flash_fwd(const float* q, const float* k, const float* v, float* o, float* lse, int bh, int n_q, int n_k,
               int d, float scale, bool causal) {
  dispatch_d(d, [&](auto d_value) {
    constexpr int D = decltype(d_value)::value;
    launch_blocks(flash_fwd_kernel<D>, Tiles<D>::kBytes, kThreads, q, k, v, o, lse, bh, n_q, n_k, scale,
                  causal);
  });
}
