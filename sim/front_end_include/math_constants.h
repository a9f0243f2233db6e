// The simulator's: plain constants, usable on both sides.
#pragma once
#include "../include/math_constants.h"
