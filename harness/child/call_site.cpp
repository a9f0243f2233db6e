#include "call_site.hpp"

#include <dlfcn.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <mutex>

namespace puzzle::child {
namespace {

// addr2line's "FILE:LINE" or "FILE:LINE (discriminator N)" as "line LINE of NAME: ", or empty for "??".
std::string describe_location(const std::string& text) {
  const size_t colon = text.rfind(':', text.find(" ("));
  if (colon == std::string::npos || text.compare(0, 2, "??") == 0) return "";
  const int line = std::atoi(text.c_str() + colon + 1);
  if (line <= 0) return "";
  return "line " + std::to_string(line) + " of " +
         std::filesystem::path(text.substr(0, colon)).filename().string() + ": ";
}

std::string look_up(const void* return_address) {
  Dl_info info{};
  if (!dladdr(return_address, &info) || !info.dli_fname || !info.dli_fbase) return "";
  // The call instruction ends at the return address; a byte before it lies inside the call.
  const auto offset =
      reinterpret_cast<uintptr_t>(return_address) - reinterpret_cast<uintptr_t>(info.dli_fbase) - 1;
  // -i: the inlining chain, innermost first. A CUDA header's inline template (cudaMemcpyFromSymbol<T>)
  // may hold the call: the innermost line in a file of the learner's kinds (.cu, .cuh, .cpp) is theirs.
  char hex[24];  // addr2line reads every address as hexadecimal
  std::snprintf(hex, sizeof hex, "0x%jx", static_cast<uintmax_t>(offset));
  const std::string command = "addr2line -i -e '" + std::string(info.dli_fname) + "' " + hex;
  FILE* pipe = popen(command.c_str(), "r");
  if (!pipe) return "";
  std::string found;
  char line[4096];
  while (found.empty() && std::fgets(line, sizeof line, pipe)) {
    std::string text = line;
    if (!text.empty() && text.back() == '\n') text.pop_back();
    const std::string extension = std::filesystem::path(text.substr(0, text.rfind(':'))).extension().string();
    if (extension == ".cu" || extension == ".cuh" || extension == ".cpp") found = describe_location(text);
  }
  while (std::fgets(line, sizeof line, pipe)) {  // the rest, so that addr2line is not cut off mid-write
  }
  pclose(pipe);
  return found;
}

}  // namespace

std::string describe_call_site(const void* return_address) {
  static std::mutex mutex;
  static std::map<const void*, std::string> known;  // a refused copy in a loop is looked up once
  std::lock_guard lock(mutex);
  const auto it = known.find(return_address);
  if (it != known.end()) return it->second;
  return known[return_address] = look_up(return_address);
}

}  // namespace puzzle::child
