// The simulator's source translator: turns a learner's CUDA file into C++ that g++ accepts against
// sim/include. It rewrites only what g++ cannot parse:
//   kern<<<G, B, S, St>>>(ARGS)  ->  ::sim::launch(::sim::LaunchConfig(G, B, S, St), "kern", [=]() {
//   kern(ARGS); })
//   __shared__ / extern __shared__ declarations  ->  the forms described in sim/include/sim/shared.h
// and, with `count_work`, inserts the speed estimate's counts of arithmetic (work_count_rewrite.hpp).
// Every original line keeps its number (the output starts with `#line 1 "path"`), so compiler errors and
// std::source_location point at the learner's file.
#pragma once
#include <string>
#include <string_view>
#include <vector>

namespace sim {

struct TranslateResult {
  std::string code;
  std::vector<std::string> errors;  // "path:line:col: error: msg"; the code is not usable when non-empty
};

TranslateResult translate_cuda(std::string_view source, std::string_view path, bool count_work = false);

}  // namespace sim
