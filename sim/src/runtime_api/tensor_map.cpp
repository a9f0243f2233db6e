// cuTensorMapEncodeTiled (sim/include/cuda.h): the arguments checked as CUDA's documentation of the
// driver states its requirements, then stored for the bulk tensor copies (ptx/tensor_map.hpp).
#include "ptx/tensor_map.hpp"

#include <cstring>
#include <string>

#include "cuda.h"
#include "diagnostics/describe.hpp"

namespace {

constexpr uint8_t kElementBytes[] = {1, 2, 4, 4, 8, 8, 2, 4, 8, 2, 4, 4, 4};  // CU_TENSOR_MAP_DATA_TYPE_*

// Why the driver would refuse the arguments, or "" if it accepts them.
std::string refusal(const CUtensorMap* map, CUtensorMapDataType type, cuuint32_t rank, const void* address,
                    const cuuint64_t* dims, const cuuint64_t* strides, const cuuint32_t* box,
                    const cuuint32_t* element_strides, CUtensorMapInterleave interleave,
                    CUtensorMapSwizzle swizzle, CUtensorMapL2promotion l2, CUtensorMapFloatOOBfill fill) {
  if (!map || reinterpret_cast<uintptr_t>(map) % 64 != 0)
    return "tensorMap must point at 64-byte aligned memory";
  if (type < 0 || type > CU_TENSOR_MAP_DATA_TYPE_TFLOAT32_FTZ)
    return "tensorDataType " + std::to_string(type) + " is not a data type of Hopper's tensor maps";
  if (rank < 1 || rank > 5) return "tensorRank is 1 to 5, not " + std::to_string(rank);
  if (interleave < 0 || interleave > CU_TENSOR_MAP_INTERLEAVE_32B)
    return "interleave is not a CUtensorMapInterleave";
  if (interleave != CU_TENSOR_MAP_INTERLEAVE_NONE && rank < 3)
    return "an interleaved layout needs tensorRank 3 or more";
  const unsigned alignment = interleave == CU_TENSOR_MAP_INTERLEAVE_32B ? 32 : 16;
  if (reinterpret_cast<uintptr_t>(address) % alignment != 0)
    return "globalAddress must be a multiple of " + std::to_string(alignment) + " bytes";
  if (!dims || !box || !element_strides || (rank > 1 && !strides)) return "an array argument is null";
  const unsigned element = kElementBytes[type];
  for (cuuint32_t d = 0; d < rank; ++d) {
    const std::string at = "[" + std::to_string(d) + "]";
    if (dims[d] == 0 || dims[d] > (cuuint64_t{1} << 32)) return "globalDim" + at + " must be 1 to 2^32";
    if (box[d] == 0 || box[d] > 256)
      return "boxDim" + at + " must be 1 to 256, not " + std::to_string(box[d]);
    if (element_strides[d] == 0 || element_strides[d] > 8) return "elementStrides" + at + " must be 1 to 8";
    if (d + 1 < rank && (strides[d] % alignment != 0 || strides[d] >= (cuuint64_t{1} << 40)))
      return "globalStrides" + at + " (" + std::to_string(strides[d]) + " bytes) must be a multiple of " +
             std::to_string(alignment) + " below 2^40";
  }
  const uint64_t inner = uint64_t{box[0]} * element;
  if (interleave == CU_TENSOR_MAP_INTERLEAVE_NONE && inner % 16 != 0)
    return "boxDim[0] * the element size (" + std::to_string(inner) + " bytes) must be a multiple of 16";
  if (swizzle < 0 || swizzle > CU_TENSOR_MAP_SWIZZLE_128B)
    return "swizzle " + std::to_string(swizzle) + " is not one of Hopper's (NONE, 32B, 64B, 128B)";
  if (interleave == CU_TENSOR_MAP_INTERLEAVE_32B && swizzle != CU_TENSOR_MAP_SWIZZLE_32B)
    return "interleave 32B requires swizzle 32B";
  const unsigned span = sim::ptx::swizzle_span_bytes(swizzle);
  if (interleave == CU_TENSOR_MAP_INTERLEAVE_NONE && span != 0 && inner > span)
    return "the box's inner dimension (boxDim[0] * element size = " + std::to_string(inner) +
           " bytes) must be at most the swizzle's " + std::to_string(span) + " bytes";
  if (l2 < 0 || l2 > CU_TENSOR_MAP_L2_PROMOTION_L2_256B) return "l2Promotion is not a CUtensorMapL2promotion";
  if (fill < 0 || fill > CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA)
    return "oobFill is not a CUtensorMapFloatOOBfill";
  const bool floating = type >= CU_TENSOR_MAP_DATA_TYPE_FLOAT16;
  if (fill == CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA && !floating)
    return "oobFill NAN_REQUEST_ZERO_FMA needs a floating-point tensorDataType";
  return "";
}

}  // namespace

