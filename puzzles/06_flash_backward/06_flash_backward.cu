// Puzzle 6 · Flash attention backward
// Guide: puzzles/06_flash_backward/README.md    Check: ./puzzle check 6     Hints: ./puzzle hint 6
//
// Spec. Puzzle 5 computed, for each of bh heads (q: [n_q, d]; k, v: [n_k, d]; row-major, contiguous),
//
//     S = scale * Q K^T (masked),   P = softmax(S) row by row,   O = P V,   lse_i = log sum_j exp(S_ij)
//
// Given dout = dL/dO, write the gradients dq = dL/dQ, dk = dL/dK, dv = dL/dV:
//
//     dV = P^T dO          dP = dO V^T          dS = P * (dP - D),   D_i = rowsum(dO * O)_i
//     dQ = scale * dS K    dK = scale * dS^T Q                          (* is elementwise)
//
// In PyTorch (what autograd computes for this forward):
//     def attention_backward(q, k, v, o, lse, dout, scale, causal):
//         s = scale * q @ k.transpose(-1, -2)                    # masked entries: -inf
//         p = torch.exp(s - lse[..., None]).nan_to_num(0.0)      # P from lse; NaN: a row with no key
//         dv = p.transpose(-1, -2) @ dout
//         dp = dout @ v.transpose(-1, -2)
//         ds = p * (dp - (dout * o).sum(-1, keepdim=True))
//         return scale * ds @ k, scale * ds.transpose(-1, -2) @ q, dv
//
// The harness gives you o and lse (natural log) from its own float64 forward pass. Do not store P or S:
// recompute each tile of P from q, k and lse. The usual plan (FlashAttention-2): a block per tile of keys
// keeps its dK and dV in registers and walks the tiles of queries; dq gets contributions from every key
// tile, so blocks add into it with atomicAdd (zero it first: cudaMemsetAsync). A small first kernel can
// compute D = rowsum(dout * o) into a scratch buffer of bh * n_q floats.
//
// Causal (when `causal`): bottom-right aligned as in puzzle 5, query i sees key j iff j <= i + (n_k - n_q).
// A query that sees no key (n_q > n_k) has lse = -inf and zero gradient: it adds nothing anywhere.
// Sizes your code must handle: d in {16, 32, 64, 128}; any n_q, n_k >= 1 (not multiples of your tiles);
// scale is an argument (not always 1/sqrt(d)); scores (and lse) may reach the hundreds: compute
// P = exp(scale * s - lse), never exp(scale * s) / exp(lse).
//
// Budgets. Lines: roughly 220 for kernels + launcher. Memory traffic (a key tile: the keys of one block):
//     read k, v once; q, dout, lse once per key tile; write dk, dv once; add into dq once per key tile
// Extra device memory: O(bh * n * d), at most 16 * bh * (n_q + n_k) * (d + 1) bytes + 64 KiB (a scratch of
// n_q x n_k floats is rejected).
//
// You choose grid, blocks, shared memory and scratch buffers in the launcher below. Its signature is
// fixed: the harness calls it with device pointers and checks dq, dk and dv.
#include <cuda_runtime.h>

__global__ void flash_bwd_kernel(const float* q, const float* k, const float* v, const float* lse,
                                 const float* delta, const float* dout, float* dq, float* dk, float* dv,
                                 int n_q, int n_k, int d, float scale, bool causal) {
  // TODO: one block per (tile of keys, head): blockIdx.x = key tile, blockIdx.y = head.
  // 1. load the block's K and V tiles; zero its dK and dV accumulators
  // 2. for each tile of queries (under the causal mask: only those that see one of the block's keys):
  //      S = Q K^T, P = exp(scale * S - lse) (0 where masked), dP = dO V^T, dS = P * (dP - D)
  //      dV += P^T dO,  dK += scale * dS^T Q,  atomicAdd(dq, scale * dS K)
  // 3. write dK and dV
}

// The launcher may copy data it made to the device, but no data leaves the device: a copy from
// the device to the host, or host memory a kernel can reach, is refused (docs/grading.md).
void flash_bwd(const float* q, const float* k, const float* v, const float* o, const float* lse,
               const float* dout, float* dq, float* dk, float* dv, int bh, int n_q, int n_k, int d,
               float scale, bool causal) {
  // TODO: zero dq, compute D = rowsum(dout * o) (bh * n_q floats of scratch), then launch:
  //   flash_bwd_kernel<<<grid, block, shared_bytes>>>(q, k, v, lse, delta, dout, dq, dk, dv, n_q, n_k, d,
  //                                                    scale, causal);
}
