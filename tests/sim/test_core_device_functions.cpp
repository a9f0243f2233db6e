// Vector types, min/max, and the math, conversion and integer intrinsics.
#include <cuda_runtime.h>
#include <doctest/doctest.h>
#include <math_constants.h>

#include <cmath>
#include <cstdint>
#include <initializer_list>
#include <type_traits>

static_assert(sizeof(float4) == 16 && alignof(float4) == 16);
static_assert(sizeof(float2) == 8 && alignof(float2) == 8);
static_assert(sizeof(float3) == 12 && alignof(float3) == 4);
static_assert(sizeof(char3) == 3 && alignof(char2) == 2 && alignof(uchar4) == 4);
static_assert(alignof(short4) == 8 && alignof(int2) == 8 && alignof(int4) == 16);
static_assert(alignof(double2) == 16 && alignof(double3) == 8 && alignof(double4) == 16);
static_assert(alignof(longlong2) == 16 && alignof(double4_32a) == 32);
static_assert(std::is_same_v<decltype(min(1, 2u)), unsigned int>);
static_assert(std::is_same_v<decltype(max(1.0f, 2.0)), double>);
static_assert(std::is_same_v<decltype(min(1ll, 2ll)), long long>);

TEST_CASE("dim3 and make_* behave as in CUDA") {
  const dim3 d(7);
  CHECK(d.y == 1);
  CHECK(d.z == 1);
  const uint3 u = dim3(1, 2, 3);
  CHECK(u.z == 3);
  const float4 f = make_float4(1, 2, 3, 4);
  CHECK(f.w == 4.0f);
  CHECK(make_int2(5, 6).y == 6);
}

TEST_CASE("min and max over mixed types, as CUDA declares them") {
  CHECK(min(-1, 2u) == 2u);  // CUDA converts to unsigned
  CHECK(max(3, 4) == 4);
  CHECK(min(2.5f, 1.5f) == 1.5f);
  CHECK(max(NAN, 1.0f) == 1.0f);  // fmaxf
  CHECK(umin(5u, 3u) == 3u);
  CHECK(llmax(-5ll, 3ll) == 3ll);
}

TEST_CASE("fast-math intrinsics are close to the precise functions, like the GPU's") {
  for (float x : {-10.0f, -1.0f, 0.0f, 0.5f, 3.0f, 20.0f}) {
    CHECK(__expf(x) == doctest::Approx(std::exp(x)).epsilon(1e-5));
    CHECK(__exp10f(x / 10) == doctest::Approx(std::pow(10.0f, x / 10)).epsilon(1e-5));
    CHECK(__sinf(x) == doctest::Approx(std::sin(x)).epsilon(1e-5));
  }
  CHECK(__logf(10.0f) == doctest::Approx(std::log(10.0f)).epsilon(1e-6));
  CHECK(__powf(2.0f, 10.0f) == doctest::Approx(1024.0f).epsilon(1e-5));
  CHECK(__fdividef(1.0f, 4.0f) == 0.25f);
  CHECK(__fdividef(1.0f, 0x1p127f) == 0.0f);  // the approximate reciprocal underflows
  CHECK(std::isnan(__fdividef(INFINITY, 0x1p127f)));
  CHECK(rsqrtf(4.0f) == 0.5f);
  CHECK(__saturatef(1.5f) == 1.0f);
  CHECK(__saturatef(-0.5f) == 0.0f);
  CHECK(__saturatef(NAN) == 0.0f);
  CHECK(__fmaf_rn(2.0f, 3.0f, 1.0f) == 7.0f);
  CHECK(std::isinf(CUDART_INF_F));
  CHECK(std::isnan(CUDART_NAN_F));
  CHECK(CUDART_PI_F == doctest::Approx(3.14159265f));
}

