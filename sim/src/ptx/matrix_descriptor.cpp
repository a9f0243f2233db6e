#include "ptx/matrix_descriptor.hpp"

#include "ptx/tensor_map.hpp"

namespace sim::ptx {

MatrixDescriptor decode_descriptor(uint64_t bits) {
  return {static_cast<uint32_t>(bits & 0x3FFF) << 4, static_cast<uint32_t>(bits >> 16 & 0x3FFF) << 4,
          static_cast<uint32_t>(bits >> 32 & 0x3FFF) << 4, static_cast<unsigned>(bits >> 49 & 7),
          static_cast<unsigned>(bits >> 62 & 3)};
}

unsigned layout_span_bytes(unsigned layout) {
  return layout == 1 ? 128 : layout == 2 ? 64 : layout == 3 ? 32 : 0;
}

const char* layout_words(unsigned layout) {
  return layout == 1   ? "128-byte swizzle"
         : layout == 2 ? "64-byte swizzle"
         : layout == 3 ? "32-byte swizzle"
                       : "no swizzle";
}

uint32_t element_address(const MatrixDescriptor& d, int row, int k, bool mn_major) {
  const uint32_t span = layout_span_bytes(d.layout);
  uint32_t offset = 0;
  if (!mn_major) {
    const uint32_t chunk = k / 8, row_in_group = row % 8, group = row / 8;
    offset = span == 0 ? row_in_group * 16 + group * d.stride + chunk * d.leading
                       : row_in_group * span + group * d.stride + chunk * 16;
    offset += (k % 8) * 2;
  } else {
    const uint32_t chunk = row / 8, k_in_group = k % 8, k_group = k / 8;
    if (span == 0) {
      offset = chunk * d.stride + k_in_group * 16 + k_group * d.leading;
    } else {
      const uint32_t per_span = span / 16;
      offset = chunk % per_span * 16 + chunk / per_span * d.leading + k_in_group * span + k_group * d.stride;
    }
    offset += (row % 8) * 2;
  }
  return swizzled(d.start + offset, span);
}

}  // namespace sim::ptx
