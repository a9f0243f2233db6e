// Every shuffle variant, for every lane, width and type, against CUDA's documented semantics.
#include <cuda_runtime.h>
#include <doctest/doctest.h>

#include <cstdint>
#include <vector>

#include "memory_test_support.hpp"

namespace {

enum class Shuffle { idx, up, down, xor_ };

constexpr int kWidths[] = {1, 2, 4, 8, 16, 32};

// The lane each lane reads, as the CUDA Programming Guide describes the shuffles.
int expected_source(Shuffle op, int lane, int arg, int width) {
  const int segment = lane / width * width;
  switch (op) {
    case Shuffle::idx:
      return segment + (arg & (width - 1));  // srcLane modulo width
    case Shuffle::up:
      return lane - segment >= arg ? lane - arg : lane;
    case Shuffle::down:
      return lane - segment + arg < width ? lane + arg : lane;
    case Shuffle::xor_:
      return (lane ^ arg) < segment + width ? lane ^ arg : lane;  // not into later segments
  }
  return -1;
}

template <class T>
T lane_value(int lane) {
  if constexpr (sizeof(T) == 8) {
    return static_cast<T>((uint64_t{0x12345} << 36) + static_cast<uint64_t>(lane) * 0x100000001ULL + 3) +
           static_cast<T>(0.5);
  } else {
    return static_cast<T>(lane * 3 + 1000) + static_cast<T>(0.25);
  }
}

// The argument (source lane, delta or lane mask) warp w of block row `row` uses.
int argument(Shuffle op, unsigned warp, unsigned row) {
  if (op == Shuffle::idx && row == 1) return static_cast<int>(warp) * 7 - 100;  // negative and >= 32
  return static_cast<int>(warp);
}

template <class T>
void shuffle_kernel(Shuffle op, T* out) {
  const int width = kWidths[blockIdx.x];
  const int lane = static_cast<int>(threadIdx.x % 32);
  const int arg = argument(op, threadIdx.x / 32, blockIdx.y);
  const T mine = lane_value<T>(lane);
  T got{};
  switch (op) {
    case Shuffle::idx:
      got = __shfl_sync(0xffffffffu, mine, arg, width);
      break;
    case Shuffle::up:
      got = __shfl_up_sync(0xffffffffu, mine, static_cast<unsigned>(arg), width);
      break;
    case Shuffle::down:
      got = __shfl_down_sync(0xffffffffu, mine, static_cast<unsigned>(arg), width);
      break;
    case Shuffle::xor_:
      got = __shfl_xor_sync(0xffffffffu, mine, arg, width);
      break;
  }
  out[(blockIdx.y * gridDim.x + blockIdx.x) * blockDim.x + threadIdx.x] = got;
}

template <class T>
void check_shuffle(Shuffle op) {
  const unsigned rows = op == Shuffle::idx ? 2 : 1;
  std::vector<T> out(rows * 6 * 1024);
  T* p = out.data();
  const auto report = memory_test::checked([&] {
    ::sim::launch(::sim::LaunchConfig(dim3(6, rows), 1024), "shuffle_kernel",
                  [=]() { shuffle_kernel<T>(op, p); });
  });
  CHECK_MESSAGE(report.findings.empty(), memory_test::kinds(report));
  int wrong = 0;
  for (unsigned row = 0; row < rows; ++row) {
    for (int w = 0; w < 6; ++w) {
      for (unsigned t = 0; t < 1024; ++t) {
        const int lane = static_cast<int>(t % 32);
        const int source = expected_source(op, lane, argument(op, t / 32, row), kWidths[w]);
        const T got = out[(row * 6 + w) * 1024 + t];
        if (got != lane_value<T>(source) && wrong++ < 5) {
          FAIL_CHECK("width " << kWidths[w] << ", argument " << argument(op, t / 32, row) << ", lane " << lane
                              << ": got " << got << ", expected lane " << source << "'s "
                              << lane_value<T>(source));
        }
      }
    }
  }
  CHECK(wrong == 0);
}

}  // namespace

TEST_CASE_TEMPLATE("shuffles follow CUDA for every lane, width and argument", T, int, unsigned int, long,
                   unsigned long, long long, unsigned long long, float, double) {
  SUBCASE("__shfl_sync") {
    check_shuffle<T>(Shuffle::idx);
  }
  SUBCASE("__shfl_up_sync") {
    check_shuffle<T>(Shuffle::up);
  }
  SUBCASE("__shfl_down_sync") {
    check_shuffle<T>(Shuffle::down);
  }
  SUBCASE("__shfl_xor_sync") {
    check_shuffle<T>(Shuffle::xor_);
  }
}