TEST_CASE("ex2.approx as inline PTX: 2^x; .ftz reads and writes subnormals as zero") {
  const float in[] = {-3.0f, 0.0f, 0.5f, 10.0f, -INFINITY, 0x1p-140f, -130.0f};
  float ftz[7], plain[7];
  float* f = ftz;
  float* p = plain;
  const float* x = in;
  ::sim::launch(::sim::LaunchConfig(1, 7), "ex2", [=]() {
    const int i = threadIdx.x;
    ::sim::ptx::execute("ex2.approx.ftz.f32 %0, %1;",
                        {::sim::ptx::output<'f'>(f[i]), ::sim::ptx::input<'f'>(x[i])});
    ::sim::ptx::execute("ex2.approx.f32 %0, %1;",
                        {::sim::ptx::output<'f'>(p[i]), ::sim::ptx::input<'f'>(x[i])});
  });
  CHECK(ftz[0] == 0.125f);
  CHECK(ftz[1] == 1.0f);
  CHECK(ftz[2] == doctest::Approx(std::sqrt(2.0f)).epsilon(1e-6));
  CHECK(ftz[3] == 1024.0f);
  CHECK(ftz[4] == 0.0f);                      // the softmax's masked scores
  CHECK(ftz[5] == 1.0f);                      // a subnormal input reads as 0
  CHECK(ftz[6] == 0.0f);                      // 2^-130 is subnormal: flushed
  CHECK(plain[6] == std::ldexp(1.0f, -130));  // kept without .ftz
}

TEST_CASE("float-to-integer conversions round as asked and saturate") {
  CHECK(__float2int_rn(2.5f) == 2);
  CHECK(__float2int_rn(3.5f) == 4);
  CHECK(__float2int_rz(-2.7f) == -2);
  CHECK(__float2int_ru(2.1f) == 3);
  CHECK(__float2int_rd(-2.1f) == -3);
  CHECK(__float2int_rn(1e20f) == 2147483647);
  CHECK(__float2int_rn(-1e20f) == -2147483647 - 1);
  CHECK(__float2int_rn(NAN) == 0);
  CHECK(__float2uint_rn(-5.0f) == 0u);
  CHECK(__double2ll_rz(-1e30) == INT64_MIN);
  CHECK(__int2float_rn(16777217) == 16777216.0f);
  CHECK(__float_as_int(1.0f) == 0x3f800000);
  CHECK(__int_as_float(0x40000000) == 2.0f);
  CHECK(__double_as_longlong(1.0) == 0x3ff0000000000000ll);
  CHECK(__hiloint2double(__double2hiint(3.25), __double2loint(3.25)) == 3.25);
}

TEST_CASE("integer intrinsics") {
  CHECK(__clz(0) == 32);
  CHECK(__clz(1) == 31);
  CHECK(__clzll(1ll) == 63);
  CHECK(__popc(0xF0F0u) == 8);
  CHECK(__ffs(0) == 0);
  CHECK(__ffs(8) == 4);
  CHECK(__brev(1u) == 0x80000000u);
  CHECK(__brev(0x12345678u) == 0x1E6A2C48u);
  CHECK(__brevll(1ull) == 0x8000000000000000ull);
  CHECK(__mul24(0x00FFFFFF, 2) == -2);  // 24-bit operands are signed
  CHECK(__umul24(0x01000003u, 2u) == 6u);
  CHECK(__umulhi(0x80000000u, 4u) == 2u);
  CHECK(__mulhi(-2, 0x40000000) == -1);
  CHECK(__umul64hi(1ull << 63, 4ull) == 2ull);
  CHECK(__byte_perm(0x33221100u, 0x77665544u, 0x5410) == 0x55441100u);
  CHECK(__funnelshift_l(0x80000000u, 0x1u, 1) == 0x3u);
  CHECK(__funnelshift_r(0x2u, 0x1u, 1) == 0x80000001u);
  CHECK(__funnelshift_lc(0x1u, 0x2u, 40) == 0x1u);
  CHECK(__hadd(0x7fffffff, 1) == 0x40000000);
  CHECK(__sad(-3, 4, 10u) == 17u);
}
