// Atomics on device memory under contention from many blocks on several host threads, and the
// exact semantics of the unusual ones.
#include <cuda_runtime.h>
#include <doctest/doctest.h>

#include <vector>

#include "memory_test_support.hpp"

namespace {

struct Counters {
  int add_int;
  unsigned add_unsigned;
  unsigned long long add_ull;
  float add_float;
  double add_double;
  int sub_int;
  unsigned sub_unsigned;
  int min_int, max_int;
  unsigned min_unsigned, max_unsigned;
  long long min_ll, max_ll;
  unsigned long long min_ull, max_ull;
  unsigned or_bits, xor_bits, and_bits;
  unsigned long long or_ull;
  int exchanged;
  float cas_float_sum;
};

constexpr unsigned kAtomicBlocks = 256, kAtomicThreads = 256;

// Float addition through atomicCAS: the classic retry loop.
void cas_add(float* address, float value) {
  unsigned* bits = reinterpret_cast<unsigned*>(address);
  unsigned old = *bits, assumed;
  do {
    assumed = old;
    old = atomicCAS(bits, assumed, __float_as_uint(__uint_as_float(assumed) + value));
  } while (old != assumed);
}

void contend(Counters* c) {
  const int id = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  atomicAdd(&c->add_int, 1);
  atomicAdd(&c->add_unsigned, 2u);
  atomicAdd(&c->add_ull, 1ull << 33);
  atomicAdd(&c->add_float, 1.0f);
  atomicAdd(&c->add_double, 0.5);
  atomicSub(&c->sub_int, 1);
  atomicSub(&c->sub_unsigned, 1u);
  atomicMin(&c->min_int, id - 1000);
  atomicMax(&c->max_int, id - 1000);
  atomicMin(&c->min_unsigned, static_cast<unsigned>(id) + 7);
  atomicMax(&c->max_unsigned, static_cast<unsigned>(id) + 7);
  atomicMin(&c->min_ll, -static_cast<long long>(id) << 35);
  atomicMax(&c->max_ll, static_cast<long long>(id) << 35);
  atomicMin(&c->min_ull, static_cast<unsigned long long>(id) + (1ull << 40));
  atomicMax(&c->max_ull, static_cast<unsigned long long>(id) + (1ull << 40));
  atomicOr(&c->or_bits, 1u << (id % 32));
  atomicXor(&c->xor_bits, 1u << (id % 32));
  atomicAnd(&c->and_bits, ~(1u << (id % 31)));
  atomicOr(&c->or_ull, 1ull << (id % 64));
  atomicExch(&c->exchanged, id);
  cas_add(&c->cas_float_sum, 1.0f);
}

}  // namespace

TEST_CASE("atomics from 256 blocks of 256 threads lose no update") {
  Counters initial{};
  initial.sub_int = 0;
  initial.sub_unsigned = 1u << 20;
  initial.min_int = 1 << 30;
  initial.max_int = -(1 << 30);
  initial.min_unsigned = ~0u;
  initial.min_ll = 0;
  initial.min_ull = ~0ull;
  initial.and_bits = ~0u;
  initial.exchanged = -1;
  Counters* device = nullptr;
  REQUIRE(cudaMalloc(&device, sizeof(Counters)) == cudaSuccess);
  cudaMemcpy(device, &initial, sizeof initial, cudaMemcpyHostToDevice);
  const auto report = memory_test::checked([&] {
    ::sim::launch(::sim::LaunchConfig(kAtomicBlocks, kAtomicThreads), "contend", [=]() { contend(device); });
  });
  CHECK_MESSAGE(report.findings.empty(), memory_test::kinds(report));
  Counters c;
  cudaMemcpy(&c, device, sizeof c, cudaMemcpyDeviceToHost);
  cudaFree(device);

  constexpr int n = kAtomicBlocks * kAtomicThreads;
  CHECK(c.add_int == n);
  CHECK(c.add_unsigned == 2u * n);
  CHECK(c.add_ull == (1ull << 33) * n);
  CHECK(c.add_float == static_cast<float>(n));
  CHECK(c.add_double == n / 2.0);
  CHECK(c.sub_int == -n);
  CHECK(c.sub_unsigned == (1u << 20) - n);
  CHECK(c.min_int == -1000);
  CHECK(c.max_int == n - 1 - 1000);
  CHECK(c.min_unsigned == 7u);
  CHECK(c.max_unsigned == static_cast<unsigned>(n - 1 + 7));
  CHECK(c.min_ll == -(static_cast<long long>(n - 1) << 35));
  CHECK(c.max_ll == static_cast<long long>(n - 1) << 35);
  CHECK(c.min_ull == 1ull << 40);
  CHECK(c.max_ull == (1ull << 40) + n - 1);
  CHECK(c.or_bits == ~0u);
  CHECK(c.xor_bits == 0u);  // every bit flipped an even number of times
  CHECK(c.and_bits == 0x80000000u);
  CHECK(c.or_ull == ~0ull);
  CHECK((c.exchanged >= 0 && c.exchanged < n));
  CHECK(c.cas_float_sum == static_cast<float>(n));
}

