// __shared__ declarations -> per-block storage from sim/include/sim/shared.h.
#include <doctest/doctest.h>

#include "translate_test_support.hpp"

namespace {

// Translates `declaration` as the second line of a function body and returns that line.
std::string in_function(const std::string& declaration) {
  std::string out = translated("__global__ void k() {\n" + declaration + "\n}\n");
  REQUIRE(out.starts_with("__global__ void k() {\n"));
  REQUIRE(out.ends_with("\n}\n"));
  return out.substr(22, out.size() - 22 - 3);
}

}  // namespace

TEST_CASE("__shared__ arrays and scalars in a function body") {
  CHECK(
      in_function("  __shared__ float tile[32][33];") ==
      R"(  static ::sim::SharedSite tile__site_2{"tile", 2}; auto& tile = ::sim::shared_var<float[32][33]>(tile__site_2);)");
  CHECK(
      in_function("__shared__ float total;") ==
      R"(static ::sim::SharedSite total__site_2{"total", 2}; auto& total = ::sim::shared_var<float>(total__site_2);)");
  CHECK(
      in_function("__shared__ float a[32], b[2 * 32];") ==
      R"(static ::sim::SharedSite a__site_2{"a", 2}; auto& a = ::sim::shared_var<float[32]>(a__site_2); )"
      R"(static ::sim::SharedSite b__site_2{"b", 2}; auto& b = ::sim::shared_var<float[2 * 32]>(b__site_2);)");
  const std::string count =
      R"(static ::sim::SharedSite count__site_2{"count", 2}; auto& count = ::sim::shared_var<int>(count__site_2);)";
  CHECK(in_function("static __shared__ int count;") == count);
  CHECK(in_function("__device__ __shared__ int count;") == count);
}

TEST_CASE("a size with a '>' is parenthesized, so that it cannot end the template argument list") {
  CHECK(in_function("__shared__ float s[N > 2 ? N : 2][N >> 1];") ==
        R"(static ::sim::SharedSite s__site_2{"s", 2}; )"
        R"(auto& s = ::sim::shared_var<float[(N > 2 ? N : 2)][(N >> 1)]>(s__site_2);)");
}

TEST_CASE("__shared__ types: template-dependent sizes, qualified, template and multi-word types") {
  CHECK(
      in_function("__shared__ T partial[BLOCK];") ==
      R"(static ::sim::SharedSite partial__site_2{"partial", 2}; auto& partial = ::sim::shared_var<T[BLOCK]>(partial__site_2);)");
  CHECK(in_function("__shared__ typename Traits<T>::type buf[N * 2];") ==
        R"(static ::sim::SharedSite buf__site_2{"buf", 2}; )"
        R"(auto& buf = ::sim::shared_var<typename Traits<T>::type[N * 2]>(buf__site_2);)");
  CHECK(in_function("__shared__ Reduce<float, Pair<4, 8>>::Storage storage;") ==
        R"(static ::sim::SharedSite storage__site_2{"storage", 2}; )"
        R"(auto& storage = ::sim::shared_var<Reduce<float, Pair<4, 8>>::Storage>(storage__site_2);)");
  CHECK(
      in_function("__shared__ unsigned int hist[256];") ==
      R"(static ::sim::SharedSite hist__site_2{"hist", 2}; auto& hist = ::sim::shared_var<unsigned int[256]>(hist__site_2);)");
  CHECK(in_function("__shared__ float4 v;") ==
        R"(static ::sim::SharedSite v__site_2{"v", 2}; auto& v = ::sim::shared_var<float4>(v__site_2);)");
  CHECK(
      in_function("__shared__ float* rows[4], *last;") ==
      R"(static ::sim::SharedSite rows__site_2{"rows", 2}; auto& rows = ::sim::shared_var<float*[4]>(rows__site_2); )"
      R"(static ::sim::SharedSite last__site_2{"last", 2}; auto& last = ::sim::shared_var<float*>(last__site_2);)");
}

TEST_CASE("__shared__ alignment is the second argument of shared_var") {
  CHECK(
      in_function("__shared__ __align__(16) float x[64];") ==
      R"(static ::sim::SharedSite x__site_2{"x", 2}; auto& x = ::sim::shared_var<float[64]>(x__site_2, 16);)");
  CHECK(in_function("__shared__ alignas(sizeof(float4)) float x[64];") ==
        R"(static ::sim::SharedSite x__site_2{"x", 2}; )"
        R"(auto& x = ::sim::shared_var<float[64]>(x__site_2, sizeof(float4));)");
  CHECK(
      in_function("alignas(16) __shared__ float x[64];") ==
      R"(static ::sim::SharedSite x__site_2{"x", 2}; auto& x = ::sim::shared_var<float[64]>(x__site_2, 16);)");
}

TEST_CASE("volatile stays in the type") {
  const std::string expected =
      R"(static ::sim::SharedSite s__site_2{"s", 2}; auto& s = ::sim::shared_var<volatile float[64]>(s__site_2);)";
  CHECK(in_function("volatile __shared__ float s[64];") == expected);
  CHECK(in_function("__shared__ volatile float s[64];") == expected);
}

TEST_CASE("extern __shared__ is the block's dynamic shared memory") {
  CHECK(in_function("extern __shared__ float buf[];") ==
        "float* const buf = ::sim::dynamic_shared<float>();");
  CHECK(in_function("extern __shared__ __align__(16) unsigned char smem[];") ==
        "unsigned char* const smem = ::sim::dynamic_shared<unsigned char>();");
  CHECK(in_function("extern __shared__ alignas(16) float4 v[], w[];") ==
        "float4* const v = ::sim::dynamic_shared<float4>(); float4* const w = "
        "::sim::dynamic_shared<float4>();");
  CHECK(in_function("extern volatile __shared__ int flags[];") ==
        "volatile int* const flags = ::sim::dynamic_shared<volatile int>();");
}

