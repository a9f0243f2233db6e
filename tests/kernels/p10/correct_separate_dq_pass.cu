// expect: passed
// Correct, written differently: no atomics and no fp32 dQ scratch. Two kernels after D's:
//   - dk_dv_pass: the clear solution's kernel without its dQ step (a block per 64 keys; dK, dV in
//     registers over the tiles of queries; S^T and dP^T, rows = keys);
//   - dq_pass: a block per 64 queries, as puzzle 9's forward (rows = queries: S = Q K^T and dP = dO V^T,
//     the lane's lse and D in registers), walks the tiles of keys it sees and keeps dQ (16 x d per warp) in
//     registers: dQ += dS K, A = dS straight from the accumulators, B = K by ldmatrix .trans. Each dq element
//     has one writer: deterministic, and written as bf16 at once.
// The price: P and dP are computed twice (once per pass).
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include <cmath>
#include <cstdint>

#include "../tensor_core_ptx.cuh"

namespace {

constexpr int kTile = 64;      // keys per block of dk_dv_pass, queries per block of dq_pass, and per tile
constexpr int kThreads = 128;  // 4 warps x 16 rows
constexpr int kPad = 8;
constexpr float kLog2e = 1.4426950408889634f;

__device__ void cp_async_wait_all() {
  asm volatile("cp.async.wait_all;\n" ::: "memory");
}
__device__ void to_a_fragment(uint32_t a[4], const float x[][4], int kk) {
  a[0] = pack_bf16(x[2 * kk][0], x[2 * kk][1]), a[1] = pack_bf16(x[2 * kk][2], x[2 * kk][3]);
  a[2] = pack_bf16(x[2 * kk + 1][0], x[2 * kk + 1][1]), a[3] = pack_bf16(x[2 * kk + 1][2], x[2 * kk + 1][3]);
}
template <int D>
__device__ void load_tile(__nv_bfloat16* tile, const __nv_bfloat16* src, int first, int n) {
  for (int i = threadIdx.x; i < kTile * D / 8; i += kThreads) {
    const int row = i / (D / 8), col = i % (D / 8) * 8;
    const bool inside = first + row < n;
    cp_async_16(tile + row * (D + kPad) + col,
                src + (inside ? static_cast<size_t>(first + row) * D + col : 0), inside ? 16 : 0);
  }
}

// The 16 x 64 products X Y^T and W Z^T of one warp (X, W: its 16 rows of two [64][D] tiles, as A without
// .trans; Y, Z: all 64 rows of two others, as B without .trans): x[j], w[j] are columns 8j .. 8j + 7.
template <int D>
__device__ void two_products(float x[8][4], float w[8][4], const __nv_bfloat16* x_tile,
                             const __nv_bfloat16* y_tile, const __nv_bfloat16* w_tile,
                             const __nv_bfloat16* z_tile) {
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  for (int ks = 0; ks < D / 16; ++ks) {
    uint32_t a_x[4], a_w[4];
    const int at = (warp * 16 + lane % 16) * (D + kPad) + 16 * ks + lane / 16 * 8;
    ldmatrix_x4(a_x, x_tile + at);
    ldmatrix_x4(a_w, w_tile + at);
    for (int jj = 0; jj < 4; ++jj) {
      const int bt = (16 * jj + lane % 8 + lane / 16 * 8) * (D + kPad) + 16 * ks + lane / 8 % 2 * 8;
      uint32_t b[4];
      ldmatrix_x4(b, y_tile + bt);
      mma_m16n8k16(x[2 * jj], a_x, b);
      mma_m16n8k16(x[2 * jj + 1], a_x, b + 2);
      ldmatrix_x4(b, z_tile + bt);
      mma_m16n8k16(w[2 * jj], a_w, b);
      mma_m16n8k16(w[2 * jj + 1], a_w, b + 2);
    }
  }
}

// acc (16 x D) += a (16 x 64: 4 A fragments) times the [64][D] tile (B by ldmatrix .trans).
template <int D>
__device__ void add_product(float acc[][4], const uint32_t a[4], int kk, const __nv_bfloat16* tile) {
  const int lane = threadIdx.x % 32;
  for (int n = 0; n < D / 16; ++n) {
    uint32_t b[4];
    ldmatrix_x4_trans(b,
                      tile + (16 * kk + lane % 8 + lane / 8 % 2 * 8) * (D + kPad) + 16 * n + lane / 16 * 8);
    mma_m16n8k16(acc[2 * n], a, b);
    mma_m16n8k16(acc[2 * n + 1], a, b + 2);
  }
}

template <int D>
__global__ void delta_kernel(const __nv_bfloat16* o, const __nv_bfloat16* dout, float* delta, int rows) {
  const int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= rows) return;
  float sum = 0.0f;
  for (int c = 0; c < D; ++c)
    sum += __bfloat162float(o[static_cast<size_t>(row) * D + c]) *
           __bfloat162float(dout[static_cast<size_t>(row) * D + c]);
  delta[row] = sum;
}

