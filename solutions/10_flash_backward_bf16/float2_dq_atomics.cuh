// Version 4's dQ (4_float2_dq_atomics.cu): a thread's two neighbouring columns of a query row, 8-byte
// aligned, added to dq_accum by sm_90's float2 atomicAdd, one instruction instead of two. Each float is
// still added atomically on its own.
#pragma once
#include <cuda_runtime.h>

namespace {

struct Float2DqAtomics {
  static constexpr int kFloats = 2;
  static __device__ void add(float* at, const float* values) {
    atomicAdd(reinterpret_cast<float2*>(at), make_float2(values[0], values[1]));
  }
};

}  // namespace
