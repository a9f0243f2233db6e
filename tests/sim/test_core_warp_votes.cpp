// Votes, matches, reductions, __syncwarp and __activemask, and the findings of misused masks.
#include <cuda_runtime.h>
#include <doctest/doctest.h>

#include <vector>

#include "memory_test_support.hpp"

namespace {

struct Votes {
  unsigned ballot;
  int any, all, all_true;
  unsigned match_any;
  unsigned match_all;
  int match_all_pred;
  int reduce_add, reduce_min, reduce_max;
  unsigned reduce_umin, reduce_umax, reduce_and, reduce_or, reduce_xor;
};

// Lanes vote on "lane is a multiple of 3"; values repeat with period 4; the last warp is partial.
void votes(Votes* out) {
  const unsigned lane = threadIdx.x % 32;
  Votes v;
  v.ballot = __ballot_sync(__activemask(), lane % 3 == 0);
  const unsigned mask = v.ballot | __ballot_sync(0xffffffffu, 1);
  v.any = __any_sync(mask, lane == 7);
  v.all = __all_sync(mask, lane % 3 == 0);
  v.all_true = __all_sync(mask, 1);
  v.match_any = __match_any_sync(mask, static_cast<long long>(lane % 4) << 40);
  v.match_all = __match_all_sync(mask, 2.5f, &v.match_all_pred);
  const int signed_value = static_cast<int>(lane) - 10;
  v.reduce_add = __reduce_add_sync(mask, signed_value);
  v.reduce_min = __reduce_min_sync(mask, signed_value);
  v.reduce_max = __reduce_max_sync(mask, signed_value);
  v.reduce_umin = __reduce_min_sync(mask, static_cast<unsigned>(signed_value));
  v.reduce_umax = __reduce_max_sync(mask, static_cast<unsigned>(signed_value));
  v.reduce_and = __reduce_and_sync(mask, ~(1u << lane));
  v.reduce_or = __reduce_or_sync(mask, 1u << lane);
  v.reduce_xor = __reduce_xor_sync(mask, lane);
  out[threadIdx.x] = v;
}

}  // namespace

TEST_CASE("votes, matches and reductions over full and partial warps") {
  constexpr unsigned kThreads = 48;
  std::vector<Votes> out(kThreads);
  Votes* p = out.data();
  const auto report = memory_test::checked(
      [&] { ::sim::launch(::sim::LaunchConfig(1, kThreads), "votes", [=]() { votes(p); }); });
  CHECK_MESSAGE(report.findings.empty(), memory_test::kinds(report));
  for (unsigned t = 0; t < kThreads; ++t) {
    CAPTURE(t);
    const unsigned lanes = t < 32 ? 32 : kThreads - 32;
    const unsigned present = lanes == 32 ? 0xffffffffu : (1u << lanes) - 1;
    unsigned ballot = 0, xor_all = 0;
    int sum = 0;
    for (unsigned l = 0; l < lanes; ++l) {
      if (l % 3 == 0) ballot |= 1u << l;
      xor_all ^= l;
      sum += static_cast<int>(l) - 10;
    }
    const Votes& v = out[t];
    CHECK(v.ballot == ballot);
    CHECK(v.any == 1);
    CHECK(v.all == 0);
    CHECK(v.all_true == 1);
    CHECK(v.match_any == (0x11111111u << (t % 4) & present));
    CHECK(v.match_all == present);
    CHECK(v.match_all_pred == 1);
    CHECK(v.reduce_add == sum);
    CHECK(v.reduce_min == -10);
    CHECK(v.reduce_max == static_cast<int>(lanes) - 11);
    CHECK(v.reduce_umin == 0u);  // lane 10
    CHECK(v.reduce_umax == static_cast<unsigned>(-1));
    CHECK(v.reduce_and == ~present);
    CHECK(v.reduce_or == present);
    CHECK(v.reduce_xor == xor_all);
  }
}

namespace {

// Lane i writes its slot, __syncwarp, then reads lane i+1's: the write must be visible.
void syncwarp_orders(const int* in, int* slots, int* out) {
  const unsigned lane = threadIdx.x;
  for (int round = 0; round < 4; ++round) {
    slots[lane] = in[lane] + round;
    __syncwarp();
    out[round * 32 + lane] = slots[(lane + 1) % 32];
    __syncwarp();
  }
}

// Lanes split by a branch: __activemask names the lanes of each branch.
void activemask_per_branch(unsigned* out) {
  const unsigned lane = threadIdx.x % 32;
  if (lane < 10) {
    out[threadIdx.x] = __activemask();
  } else if (lane % 2 == 0) {
    out[threadIdx.x] = __activemask();
  } else {
    out[threadIdx.x] = __activemask();
  }
  __syncthreads();
}

}  // namespace

