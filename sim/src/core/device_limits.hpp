// The simulated device: an H100 (SXM) as the CUDA runtime describes it.
#pragma once
#include <cstddef>

namespace sim::device {

inline constexpr const char* kName = "CPU simulator (H100-like limits)";
inline constexpr int kComputeMajor = 9, kComputeMinor = 0;
inline constexpr int kMultiprocessors = 132;
inline constexpr int kWarpSize = 32;
inline constexpr int kMaxThreadsPerBlock = 1024;
inline constexpr int kMaxBlockDim[3] = {1024, 1024, 64};
inline constexpr int kMaxGridDim[3] = {2147483647, 65535, 65535};
inline constexpr int kMaxThreadsPerMultiprocessor = 2048;
inline constexpr int kMaxBlocksPerMultiprocessor = 32;
inline constexpr int kRegistersPerBlock = 65536;
inline constexpr int kRegistersPerMultiprocessor = 65536;
inline constexpr size_t kSharedPerBlock = 48 << 10;         // without opting in
inline constexpr size_t kSharedPerBlockOptin = 232448;      // 227 KiB
inline constexpr size_t kSharedPerMultiprocessor = 233472;  // 228 KiB
inline constexpr size_t kReservedSharedPerBlock = 1024;     // taken by the driver from each block's share
inline constexpr size_t kConstantMemory = 64 << 10;
inline constexpr int kL2CacheBytes = 50 << 20;
inline constexpr int kClockKHz = 1980000;
inline constexpr int kMemoryClockKHz = 2619000;
inline constexpr int kMemoryBusWidthBits = 5120;

}  // namespace sim::device
