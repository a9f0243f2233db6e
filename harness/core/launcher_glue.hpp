// The glue linked into the learner's shared object (harness/core/CMakeLists.txt generates one source per
// puzzle: this header, then the PUZZLE_LAUNCHER statement of its spec.cpp). It declares the launcher as the
// signature says and exports its address under one plain name, so that the runner, which loads the object
// only after it has taken its session key, finds the launcher without guessing a mangled name. A file
// whose launcher has another signature leaves the glue's reference undefined: the build says so.
#pragma once
#include "dtype.hpp"

#define PUZZLE_LAUNCHER(caller, name, params)                                         \
  void name params;                                                                   \
  extern "C" __attribute__((visibility("default"))) void* puzzle_launcher_address() { \
    return reinterpret_cast<void*>(&name);                                            \
  }