namespace {

void butterfly_sum(float* out) {
  float v = static_cast<float>(threadIdx.x);
  for (int offset = 16; offset > 0; offset /= 2) v += __shfl_xor_sync(0xffffffffu, v, offset);
  out[threadIdx.x] = v;
}

// Lanes past the end of a 48-thread block do not exist: reading them is undefined.
void down_sum_partial_warp(float* out) {
  float v = 1.0f;
  for (int offset = 16; offset > 0; offset /= 2) v += __shfl_down_sync(0xffffffffu, v, offset);
  out[threadIdx.x] = v;
}

void read_exited_lane(int* out) {
  if (threadIdx.x == 5) return;
  out[threadIdx.x] = __shfl_sync(0xffffffffu, static_cast<int>(threadIdx.x), 5);
}

// Two half-warps shuffle independently with their own masks, at different call sites.
void half_warps(int* out) {
  const int lane = static_cast<int>(threadIdx.x);
  if (lane < 16) {
    out[lane] = __shfl_sync(0x0000ffffu, lane * 10, 15 - lane);
  } else {
    out[lane] = __shfl_sync(0xffff0000u, lane * 10, 16 + (31 - lane));
  }
}

// Volta and later: the same mask at different call sites still meets as one shuffle.
void split_call_sites(int* out) {
  const int lane = static_cast<int>(threadIdx.x);
  int got;
  if (lane % 2 == 0) {
    got = __shfl_xor_sync(0xffffffffu, lane, 1);
  } else {
    got = __shfl_xor_sync(0xffffffffu, lane, 1);
  }
  out[lane] = got;
}

}  // namespace

TEST_CASE("a butterfly reduction gives every lane the warp's sum") {
  std::vector<float> out(64);
  float* p = out.data();
  const auto report = memory_test::checked(
      [&] { ::sim::launch(::sim::LaunchConfig(1, 64), "butterfly_sum", [=]() { butterfly_sum(p); }); });
  CHECK(report.findings.empty());
  for (int t = 0; t < 64; ++t) CHECK(out[t] == static_cast<float>(t / 32 * 32 * 32 + 496));
}

TEST_CASE("a shuffle from a lane past the end of a partial warp is undefined and warned about") {
  std::vector<float> out(48);
  float* p = out.data();
  const auto report = memory_test::checked([&] {
    ::sim::launch(::sim::LaunchConfig(1, 48), "down_sum_partial_warp", [=]() { down_sum_partial_warp(p); });
  });
  CHECK(out[0] == 32.0f);      // the full warp
  CHECK(std::isnan(out[32]));  // lane 0 of warp 1 reads lane 16, which does not exist
  const auto warnings = memory_test::of_kind(report, "shuffle_inactive_source");
  REQUIRE(warnings.size() == 1);
  CHECK(warnings[0].severity == "warning");
  CHECK(warnings[0].message.find("of warp 1 reads lane") != std::string::npos);
  CHECK(report.findings.size() == 1);
}

TEST_CASE("reading a lane that exited gives 0xDEADBEEF and a warning") {
  std::vector<int> out(32, 0);
  int* p = out.data();
  const auto report = memory_test::checked(
      [&] { ::sim::launch(::sim::LaunchConfig(1, 32), "read_exited_lane", [=]() { read_exited_lane(p); }); });
  CHECK(out[0] == static_cast<int>(0xDEADBEEF));
  CHECK(memory_test::of_kind(report, "shuffle_inactive_source").size() == 1);
}

TEST_CASE("sub-warp masks and split call sites work as on Volta and later") {
  std::vector<int> out(32);
  int* p = out.data();
  const auto report = memory_test::checked([&] {
    ::sim::launch(::sim::LaunchConfig(1, 32), "half_warps", [=]() { half_warps(p); });
    for (int lane = 0; lane < 32; ++lane)
      CHECK(out[lane] == (lane < 16 ? (15 - lane) : 16 + (31 - lane)) * 10);
    ::sim::launch(::sim::LaunchConfig(1, 32), "split_call_sites", [=]() { split_call_sites(p); });
    for (int lane = 0; lane < 32; ++lane) CHECK(out[lane] == (lane ^ 1));
  });
  CHECK_MESSAGE(report.findings.empty(), memory_test::kinds(report));
}
