// A puzzle's launcher, written once, in its spec.cpp:
//
//   PUZZLE_LAUNCHER(softmax::call_launcher, row_softmax, (const float* x, float* y, int rows, int cols));
//
// Everywhere it defines kLauncherSignature, "void row_softmax(const float* x, float* y, int rows, int cols)",
// for PuzzleSpec::signature (what `check` asks the learner's file to define, and what the docs test finds
// in the stub). Compiled into the puzzle's child entry (PUZZLE_CHILD_ENTRY, harness/child/CMakeLists.txt),
// it also declares the learner's function and defines puzzle_call_launcher, which calls it through the
// family's caller (puzzle::puzzles::<caller>); a caller of another signature does not compile.
#pragma once
#include <cstddef>
#include <vector>

#include "registry.hpp"

struct LaunchArgs {
  std::vector<const void*> in;  // device pointers, in the order of PuzzleSpec::inputs
  std::vector<void*> out;       // device pointers, in the order of PuzzleSpec::outputs
  puzzle::Params params;

  // Typed as the spec's BufferSpec::dtype says: float, __nv_bfloat16, __half.
  template <class T>
  const T* input(size_t k) const {
    return static_cast<const T*>(in.at(k));
  }
  template <class T>
  T* output(size_t k) const {
    return static_cast<T*>(out.at(k));
  }
  int size(const char* param) const { return static_cast<int>(params.at(param)); }
};

// Calls the learner's launcher with the arguments of its signature (defined by PUZZLE_LAUNCHER).
void puzzle_call_launcher(const LaunchArgs& args);

#define PUZZLE_LAUNCHER_SIGNATURE(name, params) \
  [[maybe_unused]] static constexpr const char* kLauncherSignature = "void " #name #params

#ifdef PUZZLE_CHILD_ENTRY
#define PUZZLE_LAUNCHER(caller, name, params)         \
  void name params;                                   \
  void puzzle_call_launcher(const LaunchArgs& args) { \
    ::puzzle::puzzles::caller(name, args);            \
  }                                                   \
  PUZZLE_LAUNCHER_SIGNATURE(name, params)
#else
#define PUZZLE_LAUNCHER(caller, name, params) PUZZLE_LAUNCHER_SIGNATURE(name, params)
#endif
