// The block-level intrinsics of sim/sync.h.
#include <atomic>
#include <chrono>

#include "diagnostics/describe.hpp"
#include "execution/block_runner.hpp"
#include "memory/checker.hpp"
#include "sim/sync.h"

namespace {

int barrier(int predicate, std::source_location where) {
  sim::SimThread& self = sim::calling_thread("__syncthreads");
  return sim::BlockRunner::for_this_thread().barrier(self, predicate, where);
}

unsigned threads_in_block() {
  const dim3 dim = sim::calling_thread("__syncthreads_and").block->block_dim;
  return dim.x * dim.y * dim.z;
}

}  // namespace

void __syncthreads(std::source_location where) {
  barrier(0, where);
}
int __syncthreads_count(int predicate, std::source_location where) {
  return barrier(predicate, where);
}
int __syncthreads_and(int predicate, std::source_location where) {
  return static_cast<unsigned>(barrier(predicate, where)) == threads_in_block();
}
int __syncthreads_or(int predicate, std::source_location where) {
  return barrier(predicate, where) > 0;
}

// Blocks run on several host threads: a fence must order their memory accesses as on the GPU.
void __threadfence() {
  std::atomic_thread_fence(std::memory_order_seq_cst);
  sim::memory::on_threadfence();
}
void __threadfence_block() {
  std::atomic_thread_fence(std::memory_order_seq_cst);
}
void __threadfence_system() {
  std::atomic_thread_fence(std::memory_order_seq_cst);
  sim::memory::on_threadfence();
}

void __trap(std::source_location where) {
  sim::SimThread& self = sim::calling_thread("__trap");
  sim::report(sim::Severity::error, "kernel_trap", sim::where_of(where),
              "__trap() called in " + sim::describe_block(*self.block) + ", thread " +
                  std::to_string(self.linear) + ": the GPU would abort the kernel (cudaErrorLaunchFailure).");
  sim::memory::note_kernel_fault(cudaErrorLaunchFailure);
  sim::BlockRunner::for_this_thread().abandon_block(self);
}

void __nanosleep(unsigned int) {}

long long int clock64() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}
