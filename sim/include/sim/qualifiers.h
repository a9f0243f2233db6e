// CUDA's declaration qualifiers for the host compiler: every function is a host function here, and
// a __device__ or __constant__ variable is an ordinary global.
#pragma once

#define __global__
#define __device__
#define __host__
#define __constant__
#define __grid_constant__
#define __forceinline__ __inline__ __attribute__((always_inline))
// Empty, not __attribute__((noinline)): libstdc++ writes __attribute__((__noinline__)) itself, and
// inlining changes nothing a simulated kernel computes.
#define __noinline__
#define __launch_bounds__(...)
#define __align__(n) __attribute__((aligned(n)))
#define __builtin_align__(n) __attribute__((aligned(n)))

// Managed memory is host memory a kernel can reach: refused (docs/grading.md), here even when the check
// of the source did not see the word (a macro can paste it together).
#define __managed__ sim_error_managed_memory_is_refused_kernels_may_not_share_host_memory

// sim/translate rewrites every __shared__ declaration; one it missed must not compile silently.
#define __shared__ sim_error_shared_declaration_not_rewritten_by_the_simulator_translator
