// Bit-exactness of the simulator's tensor-core path and 16-bit types against a GPU. The same file is
// built twice: by nvcc for the device (mma_bits_gpu) and through the simulator's translator for the CPU
// (mma_bits_sim). Each build runs identical inputs (fixed seeds, raw generator bits) through
//   - mma.sync m16n8k16 / m16n8k8, bf16 and f16, and m16n8k8 tf32 (with random bits in the 13 that tf32
//     leaves out), f32 accumulators (fragments as the PTX ISA lays them out),
//   - ldmatrix x1 / x2 / x4, with and without .trans, from permuted row addresses,
//   - float -> bf16/f16 conversions (rn, rz), 16-bit -> float for all 65536 values, __hadd/__hmul/__hfma,
// and writes every result's bits to a file. `--compare FILE` runs the same and reports, per section, how
// many results differ from FILE's; for mma it also says which accumulation model (sim/mma_model.h)
// reproduces FILE's results, so a GPU dump settles the model the simulator uses. tests/gpu/README.md
// has the commands.
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "bit_sections.hpp"
#include "mma_model.h"

namespace {

using namespace bits;

constexpr int kTiles = 512;  // mma tiles per variant, one warp each
constexpr int kProbes = 1 << 20;

// ---- device code ----

__device__ void mma_k16_bf16(float* d, const uint32_t* a, const uint32_t* b, const float* c) {
  asm volatile(
      "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, "
      "{%10,%11,%12,%13};\n"
      : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3])
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "f"(c[0]), "f"(c[1]), "f"(c[2]),
        "f"(c[3]));
}
__device__ void mma_k16_f16(float* d, const uint32_t* a, const uint32_t* b, const float* c) {
  asm volatile(
      "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, "
      "{%10,%11,%12,%13};\n"
      : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3])
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "f"(c[0]), "f"(c[1]), "f"(c[2]),
        "f"(c[3]));
}
__device__ void mma_k8_bf16(float* d, const uint32_t* a, const uint32_t* b, const float* c) {
  asm volatile(
      "mma.sync.aligned.m16n8k8.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3}, {%4,%5}, {%6}, {%7,%8,%9,%10};\n"
      : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3])
      : "r"(a[0]), "r"(a[1]), "r"(b[0]), "f"(c[0]), "f"(c[1]), "f"(c[2]), "f"(c[3]));
}
__device__ void mma_k8_f16(float* d, const uint32_t* a, const uint32_t* b, const float* c) {
  asm volatile(
      "mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5}, {%6}, {%7,%8,%9,%10};\n"
      : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3])
      : "r"(a[0]), "r"(a[1]), "r"(b[0]), "f"(c[0]), "f"(c[1]), "f"(c[2]), "f"(c[3]));
}

__device__ void mma_k8_tf32(float* d, const uint32_t* a, const uint32_t* b, const float* c) {
  asm volatile(
      "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, "
      "{%10,%11,%12,%13};\n"
      : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3])
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "f"(c[0]), "f"(c[1]), "f"(c[2]),
        "f"(c[3]));
}

constexpr int kTf32Variant = 4;

// One 16 x 8 tile per block of 32 threads. A: 16 x k row-major element bits (16-bit values in the low half,
// tf32 as the whole float); B: 8 x k (column n holds B[., n] contiguously, the ".col" operand); C, D: 16 x 8
// floats, row-major. Lane l, g = l / 4, t = l % 4.
__global__ void mma_tiles(int variant, const uint32_t* a, const uint32_t* b, const float* c, float* d) {
  const int k = variant < 2 ? 16 : 8;
  const int tile = blockIdx.x, lane = threadIdx.x, g = lane / 4, t = lane % 4;
  a += tile * 16 * k;
  b += tile * 8 * k;
  c += tile * 128;
  d += tile * 128;
  uint32_t ra[4], rb[2];
  if (variant == kTf32Variant) {  // one element a register: A (g + 8 (r % 2), t + 4 (r / 2)), B (t + 4r, g)
    for (int r = 0; r < 4; ++r) ra[r] = a[(g + 8 * (r % 2)) * k + t + 4 * (r / 2)];
    for (int r = 0; r < 2; ++r) rb[r] = b[g * k + t + 4 * r];
  }
  for (int r = 0; r < k / 4 && variant != kTf32Variant; ++r) {
    const int row = g + 8 * (k == 16 ? r % 2 : r), col = 2 * t + (k == 16 ? 8 * (r / 2) : 0);
    ra[r] = a[row * k + col] | uint32_t{a[row * k + col + 1]} << 16;
  }
  for (int r = 0; r < k / 8 && variant != kTf32Variant; ++r)
    rb[r] = b[g * k + 2 * t + 8 * r] | uint32_t{b[g * k + 2 * t + 8 * r + 1]} << 16;
  float rc[4], rd[4];
  for (int i = 0; i < 4; ++i) rc[i] = c[(g + 8 * (i / 2)) * 8 + 2 * t + i % 2];
  if (variant == 0) mma_k16_bf16(rd, ra, rb, rc);
  if (variant == 1) mma_k16_f16(rd, ra, rb, rc);
  if (variant == 2) mma_k8_bf16(rd, ra, rb, rc);
  if (variant == 3) mma_k8_f16(rd, ra, rb, rc);
  if (variant == kTf32Variant) mma_k8_tf32(rd, ra, rb, rc);
  for (int i = 0; i < 4; ++i) d[(g + 8 * (i / 2)) * 8 + 2 * t + i % 2] = rd[i];
}

