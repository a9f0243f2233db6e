// The words of memory findings: which buffer, which element, how far outside.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>

#include "memory/access_kind.hpp"
#include "memory/heap.hpp"

namespace sim::memory {

struct BufferName {
  std::string in_index;     // before "[i]": "y", "buffer"
  std::string in_sentence;  // "y", "the buffer allocated at sum.cu:17", "__shared__ tile"
};

BufferName name_of(const Allocation& allocation);

// "write of 4 bytes", "read of 16 bytes", "atomic update of 4 bytes"
std::string access_words(Access kind, size_t bytes);

// "y[16641]" when the address is a whole number of access sizes from the buffer's start, else
// "y + 6 bytes" (or "y - 2 bytes").
std::string element_at(const std::string& name, uintptr_t start, uintptr_t address, size_t bytes);

// "write of 4 bytes at y[16641], 4 bytes past the end of y (16641 elements of 4 bytes: valid
// indices 0..16640)"
std::string outside_message(const BufferName& name, AddressRange buffer, uintptr_t address, size_t bytes,
                            Access kind);

// "y (16641 elements of 4 bytes: valid indices 0..16640)", or "y (10 bytes)"
std::string extent_words(const std::string& name, size_t buffer_bytes, size_t element_bytes);

// "read of 16 bytes at x + 4 bytes is not aligned to 16 bytes (...)"
std::string misaligned_message(Access kind, size_t bytes, const std::string& element);

std::string file_and_line(const char* file, int line);  // "sum.cu:17" (file without directories)

}  // namespace sim::memory
