// wgmma.mma_async as inline PTX (the translator's output form): operands placed in shared memory by the
// PTX ISA's canonical layouts, every layout and major-ness, A from registers, scale-d and imm-scale, the
// accumulator layout; and the findings for misuse of the warp group's instructions.
#include <cuda_bf16.h>
#include <cuda_runtime.h>
#include <doctest/doctest.h>

#include <cstdint>
#include <random>
#include <vector>

#include "memory_test_support.hpp"

using namespace memory_test;

namespace {

constexpr int kN = 16;                          // m64n16k16: 8 accumulators a thread
constexpr uint32_t kTileA = 0, kTileB = 16384;  // offsets in the dynamic shared memory

struct Layout {
  unsigned field;  // the descriptor's layout: 0 none, 1 128-byte, 2 64-byte, 3 32-byte swizzle
  unsigned span;   // swizzle bytes (0: none)
};
constexpr Layout kLayouts[] = {{0, 0}, {1, 128}, {2, 64}, {3, 32}};

// The strides (bytes) a tile of `rows` rows along M or N uses, per the canonical layouts.
struct Strides {
  uint32_t leading, stride;
};
Strides strides_for(Layout l, bool mn_major, int rows) {
  if (!mn_major) return l.span ? Strides{16, 8 * l.span} : Strides{128, 256};
  return l.span ? Strides{16 * l.span, 8 * l.span} : Strides{static_cast<uint32_t>(rows / 8 * 128), 128};
}

// Byte offset of 16-bit element (row, k), before the swizzle: core matrices of 8 rows x 16 bytes.
uint32_t canonical(Layout l, bool mn_major, Strides s, int row, int k) {
  if (!mn_major) {
    if (!l.span) return row / 8 * s.stride + k / 8 * s.leading + row % 8 * 16 + k % 8 * 2;
    return row / 8 * s.stride + row % 8 * l.span + k * 2;
  }
  if (!l.span) return row / 8 * s.stride + k / 8 * s.leading + k % 8 * 16 + row % 8 * 2;
  const int per_row = static_cast<int>(l.span / 2);  // elements of M or N in one swizzle row
  return row / per_row * s.leading + k / 8 * s.stride + k % 8 * l.span + row % per_row * 2;
}

uint32_t swizzle(uint32_t address, unsigned span) {
  return span ? address ^ ((address >> 7) & (span / 16 - 1)) << 4 : address;
}

uint64_t descriptor(uint32_t start, Layout l, Strides s) {
  return (start >> 4) | uint64_t{s.leading >> 4} << 16 | uint64_t{s.stride >> 4} << 32 |
         uint64_t{l.field} << 62;
}

struct Operands {
  std::vector<float> a, b, c;  // a 64 x 16, b 16 x kN ([k][n]), c 64 x kN
};
Operands random_operands(unsigned seed) {
  std::mt19937 rng(seed);
  Operands o{std::vector<float>(64 * 16), std::vector<float>(16 * kN), std::vector<float>(64 * kN)};
  for (float& v : o.a) v = static_cast<float>(static_cast<int>(rng() % 9) - 4);  // small: exact sums
  for (float& v : o.b) v = static_cast<float>(static_cast<int>(rng() % 9) - 4) * 0.5f;
  for (float& v : o.c) v = static_cast<float>(static_cast<int>(rng() % 64) - 32);
  return o;
}

uint16_t bf16_bits(float x) {
  return __bfloat16_as_ushort(__float2bfloat16(x));
}

struct Case {
  Layout layout;
  bool a_mn_major = false, b_mn_major = false, a_in_registers = false;
  int scale_d = 1, scale_a = 1;
};

// Thread t's accumulator i: (row, col) of D.
int d_row(int t, int i) {
  return 16 * (t / 32) + t % 32 / 4 + 8 * (i % 4 / 2);
}
int d_col(int t, int i) {
  return 8 * (i / 4) + 2 * (t % 4) + i % 2;
}

// Runs one wgmma of the case over one warp group; returns D (64 x kN) and the report.
std::vector<float> run_wgmma(const Case& cs, const Operands& o, Report& report) {
  float* out = nullptr;
  cudaMalloc(&out, 64 * kN * sizeof(float));
  const Strides sa = strides_for(cs.layout, cs.a_mn_major, 64),
                sb = strides_for(cs.layout, cs.b_mn_major, kN);
  report = checked([&] {
    ::sim::launch(::sim::LaunchConfig(dim3(1), dim3(128), 32768), "wgmma", [&, out] {
      auto* s = ::sim::dynamic_shared<uint8_t>();
      const auto base = static_cast<uint32_t>(__cvta_generic_to_shared(s));
      const int t = threadIdx.x;
      for (int e = t; e < 64 * 16; e += 128) {  // A[row][k]
        const int row = e / 16, k = e % 16;
        const uint16_t v = bf16_bits(o.a[row * 16 + k]);
        memcpy(s + swizzle(base + kTileA + canonical(cs.layout, cs.a_mn_major, sa, row, k), cs.layout.span) -
                   base,
               &v, 2);
      }
      for (int e = t; e < kN * 16; e += 128) {  // B's element (n, k)
        const int n = e / 16, k = e % 16;
        const uint16_t v = bf16_bits(o.b[k * kN + n]);
        memcpy(
            s + swizzle(base + kTileB + canonical(cs.layout, cs.b_mn_major, sb, n, k), cs.layout.span) - base,
            &v, 2);
      }
      ::sim::ptx::execute("fence.proxy.async.shared::cta;", {});
      __syncthreads();
      float d[8];
      for (int i = 0; i < 8; ++i) d[i] = o.c[d_row(t, i) * kN + d_col(t, i)];
      uint32_t a[4];
      for (int r = 0; r < 4; ++r) {
        const int row = 16 * (t / 32) + t % 32 / 4 + 8 * (r % 2), col = 2 * (t % 4) + 8 * (r / 2);
        a[r] = bf16_bits(o.a[row * 16 + col]) | uint32_t{bf16_bits(o.a[row * 16 + col + 1])} << 16;
      }
      const uint64_t a_desc = descriptor(base + kTileA, cs.layout, sa),
                     b_desc = descriptor(base + kTileB, cs.layout, sb);
      ::sim::ptx::execute("wgmma.fence.sync.aligned;", {});
      if (cs.a_in_registers) {
        ::sim::ptx::execute(
            "wgmma.mma_async.sync.aligned.m64n16k16.f32.bf16.bf16 {%0,%1,%2,%3,%4,%5,%6,%7}, "
            "{%8,%9,%10,%11}, %12, "
            "%13, %14, 1, %15;",
            {::sim::ptx::in_out<'f'>(d[0]), ::sim::ptx::in_out<'f'>(d[1]), ::sim::ptx::in_out<'f'>(d[2]),
             ::sim::ptx::in_out<'f'>(d[3]), ::sim::ptx::in_out<'f'>(d[4]), ::sim::ptx::in_out<'f'>(d[5]),
             ::sim::ptx::in_out<'f'>(d[6]), ::sim::ptx::in_out<'f'>(d[7]), ::sim::ptx::input<'r'>(a[0]),
             ::sim::ptx::input<'r'>(a[1]), ::sim::ptx::input<'r'>(a[2]), ::sim::ptx::input<'r'>(a[3]),
             ::sim::ptx::input<'l'>(b_desc), ::sim::ptx::input<'n'>(cs.scale_d),
             ::sim::ptx::input<'n'>(cs.scale_a), ::sim::ptx::input<'n'>(cs.b_mn_major ? 1 : 0)});
      } else {
        ::sim::ptx::execute(
            "{\n.reg .pred p;\nsetp.ne.b32 p, %10, 0;\n"
            "wgmma.mma_async.sync.aligned.m64n16k16.f32.bf16.bf16 {%0,%1,%2,%3,%4,%5,%6,%7}, %8, %9, p, %11, "
            "1, "
            "%12, %13;\n}",
            {::sim::ptx::in_out<'f'>(d[0]), ::sim::ptx::in_out<'f'>(d[1]), ::sim::ptx::in_out<'f'>(d[2]),
             ::sim::ptx::in_out<'f'>(d[3]), ::sim::ptx::in_out<'f'>(d[4]), ::sim::ptx::in_out<'f'>(d[5]),
             ::sim::ptx::in_out<'f'>(d[6]), ::sim::ptx::in_out<'f'>(d[7]), ::sim::ptx::input<'l'>(a_desc),
             ::sim::ptx::input<'l'>(b_desc), ::sim::ptx::input<'r'>(cs.scale_d),
             ::sim::ptx::input<'n'>(cs.scale_a), ::sim::ptx::input<'n'>(cs.a_mn_major ? 1 : 0),
             ::sim::ptx::input<'n'>(cs.b_mn_major ? 1 : 0)});
      }
      ::sim::ptx::execute("wgmma.commit_group.sync.aligned;", {});
      ::sim::ptx::execute("wgmma.wait_group.sync.aligned %0;", {::sim::ptx::input<'n'>(0)});
      for (int i = 0; i < 8; ++i) out[d_row(t, i) * kN + d_col(t, i)] = d[i];
    });
  });
  std::vector<float> d(64 * kN);
  cudaMemcpy(d.data(), out, d.size() * sizeof(float), cudaMemcpyDeviceToHost);
  cudaFree(out);
  return d;
}

int wrong_elements(const Case& cs, const Operands& o, const std::vector<float>& d) {
  int wrong = 0;
  for (int row = 0; row < 64; ++row)
    for (int col = 0; col < kN; ++col) {
      double expected = cs.scale_d ? o.c[row * kN + col] : 0.0;
      for (int k = 0; k < 16; ++k) expected += cs.scale_a * double{o.a[row * 16 + k]} * o.b[k * kN + col];
      wrong += d[row * kN + col] != static_cast<float>(expected);
    }
  return wrong;
}

// One committed wgmma of the warp group with A and B both the 128-byte swizzled tile at `tile`.
void issue_on_tile(float (&d)[8], const void* tile) {
  const uint64_t desc = static_cast<uint32_t>(__cvta_generic_to_shared(tile)) >> 4 |
                        uint64_t{1024 >> 4} << 32 | uint64_t{1} << 62;
  ::sim::ptx::execute(
      "wgmma.mma_async.sync.aligned.m64n16k16.f32.bf16.bf16 {%0,%1,%2,%3,%4,%5,%6,%7}, %8, %8, 1, 1, 1, 0, "
      "0;",
      {::sim::ptx::in_out<'f'>(d[0]), ::sim::ptx::in_out<'f'>(d[1]), ::sim::ptx::in_out<'f'>(d[2]),
       ::sim::ptx::in_out<'f'>(d[3]), ::sim::ptx::in_out<'f'>(d[4]), ::sim::ptx::in_out<'f'>(d[5]),
       ::sim::ptx::in_out<'f'>(d[6]), ::sim::ptx::in_out<'f'>(d[7]), ::sim::ptx::input<'l'>(desc)});
  ::sim::ptx::execute("wgmma.commit_group.sync.aligned;", {});
}

}  // namespace

