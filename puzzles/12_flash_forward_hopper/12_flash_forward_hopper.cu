// Puzzle 12 · Flash attention forward on Hopper
// Guide: puzzles/12_flash_forward_hopper/README.md    Check: ./puzzle check 12     Hints: ./puzzle hint 12
//
// Spec. Puzzle 9's attention forward, the same contract, as FlashAttention-3 computes it on Hopper (H100,
// H200). For each of bh heads, q [n_q, d], k and v [n_k, d] and o [n_q, d] are bf16 and lse [n_q] is
// float, row-major and contiguous:
//
//     s[i][j] = scale * (q_i . k_j)                  for every key j that query i sees
//     o[i]    = sum_j exp(s[i][j] - lse[i]) * v_j     (bf16)
//     lse[i]  = log(sum_j exp(s[i][j]))               (float, natural log)
//
// In PyTorch: o = F.scaled_dot_product_attention(q, k, v, scale=scale, is_causal=...)  (bf16 tensors)
//
// Causal is aligned bottom-right (query i sees key j iff j <= i + n_k - n_q); a query that sees no key gets
// o = 0 and lse = -INFINITY; scale is an argument; no n_q x n_k buffer, ever.
//
// Puzzle 9 staged K and V with cp.async and fed mma.sync from ldmatrix. Here puzzle 11's path: a producer
// warp asks the TMA engine for whole tiles of Q, K and V (tma_load, below), which land 128B-swizzled in a
// pipeline of shared-memory stages guarded by mbarriers, and a consumer warp group computes S = Q K^T with
// wgmma from shared memory (wgmma_ss<N>) and O += P V with P in registers (wgmma_rs).
//
// Sizes your code must handle: d = 64 or 128; any n_q, n_k >= 1 (tails in both).
// Tolerance: puzzle 9's (P may be rounded to bf16 before O += P V).
//
// Budgets. Lines: roughly 300 for kernel + launcher, the wrappers below included. Memory traffic:
// read q once, k and v once per block of query rows, write o and lse once.
// The clear reference solution (one consumer warp group, 64 query rows a block) and the fast ones (two
// warp groups in ping-pong, then each overlapping its own softmax with its next product) are timed beside
// PyTorch's flash and cuDNN attention on the puzzle's page.
//
// You choose grid, block and shared memory in the launcher below. Its signature is fixed: the harness
// calls it with device pointers and checks o and lse. Tensor maps are made on the host (tensor_map, below)
// and passed to the kernel by value as `const __grid_constant__ CUtensorMap`.
#include <cuda.h>
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include <cmath>
#include <cstdint>

