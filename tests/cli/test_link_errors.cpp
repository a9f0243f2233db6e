#include <doctest/doctest.h>

#include "compile/link_errors.hpp"

using namespace puzzle::cli;

namespace {
constexpr const char* kSignature = "void row_softmax(const float* x, float* y, int rows, int cols)";
}

TEST_CASE("the launcher's name comes from its signature") {
  CHECK(function_name(kSignature) == "row_softmax");
  CHECK(function_name("void  launch_attention (const float* q)") == "launch_attention");
}

TEST_CASE("a missing launcher becomes 'your file must define <signature>'") {
  const std::string ld =
      "/usr/bin/ld: libpuzzle_entry_01.a(entry.cpp.o): in function `puzzle::entry::run(...)':\n"
      "entry.cpp:(.text+0x2a): undefined reference to `row_softmax(float const*, float*, int, int)'\n"
      "collect2: error: ld returned 1 exit status\n";
  const auto message = explain_link_error(ld, kSignature);
  REQUIRE(message);
  CHECK(message->find(std::string("your file must define ") + kSignature) == 0);
}

TEST_CASE("other link errors are left as the linker wrote them") {
  CHECK_FALSE(explain_link_error("undefined reference to `cudaFooBar'", kSignature));
  CHECK_FALSE(explain_link_error("undefined reference to `row_softmax_helper(int)'", kSignature));
  CHECK_FALSE(explain_link_error("", kSignature));
}
