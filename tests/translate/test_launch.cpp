// Kernel launches: kern<<<...>>>(...) -> ::sim::launch(...).
#include <doctest/doctest.h>

#include "translate_test_support.hpp"

namespace {

// What a launch becomes: its arguments (", a, b") evaluated once, by the host.
std::string launch(const std::string& config, const std::string& kernel, const std::string& arguments) {
  return "::sim::launch_with_arguments(::sim::LaunchConfig(" + config + "), \"" + kernel +
         "\", [=](const auto&... sim_args) { " + kernel + "(sim_args...); }" + arguments + ")";
}

}  // namespace

TEST_CASE("a launch with two, three or four configuration arguments") {
  CHECK(translated("kern<<<G, B>>>(a, b);") == launch("G, B", "kern", ", a, b") + ";");
  CHECK(translated("kern<<<G, B, S>>>(a);") == launch("G, B, S", "kern", ", a") + ";");
  CHECK(translated("kern<<<G, B, S, St>>>();") == launch("G, B, S, St", "kern", "") + ";");
}

TEST_CASE("the code around a launch stays") {
  CHECK(translated("  if (n > 0) kern <<< 1,1 >>> (x); // done") ==
        "  if (n > 0) " + launch(" 1,1 ", "kern", ", x") + "; // done");
}

TEST_CASE("qualified and template kernels") {
  CHECK(translated("ns::kern<float, 256><<<g, b>>>(x);") ==
        launch("g, b", "ns::kern<float, 256>", ", x") + ";");
  CHECK(translated("kern<BLOCK / 2><<<g, b>>>(x);") == launch("g, b", "kern<BLOCK / 2>", ", x") + ";");
  CHECK(translated("::kern<<<1, 1>>>();") == launch("1, 1", "::kern", "") + ";");
  CHECK(translated("Outer<T>::template kern<(N > 2)><<<1, 1>>>();") ==
        launch("1, 1", "Outer<T>::template kern<(N > 2)>", "") + ";");
  CHECK(translated("kern<Pair<A, Vec<int>>><<<1, 1>>>();") ==
        launch("1, 1", "kern<Pair<A, Vec<int>>>", "") + ";");
}

TEST_CASE("a lone 0 or NULL argument converts to a null pointer or a zero, whichever the parameter is") {
  CHECK(translated("kern<<<1, 1>>>(x, 0, NULL, 0.5f);") ==
        launch("1, 1", "kern", ", x, ::sim::zero_argument, ::sim::zero_argument, 0.5f") + ";");
}

TEST_CASE("with a braced-list argument, which has no type to keep, each simulated thread evaluates them") {
  CHECK(translated("kern<<<1, 1>>>(x, {1, 2});") ==
        R"(::sim::launch(::sim::LaunchConfig(1, 1), "kern", [=]() { kern(x, {1, 2}); });)");
}

TEST_CASE("configuration arguments with parentheses, shifts, ternaries, calls and template-ids") {
  const char* source =
      "kern<<<(n + 255) >> 8, n > 1024 ? 1024 : dim3(n), std::min<int>(a, b) * sizeof(float), "
      "dim3{1, 2, 3}.x>>>(x);";
  CHECK(translated(source) ==
        launch(
            "(n + 255) >> 8, n > 1024 ? 1024 : dim3(n), std::min<int>(a, b) * sizeof(float), dim3{1, 2, 3}.x",
            "kern", ", x") +
            ";");
}

TEST_CASE("arguments spanning lines, with lambdas, braces, strings and comments") {
  const char* source =
      "kern<<<1, 32>>>(x,\n"
      "    [](int v) { return v >> 1; },  // a lambda\n"
      "    \"a)\\\"b\", Pair{1, 2});\n"
      "next();\n";
  CHECK(translated(source) == launch("1, 32", "kern",
                                     ", x,\n"
                                     "    [](int v) { return v >> 1; },  // a lambda\n"
                                     "    \"a)\\\"b\", Pair{1, 2}") +
                                  ";\n"
                                  "next();\n");
}

TEST_CASE("a kernel expression spanning lines keeps its line breaks where it was") {
  const char* source = "kern<float,\n     256>\n<<<1, 1>>>\n(x);\ny();";
  std::string out = translated(source);
  CHECK(
      out ==
      "::sim::launch_with_arguments(::sim::LaunchConfig(\n\n1, 1), \"kern<float, 256>\", [=](const auto&... "
      "sim_args) { \nkern<float, 256>(sim_args...); }, x);\n"
      "y();");
  CHECK(count_newlines(out) == count_newlines(source));
}

TEST_CASE("a launch in a macro keeps its line splices") {
  const char* source = "#define LAUNCH(x) \\\n  kern<<<1, 1>>>(x)\nLAUNCH(p);";
  CHECK(translated(source) == "#define LAUNCH(x) \\\n  " + launch("1, 1", "kern", ", x") + "\nLAUNCH(p);");
}

TEST_CASE("shifts, nested templates and <<< in literals and comments are not launches") {
  const char* source =
      "int a = b << 2, c = x >> 2;\n"
      "std::vector<std::vector<int>> v;\n"
      "std::vector<std::vector<std::vector<int>>> w;\n"
      "const char* s = \"kern<<<1, 1>>>(x);\";\n"
      "const char* r = R\"(kern<<<1, 1>>>(x);)\";\n"
      "char lt = '<';\n"
      "// kern<<<1, 1>>>(x);\n"
      "/* kern<<<1, 1>>>(x); */\n"
      "std::ostream& o = operator<<<int>(std::cout, 1);\n";
  CHECK(translated(source) == source);
}

TEST_CASE("malformed launches are errors at the launch") {
  CHECK(translation_errors("void f() {\n  kern<<<1, 1(x);\n}") ==
        std::vector<std::string>{"t.cu:2:7: error: '<<<' without a matching '>>>'"});
  CHECK(translation_errors("kern<<<1, 1>>>;") ==
        std::vector<std::string>{"t.cu:1:12: error: expected '(' with the kernel arguments after '>>>'"});
  CHECK(translation_errors("kern<<<1, 1>>>(x;\n}") ==
        std::vector<std::string>{"t.cu:1:15: error: unbalanced '(' in the kernel arguments"});
  CHECK(translation_errors("(k)<<<1, 1>>>(x);") ==
        std::vector<std::string>{"t.cu:1:4: error: expected a kernel name before '<<<'"});
  CHECK(translation_errors("#define L kern<<<1, 1\nL>>>(x);") ==
        std::vector<std::string>{"t.cu:1:15: error: '<<<' without a matching '>>>'"});
}

TEST_CASE("a malformed launch leaves the rest of the file translated") {
  sim::TranslateResult r = sim::translate_cuda("a<<<1;\nb<<<1, 1>>>();", "t.cu");
  CHECK(r.errors.size() == 1);
  CHECK(r.code.ends_with(launch("1, 1", "b", "") + ";"));
}