TEST_CASE("a declaration over several lines keeps its line breaks, and each site its name's line") {
  std::string out = translated("void k() {\n  __shared__ float\n    a[32],\n    b[32];\n  a[0] = b[0];\n}\n");
  CHECK(out ==
        "void k() {\n"
        R"(  static ::sim::SharedSite a__site_3{"a", 3}; auto& a = ::sim::shared_var<float[32]>(a__site_3); )"
        R"(static ::sim::SharedSite b__site_4{"b", 4}; auto& b = ::sim::shared_var<float[32]>(b__site_4);)"
        "\n\n\n  a[0] = b[0];\n}\n");
}

TEST_CASE("__shared__ at namespace scope becomes a macro, then #line resyncs") {
  CHECK(translated("__shared__ float table[256];\n__global__ void k() { table[0] = 1; }\n") ==
        R"(static ::sim::SharedSite table__site_1{"table", 1};)"
        "\n#define table (::sim::shared_var<float[256]>(table__site_1))\n"
        "#line 1 \"t.cu\"\n"
        "\n__global__ void k() { table[0] = 1; }\n");
  CHECK(translated("namespace ns {\nextern __shared__ float dyn[];  // note\n}\n") ==
        "namespace ns {\n"
        "\n#define dyn (::sim::dynamic_shared<float>())\n"
        "#line 2 \"t.cu\"\n"
        "  // note\n}\n");
  CHECK(
      translated("extern \"C\" { __shared__ __align__(8) int a[2],\n  b; }") ==
      R"(extern "C" { static ::sim::SharedSite a__site_1{"a", 1}; static ::sim::SharedSite b__site_2{"b", 2};)"
      "\n#define a (::sim::shared_var<int[2]>(a__site_1, 8))"
      "\n#define b (::sim::shared_var<int>(b__site_2, 8))\n"
      "#line 2 \"t.cu\"\n"
      " }");
}

TEST_CASE("function bodies are told from namespaces, classes and #if branches") {
  const char* function_form = "auto& x = ";
  const char* namespace_form = "#define x ";
  auto form_of = [&](const std::string& before) {
    std::string out = translated(before + "__shared__ float x[2];\n");
    return out.find(function_form) != std::string::npos    ? function_form
           : out.find(namespace_form) != std::string::npos ? namespace_form
                                                           : "neither";
  };
  CHECK(form_of("namespace a::b { inline namespace v1 {\n") == namespace_form);
  CHECK(form_of("namespace {\n") == namespace_form);
  CHECK(form_of("void f() {}\nstruct S { int y[2] = {1, 2}; };\n") == namespace_form);
  CHECK(form_of("struct S {\n  __device__ void f() {\n") == function_form);
  CHECK(form_of("namespace n { template <int N> __global__ void k() {\n") == function_form);
  CHECK(form_of("void f() { auto g = [&] {\n") == function_form);
  CHECK(form_of("#if A\nvoid f(int a) {\n#elif B\nvoid f(long a) {\n#else\nvoid f() {\n#endif\n") ==
        function_form);
  CHECK(form_of("#ifdef A\nvoid f(int a) {\n#else\nvoid f() {\n#endif\n}\n") == namespace_form);
}

TEST_CASE("__shared__ in comments, strings, raw strings and char literals is left alone") {
  const char* source =
      "// __shared__ float a[4];\n"
      "/* __shared__ float b[4]; */\n"
      "const char* s = \"__shared__ float c[4];\";\n"
      "const char* r = R\"x(__shared__ float d[4];)x\";\n"
      "int m = '__shared__';\n"
      "int __shared__count = 0;\n";
  CHECK(translated(source) == source);
}

TEST_CASE("__shared__ declarations that cannot be translated are errors") {
  auto error_of = [](const std::string& declaration) {
    std::vector<std::string> errors = translation_errors("void k() {\n  " + declaration + "\n}\n");
    REQUIRE(errors.size() == 1);
    return errors[0];
  };
  const std::string prefix = "error: cannot translate this __shared__ declaration: ";
  CHECK(error_of("__shared__ float x[4] = {0};") ==
        "t.cu:2:25: " + prefix + "a __shared__ variable cannot have an initializer");
  CHECK(error_of("__shared__ float x[];") ==
        "t.cu:2:20: " + prefix +
            "a __shared__ array needs a size (dynamic shared memory is extern __shared__)");
  CHECK(error_of("extern __shared__ float x[32];") ==
        "t.cu:2:27: " + prefix +
            "extern __shared__ declares dynamic shared memory: write `extern __shared__ T x[];`");
  CHECK(error_of("float __shared__ x[4];") ==
        "t.cu:2:9: " + prefix + "__shared__ must start the declaration, before the type");
  CHECK(error_of("__shared__ float (*p)[4];") ==
        "t.cu:2:14: " + prefix + "expected a type and a variable name");
  CHECK(error_of("__shared__ float x[4] __align__(16);") ==
        "t.cu:2:25: " + prefix + "expected ',' or ';' after the variable");
  CHECK(error_of("__shared__ float __align__(16) x[4];") ==
        "t.cu:2:20: " + prefix + "write __align__ before the type");
  CHECK(error_of("__shared__ float& r;") ==
        "t.cu:2:19: " + prefix + "a __shared__ variable cannot be a reference");
  CHECK(error_of("__shared__ x;") == "t.cu:2:14: " + prefix + "expected a type before the variable name");
  CHECK(translation_errors("#define DECLARE __shared__ float x[4]\n") ==
        std::vector<std::string>{"t.cu:1:17: error: __shared__ in a macro is not supported by the simulator: "
                                 "declare the variable directly"});
}
