// Puzzle 8 · Swizzled GEMM — version 1: clear.
// C = A · Bᵀ: A [m, k] and B [n, k] bf16 row-major, C [m, n] fp32 row-major, fp32 accumulation, on the
// tensor cores through mma.sync. What it teaches (the FlashAttention source walk-through's ideas):
//   - cp.async.cg: 16-byte copies global -> shared that skip the registers, grouped with commit_group and
//     waited for with wait_group, so that the next tile's copy runs while this tile is computed (two
//     stages: double buffering);
//   - ldmatrix.x4: one instruction loads a 16 x 16 bf16 block from shared memory straight into the
//     register layout mma.sync wants (each lane supplies the address of one 16-byte row);
//   - the XOR swizzle: a tile row of 64 bf16 is 128 bytes = 8 chunks of 16 bytes, and chunk c of row r is
//     stored at chunk c ^ (r % 8). The 8 rows one ldmatrix phase reads (same c, rows r..r+7) then sit in
//     8 different chunks, i.e. all 32 banks once: no bank conflict (unswizzled, all 8 hit the same 4 banks);
//   - mma.sync.m16n8k16.row.col: a warp multiplies a 16 x 16 A block by a 16 x 8 B block into 16 x 8 fp32.
// Block tile 128 x 128, k in steps of 64; 8 warps as 2 x 4, each computing a 64 x 32 piece of C.
// Sizes: m, n multiples of 128, k a multiple of 64 (puzzle 8's contract): no edge cases.
// Measured on an H100 80GB HBM3 at 4096^3: 273 TFLOP/s, 36% of cuBLAS (cublasGemmEx, 752 TFLOP/s).
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include <cstdint>

namespace {

constexpr int kTile = 128;                            // block tile: 128 rows of C x 128 columns of C
constexpr int kStep = 64;                             // k per step: one tile row = 64 bf16 = 128 bytes
constexpr int kThreads = 256;                         // 8 warps: 2 (rows of C) x 4 (columns of C)
constexpr int kTileElems = kTile * kStep;             // one staged A or B tile, 16 KiB
constexpr int kSharedBytes = 2 * 2 * kTileElems * 2;  // 2 stages x (A tile + B tile) x 2 bytes = 64 KiB

// Where element (row, col) of a 128 x 64 tile lives: 16-byte chunk col / 8 of the row goes to chunk
// (col / 8) ^ (row % 8), the element keeps its place inside the chunk.
__device__ int swizzled(int row, int col) {
  return row * kStep + ((col / 8) ^ (row % 8)) * 8 + col % 8;
}

// 16 bytes from global to shared memory, asynchronously: complete only after a commit and a wait.
__device__ void cp_async_16(void* shared_dst, const void* global_src) {
  const auto dst = static_cast<uint32_t>(__cvta_generic_to_shared(shared_dst));
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(dst), "l"(global_src) : "memory");
}
__device__ void cp_async_commit() {  // closes the group of copies issued since the last commit
  asm volatile("cp.async.commit_group;\n" ::: "memory");
}
template <int kPending>
__device__ void cp_async_wait() {  // waits until at most kPending groups are still in flight
  asm volatile("cp.async.wait_group %0;\n" ::"n"(kPending) : "memory");
}

// Four 8 x 8 bf16 matrices from shared memory: lane l gives the address of row l % 8 of matrix l / 8 (16
// bytes each); r[j] receives the lane's pair of matrix j: row l / 4, columns 2 (l % 4) and 2 (l % 4) + 1.
__device__ void ldmatrix_x4(uint32_t r[4], const void* shared_row) {
  const auto address = static_cast<uint32_t>(__cvta_generic_to_shared(shared_row));
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];\n"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
               : "r"(address));
}

