// Helpers shared by the translator tests. Sources are translated as the file "t.cu".
#pragma once
#include <doctest/doctest.h>

#include <algorithm>
#include <string>
#include <string_view>
#include <vector>

#include "translate.hpp"

inline constexpr std::string_view kFirstLine = "#line 1 \"t.cu\"\n";

// The translation of a source that must translate cleanly, without its first `#line 1` line.
inline std::string translated(std::string_view source) {
  sim::TranslateResult r = sim::translate_cuda(source, "t.cu");
  CHECK(r.errors.empty());
  for (const std::string& e : r.errors) MESSAGE(e);
  REQUIRE(r.code.starts_with(kFirstLine));
  return r.code.substr(kFirstLine.size());
}

inline std::vector<std::string> translation_errors(std::string_view source) {
  return sim::translate_cuda(source, "t.cu").errors;
}

inline size_t count_newlines(std::string_view text) {
  return std::count(text.begin(), text.end(), '\n');
}
