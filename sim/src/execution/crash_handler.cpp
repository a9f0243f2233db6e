// One line on stderr when the child dies or is stopped, so the parent can say where: the kernel,
// block and thread that crashed (with the PC, which the parent symbolizes), or what every host
// thread was running when the timeout's SIGTERM came. Everything here is async-signal-safe.
#include "execution/crash_handler.hpp"

#include <link.h>
#include <signal.h>
#include <sys/mman.h>
#include <ucontext.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <mutex>

#include "core/context.hpp"
#include "diagnostics/symbolize.hpp"
#include "execution/host_threads.hpp"
#include "execution/stack_pool.hpp"
#include "memory/heap.hpp"

namespace sim {
namespace {

constexpr size_t kAlternateStackBytes = 64 << 10;

// A line built in a fixed buffer.
class Line {
 public:
  Line& text(const char* s) {
    while (*s && used_ < sizeof buffer_) buffer_[used_++] = *s++;
    return *this;
  }
  Line& number(uint64_t value, unsigned base = 10) {
    char digits[24];
    int n = 0;
    do {
      digits[n++] = "0123456789abcdef"[value % base];
      value /= base;
    } while (value != 0);
    while (n > 0 && used_ < sizeof buffer_) buffer_[used_++] = digits[--n];
    return *this;
  }
  Line& hex(uint64_t value) { return text("0x").number(value, 16); }
  Line& triple(const char* name, const uint3& v) {
    return text(name).text(" (").number(v.x).text(",").number(v.y).text(",").number(v.z).text(")");
  }
  void write() {
    text("\n");
    [[maybe_unused]] ssize_t written = ::write(STDERR_FILENO, buffer_, used_);
  }

 private:
  char buffer_[512];
  size_t used_ = 0;
};

Line& describe_position(Line& line, const ThreadState& t) {
  return line.text("kernel ")
      .text(t.block->launch->kernel)
      .text(", ")
      .triple("block", t.block->block_idx)
      .text(", ")
      .triple("thread", t.thread_idx);
}

const char* signal_name(int signal) {
  switch (signal) {
    case SIGSEGV:
      return "SIGSEGV";
    case SIGBUS:
      return "SIGBUS";
    case SIGFPE:
      return "SIGFPE";
    case SIGILL:
      return "SIGILL";
  }
  return "signal";
}

uintptr_t program_counter(const void* context) {
  const auto* uc = static_cast<const ucontext_t*>(context);
#if defined(__x86_64__)
  return static_cast<uintptr_t>(uc->uc_mcontext.gregs[REG_RIP]);
#elif defined(__aarch64__)
  return static_cast<uintptr_t>(uc->uc_mcontext.pc);
#else
  (void)uc;
  return 0;
#endif
}

void on_crash(int signal, siginfo_t* info, void* context) {
  const auto address = reinterpret_cast<uintptr_t>(info->si_addr);
  const uintptr_t pc = program_counter(context);
  Line line;
  line.text("[sim] crash: ").text(signal_name(signal)).text(" in ");
  if (const ThreadState* t = current_thread()) {
    describe_position(line, *t).text(", ");
  } else {
    line.text("host code, ");
  }
  // Offsets into the learner's code, as addr2line wants them (symbolize.hpp).
  const CodeModule& code = learner_code();
  const bool in_code = code.contains(pc);
  line.text("pc ").hex(in_code ? pc - code.base : pc).text(", address ").hex(address);
  if (!in_code) line.text(" (pc outside your code)");
  if (signal == SIGSEGV && in_fiber_stack_guard(address)) line.text(", stack overflow");
  if (const char* failed = memory::failed_allocation_under(address)) line.text(": ").text(failed);
  // The launcher's host code reached device memory (the C library's mempcpy, say): on a GPU it faults too.
  if (!current_thread() && memory::device_heap.contains(address))
    line.text(": that is device memory, which host code cannot dereference (a GPU faults there too)");
  line.write();
  // SA_RESETHAND restored the default action: re-raise so the parent sees the real signal.
  raise(signal);
}

void on_timeout(int) {
  for (size_t i = 0; i < registered_host_threads(); ++i) {
    const ThreadState* t = running_thread(i);
    if (!t) continue;
    Line line;
    line.text("[sim] timeout: kernel ")
        .text(t->block->launch->kernel)
        .text(" still running; ")
        .triple("block", t->block->block_idx)
        .text(" ")
        .triple("thread", t->thread_idx)
        .text(" was executing");
    // Its last memory access (a return address: -1 is inside the call, on the access's line), which the
    // parent symbolizes; a loop that spins touches memory on every turn.
    const uintptr_t pc = last_access_pc(i);
    if (const CodeModule& code = learner_code(); pc > code.lo && pc <= code.hi)
      line.text(", its last memory access: pc ").hex(pc - 1 - code.base);
    line.write();
  }
  _exit(124);
}

void install(int signal, void (*handler)(int, siginfo_t*, void*), int flags) {
  struct sigaction action {};
  action.sa_sigaction = handler;
  action.sa_flags = SA_SIGINFO | SA_ONSTACK | flags;
  sigemptyset(&action.sa_mask);
  sigaction(signal, &action, nullptr);
}

void install_handlers() {
  learner_code();  // the main program's, until the learner's code is loaded: found now, not in a handler
  for (int signal : {SIGSEGV, SIGBUS, SIGFPE, SIGILL}) install(signal, &on_crash, SA_RESETHAND);
  install(
      SIGTERM, [](int signal, siginfo_t*, void*) { on_timeout(signal); }, 0);
  use_alternate_signal_stack();
}

// Installed before main, so crashes in host code are reported too.
[[maybe_unused]] const bool installed_at_startup = (install_crash_handlers(), true);

}  // namespace

void install_crash_handlers() {
  static std::once_flag once;
  std::call_once(once, install_handlers);
}

void use_alternate_signal_stack() {
  thread_local bool installed = false;
  if (installed) return;
  void* stack =
      mmap(nullptr, kAlternateStackBytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (stack == MAP_FAILED) return;  // crashes still kill the process, only without the one-line report
  stack_t alternate{};
  alternate.ss_sp = stack;
  alternate.ss_size = kAlternateStackBytes;
  sigaltstack(&alternate, nullptr);
  installed = true;
}

}  // namespace sim
