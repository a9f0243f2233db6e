#include "execution/fiber.hpp"

#include <cstdint>

namespace sim {

#ifndef SIM_FIBER_UCONTEXT

extern "C" {
// context_switch_<arch>.S
void sim_context_switch(void** save_sp, void* load_sp);
void sim_fiber_start();
}

namespace {

#if defined(__x86_64__)
// The frame sim_context_switch pops, lowest address first: MXCSR and x87 control word, r15, r14,
// r13, r12, rbx, rbp, return address. sim_fiber_start calls r13(r12).
struct InitialFrame {
  uint32_t mxcsr = 0x1F80;  // Linux defaults: round to nearest, all exceptions masked
  uint32_t x87_control = 0x037F;
  void* r15 = nullptr;
  void* r14 = nullptr;
  void* r13;  // entry
  void* r12;  // arg
  void* rbx = nullptr;
  void* rbp = nullptr;
  void* return_address;
};
static_assert(sizeof(InitialFrame) == 64);
#else
// The frame sim_context_switch loads, lowest address first: x19..x28, x29 (fp), x30 (lr), d8..d15,
// FPCR and padding. sim_fiber_start calls x20(x19).
struct InitialFrame {
  void* x19;  // arg
  void* x20;  // entry
  void* x21_x28[8] = {};
  void* x29 = nullptr;
  void* x30;  // sim_fiber_start
  double d8_d15[8] = {};
  uint64_t fpcr = 0;  // round to nearest, no traps
  uint64_t pad = 0;
};
static_assert(sizeof(InitialFrame) == 176);
#endif

}  // namespace

void prepare_fiber(FiberContext& fiber, void* stack_lo, size_t stack_bytes, FiberEntry entry, void* arg) {
  // Once the switch has popped the frame, the stack pointer is `top`: 16-aligned, as a call needs.
  const auto top = (reinterpret_cast<uintptr_t>(stack_lo) + stack_bytes) & ~uintptr_t{15};
  auto* frame = reinterpret_cast<InitialFrame*>(top - sizeof(InitialFrame));
#if defined(__x86_64__)
  *frame = InitialFrame{.r13 = reinterpret_cast<void*>(entry),
                        .r12 = arg,
                        .return_address = reinterpret_cast<void*>(&sim_fiber_start)};
#else
  *frame = InitialFrame{
      .x19 = arg, .x20 = reinterpret_cast<void*>(entry), .x30 = reinterpret_cast<void*>(&sim_fiber_start)};
#endif
  fiber.sp = frame;
}

void switch_fiber(FiberContext& from, FiberContext& to) {
  sim_context_switch(&from.sp, to.sp);
}

#else  // SIM_FIBER_UCONTEXT: portable and slow (a signal-mask syscall per switch)

namespace {
void start_ucontext_fiber(unsigned int hi, unsigned int lo) {
  auto* fiber = reinterpret_cast<FiberContext*>(static_cast<uintptr_t>(hi) << 32 | lo);
  fiber->entry(fiber->arg);
}
}  // namespace

void prepare_fiber(FiberContext& fiber, void* stack_lo, size_t stack_bytes, FiberEntry entry, void* arg) {
  getcontext(&fiber.context);
  fiber.context.uc_stack.ss_sp = stack_lo;
  fiber.context.uc_stack.ss_size = stack_bytes;
  fiber.context.uc_link = nullptr;
  fiber.entry = entry;
  fiber.arg = arg;
  const auto self = reinterpret_cast<uintptr_t>(&fiber);
  makecontext(&fiber.context, reinterpret_cast<void (*)()>(&start_ucontext_fiber), 2,
              static_cast<unsigned int>(self >> 32), static_cast<unsigned int>(self));
}

void switch_fiber(FiberContext& from, FiberContext& to) {
  swapcontext(&from.context, &to.context);
}

#endif

}  // namespace sim
