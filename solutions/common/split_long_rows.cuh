// A kernel for rows too long for one block: chunks of a row spread over the whole GPU. Shared by
// puzzle 3's and puzzle 4's version 2; the walk-through is puzzle 3's docs page ("Rows longer than
// a block"). The (max, sum) pair and its rules are in online_pair.cuh.
//
// Long rows: one block per row would leave most of the GPU idle (32 rows of a million columns are 32
// blocks on 132 SMs), so each row is cut into chunks of 8192 columns, and a fixed set of blocks (as many
// as fit on the GPU at once) walks the chunks: block b takes chunks b, b + G, b + 2G, ... (G blocks). A
// chunk's journey: the copy engine (or cp.async) copies it into shared memory, past the registers; the block
// folds it into the chunk's pair and publishes the pair (one 64-bit store), then moves it into registers,
// which frees its stage for the next copy; once every pair of its row is published, the block writes the
// chunk's y from the registers. x is read from memory once.
// The block holds three chunks: chunk i in registers while its row completes, chunks i + 1 and i + 2 in
// its two stages. It publishes chunk i + 1's pair before it waits for chunk i's row. A row
// spans at most two consecutive steps of the walk (it has no more chunks than there are blocks), so once
// every block has reached step i, every pair the blocks wait for there is published. A block
// that waits while no block anywhere publishes (fewer blocks run at once than were launched: the
// simulator on two cores, or rows of many millions of columns) computes a missing pair itself, reading
// that chunk once more: no deadlock, whatever runs.
#pragma once
#include <cuda_pipeline.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>

#include "chunk_copy.cuh"
#include "online_pair.cuh"

