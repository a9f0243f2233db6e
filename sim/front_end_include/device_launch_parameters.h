// In cuda_runtime.h, which the front end includes first (as nvcc does).
#pragma once
#include "cuda_runtime.h"