struct Args {
  const __nv_bfloat16 *q, *k, *v, *dout;
  const float *lse, *delta;
  __nv_bfloat16 *dq, *dk, *dv;
  int n_q, n_k;
  float scale;
  bool causal;
};

// P (0 where masked) and dS = P (dP - D) of a pair, in place of s and dp; lse_log2 = +inf: no key.
__device__ void p_and_ds(float& s, float& dp, int query, int key, float lse_log2, float delta,
                         const Args& a) {
  const bool masked = key >= a.n_k || (a.causal && key > query + a.n_k - a.n_q);
  s = masked ? 0.0f : exp2f(s * a.scale * kLog2e - lse_log2);
  dp = s * (dp - delta);
}

__device__ float lse_log2_of(const Args& a, size_t head, int query) {
  if (query >= a.n_q) return INFINITY;
  const float lse = a.lse[head * a.n_q + query];
  return lse == -INFINITY ? INFINITY : lse * kLog2e;
}

template <int D>
__global__ void __launch_bounds__(kThreads) dk_dv_pass(Args a) {
  constexpr int kStride = D + kPad;
  extern __shared__ __align__(128) __nv_bfloat16 smem[];
  __nv_bfloat16 *k_tile = smem, *v_tile = smem + kTile * kStride;
  __nv_bfloat16 *q_tile = smem + 2 * kTile * kStride, *do_tile = smem + 3 * kTile * kStride;
  float* lse_tile = reinterpret_cast<float*>(smem + 4 * kTile * kStride);
  float* delta_tile = lse_tile + kTile;
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32, g = lane / 4, t = lane % 4;
  const int k0 = blockIdx.x * kTile, key0 = k0 + warp * 16 + g;
  const size_t head = blockIdx.y;
  load_tile<D>(k_tile, a.k + head * a.n_k * D, k0, a.n_k);
  load_tile<D>(v_tile, a.v + head * a.n_k * D, k0, a.n_k);
  float dk[D / 8][4] = {}, dv[D / 8][4] = {};
  const int first_query = a.causal ? max(0, k0 - (a.n_k - a.n_q)) : 0;  // < n_q: k0 < n_k
  for (int q0 = first_query / kTile * kTile; q0 < a.n_q; q0 += kTile) {
    load_tile<D>(q_tile, a.q + head * a.n_q * D, q0, a.n_q);
    load_tile<D>(do_tile, a.dout + head * a.n_q * D, q0, a.n_q);
    cp_async_commit();
    if (threadIdx.x < kTile) {
      const int i = q0 + threadIdx.x;
      lse_tile[threadIdx.x] = lse_log2_of(a, head, i);
      delta_tile[threadIdx.x] = i < a.n_q ? a.delta[head * a.n_q + i] : 0.0f;
    }
    cp_async_wait_all();
    __syncthreads();
    float s[8][4] = {}, dp[8][4] = {};  // S^T, dP^T: rows keys, columns queries
    two_products<D>(s, dp, k_tile, q_tile, v_tile, do_tile);
    for (int j = 0; j < 8; ++j)
      for (int e = 0; e < 4; ++e) {
        const int row = 8 * j + 2 * t + e % 2;
        p_and_ds(s[j][e], dp[j][e], q0 + row, key0 + 8 * (e / 2), lse_tile[row], delta_tile[row], a);
      }
    for (int kk = 0; kk < 4; ++kk) {
      uint32_t p[4], ds[4];
      to_a_fragment(p, s, kk);
      to_a_fragment(ds, dp, kk);
      add_product<D>(dv, p, kk, do_tile);
      add_product<D>(dk, ds, kk, q_tile);
    }
    __syncthreads();
  }
  for (int r = 0; r < 2; ++r) {
    const int key = key0 + 8 * r;
    if (key >= a.n_k) continue;
    for (int n = 0; n < D / 8; ++n) {
      const size_t at = (head * a.n_k + key) * D + 8 * n + 2 * t;
      *reinterpret_cast<__nv_bfloat162*>(a.dk + at) =
          __floats2bfloat162_rn(a.scale * dk[n][2 * r], a.scale * dk[n][2 * r + 1]);
      *reinterpret_cast<__nv_bfloat162*>(a.dv + at) = __floats2bfloat162_rn(dv[n][2 * r], dv[n][2 * r + 1]);
    }
  }
}

