// The softmax puzzles' launchers all take (x, y, rows, cols).
#pragma once
#include "entry.hpp"

using SoftmaxLauncher = void (*)(const float* x, float* y, int rows, int cols);

inline void call_softmax_launcher(SoftmaxLauncher launcher, const LaunchArgs& args) {
  launcher(args.in.at(0), args.out.at(0), static_cast<int>(args.params.at("rows")),
           static_cast<int>(args.params.at("cols")));
}
