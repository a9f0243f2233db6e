// The speed estimate's counts of arithmetic (work_count_rewrite.hpp): what is counted where, and code that
// must still compile as it was.
#include <doctest/doctest.h>

#include "translate_test_support.hpp"

namespace {

std::string counted(std::string_view source) {
  sim::TranslateResult r = sim::translate_cuda(source, "t.cu", true);
  CHECK(r.errors.empty());
  REQUIRE(r.code.starts_with(kFirstLine));
  return r.code.substr(kFirstLine.size());
}

}  // namespace

TEST_CASE("a loop body counts its operators, a multiply and an add as one FMA; the header not at all") {
  CHECK(
      counted("__global__ void k(float* a, float s, int n) { for (int i = 0; i < n; ++i) { a[i] = a[i] * s + "
              "1; } }") ==
      "__global__ void k(float* a, float s, int n) { for (int i = 0; i < n; ++i) { ::sim::count_work(1, 2); "
      "a[i] = a[i] * s + 1; } }");
}

TEST_CASE("a function body counts what no loop of it holds") {
  CHECK(counted("__device__ float f(float x) { float y = x * x; for (;;) { y -= 1; if (y < 0) break; } "
                "return y; }") ==
        "__device__ float f(float x) { ::sim::count_work(1, 0); float y = x * x; for (;;) { "
        "::sim::count_work(2, 0); "
        "y -= 1; if (y < 0) break; } return y; }");
}

TEST_CASE("a loop with a single statement counts in its condition") {
  CHECK(counted("__global__ void k(float* a, int n) { for (int i = 0; i < n; ++i) a[i] *= 2; }") ==
        "__global__ void k(float* a, int n) { for (int i = 0; ::sim::count_work(1, 1), i < n; ++i) a[i] *= "
        "2; }");
  CHECK(counted("__global__ void k(int n) { while (n > 0) n -= 3; }") ==
        "__global__ void k(int n) { while ( ::sim::count_work(1, 0),n > 0) n -= 3; }");
  CHECK(counted("__global__ void k(float* a) { for (;;) a[0] += 1; }") ==
        "__global__ void k(float* a) { for (; ::sim::count_work(1, 1), true;) a[0] += 1; }");
}

TEST_CASE("nested loops count apart; a do-while counts in its body") {
  CHECK(counted("__global__ void k(float* a) { for (int i = 0; i < 4; ++i) { a[i] += 1; "
                "for (int j = 0; j < 4; ++j) { a[j] *= a[i]; } } do { a[0] -= 1; } while (a[0] > 0); }") ==
        "__global__ void k(float* a) { ::sim::count_work(1, 1); for (int i = 0; i < 4; ++i) { "
        "::sim::count_work(1, 1); a[i] += 1; "
        "for (int j = 0; j < 4; ++j) { ::sim::count_work(1, 2); a[j] *= a[i]; } } do { ::sim::count_work(1, "
        "1); a[0] -= 1; } "
        "while (a[0] > 0); }");
}

TEST_CASE("what it leaves alone: host functions without loops, declarations, conditions that declare") {
  CHECK(counted("void host(int n) { int m = n + 1; }") == "void host(int n) { int m = n + 1; }");
  // (the translator registers a __device__ variable after its declaration: not a count)
  const std::string table = counted("__device__ float table[4] = {1, 2, 3, 4};");
  CHECK(table.starts_with("__device__ float table[4] = {1, 2, 3, 4};"));
  CHECK(table.find("count_work") == std::string::npos);
  CHECK(counted("__device__ float f(float);") == "__device__ float f(float);");
  // A condition that declares a variable takes no count: the loop counts in the function's body.
  CHECK(counted("__global__ void k(int* p) { while (int v = *p) p += v; }") ==
        "__global__ void k(int* p) { ::sim::count_work(1, 0); while (int v = *p) p += v; }");
}

TEST_CASE("a #pragma inside a body stays on its own line, and every line keeps its number") {
  const std::string code = counted(
      "__global__ void k(float* a) {\n#pragma unroll\n  for (int i = 0; i < 4; ++i) {\n"
      "    a[i] += 1;\n  }\n}\n");
  CHECK(code.find("\n#pragma unroll\n") != std::string::npos);
  CHECK(count_newlines(code) == 6);
}

TEST_CASE("without count_work the translation is as before") {
  CHECK(translated("__global__ void k(float* a) { for (int i = 0; i < 4; ++i) { a[i] += 1; } }") ==
        "__global__ void k(float* a) { for (int i = 0; i < 4; ++i) { a[i] += 1; } }");
}