namespace {

void inc_dec(unsigned* counters, unsigned* seen) {
  for (int i = 0; i < 12; ++i) {
    seen[i] = atomicInc(&counters[0], 4u);
    seen[12 + i] = atomicDec(&counters[1], 4u);
  }
  unsigned short* pair = reinterpret_cast<unsigned short*>(&counters[2]);
  seen[24] = atomicCAS(&pair[1], static_cast<unsigned short>(7), static_cast<unsigned short>(9));
  seen[25] = atomicCAS(&pair[1], static_cast<unsigned short>(7), static_cast<unsigned short>(11));
  seen[26] = static_cast<unsigned>(atomicExch(reinterpret_cast<float*>(&counters[3]), 2.5f));
}

}  // namespace

TEST_CASE("atomicInc and atomicDec wrap like CUDA's; 16-bit atomicCAS touches its half only") {
  std::vector<unsigned> counters = {0, 2, 7u << 16 | 0xABCD, 0x40400000u /* 3.0f */};
  std::vector<unsigned> seen(27);
  unsigned* c = counters.data();
  unsigned* s = seen.data();
  ::sim::launch(::sim::LaunchConfig(1, 1), "inc_dec", [=]() { inc_dec(c, s); });
  const unsigned inc[] = {0, 1, 2, 3, 4, 0, 1, 2, 3, 4, 0, 1};  // ((old >= 4) ? 0 : old + 1)
  const unsigned dec[] = {2, 1, 0, 4, 3, 2, 1, 0, 4, 3, 2, 1};  // ((old == 0 || old > 4) ? 4 : old - 1)
  for (int i = 0; i < 12; ++i) {
    CHECK(seen[i] == inc[i]);
    CHECK(seen[12 + i] == dec[i]);
  }
  CHECK(seen[24] == 7u);
  CHECK(seen[25] == 9u);
  CHECK(counters[2] == (9u << 16 | 0xABCD));
  CHECK(seen[26] == 3u);
}

namespace {

// sm_90's vector adds: every element of every add arrives.
void add_vectors(float* sums) {
  atomicAdd(reinterpret_cast<float2*>(sums), make_float2(1.0f, 2.0f));
  atomicAdd(reinterpret_cast<float4*>(sums + 4), make_float4(1.0f, 2.0f, 3.0f, 4.0f));
}

void add_float2_at(float* x) {
  atomicAdd(reinterpret_cast<float2*>(x + 1), make_float2(1.0f, 1.0f));
}

}  // namespace

TEST_CASE("float2 and float4 atomicAdd add each element; a float2 4 bytes off is misaligned") {
  using memory_test::GuardedBuffer;
  SUBCASE("256 blocks of 256 threads") {
    GuardedBuffer sums(std::vector<float>(8, 0.0f), "sums");
    const auto report = memory_test::checked([&] {
      ::sim::launch(::sim::LaunchConfig(kAtomicBlocks, kAtomicThreads), "add_vectors",
                    [=, p = sums.get()]() { add_vectors(p); });
    });
    CHECK_MESSAGE(report.findings.empty(), memory_test::kinds(report));
    constexpr float n = kAtomicBlocks * kAtomicThreads;
    const std::vector<float> expected = {n, 2 * n, 0, 0, n, 2 * n, 3 * n, 4 * n};
    CHECK(sums.download() == expected);
  }
  SUBCASE("misaligned: the block stops") {
    GuardedBuffer x(std::vector<float>(4, 0.0f), "x");
    const auto report = memory_test::checked([&] {
      ::sim::launch(::sim::LaunchConfig(1, 1), "add_float2_at", [=, p = x.get()]() { add_float2_at(p); });
    });
    const auto found = memory_test::of_kind(report, "misaligned_access");
    REQUIRE_MESSAGE(found.size() == 1, memory_test::kinds(report));
    CHECK_MESSAGE(
        found[0].message.find("8 bytes at x + 4 bytes is not aligned to 8 bytes") != std::string::npos,
        found[0].message);
    CHECK(x.download() == std::vector<float>(4, 0.0f));
    CHECK(cudaDeviceSynchronize() == cudaErrorMisalignedAddress);
    cudaDeviceReset();
  }
}
