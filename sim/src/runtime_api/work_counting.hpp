// The work learner code reports for the speed estimate: the translator's count_work calls
// (sim/include/sim/work.h), and the math library functions a kernel calls that a GPU computes on its
// special-function unit (exp, log, sin, pow ...). The child is linked with `-Wl,--wrap=NAME` for each
// (kSpecialFunctionWraps), so that the learner's calls reach __wrap_NAME here, which counts and calls
// the real one; the CUDA intrinsics in sim/include/sim/intrinsics.h (__expf ...) call these too.
#pragma once

namespace sim {

// The linker flags that route the calls here, for the build driver.
inline constexpr const char* kSpecialFunctionWraps =
    "-Wl,--wrap=expf,--wrap=exp2f,--wrap=logf,--wrap=log2f,--wrap=log10f,--wrap=powf,--wrap=sinf,"
    "--wrap=cosf,--wrap=tanf,--wrap=tanhf,--wrap=erff,--wrap=expm1f,--wrap=log1pf,--wrap=atan2f,"
    "--wrap=exp,--wrap=exp2,--wrap=log,--wrap=log2,--wrap=pow,--wrap=sin,--wrap=cos,--wrap=tanh";

}  // namespace sim
