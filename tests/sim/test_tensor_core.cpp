// mma.sync, ldmatrix and cp.async as inline PTX (in the translator's output form: ::sim::ptx::execute),
// against the fragment tables of the PTX ISA, and the findings for misuse.
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <doctest/doctest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "memory_test_support.hpp"
#include "sim/mma_model.h"

using namespace memory_test;

namespace {

template <class T>
class DeviceArray {  // cudaMalloc'd, for fragments and raw registers
 public:
  explicit DeviceArray(const std::vector<T>& values) : n_(values.size()) {
    cudaMalloc(&p_, n_ * sizeof(T));
    cudaMemcpy(p_, values.data(), n_ * sizeof(T), cudaMemcpyHostToDevice);
  }
  explicit DeviceArray(size_t n) : DeviceArray(std::vector<T>(n)) {}
  ~DeviceArray() { cudaFree(p_); }
  DeviceArray(const DeviceArray&) = delete;
  DeviceArray& operator=(const DeviceArray&) = delete;
  T* get() const { return p_; }
  std::vector<T> download() const {
    std::vector<T> v(n_);
    cudaMemcpy(v.data(), p_, n_ * sizeof(T), cudaMemcpyDeviceToHost);
    return v;
  }

 private:
  T* p_ = nullptr;
  size_t n_;
};

template <class Body>
Report run_block(unsigned threads, size_t shared_bytes, Body body) {
  return checked(
      [&] { ::sim::launch(::sim::LaunchConfig(dim3(1), dim3(threads), shared_bytes), "k", body); });
}

// The PTX ISA's fragment tables, written out as the ISA states them (groupID = lane / 4,
// threadID_in_group = lane % 4; element i of a lane, two 16-bit elements per register, i even = low half).
struct RowCol {
  int row, col;
};
RowCol a_k16(int lane, int i) {
  const int g = lane >> 2, t = lane % 4;
  return {(i < 2 || (4 <= i && i < 6)) ? g : g + 8, i < 4 ? t * 2 + (i & 1) : t * 2 + (i & 1) + 8};
}
RowCol b_k16(int lane, int i) {
  const int g = lane >> 2, t = lane % 4;
  return {i < 2 ? t * 2 + (i & 1) : t * 2 + (i & 1) + 8, g};
}
RowCol a_k8(int lane, int i) {
  const int g = lane >> 2, t = lane % 4;
  return {i < 2 ? g : g + 8, t * 2 + (i & 1)};
}
RowCol b_k8(int lane, int i) {
  const int g = lane >> 2, t = lane % 4;
  return {t * 2 + i, g};
}
RowCol c_layout(int lane, int i) {
  const int g = lane >> 2, t = lane % 4;
  return {i < 2 ? g : g + 8, t * 2 + (i & 1)};
}

template <class T>
uint16_t bits16(float f) {
  if constexpr (std::is_same_v<T, __half>)
    return __half_as_ushort(__float2half(f));
  else
    return __bfloat16_as_ushort(__float2bfloat16(f));
}

// Registers per lane for A (M x K row-major), B (K x N) and C, packed by the tables above.
template <class T>
std::vector<uint32_t> pack(const std::vector<float>& m, int cols, RowCol (*layout)(int, int), int elements) {
  std::vector<uint32_t> regs(32 * elements / 2);
  for (int lane = 0; lane < 32; ++lane)
    for (int i = 0; i < elements; ++i) {
      const RowCol rc = layout(lane, i);
      regs[lane * elements / 2 + i / 2] |= uint32_t{bits16<T>(m[rc.row * cols + rc.col])} << (16 * (i % 2));
    }
  return regs;
}

// How many of the 32 lanes' D fragments (c_layout) differ from C + A B (A 16 x k, B k x 8, row-major),
// computed exactly: the tests' operands are small integers and halves, so every sum is a float.
int wrong_results(const std::vector<float>& d, const std::vector<float>& a, const std::vector<float>& b,
                  const std::vector<float>& c, int k) {
  int wrong = 0;
  for (int lane = 0; lane < 32; ++lane)
    for (int i = 0; i < 4; ++i) {
      const RowCol at = c_layout(lane, i);
      double expected = c[at.row * 8 + at.col];
      for (int kk = 0; kk < k; ++kk) expected += static_cast<double>(a[at.row * k + kk]) * b[kk * 8 + at.col];
      if (d[lane * 4 + i] != static_cast<float>(expected)) ++wrong;
    }
  return wrong;
}

// One lane's part of an mma whose A takes 4 registers and B 2 (m16n8k16, and m16n8k8 in tf32).
void execute_four_register_mma(const char* ptx, const uint32_t* a, const uint32_t* b, const float* c,
                               float* d) {
  ::sim::ptx::execute(
      ptx, {::sim::ptx::output<'f'>(d[0]), ::sim::ptx::output<'f'>(d[1]), ::sim::ptx::output<'f'>(d[2]),
            ::sim::ptx::output<'f'>(d[3]), ::sim::ptx::input<'r'>(a[0]), ::sim::ptx::input<'r'>(a[1]),
            ::sim::ptx::input<'r'>(a[2]), ::sim::ptx::input<'r'>(a[3]), ::sim::ptx::input<'r'>(b[0]),
            ::sim::ptx::input<'r'>(b[1]), ::sim::ptx::input<'f'>(c[0]), ::sim::ptx::input<'f'>(c[1]),
            ::sim::ptx::input<'f'>(c[2]), ::sim::ptx::input<'f'>(c[3])});
}

template <class T>
void check_mma(int k, const char* ptx) {
  std::mt19937 rng(k);
  std::vector<float> a(16 * k), b(k * 8), c(16 * 8);
  for (float& v : a)
    v = static_cast<float>(static_cast<int>(rng() % 9) - 4);  // small integers: every sum exact
  for (float& v : b) v = static_cast<float>(static_cast<int>(rng() % 9) - 4) * 0.5f;
  for (float& v : c) v = static_cast<float>(static_cast<int>(rng() % 100) - 50);
  const int a_regs = k / 4, b_regs = k / 8;
  DeviceArray<uint32_t> ra(pack<T>(a, k, k == 16 ? a_k16 : a_k8, 2 * a_regs));
  DeviceArray<uint32_t> rb(pack<T>(b, 8, k == 16 ? b_k16 : b_k8, 2 * b_regs));
  std::vector<float> c_frag(32 * 4);
  for (int lane = 0; lane < 32; ++lane)
    for (int i = 0; i < 4; ++i) c_frag[lane * 4 + i] = c[c_layout(lane, i).row * 8 + c_layout(lane, i).col];
  DeviceArray<float> rc(c_frag), rd(32 * 4);
  const Report report = run_block(32, 0, [=, pa = ra.get(), pb = rb.get(), pc = rc.get(), pd = rd.get()] {
    const unsigned l = threadIdx.x;
    float d[4];
    if (k == 16) {
      execute_four_register_mma(ptx, pa + 4 * l, pb + 2 * l, pc + 4 * l, d);
    } else {
      ::sim::ptx::execute(
          ptx, {::sim::ptx::output<'f'>(d[0]), ::sim::ptx::output<'f'>(d[1]), ::sim::ptx::output<'f'>(d[2]),
                ::sim::ptx::output<'f'>(d[3]), ::sim::ptx::input<'r'>(pa[2 * l]),
                ::sim::ptx::input<'r'>(pa[2 * l + 1]), ::sim::ptx::input<'r'>(pb[l]),
                ::sim::ptx::input<'f'>(pc[4 * l]), ::sim::ptx::input<'f'>(pc[4 * l + 1]),
                ::sim::ptx::input<'f'>(pc[4 * l + 2]), ::sim::ptx::input<'f'>(pc[4 * l + 3])});
    }
    for (int i = 0; i < 4; ++i) pd[4 * l + i] = d[i];
  });
  CHECK_MESSAGE(report.findings.empty(), kinds(report));
  CHECK(wrong_results(rd.download(), a, b, c, k) == 0);
}

// m16n8k8 .tf32: one element a register. A: (g, t), (g + 8, t), (g, t + 4), (g + 8, t + 4); B: (t, g),
// (t + 4, g). Each operand is a small integer with junk in the 13 low bits that tf32 leaves out: the
// result must be exactly that of the integers.
void check_mma_tf32() {
  std::mt19937 rng(32);
  std::vector<float> a(16 * 8), b(8 * 8), c(16 * 8);
  auto with_junk = [&](float integer) {
    return std::bit_cast<float>(std::bit_cast<uint32_t>(integer) | static_cast<uint32_t>(rng() & 0x1FFFu));
  };
  std::vector<float> a_exact(a.size()), b_exact(b.size());
  for (size_t i = 0; i < a.size(); ++i) {
    a_exact[i] = static_cast<float>(static_cast<int>(rng() % 9) - 4);
    a[i] = with_junk(a_exact[i]);
  }
  for (size_t i = 0; i < b.size(); ++i) {
    b_exact[i] = static_cast<float>(static_cast<int>(rng() % 9) - 4) * 0.5f;
    b[i] = with_junk(b_exact[i]);
  }
  for (float& v : c) v = static_cast<float>(static_cast<int>(rng() % 100) - 50);
  std::vector<uint32_t> a_frag(32 * 4), b_frag(32 * 2);
  std::vector<float> c_frag(32 * 4);
  for (int lane = 0; lane < 32; ++lane) {
    const int g = lane / 4, t = lane % 4;
    for (int r = 0; r < 4; ++r)
      a_frag[lane * 4 + r] = std::bit_cast<uint32_t>(a[(g + 8 * (r % 2)) * 8 + t + 4 * (r / 2)]);
    for (int r = 0; r < 2; ++r) b_frag[lane * 2 + r] = std::bit_cast<uint32_t>(b[(t + 4 * r) * 8 + g]);
    for (int i = 0; i < 4; ++i) c_frag[lane * 4 + i] = c[c_layout(lane, i).row * 8 + c_layout(lane, i).col];
  }
  DeviceArray<uint32_t> ra(a_frag), rb(b_frag);
  DeviceArray<float> rc(c_frag), rd(32 * 4);
  const Report report = run_block(32, 0, [pa = ra.get(), pb = rb.get(), pc = rc.get(), pd = rd.get()] {
    const unsigned l = threadIdx.x;
    float d[4];
    execute_four_register_mma(
        "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, "
        "{%10,%11,%12,%13};",
        pa + 4 * l, pb + 2 * l, pc + 4 * l, d);
    for (int i = 0; i < 4; ++i) pd[4 * l + i] = d[i];
  });
  CHECK_MESSAGE(report.findings.empty(), kinds(report));
  CHECK(wrong_results(rd.download(), a_exact, b_exact, c, 8) == 0);
}

// ldmatrix: lane l supplies the address of shared row perm(l) (16 bytes = 8 elements); shared row r
// holds the values 8r .. 8r + 7. Registers out: lane-major, `matrices` per lane.
std::vector<uint32_t> run_ldmatrix(const char* ptx, int matrices, Report& report) {
  DeviceArray<uint32_t> out(32 * 4);
  report = run_block(32, 32 * 16, [=, po = out.get()] {
    uint16_t* s = ::sim::dynamic_shared<uint16_t>();
    const unsigned l = threadIdx.x;
    for (int e = 0; e < 8; ++e) s[8 * l + e] = static_cast<uint16_t>(8 * l + e);
    __syncthreads();
    const auto address = static_cast<uint32_t>(__cvta_generic_to_shared(s + 8 * ((l * 5) % 32)));
    uint32_t r[4] = {};
    if (matrices == 1)
      ::sim::ptx::execute(ptx, {::sim::ptx::output<'r'>(r[0]), ::sim::ptx::input<'r'>(address)});
    else if (matrices == 2)
      ::sim::ptx::execute(ptx, {::sim::ptx::output<'r'>(r[0]), ::sim::ptx::output<'r'>(r[1]),
                                ::sim::ptx::input<'r'>(address)});
    else
      ::sim::ptx::execute(
          ptx, {::sim::ptx::output<'r'>(r[0]), ::sim::ptx::output<'r'>(r[1]), ::sim::ptx::output<'r'>(r[2]),
                ::sim::ptx::output<'r'>(r[3]), ::sim::ptx::input<'r'>(address)});
    for (int j = 0; j < 4; ++j) po[4 * l + j] = r[j];
  });
  return out.download();
}

void check_ldmatrix(const char* ptx, int matrices, bool trans) {
  Report report;
  const std::vector<uint32_t> got = run_ldmatrix(ptx, matrices, report);
  CHECK_MESSAGE(report.findings.empty(), kinds(report));
  // Element (row, col) of matrix j: what the lane that addressed its row found there.
  auto element = [](int j, int row, int col) {
    return static_cast<uint32_t>(8 * (((8 * j + row) * 5) % 32) + col);
  };
  int wrong = 0;
  for (int lane = 0; lane < 32; ++lane)
    for (int j = 0; j < matrices; ++j) {
      const int q = lane / 4, p = 2 * (lane % 4);
      const uint32_t low = trans ? element(j, p, q) : element(j, q, p);
      const uint32_t high = trans ? element(j, p + 1, q) : element(j, q, p + 1);
      if (got[4 * lane + j] != (high << 16 | low)) ++wrong;
    }
  CHECK(wrong == 0);
}

float sum(float2 v) {
  return v.x + v.y;
}
float sum(float4 v) {
  return v.x + v.y + v.z + v.w;
}

const sim::harness::SharedWavefronts* at_line(const Report& report, int line) {
  for (const auto& w : report.shared_wavefronts)
    if (w.line == line) return &w;
  return nullptr;
}

// The device model's results (sim/mma_model.h) over a fixed stream of 200000 operand sets, folded into
// one number: k 8 and 16, bf16 and f16, operands of any bits (infinities, NaN), near 1, tiny (subnormal)
// and with zeros.
uint64_t model_fingerprint(float (*accumulate)(float, const double*, const double*, int, bool)) {
  uint64_t state = 20261127, hash = 14695981039346656037ull;  // splitmix64 stream, FNV-1a fold
  auto next = [&] {
    uint64_t z = state += 0x9E3779B97F4A7C15ull;
    z = (z ^ z >> 30) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ z >> 27) * 0x94D049BB133111EBull;
    return z ^ z >> 31;
  };
  auto decode = [](uint16_t bits, bool f16) {  // the simulator's own exact decoding of an operand
    return f16 ? sim::f16::decode<5, 10>(bits) : sim::f16::decode<8, 7>(bits);
  };
  for (int set = 0; set < 200000; ++set) {
    const bool f16 = set & 1;
    const int k = set & 2 ? 16 : 8, kind = set >> 2 & 3;  // kind: any bits, near 1, tiny (subnormal), zeros
    double a[16], b[16];
    for (int i = 0; i < k; ++i) {
      auto x = static_cast<uint16_t>(next()), y = static_cast<uint16_t>(next());
      if (kind == 1) {
        x = f16 ? (x & 0x83FF) | 0x3C00 : (x & 0x807F) | 0x3F00;
        y = f16 ? (y & 0x83FF) | 0x3800 : (y & 0x807F) | 0x3F80;
      } else if (kind == 2) {
        x &= f16 ? 0x83FF : 0x807F;
        y &= f16 ? 0x87FF : 0x80FF;
      } else if (kind == 3 && next() % 4 == 0) {
        x &= 0x8000;
      }
      a[i] = decode(x, f16);
      b[i] = decode(y, f16);
    }
    auto c_bits = static_cast<uint32_t>(next());
    if (kind == 1) c_bits = (c_bits & 0x80FFFFFF) | 0x3F000000;
    if (kind == 2) c_bits &= 0x80FFFFFF;
    const auto d = std::bit_cast<uint32_t>(accumulate(std::bit_cast<float>(c_bits), a, b, k, f16));
    for (int byte = 0; byte < 4; ++byte) hash = (hash ^ (d >> 8 * byte & 0xFF)) * 1099511628211ull;
  }
  return hash;
}

}  // namespace

