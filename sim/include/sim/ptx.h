// Inline PTX on the simulator. sim/translate turns each asm statement it models into a call of
// execute() with the template and one Operand per constraint, in %n order:
//   asm volatile("ldmatrix... {%0,%1}, [%2];" : "=r"(r0), "=r"(r1) : "r"(addr));
//   -> ::sim::ptx::execute("ldmatrix... {%0,%1}, [%2];",
//        {::sim::ptx::output<'r'>(r0), ::sim::ptx::output<'r'>(r1), ::sim::ptx::input<'r'>(addr)});
// The instructions it models are listed in sim/translate/ptx_syntax.hpp.
#pragma once
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <source_location>
#include <type_traits>

namespace sim::ptx {

struct Operand {
  char constraint;        // 'r' (32-bit), 'l' (64-bit), 'h' (16-bit), 'f' (float), 'd' (double), 'n'
  bool readable;          // an input or in-out operand ("+f"): `value` holds its bits
  void* output;           // where an output is written (nullptr for inputs)
  unsigned output_bytes;  // its size
  uint64_t value;         // an input's bits (an in-out operand's value before the instruction)
};

template <class T>
uint64_t bits_of(const T& value) {
  if constexpr (std::is_pointer_v<T>) {
    return reinterpret_cast<uintptr_t>(value);
  } else if constexpr (std::is_floating_point_v<T>) {
    if constexpr (sizeof(T) == 4)
      return std::bit_cast<uint32_t>(value);
    else
      return std::bit_cast<uint64_t>(static_cast<double>(value));
  } else if constexpr (std::is_integral_v<T> || std::is_enum_v<T>) {
    return static_cast<uint64_t>(value);
  } else {
    static_assert(sizeof(T) <= 8 && std::is_trivially_copyable_v<T>, "an asm operand is a register value");
    uint64_t bits = 0;
    std::memcpy(&bits, &value, sizeof(T));
    return bits;
  }
}

template <char C, class T>
Operand input(const T& value) {
  return {C, true, nullptr, 0, bits_of(value)};
}
template <char C, class T>
Operand output(T& lvalue) {
  static_assert(sizeof(T) <= 8 && std::is_trivially_copyable_v<T>, "an asm output is a register");
  return {C, false, &lvalue, sizeof(T), 0};
}
// Not instrumented: the read that makes an in-out operand is the instruction's, not the learner's, and
// must not count as a thread's read of a register a pending wgmma owns (ptx/wgmma_results.hpp).
template <char C, class T>
__attribute__((noinline, no_sanitize_thread)) Operand in_out(T& lvalue) {
  const T value = lvalue;
  Operand o = output<C>(lvalue);
  o.readable = true;
  o.value = bits_of(value);
  return o;
}

// Runs the statement's instructions for the calling thread (mma and ldmatrix as warp collectives).
void execute(const char* asm_template, std::initializer_list<Operand> operands,
             std::source_location where = std::source_location::current());

}  // namespace sim::ptx

// A shared-memory pointer as the 32-bit address PTX's .shared instructions take (its offset in the
// block's shared memory), and back.
size_t __cvta_generic_to_shared(const void* pointer);
void* __cvta_shared_to_generic(size_t address);
