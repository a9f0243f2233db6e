// The -fsanitize=thread ABI, without libtsan: learner code is compiled with tsan instrumentation
// only so that every load and store calls in here first (with its PC as our return address). Every
// symbol g++ emits for plain C++ is defined, so linking never needs libtsan. Atomic operations
// that the compiler routes here are performed (sequentially consistent); the simulator's own
// atomics report to the checker through memory::on_atomic.
#include <cstring>
#include <mutex>

#include "memory/access.hpp"
#include "memory/global_requests.hpp"

namespace {

using sim::memory::Access;

[[gnu::always_inline]] inline void access(void* p, size_t bytes, Access kind, bool must_align, void* pc) {
  sim::memory::host_thread_access.last_access_pc = reinterpret_cast<uintptr_t>(pc);
  sim::memory::on_access(p, bytes, kind, must_align, sim::Where{nullptr, 0, reinterpret_cast<uintptr_t>(pc)});
}

// Volatile accesses arrive here apart (--param=tsan-distinguish-volatile=1): a flag that blocks hand
// over through memory is volatile or atomic, and neither races with the other. A volatile load the
// speed estimate also notes: a lane polling one address waits for another block (memory/global_requests.hpp).
[[gnu::always_inline]] inline void volatile_access(void* p, size_t bytes, Access kind, void* pc) {
  sim::memory::host_thread_access.last_access_pc = reinterpret_cast<uintptr_t>(pc);
  if (kind == Access::read) sim::memory::note_volatile_load(p);
  sim::memory::on_volatile_access(p, bytes, kind, sim::Where{nullptr, 0, reinterpret_cast<uintptr_t>(pc)});
}

// 16-byte atomics would need libatomic; nothing in a kernel uses them, so a lock suffices.
std::mutex wide_atomics;

template <class T>
struct Atomic {
  static T load(const volatile T* a) { return __atomic_load_n(a, __ATOMIC_SEQ_CST); }
  static void store(volatile T* a, T v) { __atomic_store_n(a, v, __ATOMIC_SEQ_CST); }
  static T exchange(volatile T* a, T v) { return __atomic_exchange_n(a, v, __ATOMIC_SEQ_CST); }
  static T fetch_add(volatile T* a, T v) { return __atomic_fetch_add(a, v, __ATOMIC_SEQ_CST); }
  static T fetch_sub(volatile T* a, T v) { return __atomic_fetch_sub(a, v, __ATOMIC_SEQ_CST); }
  static T fetch_and(volatile T* a, T v) { return __atomic_fetch_and(a, v, __ATOMIC_SEQ_CST); }
  static T fetch_or(volatile T* a, T v) { return __atomic_fetch_or(a, v, __ATOMIC_SEQ_CST); }
  static T fetch_xor(volatile T* a, T v) { return __atomic_fetch_xor(a, v, __ATOMIC_SEQ_CST); }
  static T fetch_nand(volatile T* a, T v) { return __atomic_fetch_nand(a, v, __ATOMIC_SEQ_CST); }
  static bool compare_exchange(volatile T* a, T* expected, T desired) {
    return __atomic_compare_exchange_n(a, expected, desired, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
  }
};

template <>
struct Atomic<__int128> {
  using T = __int128;
  template <class Op>
  static T update(volatile T* a, Op op) {
    std::lock_guard lock(wide_atomics);
    const T old = *a;
    *a = op(old);
    return old;
  }
  static T load(const volatile T* a) {
    return update(const_cast<volatile T*>(a), [](T old) { return old; });
  }
  static void store(volatile T* a, T v) {
    update(a, [v](T) { return v; });
  }
  static T exchange(volatile T* a, T v) {
    return update(a, [v](T) { return v; });
  }
  static T fetch_add(volatile T* a, T v) {
    return update(a, [v](T old) { return old + v; });
  }
  static T fetch_sub(volatile T* a, T v) {
    return update(a, [v](T old) { return old - v; });
  }
  static T fetch_and(volatile T* a, T v) {
    return update(a, [v](T old) { return old & v; });
  }
  static T fetch_or(volatile T* a, T v) {
    return update(a, [v](T old) { return old | v; });
  }
  static T fetch_xor(volatile T* a, T v) {
    return update(a, [v](T old) { return old ^ v; });
  }
  static T fetch_nand(volatile T* a, T v) {
    return update(a, [v](T old) { return ~(old & v); });
  }
  static bool compare_exchange(volatile T* a, T* expected, T desired) {
    const T old = update(a, [&](T current) { return current == *expected ? desired : current; });
    if (old == *expected) return true;
    *expected = old;
    return false;
  }
};

}  // namespace

extern "C" {

void __tsan_init() {}
void __tsan_func_entry(void*) {}
void __tsan_func_exit() {}
void __tsan_vptr_update(void**, void*) {}
void __tsan_vptr_read(void**) {}

void __tsan_read_range(void* p, unsigned long bytes) {
  if (bytes) access(p, bytes, Access::read, false, __builtin_return_address(0));
}
void __tsan_write_range(void* p, unsigned long bytes) {
  if (bytes) access(p, bytes, Access::write, false, __builtin_return_address(0));
}

#define SIM_TSAN_ACCESSES(N)                                           \
  void __tsan_read##N(void* p) {                                       \
    access(p, N, Access::read, N > 1, __builtin_return_address(0));    \
  }                                                                    \
  void __tsan_write##N(void* p) {                                      \
    access(p, N, Access::write, N > 1, __builtin_return_address(0));   \
  }                                                                    \
  void __tsan_volatile_read##N(void* p) {                              \
    volatile_access(p, N, Access::read, __builtin_return_address(0));  \
  }                                                                    \
  void __tsan_volatile_write##N(void* p) {                             \
    volatile_access(p, N, Access::write, __builtin_return_address(0)); \
  }