// tests/gpu/mma_bits.cu showed this model equal to an H100 bit for bit; the figure pins its results, so
// that a change made for speed (the simulator runs it for every element of every mma) cannot move one.
TEST_CASE("the mma model's results are those it had when an H100 matched it bit for bit") {
  const auto device = [](float c, const double* a, const double* b, int k, bool f16) {
    return sim::mma::accumulate(c, a, b, k, sim::mma::kDeviceModel,
                                f16 ? sim::mma::kF16MinExponent : sim::mma::kFloatMinExponent);
  };
  CHECK(model_fingerprint(device) == 14089123767941407856ull);
}

TEST_CASE("mma.sync m16n8k16 and m16n8k8, bf16 and f16: D = A*B + C in the PTX ISA's fragment layouts") {
  check_mma<__nv_bfloat16>(16,
                           "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3}, "
                           "{%4,%5,%6,%7}, {%8,%9}, {%10,%11,%12,%13};");
  check_mma<__half>(16,
                    "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, "
                    "{%8,%9}, {%10,%11,%12,%13};");
  check_mma<__nv_bfloat16>(8,
                           "mma.sync.aligned.m16n8k8.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3}, {%4,%5}, {%6}, "
                           "{%7,%8,%9,%10};");
  check_mma<__half>(8,
                    "mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5}, {%6}, "
                    "{%7,%8,%9,%10};");
}

