// CUDA's <cuda_pipeline.h>: the primitives are all the simulator provides.
#pragma once
#include "cuda_pipeline_primitives.h"
