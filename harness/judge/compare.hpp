// Element-by-element comparison of one output buffer (as the child wrote it, guards included) with
// the double-precision reference.
#pragma once
#include <cstdint>
#include <span>
#include <vector>

#include "registry.hpp"
#include "verdict.hpp"

namespace puzzle {

inline constexpr int kListedMismatches = 8;  // BufferCheck::first holds at most this many

enum class Outcome { ok, unwritten, nan, inf, wrong };

bool is_poison(float value);  // still the bit pattern the child filled the output with
bool is_guard(float value);
// Unwritten, NaN and inf count as wrong unless the reference is the same non-finite value. Within
// tolerance: |got - expected| <= atol + allowance + rtol * |expected|.
Outcome compare_element(float got, double expected, const Tolerance& tolerance, double allowance = 0);

// `with_guards` empty means the child could not copy the buffer back (BufferCheck::available false).
// `allowance`: Judge::allowance's for this buffer, one per element, or empty.
BufferCheck check_buffer(const BufferSpec& spec, const Params& params, std::span<const float> with_guards,
                         const std::vector<double>& expected, const Tolerance& tolerance,
                         std::span<const double> allowance = {});

}  // namespace puzzle