TEST_CASE("mma.sync m16n8k8 tf32: the PTX ISA's tf32 fragments, the 13 low bits of each operand ignored") {
  check_mma_tf32();
}

TEST_CASE("ldmatrix x1, x2, x4, with and without .trans") {
  check_ldmatrix("ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%0}, [%1];", 1, false);
  check_ldmatrix("ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%0,%1}, [%2];", 2, false);
  check_ldmatrix("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];", 4, false);
  check_ldmatrix("ldmatrix.sync.aligned.m8n8.x1.trans.shared.b16 {%0}, [%1];", 1, true);
  check_ldmatrix("ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%0,%1}, [%2];", 2, true);
  check_ldmatrix("ldmatrix.sync.aligned.m8n8.x4.trans.shared::cta.b16 {%0,%1,%2,%3}, [%4];", 4, true);
}

namespace {
constexpr const char* kMmaK8 =
    "mma.sync.aligned.m16n8k8.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3}, {%4,%5}, {%6}, {%7,%8,%9,%10};";

void mma_k8(float* d, uint32_t a0, uint32_t a1, uint32_t b,
            std::source_location where = std::source_location::current()) {
  const float zero = 0.0f;
  ::sim::ptx::execute(
      kMmaK8,
      {::sim::ptx::output<'f'>(d[0]), ::sim::ptx::output<'f'>(d[1]), ::sim::ptx::output<'f'>(d[2]),
       ::sim::ptx::output<'f'>(d[3]), ::sim::ptx::input<'r'>(a0), ::sim::ptx::input<'r'>(a1),
       ::sim::ptx::input<'r'>(b), ::sim::ptx::input<'f'>(zero), ::sim::ptx::input<'f'>(zero),
       ::sim::ptx::input<'f'>(zero), ::sim::ptx::input<'f'>(zero)},
      where);
}
}  // namespace

