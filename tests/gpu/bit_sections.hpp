// What the bit-comparison programs share (mma_bits.cu, wgmma_bits.cu): CUDA error checks, device buffers,
// the operand generators (random bits in a band around 1, so that alignment, truncation and cancellation
// inside the tensor core all happen), and the file of named sections of result bits that one build writes
// and the other compares with. Host code only: nvcc and the simulator's build compile it alike.
#pragma once
#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#define CHECK_CUDA(call)                                                                         \
  do {                                                                                           \
    cudaError_t e = (call);                                                                      \
    if (e != cudaSuccess) {                                                                      \
      std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(e)); \
      std::exit(1);                                                                              \
    }                                                                                            \
  } while (0)

namespace bits {

struct Section {
  std::string name;
  std::vector<uint32_t> bits;
};

template <class T>
T* upload(const std::vector<T>& v) {
  T* p = nullptr;
  CHECK_CUDA(cudaMalloc(&p, v.size() * sizeof(T)));
  CHECK_CUDA(cudaMemcpy(p, v.data(), v.size() * sizeof(T), cudaMemcpyHostToDevice));
  return p;
}
template <class T>
std::vector<T> download(const T* p, size_t n) {
  std::vector<T> v(n);
  CHECK_CUDA(cudaMemcpy(v.data(), p, n * sizeof(T), cudaMemcpyDeviceToHost));
  return v;
}

// 16-bit values with exponents in a band around 1 (no inf/NaN), random signs: products and sums
// that exercise alignment and cancellation inside the tensor core.
inline uint16_t random_sixteen(std::mt19937& rng, bool bf16) {
  const uint32_t u = rng();
  const uint32_t sign = u & 0x8000;
  if (bf16) return static_cast<uint16_t>(sign | (120 + (u >> 16) % 16) << 7 | (u & 0x7F));
  return static_cast<uint16_t>(sign | (8 + (u >> 16) % 16) << 10 | (u & 0x3FF));
}
inline float random_float(std::mt19937& rng) {
  const uint32_t u = rng();
  const uint32_t bits = (u & 0x80000000u) | (118 + (u >> 23) % 16) << 23 | (rng() & 0x7FFFFF);
  float f;
  std::memcpy(&f, &bits, 4);
  return f;
}

inline uint32_t float_bits(float f) {
  uint32_t bits;
  std::memcpy(&bits, &f, 4);
  return bits;
}

inline void write_sections(const char* path, const std::vector<Section>& sections) {
  FILE* f = std::fopen(path, "wb");
  if (!f) {
    std::fprintf(stderr, "cannot write %s\n", path);
    std::exit(1);
  }
  for (const Section& s : sections) {
    const uint32_t name_size = static_cast<uint32_t>(s.name.size()),
                   count = static_cast<uint32_t>(s.bits.size());
    std::fwrite(&name_size, 4, 1, f);
    std::fwrite(s.name.data(), 1, name_size, f);
    std::fwrite(&count, 4, 1, f);
    std::fwrite(s.bits.data(), 4, count, f);
  }
  std::fclose(f);
}

inline std::vector<Section> read_sections(const char* path) {
  std::vector<Section> sections;
  FILE* f = std::fopen(path, "rb");
  if (!f) {
    std::fprintf(stderr, "cannot read %s\n", path);
    std::exit(1);
  }
  uint32_t name_size = 0;
  while (std::fread(&name_size, 4, 1, f) == 1) {
    Section s;
    s.name.resize(name_size);
    uint32_t count = 0;
    if (std::fread(&s.name[0], 1, name_size, f) != name_size || std::fread(&count, 4, 1, f) != 1) break;
    s.bits.resize(count);
    if (std::fread(s.bits.data(), 4, count, f) != count) break;
    sections.push_back(std::move(s));
  }
  std::fclose(f);
  return sections;
}

// How many of two sections' results differ, and the first that does.
struct Difference {
  size_t count = 0, first = 0;
};
inline Difference difference(const Section& mine, const Section& reference) {
  Difference d;
  for (size_t j = 0; j < mine.bits.size() && j < reference.bits.size(); ++j)
    if (mine.bits[j] != reference.bits[j] && d.count++ == 0) d.first = j;
  return d;
}

// `PROGRAM OUT.bin` writes this build's results; `PROGRAM --compare OTHER.bin` compares them with the
// other build's and returns what `compare` says.
using RunAll = std::vector<Section> (*)();
using Compare = int (*)(const std::vector<Section>& mine, const std::vector<Section>& reference);
inline int run_main(int argc, char** argv, RunAll run_all, Compare compare) {
  if (argc == 2 && std::strcmp(argv[1], "--compare") != 0) {
    write_sections(argv[1], run_all());
    return 0;
  }
  if (argc == 3 && std::strcmp(argv[1], "--compare") == 0) return compare(run_all(), read_sections(argv[2]));
  std::fprintf(stderr, "usage: %s OUT.bin | --compare OTHER.bin\n", argv[0]);
  return 2;
}

}  // namespace bits