template <int D>
__global__ void __launch_bounds__(kThreads) dq_pass(Args a) {
  constexpr int kStride = D + kPad;
  extern __shared__ __align__(128) __nv_bfloat16 smem[];
  __nv_bfloat16 *q_tile = smem, *do_tile = smem + kTile * kStride;
  __nv_bfloat16 *k_tile = smem + 2 * kTile * kStride, *v_tile = smem + 3 * kTile * kStride;
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32, g = lane / 4, t = lane % 4;
  const int q0 = blockIdx.x * kTile, row0 = q0 + warp * 16 + g;  // the lane's queries row0, row0 + 8
  const size_t head = blockIdx.y;
  float lse_log2[2], delta[2];
  for (int r = 0; r < 2; ++r) {
    lse_log2[r] = lse_log2_of(a, head, row0 + 8 * r);
    delta[r] = row0 + 8 * r < a.n_q ? a.delta[head * a.n_q + row0 + 8 * r] : 0.0f;
  }
  load_tile<D>(q_tile, a.q + head * a.n_q * D, q0, a.n_q);
  load_tile<D>(do_tile, a.dout + head * a.n_q * D, q0, a.n_q);
  cp_async_commit();
  cp_async_wait_all();
  // The keys the block sees: all, or (causal) up to its last query's diagonal.
  const int last_query = min(q0 + kTile, a.n_q) - 1;
  const int key_end = a.causal ? max(0, min(a.n_k, last_query + a.n_k - a.n_q + 1)) : a.n_k;
  float dq[D / 8][4] = {};
  for (int k0 = 0; k0 < key_end; k0 += kTile) {
    load_tile<D>(k_tile, a.k + head * a.n_k * D, k0, a.n_k);
    load_tile<D>(v_tile, a.v + head * a.n_k * D, k0, a.n_k);
    cp_async_commit();
    cp_async_wait_all();
    __syncthreads();
    float s[8][4] = {}, dp[8][4] = {};  // S, dP: rows queries, columns keys
    two_products<D>(s, dp, q_tile, k_tile, do_tile, v_tile);
    for (int j = 0; j < 8; ++j)
      for (int e = 0; e < 4; ++e)
        p_and_ds(s[j][e], dp[j][e], row0 + 8 * (e / 2), k0 + 8 * j + 2 * t + e % 2, lse_log2[e / 2],
                 delta[e / 2], a);
    for (int kk = 0; kk < 4; ++kk) {
      uint32_t ds[4];
      to_a_fragment(ds, dp, kk);
      add_product<D>(dq, ds, kk, k_tile);
    }
    __syncthreads();
  }
  for (int r = 0; r < 2; ++r) {
    const int row = row0 + 8 * r;
    if (row >= a.n_q) continue;
    for (int n = 0; n < D / 8; ++n)
      *reinterpret_cast<__nv_bfloat162*>(a.dq + (head * a.n_q + row) * D + 8 * n + 2 * t) =
          __floats2bfloat162_rn(a.scale * dq[n][2 * r], a.scale * dq[n][2 * r + 1]);
  }
}

template <int D>
void launch(const Args& args, const __nv_bfloat16* o, float* delta, int bh) {
  constexpr int kBytes = 4 * kTile * (D + kPad) * 2 + 2 * kTile * 4;
  delta_kernel<D><<<(bh * args.n_q + 127) / 128, 128>>>(o, args.dout, delta, bh * args.n_q);
  cudaFuncSetAttribute(dk_dv_pass<D>, cudaFuncAttributeMaxDynamicSharedMemorySize, kBytes);
  cudaFuncSetAttribute(dq_pass<D>, cudaFuncAttributeMaxDynamicSharedMemorySize, kBytes);
  dk_dv_pass<D><<<dim3((args.n_k + kTile - 1) / kTile, bh), kThreads, kBytes>>>(args);
  dq_pass<D><<<dim3((args.n_q + kTile - 1) / kTile, bh), kThreads, kBytes>>>(args);
}

}  // namespace

void flash_bwd_bf16(const __nv_bfloat16* q, const __nv_bfloat16* k, const __nv_bfloat16* v,
                    const __nv_bfloat16* o, const float* lse, const __nv_bfloat16* dout, __nv_bfloat16* dq,
                    __nv_bfloat16* dk, __nv_bfloat16* dv, int bh, int n_q, int n_k, int d, float scale,
                    bool causal) {
  float* delta = nullptr;
  cudaMalloc(&delta, sizeof(float) * bh * n_q);
  const Args args{q, k, v, dout, lse, delta, dq, dk, dv, n_q, n_k, scale, causal};
  if (d == 64) launch<64>(args, o, delta, bh);
  if (d == 128) launch<128>(args, o, delta, bh);
  cudaFree(delta);
}