TEST_CASE("a lane that skips an mma is a finding with the line, the warp and the lanes") {
  DeviceArray<float> out(64 * 4);
  const int line = __LINE__ + 5;
  const Report report = run_block(64, 0, [po = out.get()] {
    if (threadIdx.x == 37) return;  // lane 5 of warp 1
    float d[4];
    const uint32_t one = 0x3F80u;  // bf16 1.0 in the low half
    mma_k8(d, one, one, one);
    for (int i = 0; i < 4; ++i) po[4 * threadIdx.x + i] = d[i];
  });
  const auto found = of_kind(report, "warp_aligned_missing_lane");
  REQUIRE_MESSAGE(found.size() == 1, kinds(report));
  CHECK(found[0].line == line);
  CHECK(found[0].message.find("warp 1") != std::string::npos);
  CHECK(found[0].message.find("lanes 5 exited") != std::string::npos);
  const std::vector<float> d = out.download();
  CHECK(std::isnan(d[4 * 32]));  // warp 1's results are undefined: NaN
  CHECK(d[0] == 4.0f);           // warp 0 computed: row 0 of A (1,0,1,0,...) times column 0 of B (alike)
}

TEST_CASE("ldmatrix row addresses: misaligned and outside shared memory are findings") {
  for (uint32_t offset : {8u, 1u << 23}) {  // 8 MiB: past any shared memory
    CAPTURE(offset);
    const Report report = run_block(32, 512, [offset] {
      uint16_t* s = ::sim::dynamic_shared<uint16_t>();
      for (int e = 0; e < 8; ++e) s[8 * threadIdx.x + e] = 1;
      __syncthreads();
      uint32_t address = static_cast<uint32_t>(__cvta_generic_to_shared(s + 8 * threadIdx.x));
      if (threadIdx.x == 3) address += offset;
      uint32_t r;
      ::sim::ptx::execute("ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%0}, [%1];",
                          {::sim::ptx::output<'r'>(r), ::sim::ptx::input<'r'>(address)});
    });
    const auto found = of_kind(report, "ldmatrix_bad_address");
    REQUIRE_MESSAGE(found.size() == 1, kinds(report));
    CHECK(found[0].message.find("lane 3 of warp 0") != std::string::npos);
    CHECK(found[0].thread[0] == 3);
  }
}

