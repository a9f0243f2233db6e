// Block-level synchronization, memory fences and the other controls of the running thread.
#pragma once
#include <source_location>

void __syncthreads(std::source_location where = std::source_location::current());
int __syncthreads_count(int predicate, std::source_location where = std::source_location::current());
int __syncthreads_and(int predicate, std::source_location where = std::source_location::current());
int __syncthreads_or(int predicate, std::source_location where = std::source_location::current());

void __threadfence();
void __threadfence_block();
void __threadfence_system();

// Ends the block with a finding (the GPU would abort the whole kernel).
[[noreturn]] void __trap(std::source_location where = std::source_location::current());
void __nanosleep(unsigned int ns);
long long int clock64();