// ---- Given: the PTX of Hopper's asynchronous path ----
__device__ uint32_t smem_u32(const void* p) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}
__device__ void mbarrier_init(uint64_t* bar, int count) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;\n" ::"r"(smem_u32(bar)), "r"(count) : "memory");
}
__device__ void mbarrier_arrive_expect_tx(uint64_t* bar, uint32_t bytes) {
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;\n" ::"r"(smem_u32(bar)), "r"(bytes)
               : "memory");
}
__device__ void mbarrier_arrive(uint64_t* bar) {
  asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];\n" ::"r"(smem_u32(bar)) : "memory");
}
__device__ void mbarrier_wait(uint64_t* bar, uint32_t parity) {
  uint32_t done = 0;
  while (!done)
    asm volatile(
        "{\n"
        ".reg .pred p;\n"
        "mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n"
        "selp.u32 %0, 1, 0, p;\n"
        "}\n"
        : "=r"(done)
        : "r"(smem_u32(bar)), "r"(parity)
        : "memory");
}
// The box at (column col, row row, head head) of the map's tensor into shared memory at dst.
__device__ void tma_load(void* dst, const CUtensorMap* map, uint64_t* bar, int col, int row, int head) {
  asm volatile(
      "cp.async.bulk.tensor.3d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3, "
      "%4}], [%5];\n" ::"r"(smem_u32(dst)),
      "l"(map), "r"(col), "r"(row), "r"(head), "r"(smem_u32(bar))
      : "memory");
}
// A 128B-swizzled operand whose boxes of 64 columns (128-byte rows) lie `box_bytes` apart. K-major (Q, K):
// 8-row groups 1024 bytes apart (SBO). MN-major (V): 8 keys 1024 bytes apart (SBO), the next 64 columns
// of d one box further (LBO).
__device__ uint64_t smem_descriptor(const void* tile, uint32_t box_bytes = 0) {
  return (static_cast<uint64_t>(smem_u32(tile) & 0x3FFFF) >> 4) |
         (static_cast<uint64_t>(box_bytes >> 4) << 16) | (static_cast<uint64_t>(1024 >> 4) << 32) |
         (static_cast<uint64_t>(1) << 62);
}
__device__ void wgmma_fence() {
  asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory");
}
__device__ void wgmma_commit() {
  asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory");
}
__device__ void wgmma_wait_all() {
  asm volatile("wgmma.wait_group.sync.aligned 0;\n" ::: "memory");
}
// Thread t of the warp group holds d[4j .. 4j + 3] = (r, c), (r, c + 1), (r + 8, c), (r + 8, c + 1),
// r = 16 (t / 32) + (t % 32) / 4, c = 8j + 2 (t % 4).
// S (64 x N) = A (64 x 16) * B^T (B: N x 16), plus S when `accumulate`; both K-major in shared memory.
template <int N>
__device__ void wgmma_ss(float (&d)[N / 2], uint64_t a_desc, uint64_t b_desc, bool accumulate) {
  if constexpr (N == 64)
    asm volatile(
        "{\n.reg .pred p;\nsetp.ne.b32 p, %34, 0;\n"
        "wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16 {"
        "%0,%1,%2,%3,%4,%5,%6,%7,%8,%9,%10,%11,%12,%13,%14,%15,"
        "%16,%17,%18,%19,%20,%21,%22,%23,%24,%25,%26,%27,%28,%29,%30,%31"
        "}, %32, %33, p, 1, 1, 0, 0;\n}\n"
        : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]),
          "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]),
          "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]),
          "+f"(d[22]), "+f"(d[23]), "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]),
          "+f"(d[29]), "+f"(d[30]), "+f"(d[31])
        : "l"(a_desc), "l"(b_desc), "r"(static_cast<int>(accumulate)));
  else
    asm volatile(
        "{\n.reg .pred p;\nsetp.ne.b32 p, %66, 0;\n"
        "wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16 {"
        "%0,%1,%2,%3,%4,%5,%6,%7,%8,%9,%10,%11,%12,%13,%14,%15,"
        "%16,%17,%18,%19,%20,%21,%22,%23,%24,%25,%26,%27,%28,%29,%30,%31,"
        "%32,%33,%34,%35,%36,%37,%38,%39,%40,%41,%42,%43,%44,%45,%46,%47,"
        "%48,%49,%50,%51,%52,%53,%54,%55,%56,%57,%58,%59,%60,%61,%62,%63"
        "}, %64, %65, p, 1, 1, 0, 0;\n}\n"
        : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]),
          "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]),
          "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]),
          "+f"(d[22]), "+f"(d[23]), "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]),
          "+f"(d[29]), "+f"(d[30]), "+f"(d[31]), "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]),
          "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]), "+f"(d[40]), "+f"(d[41]), "+f"(d[42]),
          "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]), "+f"(d[48]), "+f"(d[49]),
          "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]), "+f"(d[56]),
          "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63])
        : "l"(a_desc), "l"(b_desc), "r"(static_cast<int>(accumulate)));
}
// O (64 x N) += A (64 x 16, bf16 pairs in registers: a[i] holds row r + 8 (i % 2), columns 2 (t % 4) +
// 8 (i / 2) and the next) * B (16 x N), B MN-major in shared memory (the transpose bit).
template <int N>
__device__ void wgmma_rs(float (&d)[N / 2], const uint32_t (&a)[4], uint64_t b_desc) {
  if constexpr (N == 64)
    asm volatile(
        "wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16 {"
        "%0,%1,%2,%3,%4,%5,%6,%7,%8,%9,%10,%11,%12,%13,%14,%15,"
        "%16,%17,%18,%19,%20,%21,%22,%23,%24,%25,%26,%27,%28,%29,%30,%31"
        "}, {%32,%33,%34,%35}, %36, 1, 1, 1, 1;\n"
        : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]),
          "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]),
          "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]),
          "+f"(d[22]), "+f"(d[23]), "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]),
          "+f"(d[29]), "+f"(d[30]), "+f"(d[31])
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(b_desc));
  else
    asm volatile(
        "wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16 {"
        "%0,%1,%2,%3,%4,%5,%6,%7,%8,%9,%10,%11,%12,%13,%14,%15,"
        "%16,%17,%18,%19,%20,%21,%22,%23,%24,%25,%26,%27,%28,%29,%30,%31,"
        "%32,%33,%34,%35,%36,%37,%38,%39,%40,%41,%42,%43,%44,%45,%46,%47,"
        "%48,%49,%50,%51,%52,%53,%54,%55,%56,%57,%58,%59,%60,%61,%62,%63"
        "}, {%64,%65,%66,%67}, %68, 1, 1, 1, 1;\n"
        : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]),
          "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]),
          "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]),
          "+f"(d[22]), "+f"(d[23]), "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]),
          "+f"(d[29]), "+f"(d[30]), "+f"(d[31]), "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]),
          "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]), "+f"(d[40]), "+f"(d[41]), "+f"(d[42]),
          "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]), "+f"(d[48]), "+f"(d[49]),
          "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]), "+f"(d[56]),
          "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63])
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(b_desc));
}

