// Shared memory as the translator rewrites it (sim/translate):
//   __shared__ float tile[32][33];   ->  static ::sim::SharedSite tile__site{"tile", 12};
//                                        auto& tile = ::sim::shared_var<float[32][33]>(tile__site);
//   extern __shared__ float buf[];   ->  float* const buf = ::sim::dynamic_shared<float>();
// Every thread of a block that reaches the declaration gets the same storage, its block's own.
#pragma once
#include <cstddef>

namespace sim {

struct SharedSite {
  const char* name;
  int line;
  // Filled by the runtime on first use (one declaration site = one variable per block).
  mutable int slot = -1;
};

void* shared_storage(const SharedSite& site, size_t size, size_t align);
void* dynamic_shared_storage();

template <class T>
T& shared_var(const SharedSite& site, size_t align = alignof(T)) {
  return *static_cast<T*>(shared_storage(site, sizeof(T), align < 16 ? 16 : align));
}

template <class T>
T* dynamic_shared() {
  return static_cast<T*>(dynamic_shared_storage());
}

}  // namespace sim
