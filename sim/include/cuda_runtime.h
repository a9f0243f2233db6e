// What a learner's .cu file sees on the simulator (g++ -include cuda_runtime.h): CUDA's runtime API,
// built-in variables, qualifiers and device functions, implemented by sim_runtime.
#pragma once
// Like nvcc's, this makes the math and memory functions (expf, memcpy, malloc ...) available without an
// include, but not printf: nvcc wants <cstdio> for it, so a file that compiles here compiles there.
#include <math.h>

#include <cmath>
#include <cstdlib>
#include <cstring>

#include "cuda_runtime_api.h"
#include "device_launch_parameters.h"
#include "sim/atomics.h"
#include "sim/intrinsics.h"
#include "sim/launch.h"
#include "sim/ptx.h"
#include "sim/qualifiers.h"
#include "sim/shared.h"
#include "sim/sync.h"
#include "sim/warp.h"
#include "sim/work.h"
#include "vector_functions.h"
