// CUDA's atomic functions (sim/atomics.h). Blocks run on several host threads, so every atomic is a
// real one (std::atomic_ref); CUDA's atomics are relaxed, and __threadfence orders around them.
#include "sim/atomics.h"

#include <atomic>

#include "memory/checker.hpp"
#include "memory/ordering.hpp"

namespace {

constexpr auto kRelaxed = std::memory_order_relaxed;

template <class T>
std::atomic_ref<T> checked(T* address, std::source_location where) {
  sim::memory::on_atomic(address, sizeof(T), where);
  return std::atomic_ref<T>(*address);
}

// Read-modify-write with any update: returns the old value.
template <class T, class Update>
T update(T* address, std::source_location where, Update next) {
  std::atomic_ref<T> ref = checked(address, where);
  const sim::memory::OrderedAtomic ordered(address);
  T old = ref.load(kRelaxed);
  while (!ref.compare_exchange_weak(old, next(old), kRelaxed)) {
  }
  return old;
}

}  // namespace

#define SIM_ATOMIC_FETCH(name, T, fetch)                    \
  T name(T* address, T val, std::source_location where) {   \
    const std::atomic_ref<T> ref = checked(address, where); \
    const sim::memory::OrderedAtomic ordered(address);      \
    return ref.fetch(val, kRelaxed);                        \
  }
SIM_ATOMIC_FETCH(atomicAdd, int, fetch_add)
SIM_ATOMIC_FETCH(atomicAdd, unsigned int, fetch_add)
SIM_ATOMIC_FETCH(atomicAdd, unsigned long long, fetch_add)
SIM_ATOMIC_FETCH(atomicAdd, float, fetch_add)
SIM_ATOMIC_FETCH(atomicAdd, double, fetch_add)
SIM_ATOMIC_FETCH(atomicSub, int, fetch_sub)
SIM_ATOMIC_FETCH(atomicSub, unsigned int, fetch_sub)
SIM_ATOMIC_FETCH(atomicExch, int, exchange)
SIM_ATOMIC_FETCH(atomicExch, unsigned int, exchange)
SIM_ATOMIC_FETCH(atomicExch, unsigned long long, exchange)
SIM_ATOMIC_FETCH(atomicExch, float, exchange)
SIM_ATOMIC_FETCH(atomicAnd, int, fetch_and)
SIM_ATOMIC_FETCH(atomicAnd, unsigned int, fetch_and)
SIM_ATOMIC_FETCH(atomicAnd, unsigned long long, fetch_and)
SIM_ATOMIC_FETCH(atomicOr, int, fetch_or)
SIM_ATOMIC_FETCH(atomicOr, unsigned int, fetch_or)
SIM_ATOMIC_FETCH(atomicOr, unsigned long long, fetch_or)
SIM_ATOMIC_FETCH(atomicXor, int, fetch_xor)
SIM_ATOMIC_FETCH(atomicXor, unsigned int, fetch_xor)
SIM_ATOMIC_FETCH(atomicXor, unsigned long long, fetch_xor)
#undef SIM_ATOMIC_FETCH

// One access of the vector's size for the checker (its alignment, races, traffic), then an atomic add per
// element, as on sm_90.
float2 atomicAdd(float2* address, float2 val, std::source_location where) {
  sim::memory::on_atomic(address, sizeof(float2), where);
  const sim::memory::OrderedAtomic ordered(address);
  return {std::atomic_ref<float>(address->x).fetch_add(val.x, kRelaxed),
          std::atomic_ref<float>(address->y).fetch_add(val.y, kRelaxed)};
}

float4 atomicAdd(float4* address, float4 val, std::source_location where) {
  sim::memory::on_atomic(address, sizeof(float4), where);
  const sim::memory::OrderedAtomic ordered(address);
  return {std::atomic_ref<float>(address->x).fetch_add(val.x, kRelaxed),
          std::atomic_ref<float>(address->y).fetch_add(val.y, kRelaxed),
          std::atomic_ref<float>(address->z).fetch_add(val.z, kRelaxed),
          std::atomic_ref<float>(address->w).fetch_add(val.w, kRelaxed)};
}

#define SIM_ATOMIC_MIN_MAX(T)                                                      \
  T atomicMin(T* address, T val, std::source_location where) {                     \
    return update(address, where, [val](T old) { return val < old ? val : old; }); \
  }                                                                                \
  T atomicMax(T* address, T val, std::source_location where) {                     \
    return update(address, where, [val](T old) { return val > old ? val : old; }); \
  }
SIM_ATOMIC_MIN_MAX(int)
SIM_ATOMIC_MIN_MAX(unsigned int)
SIM_ATOMIC_MIN_MAX(long long)
SIM_ATOMIC_MIN_MAX(unsigned long long)
#undef SIM_ATOMIC_MIN_MAX

unsigned int atomicInc(unsigned int* address, unsigned int val, std::source_location where) {
  return update(address, where, [val](unsigned int old) { return old >= val ? 0u : old + 1; });
}

unsigned int atomicDec(unsigned int* address, unsigned int val, std::source_location where) {
  return update(address, where, [val](unsigned int old) { return old == 0 || old > val ? val : old - 1; });
}

#define SIM_ATOMIC_CAS(T)                                                 \
  T atomicCAS(T* address, T compare, T val, std::source_location where) { \
    const std::atomic_ref<T> ref = checked(address, where);               \
    const sim::memory::OrderedAtomic ordered(address);                    \
    ref.compare_exchange_strong(compare, val, kRelaxed);                  \
    return compare;                                                       \
  }
SIM_ATOMIC_CAS(int)
SIM_ATOMIC_CAS(unsigned int)
SIM_ATOMIC_CAS(unsigned short)
SIM_ATOMIC_CAS(unsigned long long)
#undef SIM_ATOMIC_CAS
