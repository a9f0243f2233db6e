// CUDA's <cuda_fp16.h>: __half and __half2 (sixteen_bit_types.h declares both 16-bit types).
#pragma once
#include "sixteen_bit_types.h"
