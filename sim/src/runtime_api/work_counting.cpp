// The work learner code reports for the speed estimate: the translator's count_work calls
// (sim/include/sim/work.h), and the math library functions a kernel calls that a GPU computes on its
// special-function unit (exp, log, sin, pow ...). The learner's shared object is linked with
// `-Wl,--wrap=NAME` for each function here (harness/cli/src/compile/build_commands.cpp), so that its calls
// reach __wrap_NAME in the runner, which counts and calls the math library's (the runner itself is not
// wrapped); the CUDA intrinsics of sim/include/sim/intrinsics.h (__expf ...) call these too.
#include <cmath>

#include "core/work_counters.hpp"
#include "sim/work.h"

void sim::count_work_at_runtime(unsigned operators, unsigned indexes) {
  work::count(work::Kind::ops, operators);
  work::count(work::Kind::indexes, indexes);
}

#define SIM_COUNTED_MATH(T, NAME, PARAMS, ARGS) \
  extern "C" T __wrap_##NAME PARAMS {           \
    sim::work::count(sim::work::Kind::special); \
    return ::NAME ARGS;                         \
  }
#define SIM_COUNTED_UNARY(T, NAME) SIM_COUNTED_MATH(T, NAME, (T x), (x))
#define SIM_COUNTED_BINARY(T, NAME) SIM_COUNTED_MATH(T, NAME, (T x, T y), (x, y))

SIM_COUNTED_UNARY(float, expf)
SIM_COUNTED_UNARY(float, exp2f)
SIM_COUNTED_UNARY(float, logf)
SIM_COUNTED_UNARY(float, log2f)
SIM_COUNTED_UNARY(float, log10f)
SIM_COUNTED_BINARY(float, powf)
SIM_COUNTED_UNARY(float, sinf)
SIM_COUNTED_UNARY(float, cosf)
SIM_COUNTED_UNARY(float, tanf)
SIM_COUNTED_UNARY(float, tanhf)
SIM_COUNTED_UNARY(float, erff)
SIM_COUNTED_UNARY(float, expm1f)
SIM_COUNTED_UNARY(float, log1pf)
SIM_COUNTED_BINARY(float, atan2f)
SIM_COUNTED_UNARY(double, exp)
SIM_COUNTED_UNARY(double, exp2)
SIM_COUNTED_UNARY(double, log)
SIM_COUNTED_UNARY(double, log2)
SIM_COUNTED_BINARY(double, pow)
SIM_COUNTED_UNARY(double, sin)
SIM_COUNTED_UNARY(double, cos)
SIM_COUNTED_UNARY(double, tanh)
