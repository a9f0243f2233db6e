// The element types of a puzzle's buffers. The harness keeps every buffer on the host as floats (a
// 16-bit value widens to float exactly), so drawing, sealing, files and judging are the same for all
// types; only the device copy is narrowed to the buffer's type (harness/child/guarded_buffer.cpp).
#pragma once
#include <cstddef>
#include <cstdint>
#include <span>

// CUDA's 16-bit types (cuda_bf16.h, cuda_fp16.h; the simulator's headers define the same structs):
// declared only, so that a spec's launcher signature compiles without CUDA and mangles the same everywhere.
struct __nv_bfloat16;
struct __half;

namespace puzzle {

enum class Dtype { f32, bf16, f16 };

const char* dtype_name(Dtype dtype);  // "fp32", "bf16", "fp16", as reports write them
size_t dtype_bytes(Dtype dtype);

// `value` rounded to the nearest `dtype` value (ties to even; f32: unchanged). Inputs of a 16-bit buffer
// are rounded once when drawn, so the float64 reference sees exactly what the device reads.
float round_to(Dtype dtype, float value);
void round_all(Dtype dtype, std::span<float> values);  // round_to on each, on every core

// A 16-bit buffer's bits and the float they stand for. narrow() is exact on round_to()'s values; the
// protocol's poison and guard patterns (protocol.hpp) map to 16-bit NaN payloads of their own and back, so
// that "never written" and "out of bounds" read the same for every type.
uint16_t narrow(Dtype dtype, float value);
float widen(Dtype dtype, uint16_t bits);

}  // namespace puzzle
