// Warp-level intrinsics with CUDA's semantics (sm_70 and later: independent thread scheduling).
// A lane waits until every lane named in its mask has arrived at a warp collective or exited.
#pragma once
#include <source_location>

#include "device_launch_parameters.h"

#define SIM_HERE std::source_location where = std::source_location::current()

#define SIM_SHUFFLES(T)                                                                         \
  T __shfl_sync(unsigned mask, T var, int srcLane, int width = warpSize, SIM_HERE);             \
  T __shfl_up_sync(unsigned mask, T var, unsigned int delta, int width = warpSize, SIM_HERE);   \
  T __shfl_down_sync(unsigned mask, T var, unsigned int delta, int width = warpSize, SIM_HERE); \
  T __shfl_xor_sync(unsigned mask, T var, int laneMask, int width = warpSize, SIM_HERE);
#define SIM_MATCHES(T)                                             \
  unsigned int __match_any_sync(unsigned mask, T value, SIM_HERE); \
  unsigned int __match_all_sync(unsigned mask, T value, int* pred, SIM_HERE);
#define SIM_FOR_EACH_WARP_TYPE(F) \
  F(int) F(unsigned int) F(long) F(unsigned long) F(long long) F(unsigned long long) F(float) F(double)

SIM_FOR_EACH_WARP_TYPE(SIM_SHUFFLES)
SIM_FOR_EACH_WARP_TYPE(SIM_MATCHES)

unsigned int __ballot_sync(unsigned mask, int predicate, SIM_HERE);
int __any_sync(unsigned mask, int predicate, SIM_HERE);
int __all_sync(unsigned mask, int predicate, SIM_HERE);
void __syncwarp(unsigned mask = 0xffffffffU, SIM_HERE);
// The lanes of the warp that reach this call together: the simulator lets the other lanes of the
// warp run until they wait or exit, then groups the lanes waiting here.
unsigned int __activemask(SIM_HERE);

unsigned int __reduce_add_sync(unsigned mask, unsigned int value, SIM_HERE);
unsigned int __reduce_min_sync(unsigned mask, unsigned int value, SIM_HERE);
unsigned int __reduce_max_sync(unsigned mask, unsigned int value, SIM_HERE);
int __reduce_add_sync(unsigned mask, int value, SIM_HERE);
int __reduce_min_sync(unsigned mask, int value, SIM_HERE);
int __reduce_max_sync(unsigned mask, int value, SIM_HERE);
unsigned int __reduce_and_sync(unsigned mask, unsigned int value, SIM_HERE);
unsigned int __reduce_or_sync(unsigned mask, unsigned int value, SIM_HERE);
unsigned int __reduce_xor_sync(unsigned mask, unsigned int value, SIM_HERE);

#undef SIM_SHUFFLES
#undef SIM_MATCHES
#undef SIM_FOR_EACH_WARP_TYPE
#undef SIM_HERE