// A tensor map of a [heads, rows, d] bf16 tensor, copied in boxes of 64 columns x box_rows x 1 head that
// land 128B-swizzled; rows past the head's end arrive as zeros.
CUtensorMap tensor_map(const __nv_bfloat16* tensor, int heads, int rows, int d, int box_rows) {
  CUtensorMap map;
  const cuuint64_t size[3] = {static_cast<cuuint64_t>(d), static_cast<cuuint64_t>(rows),
                              static_cast<cuuint64_t>(heads)};
  const cuuint64_t stride[2] = {static_cast<cuuint64_t>(d) * 2, static_cast<cuuint64_t>(rows) * d * 2};
  const cuuint32_t box[3] = {64, static_cast<cuuint32_t>(box_rows), 1}, element_stride[3] = {1, 1, 1};
  cuTensorMapEncodeTiled(&map, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 3, const_cast<__nv_bfloat16*>(tensor), size,
                         stride, box, element_stride, CU_TENSOR_MAP_INTERLEAVE_NONE,
                         CU_TENSOR_MAP_SWIZZLE_128B, CU_TENSOR_MAP_L2_PROMOTION_L2_256B,
                         CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  return map;
}

// Two floats as the bf16 pair of an A fragment register (lo in the low half).
__device__ uint32_t bf16_pair(float lo, float hi) {
  const __nv_bfloat162 pair = __floats2bfloat162_rn(lo, hi);
  return *reinterpret_cast<const uint32_t*>(&pair);
}

// ---- Your kernel and launcher ----

// TODO: a kernel of 160 threads for 64 query rows of head blockIdx.y: warps 0-3 the consumer warp group,
// warp 4 the producer. Shared memory (1024-byte aligned): Q, and two or more stages of a K and a V tile of
// 128 keys (64 at d = 128: 80 KB in all, so that two blocks share an SM), each d = 128 tile as two boxes of
// 64 columns; barriers q_full, full[s], empty[s].
//   1. One thread initialises the barriers (full: count 1; empty: one arrival per consumer warp).
//   2. Producer (one thread): Q once; then for each key tile the block sees (causal: stop after the tile of
//      its last row's last key), wait for the stage to be empty, expect its bytes, tma_load K and V.
//   3. Consumers, per key tile: S = Q K^T (wgmma_ss<tile keys> over d / 16 slices), wait; mask keys past n_k
//   and
//      above the diagonal with -INFINITY; online softmax of the thread's two rows (quad shuffles); rescale
//      O; P to bf16 A fragments; O += P V (wgmma_rs, V MN-major); wait; then release the stage.
//   4. o = O / l as bf16 and lse = m * scale + log(l); rows that saw no key: o = 0, lse = -INFINITY.

// The launcher may copy data it made to the device, but no data leaves the device: a copy from
// the device to the host, or host memory a kernel can reach, is refused (docs/grading.md).
void flash_fwd_hopper(const __nv_bfloat16* q, const __nv_bfloat16* k, const __nv_bfloat16* v,
                      __nv_bfloat16* o, float* lse, int bh, int n_q, int n_k, int d, float scale,
                      bool causal) {
  // TODO: make the tensor maps (tensor_map(q, bh, n_q, d, 64), tensor_map(k, bh, n_k, d, tile keys), ...),
  // set the dynamic shared memory limit and launch your kernel on a grid of ceil(n_q / 64) x bh blocks.
}