TEST_CASE("a fragment loaded before the cp.async wait that fills it is an error") {
  DeviceArray<uint32_t> x(std::vector<uint32_t>(128, 0x3F803F80u));
  const Report report = run_block(32, 512, [px = x.get()] {
    uint16_t* s = ::sim::dynamic_shared<uint16_t>();
    const auto row = static_cast<uint32_t>(__cvta_generic_to_shared(s + 8 * threadIdx.x));
    const uint32_t* source = px + 4 * threadIdx.x;
    ::sim::ptx::execute("cp.async.cg.shared.global [%0], [%1], 16;",
                        {::sim::ptx::input<'r'>(row), ::sim::ptx::input<'l'>(source)});
    ::sim::ptx::execute("cp.async.commit_group;", {});
    uint32_t r;
    ::sim::ptx::execute("ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%0}, [%1];",
                        {::sim::ptx::output<'r'>(r), ::sim::ptx::input<'r'>(row)});
    ::sim::ptx::execute("cp.async.wait_group %0;", {::sim::ptx::input<'n'>(0)});
  });
  CHECK_MESSAGE(of_kind(report, "async_copy_not_waited").size() == 1, kinds(report));
}

TEST_CASE("cp.async through PTX, waited for, then ldmatrix: no findings and the copied values") {
  std::vector<uint32_t> values(128);
  for (uint32_t i = 0; i < 128; ++i) values[i] = i;
  DeviceArray<uint32_t> x(values), out(32);
  const Report report = run_block(32, 512, [px = x.get(), po = out.get()] {
    uint16_t* s = ::sim::dynamic_shared<uint16_t>();
    const auto row = static_cast<uint32_t>(__cvta_generic_to_shared(s + 8 * threadIdx.x));
    const uint32_t* source = px + 4 * threadIdx.x;
    ::sim::ptx::execute(
        "cp.async.ca.shared.global [%0], [%1], 16, %2;",
        {::sim::ptx::input<'r'>(row), ::sim::ptx::input<'l'>(source), ::sim::ptx::input<'r'>(16)});
    ::sim::ptx::execute("cp.async.wait_all;", {});
    __syncthreads();
    uint32_t r;
    ::sim::ptx::execute("ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%0}, [%1];",
                        {::sim::ptx::output<'r'>(r), ::sim::ptx::input<'r'>(row)});
    po[threadIdx.x] = r;
  });
  CHECK_MESSAGE(report.findings.empty(), kinds(report));
  const std::vector<uint32_t> got = out.download();
  for (uint32_t lane = 0; lane < 32; ++lane) CHECK(got[lane] == values[4 * (lane / 4) + lane % 4]);
}

