#include "memory/describe.hpp"

#include <cstring>

namespace sim::memory {
namespace {

std::string byte_count(size_t n) {
  return std::to_string(n) + (n == 1 ? " byte" : " bytes");
}

}  // namespace

std::string file_and_line(const char* file, int line) {
  if (!file) return "an unknown line";
  const char* slash = std::strrchr(file, '/');
  return std::string(slash ? slash + 1 : file) + ":" + std::to_string(line);
}

BufferName name_of(const Allocation& allocation) {
  if (!allocation.label.empty()) return {allocation.label, allocation.label};
  return {"buffer", "the buffer allocated at " + file_and_line(allocation.file, allocation.line)};
}

std::string access_words(Access kind, size_t bytes) {
  static constexpr const char* kVerbs[] = {"read", "write", "atomic update"};
  return std::string(kVerbs[static_cast<int>(kind)]) + " of " + byte_count(bytes);
}

std::string element_at(const std::string& name, uintptr_t start, uintptr_t address, size_t bytes) {
  const auto offset = static_cast<intptr_t>(address - start);
  if (offset % static_cast<intptr_t>(bytes) == 0)
    return name + "[" + std::to_string(offset / static_cast<intptr_t>(bytes)) + "]";
  return name + (offset < 0 ? " - " : " + ") + byte_count(offset < 0 ? -offset : offset);
}

std::string extent_words(const std::string& name, size_t buffer_bytes, size_t element_bytes) {
  if (buffer_bytes == 0 || buffer_bytes % element_bytes != 0)
    return name + " (" + byte_count(buffer_bytes) + ")";
  const size_t elements = buffer_bytes / element_bytes;
  return name + " (" + std::to_string(elements) + " elements of " + byte_count(element_bytes) +
         ": valid indices 0.." + std::to_string(elements - 1) + ")";
}

std::string outside_message(const BufferName& name, AddressRange buffer, uintptr_t address, size_t bytes,
                            Access kind) {
  std::string how_far;
  if (address < buffer.lo) {
    how_far = byte_count(buffer.lo - address) + " before the start of ";
  } else if (address + bytes > buffer.hi) {
    how_far = byte_count(address + bytes - buffer.hi) + " past the end of ";
  } else {
    how_far = "inside a guard zone of ";
  }
  return access_words(kind, bytes) + " at " + element_at(name.in_index, buffer.lo, address, bytes) + ", " +
         how_far + extent_words(name.in_sentence, buffer.size(), bytes);
}

std::string misaligned_message(Access kind, size_t bytes, const std::string& element) {
  return access_words(kind, bytes) + " at " + element + " is not aligned to " + byte_count(bytes) +
         ": a GPU stops the kernel with cudaErrorMisalignedAddress (the simulator stopped this block)";
}

}  // namespace sim::memory