// 32 shared rows of 8 16-bit values; lane l supplies the address of row (5l + 3) % 32.
__global__ void load_matrices(int variant, const uint16_t* values, uint32_t* out) {
  __shared__ __align__(16) uint16_t rows[32 * 8];
  const int lane = threadIdx.x;
  for (int e = 0; e < 8; ++e) rows[lane * 8 + e] = values[blockIdx.x * 256 + lane * 8 + e];
  __syncthreads();
  const auto address = static_cast<uint32_t>(__cvta_generic_to_shared(&rows[((5 * lane + 3) % 32) * 8]));
  uint32_t r[4] = {0, 0, 0, 0};
  switch (variant) {
    case 0:
      asm volatile("ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%0}, [%1];\n" : "=r"(r[0]) : "r"(address));
      break;
    case 1:
      asm volatile("ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%0,%1}, [%2];\n"
                   : "=r"(r[0]), "=r"(r[1])
                   : "r"(address));
      break;
    case 2:
      asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];\n"
                   : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
                   : "r"(address));
      break;
    case 3:
      asm volatile("ldmatrix.sync.aligned.m8n8.x1.trans.shared.b16 {%0}, [%1];\n"
                   : "=r"(r[0])
                   : "r"(address));
      break;
    case 4:
      asm volatile("ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%0,%1}, [%2];\n"
                   : "=r"(r[0]), "=r"(r[1])
                   : "r"(address));
      break;
    default:
      asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0,%1,%2,%3}, [%4];\n"
                   : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
                   : "r"(address));
      break;
  }
  for (int j = 0; j < 4; ++j) out[(blockIdx.x * 32 + lane) * 4 + j] = r[j];
}

// Per probe i: 8 results (float -> 16 bits in four ways; 16-bit arithmetic on random bit patterns).
__global__ void sixteen_bit(int n, const float* f, const uint16_t* bits, uint32_t* out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const __nv_bfloat16 x = __ushort_as_bfloat16(bits[3 * i]), y = __ushort_as_bfloat16(bits[3 * i + 1]),
                      z = __ushort_as_bfloat16(bits[3 * i + 2]);
  const __half p = __ushort_as_half(bits[3 * i]), q = __ushort_as_half(bits[3 * i + 1]),
               r = __ushort_as_half(bits[3 * i + 2]);
  uint32_t* o = out + 12 * i;
  o[0] = __bfloat16_as_ushort(__float2bfloat16(f[i]));
  o[1] = __bfloat16_as_ushort(__float2bfloat16_rz(f[i]));
  o[2] = __half_as_ushort(__float2half(f[i]));
  o[3] = __half_as_ushort(__float2half_rz(f[i]));
  o[4] = __bfloat16_as_ushort(__hadd(x, y));
  o[5] = __bfloat16_as_ushort(__hmul(x, y));
  o[6] = __bfloat16_as_ushort(__hfma(x, y, z));
  o[7] = __half_as_ushort(__hadd(p, q));
  o[8] = __half_as_ushort(__hmul(p, q));
  o[9] = __half_as_ushort(__hfma(p, q, r));
  float wide_bf, wide_half;
  wide_bf = __bfloat162float(x);
  wide_half = __half2float(p);
  std::memcpy(&o[10], &wide_bf, 4);
  std::memcpy(&o[11], &wide_half, 4);
}

// ---- host ----

