// Puzzle 5 · Flash attention forward
// Guide: puzzles/05_flash_forward/README.md    Check: ./puzzle check 5     Hints: ./puzzle hint 5
//
// Spec. For each of `bh` heads (batch x heads, flattened), q is [n_q, d], k and v are [n_k, d], o is
// [n_q, d] and lse is [n_q]: row-major, contiguous, head after head, on the device. Write
//
//     s[i][j] = scale * (q_i . k_j)                     for the keys j that query i sees
//     o[i]    = sum_j exp(s[i][j] - lse[i]) * v_j        (softmax of row i of s, times V)
//     lse[i]  = log(sum_j exp(s[i][j]))                  (natural log: the backward pass needs it)
//
// In PyTorch (per head):
//     s = scale * q @ k.T
//     if causal: s = s.masked_fill(torch.ones(n_q, n_k).triu(n_k - n_q + 1).bool(), float("-inf"))
//     lse = torch.logsumexp(s, dim=-1);  o = torch.softmax(s, dim=-1).nan_to_num(0.0) @ v
//
// without ever storing s: it is n_q x n_k, and the point of FlashAttention is that it never leaves the
// chip. Walk the keys in tiles, keeping for each query row a running max m, a running sum l of
// exp(s - m) and a running O = sum of exp(s - m) * v_j. A tile that raises the max to m_new rescales
// both l and O by exp(m - m_new) (puzzle 3's update, with a vector riding along). At the end o = O / l and
// lse = m + log(l).
//
// Causal is aligned bottom-right, as in FlashAttention-2: query i sees key j iff j <= i + (n_k - n_q),
// so that the last query sees every key. When n_q > n_k the first n_q - n_k queries see no key: write
// o = 0 and lse = -INFINITY there.
//
// Sizes your code must handle: bh >= 1; d in {16, 32, 64, 128}; n_q, n_k >= 1, any size (not multiples of
// your tiles); scale is an argument (not always 1/sqrt(d)); scores may reach the hundreds, of either sign.
//
// Budgets. Lines: roughly 150 for kernels + launcher. Memory traffic:
//     read q once, k and v once per block of query rows, write o and lse once
// Extra device memory: O(bh * n * d), never an n_q x n_k buffer. The checker measures what the launcher
// allocates and fails a case above 16 * bh * (n_q + n_k) * (d + 1) bytes + 64 KiB.
//
// You choose grid, block and shared memory in the launcher below. Its signature is fixed: the harness
// calls it with device pointers and checks o and lse.
#include <cuda_runtime.h>

#include <cmath>

__global__ void flash_fwd_kernel(const float* q, const float* k, const float* v, float* o, float* lse,
                                 int n_q, int n_k, int d, float scale, bool causal) {
  // TODO: each block takes a tile of query rows of one head (blockIdx.y) and walks the key tiles:
  // 1. stage the K and V tiles in shared memory         2. scores s = scale * q . k, -INFINITY where masked
  // 3. per row: m_new = max(m, tile max); l and O *= exp(m - m_new); l += sum exp(s - m_new);
  //    O += exp(s - m_new) * V                            4. o = O / l, lse = m + log(l)
}

// The launcher may copy data it made to the device, but no data leaves the device: a copy from
// the device to the host, or host memory a kernel can reach, is refused (docs/grading.md).
void flash_fwd(const float* q, const float* k, const float* v, float* o, float* lse, int bh, int n_q, int n_k,
               int d, float scale, bool causal) {
  // TODO: choose a grid and a block size, then launch:
  //   flash_fwd_kernel<<<grid, block>>>(q, k, v, o, lse, n_q, n_k, d, scale, causal);
}
