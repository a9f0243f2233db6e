// cp.async, the asynchronous copy from global to shared memory (sm_80 and later), as CUDA's
// <cuda_pipeline_primitives.h> declares it.
#pragma once
#include <cstddef>

__device__ void __pipeline_memcpy_async(void* __restrict__ dst_shared, const void* __restrict__ src_global,
                                        size_t size_and_align, size_t zfill = 0);
__device__ void __pipeline_commit();
__device__ void __pipeline_wait_prior(size_t prior);
