// Linker messages in the learner's terms.
#pragma once
#include <optional>
#include <string>
#include <string_view>

namespace puzzle::cli {

// "row_softmax" from "void row_softmax(const float* x, float* y, int rows, int cols)".
std::string function_name(std::string_view signature);

// When the link failed because the launcher is missing (or defined with other parameter types):
// "your file must define <signature>". nullopt for any other link error.
std::optional<std::string> explain_link_error(std::string_view linker_output, std::string_view signature);

}  // namespace puzzle::cli
