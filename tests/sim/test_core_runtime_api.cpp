// The runtime API besides memory: errors, the device, kernel attributes, occupancy, streams, events.
#include <cuda_runtime.h>
#include <doctest/doctest.h>

#include <string>

TEST_CASE("error codes have CUDA's values, names and messages") {
  CHECK(cudaErrorInvalidValue == 1);
  CHECK(cudaErrorMemoryAllocation == 2);
  CHECK(cudaErrorInitializationError == 3);
  CHECK(cudaErrorInvalidConfiguration == 9);
  CHECK(cudaErrorInvalidDevicePointer == 17);
  CHECK(cudaErrorInvalidMemcpyDirection == 21);
  CHECK(cudaErrorInvalidDeviceFunction == 98);
  CHECK(cudaErrorNoDevice == 100);
  CHECK(cudaErrorInvalidDevice == 101);
  CHECK(cudaErrorInvalidResourceHandle == 400);
  CHECK(cudaErrorNotReady == 600);
  CHECK(cudaErrorIllegalAddress == 700);
  CHECK(cudaErrorLaunchOutOfResources == 701);
  CHECK(cudaErrorMisalignedAddress == 716);
  CHECK(cudaErrorLaunchFailure == 719);
  CHECK(std::string(cudaGetErrorName(cudaErrorInvalidConfiguration)) == "cudaErrorInvalidConfiguration");
  CHECK(std::string(cudaGetErrorString(cudaErrorInvalidConfiguration)) == "invalid configuration argument");
  CHECK(std::string(cudaGetErrorString(cudaSuccess)) == "no error");
  CHECK(std::string(cudaGetErrorString(cudaErrorIllegalAddress)) ==
        "an illegal memory access was encountered");
  CHECK(std::string(cudaGetErrorName(static_cast<cudaError_t>(12345))) == "unrecognized error code");
}

TEST_CASE("the last error is kept until read, and success does not overwrite it") {
  cudaGetLastError();
  CHECK(cudaSetDevice(3) == cudaErrorInvalidDevice);
  CHECK(cudaSetDevice(0) == cudaSuccess);
  CHECK(cudaPeekAtLastError() == cudaErrorInvalidDevice);
  CHECK(cudaGetLastError() == cudaErrorInvalidDevice);
  CHECK(cudaGetLastError() == cudaSuccess);
}

TEST_CASE("one H100-like device") {
  int count = 0, device = -1;
  CHECK(cudaGetDeviceCount(&count) == cudaSuccess);
  CHECK(count == 1);
  CHECK(cudaGetDevice(&device) == cudaSuccess);
  CHECK(device == 0);
  cudaDeviceProp prop;
  REQUIRE(cudaGetDeviceProperties(&prop, 0) == cudaSuccess);
  CHECK(std::string(prop.name) == "CPU simulator (H100-like limits)");
  CHECK(prop.multiProcessorCount == 132);
  CHECK(prop.major == 9);
  CHECK(prop.minor == 0);
  CHECK(prop.maxThreadsPerBlock == 1024);
  CHECK(prop.sharedMemPerBlock == 48 * 1024);
  CHECK(prop.sharedMemPerBlockOptin == 232448);
  CHECK(prop.maxThreadsPerMultiProcessor == 2048);
  CHECK(prop.regsPerBlock == 65536);
  CHECK(prop.warpSize == 32);
  CHECK(prop.l2CacheSize == 50 * 1024 * 1024);
  CHECK(prop.maxGridSize[0] == 2147483647);
  CHECK(prop.maxGridSize[1] == 65535);
  CHECK(prop.maxThreadsDim[2] == 64);
  int value = 0;
  CHECK(cudaDeviceGetAttribute(&value, cudaDevAttrMultiProcessorCount, 0) == cudaSuccess);
  CHECK(value == 132);
  CHECK(cudaDeviceGetAttribute(&value, cudaDevAttrMaxSharedMemoryPerBlockOptin, 0) == cudaSuccess);
  CHECK(value == 232448);
  CHECK(cudaDeviceGetAttribute(&value, cudaDevAttrComputeCapabilityMajor, 1) == cudaErrorInvalidDevice);
  cudaGetLastError();
}

namespace {
void some_kernel(float*) {}
}  // namespace

TEST_CASE("occupancy counts threads, blocks and shared memory per SM") {
  int blocks = 0;
  CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, some_kernel, 256, 0) == cudaSuccess);
  CHECK(blocks == 8);
  CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, some_kernel, 1024, 0) == cudaSuccess);
  CHECK(blocks == 2);
  CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, some_kernel, 32, 0) == cudaSuccess);
  CHECK(blocks == 32);
  CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, some_kernel, 128, 100 * 1024) == cudaSuccess);
  CHECK(blocks == 2);
  cudaFuncAttributes attributes;
  CHECK(cudaFuncGetAttributes(&attributes, some_kernel) == cudaSuccess);
  CHECK(attributes.maxThreadsPerBlock == 1024);
  CHECK(attributes.maxDynamicSharedSizeBytes == 48 * 1024);
}

TEST_CASE("streams and events: synchronous work, host-timed events, stale handles are errors") {
  cudaStream_t stream;
  REQUIRE(cudaStreamCreate(&stream) == cudaSuccess);
  cudaEvent_t start, stop, untimed;
  REQUIRE(cudaEventCreate(&start) == cudaSuccess);
  REQUIRE(cudaEventCreate(&stop) == cudaSuccess);
  REQUIRE(cudaEventCreateWithFlags(&untimed, cudaEventDisableTiming) == cudaSuccess);
  float ms = -1;
  CHECK(cudaEventElapsedTime(&ms, start, stop) == cudaErrorInvalidResourceHandle);  // not recorded yet
  CHECK(cudaEventRecord(start, stream) == cudaSuccess);
  CHECK(cudaEventRecord(stop) == cudaSuccess);
  CHECK(cudaEventSynchronize(stop) == cudaSuccess);
  CHECK(cudaEventQuery(stop) == cudaSuccess);
  CHECK(cudaEventElapsedTime(&ms, start, stop) == cudaSuccess);
  CHECK(ms >= 0.0f);
  CHECK(cudaEventRecord(untimed) == cudaSuccess);
  CHECK(cudaEventElapsedTime(&ms, start, untimed) == cudaErrorInvalidResourceHandle);
  CHECK(cudaStreamWaitEvent(stream, stop) == cudaSuccess);
  CHECK(cudaStreamSynchronize(stream) == cudaSuccess);
  CHECK(cudaStreamSynchronize(nullptr) == cudaSuccess);
  CHECK(cudaStreamDestroy(stream) == cudaSuccess);
  CHECK(cudaStreamDestroy(stream) == cudaErrorInvalidResourceHandle);
  CHECK(cudaEventDestroy(start) == cudaSuccess);
  CHECK(cudaEventDestroy(start) == cudaErrorInvalidResourceHandle);
  cudaEventDestroy(stop);
  cudaEventDestroy(untimed);
  CHECK(cudaGetLastError() == cudaErrorInvalidResourceHandle);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
}
