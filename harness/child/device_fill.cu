#include <algorithm>

#include "device_fill.hpp"

namespace puzzle::child {
namespace {

constexpr int kThreads = 256;
constexpr int kMaxBlocks = 4096;

int blocks_for(size_t count) {
  return static_cast<int>(std::min<size_t>((count + kThreads - 1) / kThreads, kMaxBlocks));
}

template <class Element>
__global__ void fill_elements(Element* elements, Element bits, size_t count) {
  for (size_t i = blockIdx.x * size_t{blockDim.x} + threadIdx.x; i < count;
       i += size_t{gridDim.x} * blockDim.x)
    elements[i] = bits;
}

template <class Element>
__global__ void count_differences(const Element* a, const Element* b, size_t count,
                                  unsigned long long* differences) {
  unsigned long long mine = 0;
  for (size_t i = blockIdx.x * size_t{blockDim.x} + threadIdx.x; i < count;
       i += size_t{gridDim.x} * blockDim.x)
    mine += a[i] != b[i];
  if (mine) atomicAdd(differences, mine);
}

}  // namespace

cudaError_t launch_fill(void* dst, uint32_t bits, size_t elements, size_t element_bytes) {
  if (elements == 0) return cudaSuccess;
  if (element_bytes == 2) {
    fill_elements<<<blocks_for(elements), kThreads>>>(static_cast<uint16_t*>(dst),
                                                      static_cast<uint16_t>(bits), elements);
  } else {
    fill_elements<<<blocks_for(elements), kThreads>>>(static_cast<uint32_t*>(dst), bits, elements);
  }
  return cudaGetLastError();
}

cudaError_t launch_count_differences(const void* a, const void* b, size_t elements, size_t element_bytes,
                                     unsigned long long* counter) {
  if (elements == 0) return cudaSuccess;
  if (element_bytes == 2) {
    count_differences<<<blocks_for(elements), kThreads>>>(static_cast<const uint16_t*>(a),
                                                          static_cast<const uint16_t*>(b), elements, counter);
  } else {
    count_differences<<<blocks_for(elements), kThreads>>>(static_cast<const uint32_t*>(a),
                                                          static_cast<const uint32_t*>(b), elements, counter);
  }
  return cudaGetLastError();
}

}  // namespace puzzle::child
