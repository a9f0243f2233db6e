// Kernel launches: kern<<<...>>>(...) -> ::sim::launch(...).
#include <doctest/doctest.h>

#include "translate_test_support.hpp"

TEST_CASE("a launch with two, three or four configuration arguments") {
  CHECK(translated("kern<<<G, B>>>(a, b);") ==
        R"(::sim::launch(::sim::LaunchConfig(G, B), "kern", [=]() { kern(a, b); });)");
  CHECK(translated("kern<<<G, B, S>>>(a);") ==
        R"(::sim::launch(::sim::LaunchConfig(G, B, S), "kern", [=]() { kern(a); });)");
  CHECK(translated("kern<<<G, B, S, St>>>();") ==
        R"(::sim::launch(::sim::LaunchConfig(G, B, S, St), "kern", [=]() { kern(); });)");
}

TEST_CASE("the code around a launch stays") {
  CHECK(translated("  if (n > 0) kern <<< 1,1 >>> (x); // done") ==
        R"(  if (n > 0) ::sim::launch(::sim::LaunchConfig( 1,1 ), "kern", [=]() { kern(x); }); // done)");
}

TEST_CASE("qualified and template kernels") {
  CHECK(
      translated("ns::kern<float, 256><<<g, b>>>(x);") ==
      R"(::sim::launch(::sim::LaunchConfig(g, b), "ns::kern<float, 256>", [=]() { ns::kern<float, 256>(x); });)");
  CHECK(translated("kern<BLOCK / 2><<<g, b>>>(x);") ==
        R"(::sim::launch(::sim::LaunchConfig(g, b), "kern<BLOCK / 2>", [=]() { kern<BLOCK / 2>(x); });)");
  CHECK(translated("::kern<<<1, 1>>>();") ==
        R"(::sim::launch(::sim::LaunchConfig(1, 1), "::kern", [=]() { ::kern(); });)");
  CHECK(translated("Outer<T>::template kern<(N > 2)><<<1, 1>>>();") ==
        R"(::sim::launch(::sim::LaunchConfig(1, 1), "Outer<T>::template kern<(N > 2)>", )"
        R"([=]() { Outer<T>::template kern<(N > 2)>(); });)");
  CHECK(
      translated("kern<Pair<A, Vec<int>>><<<1, 1>>>();") ==
      R"(::sim::launch(::sim::LaunchConfig(1, 1), "kern<Pair<A, Vec<int>>>", [=]() { kern<Pair<A, Vec<int>>>(); });)");
}

TEST_CASE("configuration arguments with parentheses, shifts, ternaries, calls and template-ids") {
  const char* source =
      "kern<<<(n + 255) >> 8, n > 1024 ? 1024 : dim3(n), std::min<int>(a, b) * sizeof(float), "
      "dim3{1, 2, 3}.x>>>(x);";
  CHECK(translated(source) ==
        "::sim::launch(::sim::LaunchConfig((n + 255) >> 8, n > 1024 ? 1024 : dim3(n), "
        "std::min<int>(a, b) * sizeof(float), dim3{1, 2, 3}.x), \"kern\", [=]() { kern(x); });");
}

TEST_CASE("arguments spanning lines, with lambdas, braces, strings and comments") {
  const char* source =
      "kern<<<1, 32>>>(x,\n"
      "    [](int v) { return v >> 1; },  // a lambda\n"
      "    \"a)\\\"b\", Pair{1, 2});\n"
      "next();\n";
  CHECK(translated(source) ==
        "::sim::launch(::sim::LaunchConfig(1, 32), \"kern\", [=]() { kern(x,\n"
        "    [](int v) { return v >> 1; },  // a lambda\n"
        "    \"a)\\\"b\", Pair{1, 2}); });\n"
        "next();\n");
}

TEST_CASE("a kernel expression spanning lines keeps its line breaks where it was") {
  const char* source = "kern<float,\n     256>\n<<<1, 1>>>\n(x);\ny();";
  std::string out = translated(source);
  CHECK(out ==
        "::sim::launch(::sim::LaunchConfig(\n\n1, 1), \"kern<float, 256>\", [=]() { \nkern<float, 256>(x); "
        "});\n"
        "y();");
  CHECK(count_newlines(out) == count_newlines(source));
}

TEST_CASE("a launch in a macro keeps its line splices") {
  const char* source = "#define LAUNCH(x) \\\n  kern<<<1, 1>>>(x)\nLAUNCH(p);";
  CHECK(translated(source) ==
        "#define LAUNCH(x) \\\n  ::sim::launch(::sim::LaunchConfig(1, 1), \"kern\", [=]() { kern(x); "
        "})\nLAUNCH(p);");
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
  CHECK(r.code.ends_with(R"(::sim::launch(::sim::LaunchConfig(1, 1), "b", [=]() { b(); });)"));
}
