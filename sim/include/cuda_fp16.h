// CUDA's <cuda_fp16.h>: __half and __half2 (the simulator defines both 16-bit types in one place).
#pragma once
#include "sim/float16.h"
