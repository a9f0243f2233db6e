// How far a right 16-bit backward kernel's gradients may be from the exact ones: puzzle 10's allowance,
// on top of the spec's tolerance.
#pragma once
#include "families/attention_family.hpp"

namespace puzzle::puzzles::attention {

// Per element of dq [bh, n_q, d], dk and dv [bh, n_k, d], from the rounded inputs the kernel read (o
// rounded to 16 bits, lse fp32). `unit` is the 16-bit type's unit roundoff (2^-8 for bf16, 2^-11 fp16).
void backward_16bit_allowance(const Shape& shape, const float* q, const float* k, const float* v,
                              const float* o, const float* dout, double unit, double* dq, double* dk,
                              double* dv);

}  // namespace puzzle::puzzles::attention