struct MmaInputs {
  std::vector<uint32_t> a, b;  // element bits: 16-bit values, or tf32 operands as whole floats
  std::vector<float> c;
};

MmaInputs mma_inputs(int variant) {
  const int k = variant < 2 ? 16 : 8;
  const bool bf16 = variant % 2 == 0;
  std::mt19937 rng(100 + variant);
  MmaInputs in{std::vector<uint32_t>(kTiles * 16 * k), std::vector<uint32_t>(kTiles * 8 * k),
               std::vector<float>(kTiles * 128)};
  for (uint32_t& v : in.a)
    v = variant == kTf32Variant ? float_bits(random_float(rng)) : random_sixteen(rng, bf16);
  for (uint32_t& v : in.b)
    v = variant == kTf32Variant ? float_bits(random_float(rng)) : random_sixteen(rng, bf16);
  for (float& v : in.c) v = random_float(rng);
  return in;
}

// An operand's exact value as the tensor core reads it; tf32 keeps a float's top 19 bits.
double operand_value(uint32_t bits, int variant) {
  if (variant == kTf32Variant) {
    const uint32_t kept = bits & 0xFFFFE000u;
    float f;
    std::memcpy(&f, &kept, 4);
    return f;
  }
  const auto half = static_cast<uint16_t>(bits);
  return variant % 2 == 0 ? __bfloat162float(__ushort_as_bfloat16(half))
                          : __half2float(__ushort_as_half(half));
}

std::vector<Section> run_all() {
  std::vector<Section> sections;
  static const char* kMma[] = {"mma m16n8k16 bf16", "mma m16n8k16 f16", "mma m16n8k8 bf16", "mma m16n8k8 f16",
                               "mma m16n8k8 tf32"};
  for (int variant = 0; variant <= kTf32Variant; ++variant) {
    const MmaInputs in = mma_inputs(variant);
    uint32_t *a = upload(in.a), *b = upload(in.b);
    float *c = upload(in.c), *d = upload(std::vector<float>(kTiles * 128));
    mma_tiles<<<kTiles, 32>>>(variant, a, b, c, d);
    CHECK_CUDA(cudaGetLastError());
    const std::vector<float> result = download(d, kTiles * 128);
    Section s{kMma[variant], std::vector<uint32_t>(result.size())};
    std::memcpy(s.bits.data(), result.data(), result.size() * 4);
    sections.push_back(s);
    CHECK_CUDA(cudaFree(a));
    CHECK_CUDA(cudaFree(b));
    CHECK_CUDA(cudaFree(c));
    CHECK_CUDA(cudaFree(d));
  }
  static const char* kLdmatrix[] = {"ldmatrix x1",       "ldmatrix x2",       "ldmatrix x4",
                                    "ldmatrix x1.trans", "ldmatrix x2.trans", "ldmatrix x4.trans"};
  for (int variant = 0; variant < 6; ++variant) {
    std::mt19937 rng(200 + variant);
    std::vector<uint16_t> values(64 * 256);
    for (uint16_t& v : values) v = static_cast<uint16_t>(rng());
    uint16_t* pv = upload(values);
    uint32_t* out = upload(std::vector<uint32_t>(64 * 32 * 4));
    load_matrices<<<64, 32>>>(variant, pv, out);
    CHECK_CUDA(cudaGetLastError());
    sections.push_back({kLdmatrix[variant], download(out, 64 * 32 * 4)});
    CHECK_CUDA(cudaFree(pv));
    CHECK_CUDA(cudaFree(out));
  }
  std::mt19937 rng(300);
  std::vector<float> probes(kProbes);
  std::vector<uint16_t> bits(3 * kProbes);
  for (int i = 0; i < kProbes; ++i) {
    uint32_t u = rng();
    if (i % 4 == 1) u = (u & ~0xFFFFu) | 0x8000u;  // bf16 ties
    if (i % 4 == 2) u = (u & ~0x1FFFu) | 0x1000u;  // f16 ties
    std::memcpy(&probes[i], &u, 4);
  }
  for (int i = 0; i < 3 * kProbes; ++i)
    bits[i] = static_cast<uint16_t>(i < 3 * 65536 && i % 3 == 0 ? i / 3 : rng());
  float* pf = upload(probes);
  uint16_t* pb = upload(bits);
  uint32_t* out = upload(std::vector<uint32_t>(12 * kProbes));
  sixteen_bit<<<kProbes / 256, 256>>>(kProbes, pf, pb, out);
  CHECK_CUDA(cudaGetLastError());
  sections.push_back({"16-bit conversions and arithmetic", download(out, 12 * kProbes)});
  CHECK_CUDA(cudaFree(pf));
  CHECK_CUDA(cudaFree(pb));
  CHECK_CUDA(cudaFree(out));
  return sections;
}

