// wgmma's shared-memory matrix descriptors (PTX ISA, "Matrix Descriptor Format" and the canonical layouts
// of "Shared Memory Matrix Layout"), for 16-bit elements: 8 of them (16 bytes) make a core-matrix row.
//   bits 0-13  start address >> 4      bits 16-29 leading dimension byte offset (LBO) >> 4
//   bits 32-45 stride dimension byte offset (SBO) >> 4    bits 49-51 base offset
//   bits 62-63 layout: 0 no swizzle (interleave), 1 128-byte, 2 64-byte, 3 32-byte swizzle
// Element (row, k) of an operand with rows along M or N and 16 along K, in units of 16-byte chunks:
//   K-major, no swizzle:  row % 8 one chunk apart, row / 8 SBO apart, chunk k / 8 LBO apart
//   K-major, W-byte swizzle: row % 8 W bytes apart, row / 8 SBO apart, chunk k / 8 next to each other
//   MN-major, no swizzle: chunk row / 8 SBO apart, k % 8 one chunk apart, k / 8 LBO apart
//   MN-major, W-byte swizzle: chunks row / 8 side by side up to W bytes, then LBO apart; k % 8 W bytes
//   apart, k / 8 SBO apart
// then the swizzle of the address itself (ptx/tensor_map.hpp, swizzled): so a descriptor whose start is
// 32 bytes into a 128-byte swizzled row reads the next 16 k of that row, as the hardware does.
#pragma once
#include <cstdint>

namespace sim::ptx {

struct MatrixDescriptor {
  uint32_t start = 0, leading = 0, stride = 0;  // bytes
  unsigned base_offset = 0;
  unsigned layout = 0;  // the field's value
};

MatrixDescriptor decode_descriptor(uint64_t bits);
unsigned layout_span_bytes(unsigned layout);  // 0 (no swizzle), 128, 64 or 32
const char* layout_words(unsigned layout);    // "128-byte swizzle" ...
// The shared address of 16-bit element (row, k) of the operand the descriptor describes.
uint32_t element_address(const MatrixDescriptor& d, int row, int k, bool mn_major);

}  // namespace sim::ptx
