// Puzzle 5 · Flash attention forward — version 3: eight rows per thread.
// Over 2_register_tiles.cu: 128 threads (not 256) per 64 query rows, so each thread holds 8 rows: 8 x 4
// scores (32 FMAs per 12 floats read from shared memory, where 4 x 4 does 16 per 8) and 8 rows x d/16
// columns of O (at d = 128, 64 FMAs per 16 floats, where 4 rows do 32 per 12); K and V copied by
// cp.async, straight into shared memory, V landing while the scores are computed.
// The spec is in the stub, 05_flash_forward.cu; the walk-through is the puzzle's docs page; what it
// shares with version 2 (the two products, the online step, the end of a row) is in forward_tiles.cuh,
// and the cp.async copy of a tile's rows, shared with version 4, in async_rows.cuh.
//
// Thread (ty, tx), ty = 0..7 and tx = 0..15, owns rows ty, ty + 8, ..., ty + 56 of the block, so that a
// warp's two half-warps read rows one apart, in different banks (rows 8 apart, 8 * 33 float4s, would
// share them). Its keys are tx + 16c, as in version 2. Per tile of 64 keys:
//   1. start copying K and V into shared memory (two batches of cp.async), wait for K's;
//   2. S = Q K^T: 8 rows x 4 keys per thread, float4 reads along d;
//   3. the online step of each of its 8 rows (forward_tiles.cuh), P into K's space;
//   4. wait for V's copy, then O += P V: 8 rows x d/16 columns per thread.
// Registers: at d = 128 the 64 accumulators, 32 scores and the operands take 213 a thread, so 2 blocks
// (8 warps) share an SM; that, and the shared memory (100 KB a block), is the occupancy.
#include "../common/async_rows.cuh"
#include "forward_tiles.cuh"

namespace {

constexpr int kRowsPerThread = 8;
constexpr int kGroups = kRows / kRowsPerThread;       // row groups ty, one per half-warp
constexpr int kThreads = kSide * kGroups;             // 128
using Rows = ThreadRows<kRowsPerThread, 1, kGroups>;  // rows ty + 8r

// P rows 80 floats apart: a warp's two half-warps write rows ty and ty + 1 into banks 0-15 and 16-31,
// and read float4s of them from different bank groups.
template <int D>
using Tiles = SharedTiles<D, kKeys + 16>;

// Up to d = 64 a thread needs at most 168 registers, so that 3 blocks (12 warps) share an SM.
template <int D>
__global__ void __launch_bounds__(kThreads, D <= 64 ? 3 : 1)
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
  float m[kRowsPerThread], l[kRowsPerThread], acc[kRowsPerThread][D / kSide];
  start_rows(m, l, acc);

  for (int first_key = 0; first_key < key_end; first_key += kKeys) {
    __syncthreads();  // the last tile's P (in K's space) and V are read: both may be overwritten
    copy_rows_async<D, kKeys, kThreads>(t.k, t.kStride, k, first_key, n_k);
    __pipeline_commit();
    copy_rows_async<D, kKeys, kThreads>(t.v, D, v, first_key, n_k);
    __pipeline_commit();
    __pipeline_wait_prior(1);  // this thread's copies of K have landed (V's may not have)
    __syncthreads();           // and every thread's

    float s[kRowsPerThread][kKeysPerThread];
    tile_scores<D, Rows, 4>(t.q, t.k, t.kStride, ty, tx, s);
    fold_tile<Rows>(s, m, l, acc, first_row, first_key, ty, tx, n_q, n_k, causal);

    __syncthreads();  // every thread is done with K: P takes its place
    store_p<Rows>(t.p, t.kPStride, ty, tx, s);
    __pipeline_wait_prior(0);  // this thread's copies of V have landed
    __syncthreads();           // and every thread's (a row's P needs only its half-warp)
    accumulate_pv<D, Rows, 4>(t.p, t.kPStride, t.v, ty, tx, acc);
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