// c += a * b on the tensor cores (puzzle 7): a 16 x 16, b 16 x 8 (b's rows), bf16 in, float accumulators.
__device__ void mma_m16n8k16(float c[4], const uint32_t a[4], const uint32_t b[2]) {
  asm volatile(
      "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, "
      "{%0,%1,%2,%3};\n"
      : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
}

// Starts copying rows first .. first + 127, columns k0 .. k0 + 63 of a row-major [rows, k] matrix into a
// swizzled tile: 1024 chunks, 4 per thread; 8 consecutive threads copy one 128-byte row (coalesced).
__device__ void load_tile(__nv_bfloat16* tile, const __nv_bfloat16* src, int first, int k0, int k) {
  for (int i = threadIdx.x; i < kTile * kStep / 8; i += kThreads) {
    const int row = i / 8, col = i % 8 * 8;
    cp_async_16(tile + swizzled(row, col), src + static_cast<size_t>(first + row) * k + k0 + col);
  }
}

__global__ void __launch_bounds__(kThreads)
    swizzled_gemm_clear(const __nv_bfloat16* a, const __nv_bfloat16* b, float* c, int n, int k) {
  extern __shared__ __align__(128) __nv_bfloat16 tiles[];  // stage s: A tile at 2s, B tile at 2s + 1
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const int row0 = blockIdx.y * kTile, col0 = blockIdx.x * kTile;  // the block's C tile
  const int wm = warp / 4 * 64, wn = warp % 4 * 32;                // the warp's 64 x 32 piece of it
  float acc[4][4][4] = {};  // [16-row block][8-column block][the mma's 4 values per lane]

  // 1. Start copying step 0 into stage 0.
  load_tile(tiles, a, row0, 0, k);
  load_tile(tiles + kTileElems, b, col0, 0, k);
  cp_async_commit();

  const int steps = k / kStep;
  for (int t = 0; t < steps; ++t) {
    const __nv_bfloat16* a_tile = tiles + (t % 2) * 2 * kTileElems;
    const __nv_bfloat16* b_tile = a_tile + kTileElems;
    // 2. Start copying step t + 1 into the other stage (free: the barrier ending step t - 1 saw to it).
    if (t + 1 < steps) {
      __nv_bfloat16* next = tiles + ((t + 1) % 2) * 2 * kTileElems;
      load_tile(next, a, row0, (t + 1) * kStep, k);
      load_tile(next + kTileElems, b, col0, (t + 1) * kStep, k);
    }
    cp_async_commit();  // (an empty group at the last step)
    // 3. Wait for step t: every group but the newest done (this thread's copies), then a barrier (all's).
    cp_async_wait<1>();
    __syncthreads();

    // 4. Four k-slices of 16: load the fragments with ldmatrix, then 4 x 4 mma.
    for (int kk = 0; kk < kStep; kk += 16) {
      uint32_t af[4][4], bf[4][2];
      for (int i = 0; i < 4; ++i)  // A rows wm + 16i + (l % 16), k chunk l / 16: matrices a0 a1 a2 a3
        ldmatrix_x4(af[i], a_tile + swizzled(wm + 16 * i + lane % 16, kk + lane / 16 * 8));
      for (int j = 0; j < 2; ++j) {  // B rows wn + 16j + l % 8 + 8 (l / 16), k chunk (l / 8) % 2
        uint32_t r[4];
        ldmatrix_x4(r, b_tile + swizzled(wn + 16 * j + lane % 8 + lane / 16 * 8, kk + lane / 8 % 2 * 8));
        bf[2 * j][0] = r[0], bf[2 * j][1] = r[1], bf[2 * j + 1][0] = r[2], bf[2 * j + 1][1] = r[3];
      }
      for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 4; ++j) mma_m16n8k16(acc[i][j], af[i], bf[j]);
    }
    __syncthreads();  // 5. Every warp is done with this stage before step t + 1 refills it.
  }

  // 6. Write C: lane l holds rows l / 4 and l / 4 + 8, columns 2 (l % 4) and + 1 of each 16 x 8 block.
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j) {
      const int row = row0 + wm + 16 * i + lane / 4, col = col0 + wn + 8 * j + lane % 4 * 2;
      float* out = c + static_cast<size_t>(row) * n + col;
      *reinterpret_cast<float2*>(out) = make_float2(acc[i][j][0], acc[i][j][1]);
      *reinterpret_cast<float2*>(out + 8 * n) = make_float2(acc[i][j][2], acc[i][j][3]);
    }
}

}  // namespace

void swizzled_gemm(const __nv_bfloat16* a, const __nv_bfloat16* b, float* c, int m, int n, int k) {
  // 64 KiB of shared memory is more than a block gets without asking.
  cudaFuncSetAttribute(swizzled_gemm_clear, cudaFuncAttributeMaxDynamicSharedMemorySize, kSharedBytes);
  const dim3 grid(n / kTile, m / kTile);
  swizzled_gemm_clear<<<grid, kThreads, kSharedBytes>>>(a, b, c, n, k);
}