TEST_CASE("an asm statement the simulator does not model stops the kernel with a finding that names it") {
  const Report report =
      run_block(32, 0, [] { ::sim::ptx::execute("stmatrix.sync.aligned.m8n8.x1.shared.b16;", {}); });
  const auto found = of_kind(report, "asm_not_modelled");
  REQUIRE_MESSAGE(found.size() == 1, kinds(report));
  CHECK(found[0].message.find("stmatrix.sync.aligned.m8n8.x1.shared.b16") != std::string::npos);
}

namespace {

// Bank conflicts: one warp fills 32 x 33 floats of shared memory, then reads them with `pattern`; the
// wavefronts of every line but the filling one are added up.
template <class Pattern>
sim::harness::SharedWavefronts measure(Pattern pattern) {
  DeviceArray<float> out(32);
  int fill_line = 0;
  const Report report = run_block(32, 32 * 33 * 4, [&, po = out.get()] {
    float* s = ::sim::dynamic_shared<float>();
    fill_line = __LINE__ + 1;
    for (int i = 0; i < 33; ++i) s[33 * threadIdx.x + i] = static_cast<float>(i);
    __syncthreads();
    po[threadIdx.x] = pattern(s, threadIdx.x);
  });
  CHECK_MESSAGE(report.findings.empty(), kinds(report));
  sim::harness::SharedWavefronts total;
  for (const auto& w : report.shared_wavefronts) {
    if (w.line == fill_line) continue;
    total.instructions += w.instructions;
    total.wavefronts += w.wavefronts;
    total.ideal_wavefronts += w.ideal_wavefronts;
  }
  return total;
}

void check_wavefronts(const sim::harness::SharedWavefronts& w, uint64_t instructions, uint64_t wavefronts,
                      uint64_t ideal) {
  CHECK(w.instructions == instructions);
  CHECK(w.wavefronts == wavefronts);
  CHECK(w.ideal_wavefronts == ideal);
}

}  // namespace

