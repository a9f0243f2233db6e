// CUDA's <cuda_bf16.h>: __nv_bfloat16 and __nv_bfloat162 (the simulator defines both 16-bit types in one
// place).
#pragma once
#include "sim/float16.h"
