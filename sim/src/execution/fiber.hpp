// A simulated thread's execution context: its own stack, entered and left by a hand-written context
// switch (context_switch_<arch>.S) that saves only what the ABI says a call preserves.
#pragma once
#include <cstddef>

#if !defined(__x86_64__) && !defined(__aarch64__)
#define SIM_FIBER_UCONTEXT 1
#include <ucontext.h>
#endif

namespace sim {

using FiberEntry = void (*)(void* arg);

struct FiberContext {
  void* sp = nullptr;  // the saved stack pointer: the callee-saved registers are stored below it
#ifdef SIM_FIBER_UCONTEXT
  ucontext_t context;
  FiberEntry entry = nullptr;
  void* arg = nullptr;
#endif
};

// Makes the first switch to `fiber` run entry(arg) on the stack [stack_lo, stack_lo + stack_bytes).
// `entry` must never return: it ends by switching away for good.
void prepare_fiber(FiberContext& fiber, void* stack_lo, size_t stack_bytes, FiberEntry entry, void* arg);

// Saves the running context into `from` and continues `to` where it left off.
void switch_fiber(FiberContext& from, FiberContext& to);

}  // namespace sim
