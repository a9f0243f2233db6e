// The PTX of the tensor-core test kernels (tests/kernels/p09, p10): the fast solutions' one copy
// (solutions/common/tensor_core_ptx.cuh), and mma.sync with B given by a pointer (b + 2: the second n8
// half of an ldmatrix.x4), as these kernels call it. The clear solutions stay standalone (a learner reads
// each alone); test kernels are not teaching material, so they share these.
#pragma once
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include <cstdint>

#include "../../solutions/common/tensor_core_ptx.cuh"

namespace {

// c += a * b: b[0], b[1] are the B fragment.
__device__ void mma_m16n8k16(float c[4], const uint32_t a[4], const uint32_t b[2]) {
  mma_bf16(*reinterpret_cast<float(*)[4]>(c), *reinterpret_cast<const uint32_t(*)[4]>(a), b[0], b[1]);
}

}  // namespace