CUresult cuTensorMapEncodeTiled(CUtensorMap* tensorMap, CUtensorMapDataType tensorDataType,
                                cuuint32_t tensorRank, void* globalAddress, const cuuint64_t* globalDim,
                                const cuuint64_t* globalStrides, const cuuint32_t* boxDim,
                                const cuuint32_t* elementStrides, CUtensorMapInterleave interleave,
                                CUtensorMapSwizzle swizzle, CUtensorMapL2promotion l2Promotion,
                                CUtensorMapFloatOOBfill oobFill, std::source_location where) {
  const std::string why =
      refusal(tensorMap, tensorDataType, tensorRank, globalAddress, globalDim, globalStrides, boxDim,
              elementStrides, interleave, swizzle, l2Promotion, oobFill);
  if (tensorMap && reinterpret_cast<uintptr_t>(tensorMap) % 64 == 0)
    std::memset(tensorMap, 0, sizeof *tensorMap);
  if (!why.empty()) {
    sim::report(sim::Severity::error, "tensor_map_invalid", sim::where_of(where),
                "cuTensorMapEncodeTiled returns CUDA_ERROR_INVALID_VALUE: " + why +
                    ". The map is left unusable: a bulk tensor copy with it faults on a GPU.");
    return CUDA_ERROR_INVALID_VALUE;
  }
  sim::ptx::TensorMap map{};
  map.magic = sim::ptx::kTensorMapMagic;
  map.address = reinterpret_cast<uintptr_t>(globalAddress);
  map.rank = static_cast<uint8_t>(tensorRank);
  map.data_type = static_cast<uint8_t>(tensorDataType);
  map.element_bytes = kElementBytes[tensorDataType];
  map.interleave = static_cast<uint8_t>(interleave);
  map.swizzle = static_cast<uint8_t>(swizzle);
  map.l2_promotion = static_cast<uint8_t>(l2Promotion);
  map.oob_fill = static_cast<uint8_t>(oobFill);
  for (cuuint32_t d = 0; d < tensorRank; ++d) {
    map.dims[d] = globalDim[d];
    map.box[d] = static_cast<uint16_t>(boxDim[d]);
    map.element_strides[d] = static_cast<uint8_t>(elementStrides[d]);
    if (d + 1 < tensorRank) map.strides[d] = globalStrides[d];
  }
  std::memcpy(tensorMap, &map, sizeof map);
  return CUDA_SUCCESS;
}

CUresult cuGetErrorName(CUresult error, const char** name) {
  if (!name) return CUDA_ERROR_INVALID_VALUE;
  *name = error == CUDA_SUCCESS                 ? "CUDA_SUCCESS"
          : error == CUDA_ERROR_INVALID_VALUE   ? "CUDA_ERROR_INVALID_VALUE"
          : error == CUDA_ERROR_NOT_SUPPORTED   ? "CUDA_ERROR_NOT_SUPPORTED"
          : error == CUDA_ERROR_NOT_INITIALIZED ? "CUDA_ERROR_NOT_INITIALIZED"
                                                : "CUDA_ERROR_UNKNOWN";
  return CUDA_SUCCESS;
}

CUresult cuGetErrorString(CUresult error, const char** text) {
  if (!text) return CUDA_ERROR_INVALID_VALUE;
  *text = error == CUDA_SUCCESS                 ? "no error"
          : error == CUDA_ERROR_INVALID_VALUE   ? "invalid argument"
          : error == CUDA_ERROR_NOT_SUPPORTED   ? "operation not supported"
          : error == CUDA_ERROR_NOT_INITIALIZED ? "initialization error"
                                                : "unknown error";
  return CUDA_SUCCESS;
}
