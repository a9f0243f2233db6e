// CUDA's <cuda_bf16.h>: __nv_bfloat16 and __nv_bfloat162 (sixteen_bit_types.h declares both 16-bit types).
#pragma once
#include "sixteen_bit_types.h"
