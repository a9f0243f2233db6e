// Puzzle 5 · Flash attention forward — version 1: clear.
// The spec is in the stub, 05_flash_forward.cu; the walk-through is the puzzle's docs page.
//
// One thread per query row, 64 rows (threads) per block, blockIdx.y the head. The block walks the keys
// in tiles of 32: it stages each K and V tile in shared memory once for its 64 rows, and every thread
// runs puzzle 3's online softmax over its row's scores with a vector riding along:
//   m  the max of the row's scores so far,  l = sum of exp(s - m),  O = sum of exp(s - m) * v_j.
// The n_q x n_k scores never leave the chip: a thread holds one tile's 32 scores at a time.
#include <cuda_runtime.h>

#include <cmath>

constexpr int kMaxD = 128;
constexpr int kRows = 64;  // query rows per block: one per thread
constexpr int kKeys = 32;  // keys per tile

__global__ void flash_fwd_kernel(const float* q, const float* k, const float* v, float* o, float* lse,
                                 int n_q, int n_k, int d, float scale, bool causal) {
  __shared__ float k_tile[kKeys][kMaxD], v_tile[kKeys][kMaxD];
  const size_t head = blockIdx.y;
  const int i = blockIdx.x * kRows + threadIdx.x;  // this thread's query row
  const bool has_row = i < n_q;                    // spare threads of the last block still load tiles
  const float* q_row = q + (head * n_q + i) * d;
  const float* k_head = k + head * n_k * d;
  const float* v_head = v + head * n_k * d;
  // Causal, bottom-right aligned: row i sees keys 0 .. i + n_k - n_q (none if that is negative).
  const int last_key = causal ? i + n_k - n_q : n_k - 1;

  float q_scaled[kMaxD], acc[kMaxD];  // the row's q times scale, and its running O
  for (int c = 0; c < d; ++c) {
    q_scaled[c] = has_row ? q_row[c] * scale : 0.0f;
    acc[c] = 0.0f;
  }
  float m = -INFINITY, l = 0.0f;

  for (int k0 = 0; k0 < n_k; k0 += kKeys) {
    // 1. Stage the K and V tile: the 64 threads copy its 32 x d floats together (zeros past n_k).
    __syncthreads();  // every thread is done with the previous tile
    for (int e = threadIdx.x; e < kKeys * d; e += kRows) {
      const int j = e / d, c = e % d;
      const bool inside = k0 + j < n_k;
      k_tile[j][c] = inside ? k_head[static_cast<size_t>(k0 + j) * d + c] : 0.0f;
      v_tile[j][c] = inside ? v_head[static_cast<size_t>(k0 + j) * d + c] : 0.0f;
    }
    __syncthreads();

    // 2. The tile's scores s = scale * q . k, -inf for the keys the row must not see.
    float s[kKeys];
    float tile_max = -INFINITY;
    for (int j = 0; j < kKeys; ++j) {
      s[j] = -INFINITY;
      if (has_row && k0 + j < n_k && k0 + j <= last_key) {
        s[j] = 0.0f;
        for (int c = 0; c < d; ++c) s[j] += q_scaled[c] * k_tile[j][c];
      }
      tile_max = fmaxf(tile_max, s[j]);
    }
    if (tile_max == -INFINITY) continue;  // nothing visible here: m, l, O stay (and -inf - -inf is NaN)

    // 3. The online update: a new max rescales what l and O hold, then the tile's terms are added.
    const float m_new = fmaxf(m, tile_max);
    const float rescale = expf(m - m_new);  // 0 on the first visible tile (m = -inf), where l = O = 0
    l *= rescale;
    for (int c = 0; c < d; ++c) acc[c] *= rescale;
    for (int j = 0; j < kKeys; ++j) {
      const float p = expf(s[j] - m_new);  // 0 for a masked key
      l += p;
      for (int c = 0; c < d; ++c) acc[c] += p * v_tile[j][c];
    }
    m = m_new;
  }
  if (!has_row) return;

  // 4. o = O / l, lse = m + log(l); a row that saw no key gets o = 0 and lse = -inf.
  const float inv_l = l > 0.0f ? 1.0f / l : 0.0f;
  for (int c = 0; c < d; ++c) o[(head * n_q + i) * d + c] = acc[c] * inv_l;
  lse[head * n_q + i] = l > 0.0f ? m + logf(l) : -INFINITY;
}

// clang-format off
void flash_fwd(const float* q, const float* k, const float* v, float* o, float* lse, int bh, int n_q, int n_k, int d, float scale, bool causal) {
  // clang-format on
  const dim3 grid((n_q + kRows - 1) / kRows, bh);  // blocks of query rows x heads
  flash_fwd_kernel<<<grid, kRows>>>(q, k, v, o, lse, n_q, n_k, d, scale, causal);
}
