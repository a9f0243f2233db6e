// The simulator has no driver API: cuda.h gives the runtime's declarations and CUDA's version.
#pragma once
#include "cuda_runtime.h"

#define CUDA_VERSION 13000