TEST_CASE("shared-memory wavefronts of known access patterns") {
  SUBCASE("stride-1 floats: one wavefront") {
    check_wavefronts(measure([](float* s, unsigned l) { return s[l]; }), 1, 1, 1);
  }
  SUBCASE("stride-32 floats: every lane in bank 0, 32 wavefronts") {
    check_wavefronts(measure([](float* s, unsigned l) { return s[32 * l]; }), 1, 32, 1);
  }
  SUBCASE("stride-2 floats: two-way") {
    check_wavefronts(measure([](float* s, unsigned l) { return s[2 * l]; }), 1, 2, 1);
  }
  SUBCASE("one word for every lane: a broadcast") {
    check_wavefronts(measure([](float* s, unsigned) { return s[7]; }), 1, 1, 1);
  }
  SUBCASE("row-major float4: four quarter-warp wavefronts, no conflict") {
    check_wavefronts(measure([](float* s, unsigned l) { return sum(reinterpret_cast<const float4*>(s)[l]); }),
                     1, 4, 4);
  }
  SUBCASE("row-major float2: two half-warp wavefronts") {
    check_wavefronts(measure([](float* s, unsigned l) { return sum(reinterpret_cast<const float2*>(s)[l]); }),
                     1, 2, 2);
  }
  SUBCASE("float4 down a column of 128-byte rows: eight lanes per bank group in each quarter") {
    check_wavefronts(
        measure([](float* s, unsigned l) { return sum(reinterpret_cast<const float4*>(s)[8 * l]); }), 1, 32,
        4);
  }
}

