// How split_long_rows.cuh's blocks hold a chunk of a row: its columns in pieces (folded into the chunk's
// pair, then written as y), and how a chunk gets into shared memory: the copy engine on Hopper, cp.async
// elsewhere. The walk-through is puzzle 3's docs page ("Rows longer than a block").
#pragma once
#include <cuda_pipeline.h>
#include <cuda_runtime.h>

#include <cstdint>

#ifdef __CUDACC__  // nvcc; the simulator has no copy engine and takes cp.async (see stage_copier)
#include <cuda/barrier>
#endif

#include "online_pair.cuh"

namespace online {

constexpr int kChunkThreads = 256;
constexpr int kChunkCols = 8192;  // 32 KiB: 8 pieces of 4 columns per thread
constexpr int kChunkStages = 2;   // chunks a block holds in shared memory: 64 KiB (a third in registers)

// Columns c .. c + kVec - 1 of `row` as one access (kVec = 4: 16 bytes, so row + c must be 16-byte
// aligned), or -inf when the piece is not `inside` (past a row's end: -inf changes neither max nor sum).
// Puzzle 4's version 2 uses them too.
template <int kVec>
__device__ void load_piece(const float* row, int c, bool inside, float* v) {
  if (!inside) {
    for (int i = 0; i < kVec; ++i) v[i] = -INFINITY;
  } else if constexpr (kVec == 4) {
    const float4 q = *reinterpret_cast<const float4*>(row + c);
    v[0] = q.x, v[1] = q.y, v[2] = q.z, v[3] = q.w;
  } else {
    v[0] = row[c];
  }
}
template <int kVec>
__device__ void store_piece(float* row, int c, const float* v) {
  if constexpr (kVec == 4) {
    *reinterpret_cast<float4*>(row + c) = make_float4(v[0], v[1], v[2], v[3]);
  } else {
    row[c] = v[0];
  }
}
// Whether every row of x and y (rows of `cols` floats) starts 16-byte aligned: pieces of 4 then fit.
inline bool rows_take_pieces_of_4(const float* x, const float* y, int cols) {
  return cols % 4 == 0 && reinterpret_cast<uintptr_t>(x) % 16 == 0 &&
         reinterpret_cast<uintptr_t>(y) % 16 == 0;
}

// A chunk's columns in pieces of kVec consecutive floats (kVec = 4: 16-byte copies and accesses, for
// rows whose every chunk starts 16-byte aligned; 1 otherwise). Thread t owns pieces t, t + 256, ...:
// it folds them, holds them and writes them (and copies them, unless the copy engine does), so only the
// pair's reduction needs the other threads.
template <int kVec>
struct ChunkPieces {
  static constexpr int kPerThread = kChunkCols / (kChunkThreads * kVec);
  // A thread's pieces of one chunk, in registers: 32 floats.
  using Held = float[kPerThread][kVec];

  __device__ static int column(int k) { return (threadIdx.x + k * kChunkThreads) * kVec; }

  // Starts copying the thread's pieces of a chunk's `length` columns into `stage`.
  __device__ static void copy_async(float* stage, const float* chunk_x, int length) {
#pragma unroll
    for (int k = 0; k < kPerThread; ++k)
      if (column(k) < length)
        __pipeline_memcpy_async(stage + column(k), chunk_x + column(k), kVec * sizeof(float));
  }

  // Piece k of `stage`; -inf past the chunk's end, which changes neither max nor sum.
  __device__ static void load(const float* stage, int k, int length, float (&v)[kVec]) {
    load_piece<kVec>(stage, column(k), column(k) < length, v);
  }

  // The max, then the sum. With 16-byte pieces the block holds another chunk in registers meanwhile
  // (split_long_rows.cuh), so the sum reads the stage again and one piece at a time takes registers; with
  // 4-byte pieces nothing is held, and keeping the pieces from the first read is 4% faster.
  __device__ static MaxSum fold(const float* stage, int length) {
    constexpr int kKept = kVec == 4 ? 1 : kPerThread;  // pieces kept between the max and the sum
    float v[kKept][kVec];
    float m = -INFINITY;
#pragma unroll
    for (int k = 0; k < kPerThread; ++k) {
      load(stage, k, length, v[k % kKept]);
      for (float value : v[k % kKept]) m = fmaxf(m, value);
    }
    if (m == -INFINITY) return {};
    float s = 0.0f;
#pragma unroll
    for (int k = 0; k < kPerThread; ++k) {
      if constexpr (kKept == 1) load(stage, k, length, v[0]);
      for (float value : v[k % kKept]) s += __expf(value - m);
    }
    return {m, s};
  }