TEST_CASE("wgmma reads A and B through descriptors of every layout, K-major and MN-major") {
  const Operands o = random_operands(11);
  for (const Layout& layout : kLayouts)
    for (bool a_mn : {false, true})
      for (bool b_mn : {false, true}) {
        CAPTURE(layout.field);
        CAPTURE(a_mn);
        CAPTURE(b_mn);
        Report report;
        const Case cs{layout, a_mn, b_mn};
        const std::vector<float> d = run_wgmma(cs, o, report);
        CHECK_MESSAGE(report.findings.empty(), kinds(report));
        CHECK(wrong_elements(cs, o, d) == 0);
      }
}

TEST_CASE("wgmma with A in registers, scale-d 0 and imm-scale-a -1") {
  const Operands o = random_operands(12);
  for (const Case& cs : {Case{kLayouts[1], false, false, true}, Case{kLayouts[1], false, true, false, 0, -1},
                         Case{kLayouts[0], false, false, true, 0, -1}}) {
    CAPTURE(cs.a_in_registers);
    CAPTURE(cs.scale_d);
    Report report;
    const std::vector<float> d = run_wgmma(cs, o, report);
    CHECK_MESSAGE(report.findings.empty(), kinds(report));
    CHECK(wrong_elements(cs, o, d) == 0);
  }
}