SIM_TSAN_ACCESSES(1)
SIM_TSAN_ACCESSES(2)
SIM_TSAN_ACCESSES(4)
SIM_TSAN_ACCESSES(8)
SIM_TSAN_ACCESSES(16)
#undef SIM_TSAN_ACCESSES

#define SIM_TSAN_UNALIGNED_ACCESSES(N)                               \
  void __tsan_unaligned_read##N(void* p) {                           \
    access(p, N, Access::read, false, __builtin_return_address(0));  \
  }                                                                  \
  void __tsan_unaligned_write##N(void* p) {                          \
    access(p, N, Access::write, false, __builtin_return_address(0)); \
  }
SIM_TSAN_UNALIGNED_ACCESSES(2)
SIM_TSAN_UNALIGNED_ACCESSES(4)
SIM_TSAN_UNALIGNED_ACCESSES(8)
SIM_TSAN_UNALIGNED_ACCESSES(16)
#undef SIM_TSAN_UNALIGNED_ACCESSES

// The memory-order arguments (tsan's morder) are ignored: every operation is sequentially consistent.
#define SIM_TSAN_ATOMICS(N, T)                                                         \
  T __tsan_atomic##N##_load(const volatile T* a, int) {                                \
    return Atomic<T>::load(a);                                                         \
  }                                                                                    \
  void __tsan_atomic##N##_store(volatile T* a, T v, int) {                             \
    Atomic<T>::store(a, v);                                                            \
  }                                                                                    \
  T __tsan_atomic##N##_exchange(volatile T* a, T v, int) {                             \
    return Atomic<T>::exchange(a, v);                                                  \
  }                                                                                    \
  T __tsan_atomic##N##_fetch_add(volatile T* a, T v, int) {                            \
    return Atomic<T>::fetch_add(a, v);                                                 \
  }                                                                                    \
  T __tsan_atomic##N##_fetch_sub(volatile T* a, T v, int) {                            \
    return Atomic<T>::fetch_sub(a, v);                                                 \
  }                                                                                    \
  T __tsan_atomic##N##_fetch_and(volatile T* a, T v, int) {                            \
    return Atomic<T>::fetch_and(a, v);                                                 \
  }                                                                                    \
  T __tsan_atomic##N##_fetch_or(volatile T* a, T v, int) {                             \
    return Atomic<T>::fetch_or(a, v);                                                  \
  }                                                                                    \
  T __tsan_atomic##N##_fetch_xor(volatile T* a, T v, int) {                            \
    return Atomic<T>::fetch_xor(a, v);                                                 \
  }                                                                                    \
  T __tsan_atomic##N##_fetch_nand(volatile T* a, T v, int) {                           \
    return Atomic<T>::fetch_nand(a, v);                                                \
  }                                                                                    \
  int __tsan_atomic##N##_compare_exchange_strong(volatile T* a, T* c, T v, int, int) { \
    return Atomic<T>::compare_exchange(a, c, v);                                       \
  }                                                                                    \
  int __tsan_atomic##N##_compare_exchange_weak(volatile T* a, T* c, T v, int, int) {   \
    return Atomic<T>::compare_exchange(a, c, v);                                       \
  }                                                                                    \
  T __tsan_atomic##N##_compare_exchange_val(volatile T* a, T c, T v, int, int) {       \
    Atomic<T>::compare_exchange(a, &c, v);                                             \
    return c;                                                                          \
  }
SIM_TSAN_ATOMICS(8, char)
SIM_TSAN_ATOMICS(16, short)
SIM_TSAN_ATOMICS(32, int)
SIM_TSAN_ATOMICS(64, long)
SIM_TSAN_ATOMICS(128, __int128)
#undef SIM_TSAN_ATOMICS

// The C library's copies, which the learner's shared object calls through --wrap
// (harness/cli/src/compile/build_commands.cpp): their loads and stores are not instrumented code, so
// their ranges are checked here, as a kernel's or host code's accesses.
void* __wrap_memcpy(void* dst, const void* src, size_t bytes) {
  if (bytes) {
    access(const_cast<void*>(src), bytes, Access::read, false, __builtin_return_address(0));
    access(dst, bytes, Access::write, false, __builtin_return_address(0));
  }
  return std::memcpy(dst, src, bytes);
}
void* __wrap_memmove(void* dst, const void* src, size_t bytes) {
  if (bytes) {
    access(const_cast<void*>(src), bytes, Access::read, false, __builtin_return_address(0));
    access(dst, bytes, Access::write, false, __builtin_return_address(0));
  }
  return std::memmove(dst, src, bytes);
}
void* __wrap_memset(void* dst, int value, size_t bytes) {
  if (bytes) access(dst, bytes, Access::write, false, __builtin_return_address(0));
  return std::memset(dst, value, bytes);
}

void __tsan_atomic_thread_fence(int) {
  __atomic_thread_fence(__ATOMIC_SEQ_CST);
}
void __tsan_atomic_signal_fence(int) {
  __atomic_signal_fence(__ATOMIC_SEQ_CST);
}

}  // extern "C"
