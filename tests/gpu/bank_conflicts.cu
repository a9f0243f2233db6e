// Shared-memory wavefronts of known access patterns, one warp per kernel, to compare the simulator's
// counts with Nsight Compute's on a GPU. On the simulator (bank_conflicts_sim) it prints, per kernel,
// the warp instructions, wavefronts and extra wavefronts of its loads; on the GPU (bank_conflicts_gpu)
// it only runs the kernels, and ncu measures them (tests/gpu/README.md has the command). Every kernel
// fills 32 rows of 128 bytes (stride-1 stores), waits, then loads with its pattern once.
#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>

#ifdef PUZZLE_SIM
#include "sim/harness_api.h"
#endif

namespace {

constexpr int kWords = 32 * 32;

__device__ void fill(float* s) {
  for (int i = threadIdx.x; i < kWords; i += 32) s[i] = static_cast<float>(i);  // the only stores
  __syncthreads();
}

__global__ void stride_1(float* out) {
  __shared__ __align__(16) float s[kWords];
  fill(s);
  out[threadIdx.x] = s[threadIdx.x];
}
__global__ void stride_2(float* out) {
  __shared__ __align__(16) float s[kWords];
  fill(s);
  out[threadIdx.x] = s[2 * threadIdx.x];
}
__global__ void stride_32(float* out) {
  __shared__ __align__(16) float s[kWords];
  fill(s);
  out[threadIdx.x] = s[32 * threadIdx.x];
}
__global__ void broadcast(float* out) {
  __shared__ __align__(16) float s[kWords];
  fill(s);
  out[threadIdx.x] = s[7];
}
__global__ void row_float2(float* out) {
  __shared__ __align__(16) float s[kWords];
  fill(s);
  const float2 v = reinterpret_cast<const float2*>(s)[threadIdx.x];
  out[threadIdx.x] = v.x + v.y;
}
__global__ void row_float4(float* out) {
  __shared__ __align__(16) float s[kWords];
  fill(s);
  const float4 v = reinterpret_cast<const float4*>(s)[threadIdx.x];
  out[threadIdx.x] = v.x + v.y + v.z + v.w;
}
__global__ void column_float4(float* out) {
  __shared__ __align__(16) float s[kWords];
  fill(s);
  const float4 v = reinterpret_cast<const float4*>(s)[8 * threadIdx.x];
  out[threadIdx.x] = v.x + v.y + v.z + v.w;
}
// ldmatrix.x4 of a 16 x 16 block of a 32 x 64 bf16 tile (rows of 128 bytes): lane l addresses row
// l % 16, 16-byte chunk l / 16; swizzled, chunk c of row r lies at chunk c ^ (r % 8).
template <bool kSwizzled>
__global__ void ldmatrix_x4(float* out) {
  __shared__ __align__(128) float s[kWords];
  fill(s);
  const unsigned row = threadIdx.x % 16, chunk = threadIdx.x / 16,
                 stored = kSwizzled ? chunk ^ (row % 8) : chunk;
  const auto address = static_cast<uint32_t>(__cvta_generic_to_shared(&s[row * 32 + stored * 4]));
  uint32_t r0, r1, r2, r3;
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];\n"
               : "=r"(r0), "=r"(r1), "=r"(r2), "=r"(r3)
               : "r"(address));
  out[threadIdx.x] = static_cast<float>(r0 ^ r1 ^ r2 ^ r3);
}

template <class Kernel>
void run(const char* name, Kernel kernel, float* out, const char* expected) {
#ifdef PUZZLE_SIM
  sim::harness::begin_launcher();
#endif
  kernel<<<1, 32>>>(out);
  cudaDeviceSynchronize();
#ifdef PUZZLE_SIM
  const sim::harness::Report report = sim::harness::end_launcher();
  unsigned long long instructions = 0, wavefronts = 0, ideal = 0;
  for (const auto& w : report.shared_wavefronts) {
    if (w.wavefronts == w.instructions && w.instructions == kWords / 32) continue;  // fill's stores
    instructions += w.instructions;
    wavefronts += w.wavefronts;
    ideal += w.ideal_wavefronts;
  }
  std::printf("%-22s load instructions %llu, wavefronts %llu, extra (bank conflicts) %llu   expected: %s\n",
              name, instructions, wavefronts, wavefronts - ideal, expected);
  for (const auto& f : report.findings) std::printf("  finding: %s: %s\n", f.kind.c_str(), f.message.c_str());
#else
  std::printf("%-22s ran (expected wavefronts/conflicts: %s)\n", name, expected);
#endif
}

}  // namespace

int main() {
  float* out = nullptr;
  cudaMalloc(&out, 32 * sizeof(float));
  run("stride_1", stride_1, out, "1 / 0");
  run("stride_2", stride_2, out, "2 / 1");
  run("stride_32", stride_32, out, "32 / 31");
  run("broadcast", broadcast, out, "1 / 0");
  run("row_float2", row_float2, out, "2 / 0");
  run("row_float4", row_float4, out, "4 / 0");
  run("column_float4", column_float4, out, "32 / 28");
  run("ldmatrix_x4_plain", ldmatrix_x4<false>, out, "32 / 28");
  run("ldmatrix_x4_swizzled", ldmatrix_x4<true>, out, "4 / 0");
  cudaFree(out);
  return 0;
}
