// Bit-exactness of the simulator's wgmma against a GPU. Built twice, like mma_bits.cu: by nvcc for an
// sm_90a device (wgmma_bits_gpu) and through the simulator's translator for the CPU (wgmma_bits_sim). Each
// build runs identical inputs (fixed seeds; bf16 operands with random low bits, fp32 accumulators) through
// wgmma.mma_async with the shapes and layouts the puzzles use, every block one warp group:
//   m64n128k16 and m64n256k16 with the 128-byte swizzle (puzzle 11's descriptors), m64n128k16 with the
//   64-byte swizzle and with no swizzle, and m64n256k16 as puzzle 11 chains it: 4 k-slices of a 128-byte
//   swizzled row (descriptor start + 32 bytes each) into the same accumulators, one commit, one wait.
// and writes every result's bits. `--compare FILE` runs the same and reports, per section, how many results
// differ from FILE's, with the accumulation models of sim/mma_model.h nearest to FILE's results; it ends
// with one line, `wgmma_bits: <section> <mismatches>, ...: BIT-EXACT` (exit 0) or `...: MISMATCH` (exit 1).
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "../../solutions/common/hopper_ptx.cuh"
#include "bit_sections.hpp"
#include "mma_model.h"

namespace {

using namespace bits;

constexpr int kTiles = 48;  // warp groups (blocks) per section

struct Variant {
  const char* name;
  int n;       // 128 or 256
  int layout;  // the descriptor's: 0 no swizzle, 1 128-byte, 2 64-byte
  int slices;  // k16 slices chained into the accumulators
};
constexpr Variant kVariants[] = {
    {"wgmma m64n128k16 128B", 128, 1, 1},
    {"wgmma m64n256k16 128B", 256, 1, 1},
    {"wgmma m64n128k16 64B", 128, 2, 1},
    {"wgmma m64n128k16 no swizzle", 128, 0, 1},
    {"wgmma m64n256k16 128B, 4 k-slices chained", 256, 1, 4},
};
constexpr int kVariantCount = sizeof(kVariants) / sizeof(kVariants[0]);

// ---- device code ----

constexpr int kTileB = 8192;  // B's offset in shared memory; A's is 0 (both 1024-aligned)

__device__ unsigned span_of(int layout) {
  return layout == 1 ? 128 : layout == 2 ? 64 : 0;
}

// Byte offset of element (row, k) of a K-major operand in the canonical layout: swizzled rows of `span`
// bytes (8 rows 8 * span apart), or without swizzle core matrices of 8 rows x 16 bytes (k / 8: 128 bytes
// on, 8 rows: 256), the swizzle applied to the address.
__device__ uint32_t place(int layout, uint32_t base, int row, int k) {
  const unsigned span = span_of(layout);
  const uint32_t address = span ? base + row / 8 * 8 * span + row % 8 * span + k * 2
                                : base + row / 8 * 256 + k / 8 * 128 + row % 8 * 16 + k % 8 * 2;
  return span ? address ^ ((address >> 7) & (span / 16 - 1)) << 4 : address;
}

__device__ uint64_t descriptor_at(int layout, uint32_t start) {
  const unsigned span = span_of(layout);
  const uint32_t leading = span ? 16 : 128, stride = span ? 8 * span : 256;
  const uint64_t field = layout;  // 0, 1 (128B), 2 (64B)
  return (start & 0x3FFFF) >> 4 | uint64_t{leading >> 4} << 16 | uint64_t{stride >> 4} << 32 | field << 62;
}

// A: [64][16 slices], B: [n][16 slices] bf16 bits, row-major; C and D: [64][n] floats.
template <int N>
__global__ void wgmma_tiles(int layout, int slices, const uint16_t* a, const uint16_t* b, const float* c,
                            float* d) {
  extern __shared__ __align__(1024) uint8_t shared[];
  const int k = 16 * slices, t = threadIdx.x;
  a += blockIdx.x * 64 * k;
  b += blockIdx.x * N * k;
  c += blockIdx.x * 64 * N;
  d += blockIdx.x * 64 * N;
  const uint32_t base = smem_u32(shared);
  for (int e = t; e < 64 * k; e += 128)
    *reinterpret_cast<uint16_t*>(shared + place(layout, base, e / k, e % k) - base) = a[e];
  for (int e = t; e < N * k; e += 128)
    *reinterpret_cast<uint16_t*>(shared + place(layout, base + kTileB, e / k, e % k) - base) = b[e];
  fence_proxy_async();
  __syncthreads();
  const int row = 16 * (t / 32) + t % 32 / 4;
  float acc[N / 2];
  for (int j = 0; j < N / 8; ++j)
    for (int i = 0; i < 4; ++i) acc[4 * j + i] = c[(row + 8 * (i / 2)) * N + 8 * j + 2 * (t % 4) + i % 2];
  wgmma_fence();
  for (int s = 0; s < slices; ++s) {
    // The next 16 k: 32 bytes on in a swizzled row, the next pair of core matrices without swizzle.
    const uint32_t step = span_of(layout) ? 32 * s : 256 * s;
    const uint64_t a_desc = descriptor_at(layout, base + step),
                   b_desc = descriptor_at(layout, base + kTileB + step);
    if constexpr (N == 128)
      wgmma_m64n128k16(acc, a_desc, b_desc);
    else
      wgmma_m64n256k16(acc, a_desc, b_desc);
  }
  wgmma_commit();
  wgmma_wait<0>();
  for (int j = 0; j < N / 8; ++j)
    for (int i = 0; i < 4; ++i) d[(row + 8 * (i / 2)) * N + 8 * j + 2 * (t % 4) + i % 2] = acc[4 * j + i];
}

// ---- host ----

struct Inputs {
  std::vector<uint16_t> a, b;
  std::vector<float> c;
};

Inputs inputs_of(int variant) {
  const Variant& v = kVariants[variant];
  const int k = 16 * v.slices;
  std::mt19937 rng(500 + variant);
  Inputs in{std::vector<uint16_t>(kTiles * 64 * k), std::vector<uint16_t>(kTiles * v.n * k),
            std::vector<float>(kTiles * 64 * v.n)};
  for (uint16_t& x : in.a) x = random_sixteen(rng, true);
  for (uint16_t& x : in.b) x = random_sixteen(rng, true);
  for (float& x : in.c) x = random_float(rng);
  return in;
}

std::vector<Section> run_all() {
  std::vector<Section> sections;
  for (int variant = 0; variant < kVariantCount; ++variant) {
    const Variant& v = kVariants[variant];
    const Inputs in = inputs_of(variant);
    uint16_t *a = upload(in.a), *b = upload(in.b);
    float *c = upload(in.c), *d = upload(std::vector<float>(in.c.size()));
    const size_t shared = kTileB + 256 * 128 + 1024;
    if (v.n == 128) {
      CHECK_CUDA(cudaFuncSetAttribute(wgmma_tiles<128>, cudaFuncAttributeMaxDynamicSharedMemorySize, shared));
      wgmma_tiles<128><<<kTiles, 128, shared>>>(v.layout, v.slices, a, b, c, d);
    } else {
      CHECK_CUDA(cudaFuncSetAttribute(wgmma_tiles<256>, cudaFuncAttributeMaxDynamicSharedMemorySize, shared));
      wgmma_tiles<256><<<kTiles, 128, shared>>>(v.layout, v.slices, a, b, c, d);
    }
    CHECK_CUDA(cudaGetLastError());
    const std::vector<float> result = download(d, in.c.size());
    Section s{v.name, std::vector<uint32_t>(result.size())};
    std::memcpy(s.bits.data(), result.data(), result.size() * 4);
    sections.push_back(std::move(s));
    CHECK_CUDA(cudaFree(a));
    CHECK_CUDA(cudaFree(b));
    CHECK_CUDA(cudaFree(c));
    CHECK_CUDA(cudaFree(d));
  }
  return sections;
}

double bf16_value(uint16_t bits) {
  return __bfloat162float(__ushort_as_bfloat16(bits));
}

// How many of `reference`'s results an accumulation model reproduces, summing slice after slice.
int mismatches(int variant, const std::vector<uint32_t>& reference, sim::mma::Model model) {
  const Variant& v = kVariants[variant];
  const int k = 16 * v.slices;
  const Inputs in = inputs_of(variant);
  int wrong = 0;
  for (int tile = 0; tile < kTiles; ++tile)
    for (int row = 0; row < 64; ++row)
      for (int col = 0; col < v.n; ++col) {
        float acc = in.c[(tile * 64 + row) * v.n + col];
        for (int s = 0; s < v.slices; ++s) {
          double a[16], b[16];
          for (int kk = 0; kk < 16; ++kk) {
            a[kk] = bf16_value(in.a[(tile * 64 + row) * k + 16 * s + kk]);
            b[kk] = bf16_value(in.b[(tile * v.n + col) * k + 16 * s + kk]);
          }
          acc = sim::mma::accumulate(acc, a, b, 16, model, sim::mma::kFloatMinExponent);
        }
        uint32_t bits;
        std::memcpy(&bits, &acc, 4);
        wrong += bits != reference[(tile * 64 + row) * v.n + col];
      }
  return wrong;
}

// The models of sim/mma_model.h nearest to `reference`, the simulator's own marked.
void study_models(int variant, const std::vector<uint32_t>& reference) {
  struct Candidate {
    sim::mma::Model model;
    int wrong;
  };
  std::vector<Candidate> candidates;
  for (int block : {16, 8})
    for (int extra : {3, 2, 4})
      for (bool product_exponent : {true, false})
        for (bool nearest : {false, true}) {
          const sim::mma::Model m{block, extra, product_exponent, nearest};
          candidates.push_back({m, mismatches(variant, reference, m)});
        }
  std::stable_sort(candidates.begin(), candidates.end(),
                   [](const Candidate& x, const Candidate& y) { return x.wrong < y.wrong; });
  const sim::mma::Model& ours = sim::mma::kWgmmaModel;
  for (size_t i = 0; i < candidates.size(); ++i) {
    const sim::mma::Model& m = candidates[i].model;
    const bool is_ours = m.block == ours.block && m.extra_bits == ours.extra_bits &&
                         m.product_exponent == ours.product_exponent && m.round_nearest == ours.round_nearest;
    if (i >= 3 && !is_ours) continue;
    std::printf("      block %2d, %d extra bits, %-19s, %-8s: %6d differ%s\n", m.block, m.extra_bits,
                m.product_exponent ? "products at ea + eb" : "normalized products",
                m.round_nearest ? "nearest" : "truncate", candidates[i].wrong,
                is_ours ? "   <- the simulator's model (kWgmmaModel)" : "");
  }
}

int compare(const std::vector<Section>& mine, const std::vector<Section>& reference) {
  std::string summary;
  bool exact = mine.size() == reference.size();
  for (size_t i = 0; i < mine.size() && i < reference.size(); ++i) {
    const auto [differ, first] = difference(mine[i], reference[i]);
    std::printf("%-44s %zu of %zu results differ", mine[i].name.c_str(), differ, mine[i].bits.size());
    if (differ)
      std::printf(" (first at %zu: 0x%08x here, 0x%08x there)", first, mine[i].bits[first],
                  reference[i].bits[first]);
    std::printf("\n");
    if (differ) study_models(static_cast<int>(i), reference[i].bits);
    exact = exact && differ == 0;
    summary += (summary.empty() ? "" : ", ") + mine[i].name.substr(6) + " " + std::to_string(differ);
  }
  std::printf("wgmma_bits: %s: %s\n", summary.c_str(), exact ? "BIT-EXACT" : "MISMATCH");
  return exact ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  return bits::run_main(argc, argv, run_all, compare);
}
