// CUDA's driver API as far as the puzzles use it: tensor maps for the bulk tensor copies (TMA), made on
// the host by cuTensorMapEncodeTiled, and the driver's error names.
#pragma once
#include "../include/sim/tensor_map_types.h"  // the simulator's: the same types
#include "cuda_runtime.h"

__host__ CUresult cuTensorMapEncodeTiled(CUtensorMap* tensorMap, CUtensorMapDataType tensorDataType,
                                         cuuint32_t tensorRank, void* globalAddress,
                                         const cuuint64_t* globalDim, const cuuint64_t* globalStrides,
                                         const cuuint32_t* boxDim, const cuuint32_t* elementStrides,
                                         CUtensorMapInterleave interleave, CUtensorMapSwizzle swizzle,
                                         CUtensorMapL2promotion l2Promotion, CUtensorMapFloatOOBfill oobFill);
__host__ CUresult cuGetErrorName(CUresult error, const char** name);
__host__ CUresult cuGetErrorString(CUresult error, const char** text);