TEST_CASE("ldmatrix wavefronts: a row-major 64-column tile conflicts 8 ways, its XOR swizzle not at all") {
  // A 32 x 64 bf16 tile (rows of 128 bytes, eight 16-byte chunks). ldmatrix.x4 of the 16 x 16 block at
  // column chunk 0: lane l addresses row l % 16, chunk l / 16. Plain layout: all eight rows of a phase
  // start at bank 0. Swizzled: chunk c of row r is stored at chunk c ^ (r % 8).
  for (bool swizzled : {false, true}) {
    CAPTURE(swizzled);
    int line = 0;
    const Report report = run_block(32, 32 * 128, [&] {
      uint16_t* s = ::sim::dynamic_shared<uint16_t>();
      for (int i = 0; i < 64; ++i) s[64 * threadIdx.x + i] = static_cast<uint16_t>(i);
      __syncthreads();
      const unsigned row = threadIdx.x % 16, chunk = threadIdx.x / 16;
      const unsigned stored = swizzled ? chunk ^ (row % 8) : chunk;
      const auto address = static_cast<uint32_t>(__cvta_generic_to_shared(s + 64 * row + 8 * stored));
      uint32_t r[4];
      line = __LINE__ + 1;
      ::sim::ptx::execute(
          "ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];",
          {::sim::ptx::output<'r'>(r[0]), ::sim::ptx::output<'r'>(r[1]), ::sim::ptx::output<'r'>(r[2]),
           ::sim::ptx::output<'r'>(r[3]), ::sim::ptx::input<'r'>(address)});
    });
    CHECK_MESSAGE(report.findings.empty(), kinds(report));
    const auto* w = at_line(report, line);
    REQUIRE(w != nullptr);
    CHECK(w->instructions == 1);
    CHECK(w->ideal_wavefronts == 4);
    CHECK(w->wavefronts == (swizzled ? 4 : 32));
  }
}

TEST_CASE("wavefronts: lanes that branch around an access, and several warps and iterations") {
  int line = 0;
  const Report report = run_block(64, 64 * 4, [&] {
    float* s = ::sim::dynamic_shared<float>();
    s[threadIdx.x] = 1.0f;
    __syncthreads();
    float sum = 0;
    for (int i = 0; i < 3; ++i) {
      line = __LINE__ + 1;
      if (threadIdx.x % 2 == 0) sum += s[(threadIdx.x * 2 + 8 * i) % 64];  // even lanes, stride 2: 2-way
    }
    s[threadIdx.x] = sum;
  });
  const auto* w = at_line(report, line);
  REQUIRE(w != nullptr);
  CHECK(w->instructions == 6);  // 2 warps x 3 iterations
  CHECK(w->wavefronts == 12);
  CHECK(w->ideal_wavefronts == 6);
  CHECK_FALSE(w->uneven);  // the lanes that ran it ran it equally often
}

TEST_CASE(
    "wavefronts: lanes that run an access different numbers of times are flagged, their count an estimate") {
  // Even lanes read at i = 0 and i = 1, odd lanes only at i = 1. The GPU runs i = 0 (even lanes, banks
  // l) and i = 1 (all lanes, a permutation of the banks): no conflict. Paired by count, an odd lane's only
  // read joins the even lanes' first, in the bank of its even neighbour: 2-way, an overestimate.
  int line = 0;
  const Report report = run_block(32, 64 * 4, [&] {
    float* s = ::sim::dynamic_shared<float>();
    s[threadIdx.x] = s[threadIdx.x + 32] = 1.0f;
    __syncthreads();
    float sum = 0;
    const int iterations = static_cast<int>(blockDim.x / 16);  // 2, unknown to the compiler: one load
    for (int i = 0; i < iterations; ++i) {
      const unsigned index = i == 0 ? threadIdx.x : (threadIdx.x ^ 1) + 32;
      line = __LINE__ + 1;
      if (threadIdx.x % 2 == 0 || i == 1) sum += s[index];
    }
    s[threadIdx.x] = sum;
  });
  const auto* w = at_line(report, line);
  REQUIRE(w != nullptr);
  CHECK(w->uneven);
  CHECK(w->wavefronts > w->ideal_wavefronts);  // the estimate is high, as the flag warns
}