  // The thread's pieces of `stage` that the chunk's `length` covers, into registers (the write uses no
  // others): the stage is then free for the next copy.
  __device__ static void hold(const float* stage, int length, Held& held) {
#pragma unroll
    for (int k = 0; k < kPerThread; ++k)
      if (column(k) < length) load_piece<kVec>(stage, column(k), true, held[k]);
  }

  // The chunk's y from the pieces held in registers.
  __device__ static void write(Held& held, float* chunk_y, int length, MaxSum total) {
    const float inv_s = 1.0f / total.s;
#pragma unroll
    for (int k = 0; k < kPerThread; ++k) {
      if (column(k) >= length) break;
      store_y(chunk_y, k, held[k], total.m, inv_s);
    }
  }

  // The chunk's y straight from its stage, a piece at a time.
  __device__ static void write_from(const float* stage, float* chunk_y, int length, MaxSum total) {
    const float inv_s = 1.0f / total.s;
#pragma unroll
    for (int k = 0; k < kPerThread; ++k) {
      if (column(k) >= length) break;
      float v[kVec];
      load(stage, k, length, v);
      store_y(chunk_y, k, v, total.m, inv_s);
    }
  }

  // Piece k of y: exp(x - m) / s.
  __device__ static void store_y(float* chunk_y, int k, float (&v)[kVec], float m, float inv_s) {
    for (float& value : v) value = __expf(value - m) * inv_s;
    store_piece<kVec>(chunk_y, column(k), v);
  }
};

// How chunk i of the walk gets into its stage: start(i, ...) begins the copy and wait(i) returns once
// it has landed. Every thread calls both, for i = 0, 1, 2, ... in order (past the walk's end with
// length 0: no copy, but the numbering stays the same).
//
// cp.async: each thread copies its own pieces, 16 or 4 bytes at a time, one batch per chunk.
template <int kVec>
struct PieceCopier {
  __device__ void start(int i, float* stage, const float* chunk_x, int length) {
    ChunkPieces<kVec>::copy_async(stage, chunk_x, length);
    __pipeline_commit();
    newest = i;
  }
  __device__ void wait(int i) { __pipeline_wait_prior(newest - i); }  // all but the batches after i's
  int newest = -1;
};

#ifdef __CUDACC__
// Hopper (sm_90): one thread hands the whole chunk to the copy engine (TMA), which moves it while the
// threads do other work: cuda::memcpy_async of a multiple of 16 bytes compiles to one cp.async.bulk.
// Each stage has a barrier whose phase ends once every thread has arrived and the chunk has landed.
// On an H100 this took 32x1048576 from 82% to 86% of the copy bandwidth
// (docs/measurements/03_online_softmax.md).
struct BulkCopier {
  using Barrier = cuda::barrier<cuda::thread_scope_block>;
  __device__ void start(int i, float* stage, const float* chunk_x, int length) {
    __syncthreads();  // the stage is free once every thread is done with the chunk it held
    if (threadIdx.x == 0 && length > 0)
      cuda::memcpy_async(stage, chunk_x, cuda::aligned_size_t<16>(length * sizeof(float)),
                         barriers[i % kChunkStages]);
  }
  __device__ void wait(int i) { barriers[i % kChunkStages].arrive_and_wait(); }
  Barrier* barriers;  // kChunkStages of them, in shared memory
};
#endif

// The copier for a kernel's chunks: the copy engine on Hopper when the chunks are 16-byte aligned,
// cp.async otherwise (older GPUs, odd rows, the simulator).
template <int kVec>
__device__ auto stage_copier() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  if constexpr (kVec == 4) {
#pragma nv_diag_suppress static_var_with_dynamic_init  // init() below initializes them
    __shared__ BulkCopier::Barrier barriers[kChunkStages];
    if (threadIdx.x == 0)
      for (BulkCopier::Barrier& barrier : barriers) init(&barrier, blockDim.x);
    __syncthreads();
    return BulkCopier{barriers};
  } else {
    return PieceCopier<kVec>{};
  }
#else
  return PieceCopier<kVec>{};
#endif
}

}  // namespace online