TEST_CASE("accumulators read before their wgmma.wait_group, and operands overwritten, are errors") {
  const Report report = checked([] {
    ::sim::launch(::sim::LaunchConfig(dim3(1), dim3(128), 32768), "early", [] {
      auto* s = ::sim::dynamic_shared<uint32_t>();
      for (int i = threadIdx.x; i < 8192; i += 128) s[i] = 0x3F803F80u;  // bf16 ones
      ::sim::ptx::execute("fence.proxy.async;", {});
      __syncthreads();
      float d[8] = {};
      issue_on_tile(d, s);
      volatile float seen = d[3];  // before the wait
      (void)seen;
      if (threadIdx.x == 0) s[0] = 0;  // an operand, still being read: no thread has waited yet
      __syncthreads();
      ::sim::ptx::execute("wgmma.wait_group.sync.aligned 0;", {});
      volatile float after = d[3];  // fine
      (void)after;
    });
  });
  CHECK_MESSAGE(of_kind(report, "wgmma_accumulator_pending").size() == 1, kinds(report));
  CHECK_MESSAGE(of_kind(report, "wgmma_operand_overwritten").size() == 1, kinds(report));
}

TEST_CASE("a wgmma reading stores that no fence.proxy.async ordered is an error") {
  const Report report = checked([] {
    ::sim::launch(::sim::LaunchConfig(dim3(1), dim3(128), 32768), "unfenced", [] {
      auto* s = ::sim::dynamic_shared<uint32_t>();
      for (int i = threadIdx.x; i < 8192; i += 128) s[i] = 0x3F803F80u;
      __syncthreads();
      float d[8] = {};
      issue_on_tile(d, s);
      ::sim::ptx::execute("wgmma.wait_group.sync.aligned 0;", {});
    });
  });
  CHECK_MESSAGE(of_kind(report, "async_proxy_unfenced").size() == 1, kinds(report));
}

