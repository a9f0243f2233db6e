// What the simulator's cuTensorMapEncodeTiled (runtime_api/tensor_map.cpp) stores in a CUtensorMap's 128
// opaque bytes, and what a bulk tensor copy (ptx/bulk_tensor.cpp) reads back. A map whose magic is not
// kTensorMapMagic was not made by a successful encode.
#pragma once
#include <cstdint>

namespace sim::ptx {

inline constexpr uint64_t kTensorMapMagic = 0x70616d726f736e65;  // "ensormap"

struct TensorMap {
  uint64_t magic;
  uint64_t address;     // the tensor's first element (device memory)
  uint64_t dims[5];     // elements per dimension, innermost first
  uint64_t strides[4];  // bytes between consecutive indices of dimensions 1..rank-1
  uint16_t box[5];      // the box: elements per dimension
  uint8_t element_strides[5];
  uint8_t rank, data_type, element_bytes, interleave, swizzle, l2_promotion, oob_fill;
};
static_assert(sizeof(TensorMap) <= 128, "a CUtensorMap holds 128 bytes");

// CUtensorMapSwizzle's first four values: the span the 16-byte chunks of a row are permuted within.
inline constexpr unsigned swizzle_span_bytes(unsigned swizzle) {
  return swizzle == 1 ? 32 : swizzle == 2 ? 64 : swizzle == 3 ? 128 : 0;
}

// Where the byte at shared address `address` of a tile written with swizzle span `span` (0, 32, 64, 128)
// lands: the 16-byte chunk index within the span is XORed with the address's row of that span within 8
// such rows (bits 4.. of the address XOR bits 7..). The TMA unit and wgmma's descriptors apply it to the
// shared address itself, so a tile must start at a multiple of 8 spans for its rows to swizzle from 0.
inline constexpr uint32_t swizzled(uint32_t address, unsigned span) {
  if (span == 0) return address;
  const uint32_t mask = span / 16 - 1;  // the chunk bits that move: 1, 2 or 3 of them
  return address ^ (((address >> 7) & mask) << 4);
}

}  // namespace sim::ptx
