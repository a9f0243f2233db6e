// CUDA's atomic functions on global and shared memory. They are implemented in the runtime (atomic
// across host threads), report their access to the memory checker, and return the old value.
#pragma once
#include <source_location>

#include "../vector_types.h"

#define SIM_ATOMIC(name, T) \
  T name(T* address, T val, std::source_location where = std::source_location::current());

SIM_ATOMIC(atomicAdd, int)
SIM_ATOMIC(atomicAdd, unsigned int)
SIM_ATOMIC(atomicAdd, unsigned long long)
SIM_ATOMIC(atomicAdd, float)
SIM_ATOMIC(atomicAdd, double)
// sm_90's vector adds (the simulator models an H100): each element is added atomically, the vector as a
// whole is not one atomic access; the address must be aligned to the vector's size.
SIM_ATOMIC(atomicAdd, float2)
SIM_ATOMIC(atomicAdd, float4)
SIM_ATOMIC(atomicSub, int)
SIM_ATOMIC(atomicSub, unsigned int)
SIM_ATOMIC(atomicExch, int)
SIM_ATOMIC(atomicExch, unsigned int)
SIM_ATOMIC(atomicExch, unsigned long long)
SIM_ATOMIC(atomicExch, float)
SIM_ATOMIC(atomicMin, int)
SIM_ATOMIC(atomicMin, unsigned int)
SIM_ATOMIC(atomicMin, long long)
SIM_ATOMIC(atomicMin, unsigned long long)
SIM_ATOMIC(atomicMax, int)
SIM_ATOMIC(atomicMax, unsigned int)
SIM_ATOMIC(atomicMax, long long)
SIM_ATOMIC(atomicMax, unsigned long long)
SIM_ATOMIC(atomicAnd, int)
SIM_ATOMIC(atomicAnd, unsigned int)
SIM_ATOMIC(atomicAnd, unsigned long long)
SIM_ATOMIC(atomicOr, int)
SIM_ATOMIC(atomicOr, unsigned int)
SIM_ATOMIC(atomicOr, unsigned long long)
SIM_ATOMIC(atomicXor, int)
SIM_ATOMIC(atomicXor, unsigned int)
SIM_ATOMIC(atomicXor, unsigned long long)
// ((old >= val) ? 0 : old + 1) and (((old == 0) || (old > val)) ? val : old - 1).
SIM_ATOMIC(atomicInc, unsigned int)
SIM_ATOMIC(atomicDec, unsigned int)

#undef SIM_ATOMIC

#define SIM_ATOMIC_CAS(T) \
  T atomicCAS(T* address, T compare, T val, std::source_location where = std::source_location::current());
SIM_ATOMIC_CAS(int)
SIM_ATOMIC_CAS(unsigned int)
SIM_ATOMIC_CAS(unsigned short)
SIM_ATOMIC_CAS(unsigned long long)
#undef SIM_ATOMIC_CAS
