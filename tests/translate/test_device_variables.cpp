// __device__ and __constant__ variables at namespace scope -> registered with the simulator, so that
// kernels may reach them and host code that names a writable one is a finding.
#include <doctest/doctest.h>

#include "translate_test_support.hpp"

namespace {

std::string registration(const std::string& name) {
  return " static const bool " + name + "__registered = ::sim::register_device_variable(" + name + ", \"" +
         name + "\");";
}

}  // namespace

TEST_CASE("a __device__ or __constant__ variable is registered after its declaration, on its line") {
  CHECK(translated("__device__ float staged[1 << 16];\n") ==
        "__device__ float staged[1 << 16];" + registration("staged") + "\n");
  CHECK(translated("static __constant__ float w[4] = {1, 2, 3, 4};\n") ==
        "static __constant__ float w[4] = {1, 2, 3, 4};" + registration("w") + "\n");
  CHECK(translated("__device__ __align__(16) int count{0};\n") ==
        "__device__ __align__(16) int count{0};" + registration("count") + "\n");
  CHECK(translated("__device__ const float scale = 2.0f;\n") ==
        "__device__ const float scale = 2.0f;" + registration("scale") + "\n");
  CHECK(translated("namespace n {\n__device__ std::array<float, 4> v;\n}\n") ==
        "namespace n {\n__device__ std::array<float, 4> v;" + registration("v") + "\n}\n");
  CHECK(translated("__device__ float total;\n__device__ float answer[2 * 3] =\n    {};\n") ==
        "__device__ float total;" + registration("total") + "\n__device__ float answer[2 * 3] =\n    {};" +
            registration("answer") + "\n");
}

TEST_CASE("functions, extern declarations, templates and locals are left alone") {
  for (const char* source : {
           "__device__ float half(float v) { return v / 2; }\n",
           "__host__ __device__ inline float twice(float v);\n",
           "static __device__ __forceinline__ float f(float v) { return v; }\n",
           "extern __device__ float staged[];\n",
           "template <int N> __device__ float table[N];\n",
           "__global__ void k() { __device__ static int n; }\n",
           "auto f = [] __device__(int v) { return v; };\n",
       }) {
    CHECK(translated(source) == source);
  }
}

TEST_CASE("a declaration of several variables is an error naming the fix") {
  const std::vector<std::string> errors = translation_errors("__device__ float a[4], b[4];\n");
  REQUIRE(errors.size() == 1);
  CHECK(errors[0].find("one __device__ or __constant__ variable per declaration") != std::string::npos);
}
