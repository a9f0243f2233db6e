// Raw Linux system calls (x86-64) for the record forgeries: what a file can do without naming any API
// the check of the file refuses. Not a test kernel itself.
#pragma once
#include <cstdio>

namespace forge {

inline long sys(long number, long a, long b, long c) {
  long result;
  asm volatile("syscall" : "=a"(result) : "a"(number), "D"(a), "S"(b), "d"(c) : "rcx", "r11", "memory");
  return result;
}

// The child's work folder is its first argument: WORKDIR/progress.jsonl, opened for appending
// (flags 02101: O_WRONLY | O_CREAT | O_APPEND) or as asked.
inline int open_progress_file(long flags = 02101) {
  static char args[4096];
  const long fd = sys(2, reinterpret_cast<long>("/proc/self/cmdline"), 0, 0);
  const long n = sys(0, fd, reinterpret_cast<long>(args), sizeof args - 1);
  sys(3, fd, 0, 0);
  long at = 0;
  while (at < n && args[at] != '\0') ++at;  // skip argv[0]
  static char path[4096];
  std::snprintf(path, sizeof path, "%s/progress.jsonl", args + at + 1);
  return static_cast<int>(sys(2, reinterpret_cast<long>(path), flags, 0644));
}

inline int format_done(char* line, int index, int seq) {
  return std::snprintf(
      line, 160,
      "{\"case\":%d,\"event\":\"done\",\"inputs_modified\":0,\"kernel_launches\":1,\"seq\":%d}\t"
      "0123456789abcdef\n",
      index, seq);
}

}  // namespace forge
