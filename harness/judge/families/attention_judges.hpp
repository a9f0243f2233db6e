// The attention family's judges: "attention_forward" (o and lse from q, k, v: puzzle 5),
// "attention_forward_16bit" (the same with o in bf16 and P rounded on its way to the tensor cores: puzzle
// 9), "attention_backward" (dq, dk, dv from q, k, v, o, lse, dout: puzzle 6) and "attention_backward_16bit"
// (the same in bf16: puzzle 10), each its float64 reference with its diagnoses. None takes extra diagnoses.
#pragma once
#include <string>
#include <vector>

#include "judges.hpp"

namespace puzzle::puzzles::attention {

Judge forward_judge(const std::vector<std::string>& extra_diagnoses);
Judge forward_16bit_judge(const std::vector<std::string>& extra_diagnoses);
Judge backward_judge(const std::vector<std::string>& extra_diagnoses);
Judge backward_16bit_judge(const std::vector<std::string>& extra_diagnoses);

}  // namespace puzzle::puzzles::attention
