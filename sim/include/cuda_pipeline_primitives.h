// cp.async, the asynchronous copy from global to shared memory (sm_80 and later), as CUDA's
// <cuda_pipeline_primitives.h> declares it. A copy is issued now and lands later: the simulator
// performs it only when the issuing thread's __pipeline_wait_prior covers its batch, so a kernel that
// reads the destination earlier (or from another thread without a wait and a barrier) sees the old
// contents, as a GPU may, every time.
#pragma once
#include <cstddef>
#include <source_location>

// Copies size_and_align bytes (4, 8 or 16; both addresses aligned to it) from global src to shared dst;
// the last zfill bytes are written as zeros instead of read.
void __pipeline_memcpy_async(void* dst_shared, const void* src_global, size_t size_and_align,
                             size_t zfill = 0, std::source_location where = std::source_location::current());
// Closes the batch of copies this thread issued since its last commit.
void __pipeline_commit();
// Waits until all but the `prior` most recent committed batches of this thread have landed.
void __pipeline_wait_prior(size_t prior);
