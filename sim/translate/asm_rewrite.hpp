// Inline PTX: an asm statement the simulator models becomes a call of ::sim::ptx::execute
// (sim/include/sim/ptx.h) with one typed operand per constraint, edited in place so lines stay put:
//   asm volatile("mma... {%0,%1,%2,%3}, ...;" : "=f"(d0), ... : "r"(a0), ..., "f"(c3) : "memory");
//   ::sim::ptx::execute("mma... {%0,%1,%2,%3}, ...;" , {::sim::ptx::output<'f'>(d0), ...,
//                       ::sim::ptx::input<'r'>(a0), ..., ::sim::ptx::input<'f'>(c3)});
// "+f"(x) becomes in_out<'f'>(x). Any instruction that sim/translate/ptx_syntax.hpp does not list is
// an error naming it, so an unmodelled asm never compiles into a silent wrong answer.
#pragma once
#include <cstddef>
#include <optional>

#include "rewriter.hpp"

namespace sim::translate {

// Whether token i starts an asm statement (asm, __asm, __asm__).
bool is_asm_keyword(const Token& t);
// Rewrites the asm statement whose keyword is token `keyword`. Returns the index of the first token
// after it, or nullopt after reporting why it cannot be translated.
std::optional<size_t> rewrite_asm(Rewriter& rw, size_t keyword);

}  // namespace sim::translate