namespace online {

constexpr int kChunkBlocksPerSm = 3;  // 192 of an H100 SM's 228 KiB of shared memory

// The pairs and claims of one launch; all zero when it starts.
struct ChunkSlots {
  unsigned long long* pair;  // per chunk: its pair (m, s) as one 64-bit word; 0 until published
  unsigned* claimed;         // per chunk: 1 once a waiting block has taken on computing its pair
};
// What the chunk blocks share. Launches take turns between two sets of slots: each zeroes the set that
// the next one will use (a cudaMemset before each launch measured 3% of the kernel's time).
struct ChunkScratch {
  unsigned* published;  // pairs published so far, all launches: while it moves, some block is not waiting
  ChunkSlots slots;     // this launch's
  ChunkSlots next;      // the next launch's, `capacity` of each
  int capacity;
};
// Polls in a row with no pair published anywhere before a waiting block computes a missing pair itself.
constexpr int kPatience = 64;

// A pair in one word, so that one store publishes it whole: no fence, no flag. The word 0 is
// (m, s) = (+0, +0), which no set of values has (its max adds exp(0) = 1 to s): it means "not yet".
__device__ unsigned long long pack(MaxSum p) {
  return __float_as_uint(p.m) | static_cast<unsigned long long>(__float_as_uint(p.s)) << 32;
}
__device__ MaxSum unpack(unsigned long long word) {
  return {__uint_as_float(static_cast<unsigned>(word)), __uint_as_float(static_cast<unsigned>(word >> 32))};
}

// Where chunk `index` lies: its row, the row's first chunk, and its columns.
struct Chunk {
  int index, row, first, begin, length;
};
__device__ Chunk locate(int index, int cols, int chunks_per_row) {
  const int row = index / chunks_per_row, first = row * chunks_per_row;
  const int begin = (index - first) * kChunkCols;
  return {index, row, first, begin, min(kChunkCols, cols - begin)};
}

// Of the waiting blocks that would compute a missing pair, only the first to claim the chunk does. The
// chunk's own block publishes its pair without claiming (no round trip to L2 on every chunk): if a
// waiting block computed it too, the two words differ by rounding at most, and either will do.
__device__ bool claim(const ChunkScratch& scratch, int chunk) {
  return atomicExch(scratch.slots.claimed + chunk, 1u) == 0u;
}

__device__ void publish(const ChunkScratch& scratch, int chunk, MaxSum pair) {
  *static_cast<volatile unsigned long long*>(scratch.slots.pair + chunk) = pack(pair);
  atomicAdd(scratch.published, 1u);
}

// Warp 0: waits until every pair of the chunk's row is published and returns -1, with the row's pair in
// `total`. If no pair is published anywhere for a while meanwhile (every running block waits), it claims
// an unpublished chunk of the row that nobody has claimed and returns it: the block computes that pair
// itself. A claimed chunk's pair is computed without waiting, and an unclaimed one the block may take
// on: no deadlock, however few blocks the GPU (or the simulator) runs at once.
__device__ int await_row(const ChunkScratch& scratch, const Chunk& chunk, int chunks_per_row, MaxSum& total) {
  const int lane = threadIdx.x % kWarp;
  const volatile unsigned long long* pairs = scratch.slots.pair + chunk.first;
  const volatile unsigned* published = scratch.published;
  unsigned seen = *published;
  for (int still = 0;; __nanosleep(100)) {  // the sleep leaves L2 to the loads
    MaxSum acc;
    bool missing = false;
    for (int p = lane; p < chunks_per_row; p += kWarp) {
      const unsigned long long word = pairs[p];
      missing |= word == 0;
      acc = combine(acc, unpack(word));
    }
    if (!__any_sync(0xffffffffu, missing)) {
      total = warp_combine(acc);
      return -1;
    }
    int stolen = -1;
    if (lane == 0) {
      const unsigned now = *published;
      if (now != seen) {
        seen = now;
        still = 0;
      } else if (++still >= kPatience) {
        still = 0;
        for (int other = chunk.first; other < chunk.first + chunks_per_row && stolen < 0; ++other)
          if (pairs[other - chunk.first] == 0 && claim(scratch, other)) stolen = other;
      }
    }
    stolen = __shfl_sync(0xffffffffu, stolen, 0);
    if (stolen >= 0) return stolen;
  }
}

// The row's pair in every thread, once all of the row's pairs are published (computing the missing
// ones the block claimed meanwhile).
__device__ MaxSum row_pair(const ChunkScratch& scratch, const float* row_x, const Chunk& chunk, int cols,
                           int chunks_per_row) {
  __shared__ int stolen;
  __shared__ MaxSum row;
  for (;;) {
    if (threadIdx.x < kWarp) {
      MaxSum total;
      const int other = await_row(scratch, chunk, chunks_per_row, total);
      if (threadIdx.x == 0) stolen = other, row = total;
    }
    __syncthreads();
    const int other = stolen;
    const MaxSum total = row;
    __syncthreads();  // every thread has read them before warp 0 writes them again
    if (other < 0) return total;
    const Chunk missing = locate(other, cols, chunks_per_row);
    MaxSum acc;
    float v[kUnroll];
    for (int base = threadIdx.x; base < missing.length; base += kUnroll * blockDim.x)
      acc = read_group(row_x + missing.begin, base, missing.length, v, acc);
    acc = block_combine(acc);
    if (threadIdx.x == 0) publish(scratch, other, acc);
  }
}

// The block's walk: chunks blockIdx.x + i * gridDim.x, i = 0, 1, ..., `steps` of them.
__device__ Chunk walk_chunk(int i, int cols, int chunks_per_row) {
  return locate(blockIdx.x + i * gridDim.x, cols, chunks_per_row);
}

template <int kVec>
__global__ void __launch_bounds__(kChunkThreads, kChunkBlocksPerSm)
    chunk_softmax_kernel(const float* __restrict__ x, float* __restrict__ y, int cols, int chunks_per_row,
                         int chunks, ChunkScratch scratch) {
  using Pieces = ChunkPieces<kVec>;
  extern __shared__ float4 stages[];  // kChunkStages x kChunkCols floats; float4: 16-byte aligned
  auto stage = [&](int i) { return reinterpret_cast<float*>(stages) + i % kChunkStages * kChunkCols; };
  const int steps = (chunks - static_cast<int>(blockIdx.x) + gridDim.x - 1) / gridDim.x;
  auto row_x = [&](const Chunk& c) { return x + static_cast<size_t>(c.row) * cols; };

  auto copier = stage_copier<kVec>();
  // Starts copying chunk i of the walk into its stage; past the walk's end, nothing.
  auto copy = [&](int i) {
    if (i < steps) {
      const Chunk c = walk_chunk(i, cols, chunks_per_row);
      copier.start(i, stage(i), row_x(c) + c.begin, c.length);
    } else {
      copier.start(i, stage(i), nullptr, 0);
    }
  };
  // Chunk i's pair, published.
  auto publish_pair = [&](int i) {
    if (i >= steps) return;
    const Chunk c = walk_chunk(i, cols, chunks_per_row);
    const MaxSum pair = block_combine(Pieces::fold(stage(i), c.length));
    if (threadIdx.x == 0) publish(scratch, c.index, pair);
  };

  copy(0);
  copy(1);
  // While the copies fly: the next launch's slots (the previous launch used them, and it is over).
  for (int k = blockIdx.x * blockDim.x + threadIdx.x; k < scratch.capacity; k += gridDim.x * blockDim.x)
    scratch.next.pair[k] = 0, scratch.next.claimed[k] = 0;
  copier.wait(0);
  publish_pair(0);
  // Step i's row: chunk i + 1's pair published first (the row may need it), then chunk i's row awaited.
  auto row_of_step = [&](int i, const Chunk& c) {
    copier.wait(i + 1);
    publish_pair(i + 1);
    return row_pair(scratch, row_x(c), c, cols, chunks_per_row);
  };
  auto chunk_y = [&](const Chunk& c) { return y + static_cast<size_t>(c.row) * cols + c.begin; };
  if constexpr (kVec == 4) {
    // Chunk i waits for its row in registers, so that both stages take copies meanwhile: each copy has a
    // whole step to land (on an H200 this took 32x1048576 from 74% to 84% of the copy bandwidth).
    typename Pieces::Held held;
    Pieces::hold(stage(0), walk_chunk(0, cols, chunks_per_row).length, held);
    copy(2);  // into the stage just moved to registers
    for (int i = 0; i < steps; ++i) {
      const Chunk c = walk_chunk(i, cols, chunks_per_row);
      const MaxSum total = row_of_step(i, c);
      Pieces::write(held, chunk_y(c), c.length, total);
      if (i + 1 < steps) Pieces::hold(stage(i + 1), walk_chunk(i + 1, cols, chunks_per_row).length, held);
      copy(i + 3);  // into the stage just moved to registers
    }
  } else {
    // 4-byte pieces (rows whose chunks are not 16-byte aligned) spill with a chunk held in registers
    // (256 bytes a thread, 1.5x slower): chunk i waits for its row in its stage.
    for (int i = 0; i < steps; ++i) {
      const Chunk c = walk_chunk(i, cols, chunks_per_row);
      const MaxSum total = row_of_step(i, c);
      Pieces::write_from(stage(i), chunk_y(c), c.length, total);
      copy(i + 2);  // into the stage just written from
    }
  }
}

// The scratch, kept between calls: a cudaMalloc and cudaFree per call would cost more than the kernel
// (cudaFree waits for the GPU). Zeroed when allocated; from then on each launch zeroes the slots of the
// next. Returns false if it cannot be had.
inline bool chunk_scratch(int chunks, ChunkScratch& scratch) {
  static void* memory = nullptr;
  static int capacity = 0;  // chunks a set of slots holds
  static int turn = 0;
  if (chunks > capacity) {
    cudaFree(memory);
    memory = nullptr;
    capacity = 0;
    // Both sets' pairs first, where cudaMalloc's alignment suits 64-bit words; their claims; `published`.
    const size_t bytes =
        2 * static_cast<size_t>(chunks) * (sizeof(unsigned long long) + sizeof(unsigned)) + sizeof(unsigned);
    if (cudaMalloc(&memory, bytes) != cudaSuccess || cudaMemset(memory, 0, bytes) != cudaSuccess)
      return false;
    capacity = chunks;
  }
  auto* pairs = static_cast<unsigned long long*>(memory);
  auto* claims = reinterpret_cast<unsigned*>(pairs + 2 * capacity);
  const ChunkSlots sets[2] = {{pairs, claims}, {pairs + capacity, claims + capacity}};
  scratch = {claims + 2 * capacity, sets[turn], sets[1 - turn], capacity};
  turn = 1 - turn;
  return true;
}

template <int kVec>
inline void launch_chunks(const float* x, float* y, int cols, int chunks_per_row, int chunks,
                          ChunkScratch scratch) {
  constexpr int kSharedBytes = kChunkStages * kChunkCols * sizeof(float);
  auto* kernel = chunk_softmax_kernel<kVec>;
  // As many blocks as run at once (the kernel is also correct with fewer running: see the top). Asked
  // once: the queries cost microseconds of host time per call, and the GPU would wait for them.
  static const int blocks_at_once = [kernel] {
    int device = 0, sms = 0, blocks_per_sm = 0;
    cudaGetDevice(&device);
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
    cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, kSharedBytes);
    cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks_per_sm, kernel, kChunkThreads, kSharedBytes);
    return sms * std::max(blocks_per_sm, 1);
  }();
  kernel<<<std::min(chunks, blocks_at_once), kChunkThreads, kSharedBytes>>>(x, y, cols, chunks_per_row,
                                                                            chunks, scratch);
}

inline void split_row_softmax(const float* x, float* y, int rows, int cols) {
  const int chunks_per_row = (cols + kChunkCols - 1) / kChunkCols;
  const int chunks = rows * chunks_per_row;
  ChunkScratch scratch;
  if (!chunk_scratch(chunks, scratch)) return;  // the failed call is the error the caller sees
  // 16-byte pieces need every chunk to start on a 16-byte boundary: cols a multiple of 4, aligned x, y.
  if (rows_take_pieces_of_4(x, y, cols)) {
    launch_chunks<4>(x, y, cols, chunks_per_row, chunks, scratch);
  } else {
    launch_chunks<1>(x, y, cols, chunks_per_row, chunks, scratch);
  }
}

}  // namespace online
