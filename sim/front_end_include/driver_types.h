// CUDA's driver types are plain types: the simulator's serve both sides.
#pragma once
#include "../include/driver_types.h"