// Which accumulation model reproduces `reference` (the other build's mma results).
void study_models(int variant, const std::vector<uint32_t>& reference) {
  const int k = variant < 2 ? 16 : 8;
  const bool f16 = variant % 2 == 1;
  const MmaInputs in = mma_inputs(variant);
  struct Candidate {
    sim::mma::Model model;
    int mismatches;
  };
  // Around the device's model (sim/mma_model.h says what each alternative misses on an H100): all k
  // products in one step with c, or chained blocks of 8 / 4; 2..4 extra bits; products aligned by the sum
  // of their operands' exponents ea + eb or by their normalized exponents; truncation or to nearest.
  std::vector<Candidate> candidates;
  for (int block : {16, 8, 4})
    for (int extra : {3, 2, 4})
      for (bool product_exponent : {true, false})
        for (bool nearest : {false, true}) {
          if (block > k) continue;
          candidates.push_back({{block, extra, product_exponent, nearest}, 0});
        }
  const int min_exponent = f16 ? sim::mma::kF16MinExponent : sim::mma::kFloatMinExponent;
  for (Candidate& cand : candidates) {
    for (int tile = 0; tile < kTiles; ++tile)
      for (int row = 0; row < 16; ++row)
        for (int col = 0; col < 8; ++col) {
          double a[16], b[16];
          for (int kk = 0; kk < k; ++kk) {
            a[kk] = operand_value(in.a[(tile * 16 + row) * k + kk], variant);
            b[kk] = operand_value(in.b[(tile * 8 + col) * k + kk], variant);
          }
          const float got =
              sim::mma::accumulate(in.c[tile * 128 + row * 8 + col], a, b, k, cand.model, min_exponent);
          uint32_t bits;
          std::memcpy(&bits, &got, 4);
          if (bits != reference[tile * 128 + row * 8 + col]) ++cand.mismatches;
        }
  }
  // The three closest candidates, and the simulator's own if it is not among them.
  std::stable_sort(candidates.begin(), candidates.end(),
                   [](const Candidate& x, const Candidate& y) { return x.mismatches < y.mismatches; });
  std::printf("    accumulation models (sim/mma_model.h) against the other file:\n");
  for (size_t i = 0; i < candidates.size(); ++i) {
    const sim::mma::Model& m = candidates[i].model;
    const sim::mma::Model& ours = sim::mma::kDeviceModel;
    const bool is_ours = std::min(m.block, k) == std::min(ours.block, k) && m.extra_bits == ours.extra_bits &&
                         m.product_exponent == ours.product_exponent && m.round_nearest == ours.round_nearest;
    if (i >= 3 && !is_ours) continue;
    std::printf("      block %2d, %d extra bits, %-19s, %-8s: %6d of %d differ%s\n", std::min(m.block, k),
                m.extra_bits, m.product_exponent ? "products at ea + eb" : "normalized products",
                m.round_nearest ? "nearest" : "truncate", candidates[i].mismatches, kTiles * 128,
                is_ours ? "   <- the simulator's model" : "");
  }
}

int compare(const std::vector<Section>& mine, const std::vector<Section>& reference) {
  int differing_sections = 0;
  for (size_t i = 0; i < mine.size() && i < reference.size(); ++i) {
    const Section &m = mine[i], &r = reference[i];
    const auto [differ, first] = difference(m, r);
    std::printf("%-36s %zu of %zu results differ", m.name.c_str(), differ, m.bits.size());
    if (differ)
      std::printf(" (first at %zu: 0x%08x here, 0x%08x there)", first, m.bits[first], r.bits[first]);
    std::printf("\n");
    if (differ) ++differing_sections;
    if (m.name.rfind("mma", 0) == 0) study_models(static_cast<int>(i), r.bits);
  }
  if (mine.size() != reference.size()) {
    std::printf("the files have %zu and %zu sections\n", mine.size(), reference.size());
    return 1;
  }
  std::printf(differing_sections == 0 ? "BIT-EXACT: every result matches\n" : "MISMATCH in %d sections\n",
              differing_sections);
  return differing_sections == 0 ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  return bits::run_main(argc, argv, run_all, compare);
}
