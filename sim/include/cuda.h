// The part of CUDA's driver API that the simulator models: tensor maps for the bulk tensor copies (TMA),
// made by cuTensorMapEncodeTiled with the driver's checks of its arguments (sim_runtime implements it; a
// simulated child links no libcuda). Also CUDA's version and, through cuda_runtime.h, the runtime API.
#pragma once
#include <cstdint>
#include <source_location>

#include "cuda_runtime.h"

#define CUDA_VERSION 13000

#include "sim/tensor_map_types.h"

// Arguments the driver would refuse make it return CUDA_ERROR_INVALID_VALUE, leave the map unusable and
// report `tensor_map_invalid`, naming the argument. (`where` is the simulator's, filled in by the call.)
CUresult cuTensorMapEncodeTiled(CUtensorMap* tensorMap, CUtensorMapDataType tensorDataType,
                                cuuint32_t tensorRank, void* globalAddress, const cuuint64_t* globalDim,
                                const cuuint64_t* globalStrides, const cuuint32_t* boxDim,
                                const cuuint32_t* elementStrides, CUtensorMapInterleave interleave,
                                CUtensorMapSwizzle swizzle, CUtensorMapL2promotion l2Promotion,
                                CUtensorMapFloatOOBfill oobFill,
                                std::source_location where = std::source_location::current());
CUresult cuGetErrorName(CUresult error, const char** name);
CUresult cuGetErrorString(CUresult error, const char** text);
