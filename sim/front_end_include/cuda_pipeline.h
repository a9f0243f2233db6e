// CUDA's <cuda_pipeline.h>: its primitives, as the simulator has them.
#pragma once
#include "cuda_pipeline_primitives.h"