TEST_CASE("__syncwarp makes each lane's writes visible to the warp") {
  std::vector<int> in(32), slots(32), out(4 * 32);
  for (int i = 0; i < 32; ++i) in[i] = i * 100;
  const int* pin = in.data();
  int* ps = slots.data();
  int* po = out.data();
  const auto report = memory_test::checked([&] {
    ::sim::launch(::sim::LaunchConfig(1, 32), "syncwarp_orders", [=]() { syncwarp_orders(pin, ps, po); });
  });
  CHECK(report.findings.empty());
  for (int round = 0; round < 4; ++round) {
    for (int lane = 0; lane < 32; ++lane) CHECK(out[round * 32 + lane] == (lane + 1) % 32 * 100 + round);
  }
}

TEST_CASE("__activemask gives the lanes that reach it together") {
  std::vector<unsigned> out(64);
  unsigned* p = out.data();
  const auto report = memory_test::checked([&] {
    ::sim::launch(::sim::LaunchConfig(1, 64), "activemask_per_branch", [=]() { activemask_per_branch(p); });
  });
  CHECK_MESSAGE(report.findings.empty(), memory_test::kinds(report));
  for (unsigned t = 0; t < 64; ++t) {
    const unsigned lane = t % 32;
    if (lane < 10)
      CHECK(out[t] == 0x3ffu);
    else if (lane % 2 == 0)
      CHECK(out[t] == 0x55555400u);
    else
      CHECK(out[t] == 0xaaaaa800u);
  }
}

namespace {

void mask_mismatch(int* out) {
  const int lane = static_cast<int>(threadIdx.x);
  const unsigned mask = lane < 16 ? 0x0000ffffu : 0xffffffffu;
  out[lane] = __shfl_sync(mask, lane, 0);
}

void divergent_collectives(int* out) {
  const int lane = static_cast<int>(threadIdx.x);
  if (lane < 16) {
    out[lane] = __shfl_xor_sync(0xffffffffu, lane, 1);
  } else {
    out[lane] = static_cast<int>(__ballot_sync(0xffffffffu, 1));
  }
}

void mask_excludes_self(int* out) {
  out[threadIdx.x] = __shfl_sync(0x1u, 7, 0);
}
constexpr int kExcludesSelfLine = __LINE__ - 2;

}  // namespace

TEST_CASE("misused masks are reported and the block is abandoned, not hung") {
  std::vector<int> out(32, -1);
  int* p = out.data();
  SUBCASE("different masks") {
    const auto report = memory_test::checked(
        [&] { ::sim::launch(::sim::LaunchConfig(2, 32), "mask_mismatch", [=]() { mask_mismatch(p); }); });
    const auto found = memory_test::of_kind(report, "warp_mask_mismatch");
    REQUIRE(found.size() == 1);
    CHECK(found[0].severity == "error");
    CHECK(found[0].count == 2);  // once per block
    CHECK(found[0].message.find("0x0000ffff") != std::string::npos);
    CHECK(found[0].message.find("0xffffffff") != std::string::npos);
    CHECK(found[0].message.find("threads 0-15") != std::string::npos);
    CHECK(found[0].message.find("threads 16-31") != std::string::npos);
  }
  SUBCASE("different collectives") {
    const auto report = memory_test::checked([&] {
      ::sim::launch(::sim::LaunchConfig(1, 32), "divergent_collectives", [=]() { divergent_collectives(p); });
    });
    const auto found = memory_test::of_kind(report, "warp_divergent_collective");
    REQUIRE(found.size() == 1);
    CHECK(found[0].message.find("__shfl_xor_sync") != std::string::npos);
    CHECK(found[0].message.find("__ballot_sync") != std::string::npos);
  }
  SUBCASE("a mask without the calling lane") {
    const auto report = memory_test::checked([&] {
      ::sim::launch(::sim::LaunchConfig(1, 32), "mask_excludes_self", [=]() { mask_excludes_self(p); });
    });
    const auto found = memory_test::of_kind(report, "warp_mask_excludes_self");
    REQUIRE(found.size() == 1);
    CHECK(found[0].line == kExcludesSelfLine);
    CHECK(found[0].message.find("0x00000001") != std::string::npos);
  }
}