TEST_CASE("a warp group short of threads, and setmaxnreg out of range, are reported") {
  const Report short_group = checked([] {
    ::sim::launch(::sim::LaunchConfig(dim3(1), dim3(96)), "short", [] {
      ::sim::ptx::execute("setmaxnreg.inc.sync.aligned.u32 %0;", {::sim::ptx::input<'n'>(232)});
    });
  });
  CHECK_MESSAGE(of_kind(short_group, "warpgroup_incomplete").size() == 1, kinds(short_group));
  const Report odd = checked([] {
    ::sim::launch(::sim::LaunchConfig(dim3(1), dim3(128)), "odd", [] {
      ::sim::ptx::execute("setmaxnreg.dec.sync.aligned.u32 %0;", {::sim::ptx::input<'n'>(20)});
    });
  });
  CHECK_MESSAGE(of_kind(odd, "setmaxnreg_invalid").size() == 1, kinds(odd));
  const Report fine = checked([] {
    ::sim::launch(::sim::LaunchConfig(dim3(1), dim3(256)), "fine", [] {
      ::sim::ptx::execute("setmaxnreg.inc.sync.aligned.u32 %0;",
                          {::sim::ptx::input<'n'>(threadIdx.x < 128 ? 40 : 232)});
    });
  });
  CHECK_MESSAGE(fine.findings.empty(), kinds(fine));
}
