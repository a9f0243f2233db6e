#include "diagnostics/describe.hpp"

#include <cstdio>
#include <cstring>

namespace sim {
namespace {

const char* basename_of(const char* path) {
  const char* slash = std::strrchr(path, '/');
  return slash ? slash + 1 : path;
}

std::string describe_index(unsigned linear, const dim3& dim) {
  if (dim.y == 1 && dim.z == 1) return std::to_string(linear);
  return "(" + std::to_string(linear % dim.x) + "," + std::to_string(linear / dim.x % dim.y) + "," +
         std::to_string(linear / (dim.x * dim.y)) + ")";
}

}  // namespace

bool same_site(const std::source_location& a, const std::source_location& b) {
  return a.line() == b.line() && a.column() == b.column() &&
         (a.file_name() == b.file_name() || std::strcmp(a.file_name(), b.file_name()) == 0);
}

std::string describe_site(const std::source_location& where, bool with_column) {
  std::string site = std::string(basename_of(where.file_name())) + ":" + std::to_string(where.line());
  if (with_column) site += ":" + std::to_string(where.column());
  return site;
}

std::string describe_block(const BlockState& block) {
  return "block (" + std::to_string(block.block_idx.x) + "," + std::to_string(block.block_idx.y) + "," +
         std::to_string(block.block_idx.z) + ")";
}

std::string describe_threads(const std::vector<unsigned>& linear, const dim3& block_dim) {
  constexpr size_t kMaxRanges = 6;
  std::string text = linear.size() == 1 ? "thread " : "threads ";
  size_t ranges = 0;
  for (size_t i = 0; i < linear.size();) {
    size_t end = i;
    while (end + 1 < linear.size() && linear[end + 1] == linear[end] + 1) ++end;
    if (ranges == kMaxRanges) {
      text += ", and " + std::to_string(linear.size() - i) + " more";
      break;
    }
    if (ranges++ > 0) text += ", ";
    text += describe_index(linear[i], block_dim);
    if (end > i) text += "-" + describe_index(linear[end], block_dim);
    i = end + 1;
  }
  return text;
}

std::string hex_mask(uint32_t mask) {
  char text[16];
  std::snprintf(text, sizeof text, "0x%08x", mask);
  return text;
}

Where where_of(const std::source_location& where) {
  return Where{where.file_name(), static_cast<int>(where.line()), 0};
}

void report_as(const ThreadState& thread, Severity severity, const char* kind,
               const std::source_location& where, std::string message) {
  ThreadState* const running = current_thread();
  set_current_thread(const_cast<ThreadState*>(&thread));
  report(severity, kind, where_of(where), std::move(message));
  set_current_thread(running);
}

}  // namespace sim
