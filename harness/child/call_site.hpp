// The learner's source line of a call into the harness's wrappers, for the GPU child's refusals: the
// return address, looked up in the debug info of the shared object that holds it (addr2line).
#pragma once
#include <string>

namespace puzzle::child {

// "line 17 of 01_row_softmax.cu: " for a return address in code built with debug info (-g); empty when
// the address cannot be placed.
std::string describe_call_site(const void* return_address);

}  // namespace puzzle::child
