#include "diagnostics/symbolize.hpp"

#include <fcntl.h>
#include <link.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <mutex>

extern char** environ;

namespace sim {
namespace {

// The loaded object that holds `address` (nullptr: the main program, the first object).
CodeModule module_of(const void* address) {
  struct Search {
    uintptr_t address;
    CodeModule found;
  } search{reinterpret_cast<uintptr_t>(address), {}};
  dl_iterate_phdr(
      [](dl_phdr_info* info, size_t, void* out) {
        auto& s = *static_cast<Search*>(out);
        CodeModule module{.path = info->dlpi_name ? info->dlpi_name : "", .base = info->dlpi_addr};
        for (int i = 0; i < info->dlpi_phnum; ++i) {
          const ElfW(Phdr)& segment = info->dlpi_phdr[i];
          if (segment.p_type != PT_LOAD) continue;
          module.lo = std::min<uintptr_t>(module.lo, info->dlpi_addr + segment.p_vaddr);
          module.hi = std::max<uintptr_t>(module.hi, info->dlpi_addr + segment.p_vaddr + segment.p_memsz);
        }
        if (s.address != 0 && !module.contains(s.address)) return 0;
        s.found = std::move(module);
        return 1;
      },
      &search);
  if (search.found.path.empty()) {  // the main program's name is empty there
    char path[4096];
    const ssize_t n = readlink("/proc/self/exe", path, sizeof path - 1);
    if (n > 0) search.found.path.assign(path, n);
  }
  return search.found;
}

CodeModule& learner_module() {
  static CodeModule module = module_of(nullptr);
  return module;
}

// Runs `argv` and returns its standard output ("" if it cannot run).
std::string run_and_read(const std::vector<std::string>& args) {
  int pipe_fds[2];
  if (pipe2(pipe_fds, O_CLOEXEC) != 0) return "";
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, pipe_fds[1], STDOUT_FILENO);
  posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
  std::vector<char*> argv;
  for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  pid_t pid = 0;
  const int spawned = posix_spawnp(&pid, argv[0], &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  close(pipe_fds[1]);
  std::string output;
  if (spawned == 0) {
    char buffer[65536];
    for (ssize_t n; (n = read(pipe_fds[0], buffer, sizeof buffer)) > 0;) output.append(buffer, n);
    int status = 0;
    waitpid(pid, &status, 0);
  }
  close(pipe_fds[0]);
  return output;
}

// Frames in the simulator's CUDA headers or the C++ library are never the learner's line.
bool is_learner_file(const std::string& file) {
  return file != "??" && file.find("sim/include/") == std::string::npos && file.rfind("/usr/", 0) != 0;
}

// "path/file.cu:42 (discriminator 3)" -> {path/file.cu, 42}
SourceLine parse_location(const std::string& text) {
  const size_t colon = text.rfind(':', text.find(" (discriminator"));
  if (colon == std::string::npos) return {};
  const int line = std::atoi(text.c_str() + colon + 1);
  if (line == 0 || text.compare(0, colon, "??") == 0) return {};
  return {text.substr(0, colon), line};
}

std::vector<std::string> split_lines(const std::string& text) {
  std::vector<std::string> lines;
  size_t start = 0;
  for (size_t end; (end = text.find('\n', start)) != std::string::npos; start = end + 1)
    lines.push_back(text.substr(start, end - start));
  return lines;
}

}  // namespace

void set_learner_code(const void* address) {
  learner_module() = module_of(address);
}

const CodeModule& learner_code() {
  return learner_module();
}

uintptr_t learner_offset(uintptr_t pc) {
  return pc - learner_code().base;
}

std::vector<SourceLine> symbolize(const std::vector<uintptr_t>& pcs) {
  std::vector<SourceLine> result(pcs.size());
  if (pcs.empty()) return result;
  // Every launch of every case asks again for the same few lines (a check of puzzle 1's clear solution ran
  // addr2line 150 times): each offset is looked up once per process.
  static std::mutex mutex;
  static std::map<uintptr_t, SourceLine> known;
  const std::lock_guard<std::mutex> lock(mutex);
  const uintptr_t base = learner_code().base;
  // A PC is a return address; the call that made the access is the byte before it.
  std::vector<std::string> args = {"addr2line", "-e", learner_code().path, "-f", "-C", "-i", "-a"};
  for (uintptr_t pc : pcs) {
    const uintptr_t offset = pc - 1 - base;
    if (known.contains(offset)) continue;
    char hex[32];
    std::snprintf(hex, sizeof hex, "0x%lx", static_cast<unsigned long>(offset));
    args.push_back(hex);
    known[offset];
  }

  // Output: for each address "0x<address>", then (function, file:line) line pairs, innermost first.
  uintptr_t current = 0;
  size_t line_in_block = 0;
  bool found_learner = false;
  const std::string output = args.size() > 7 ? run_and_read(args) : std::string();
  for (const std::string& line : split_lines(output)) {
    if (line.rfind("0x", 0) == 0) {
      current = std::strtoull(line.c_str(), nullptr, 16);
      line_in_block = 0;
      found_learner = false;
      continue;
    }
    if (line_in_block++ % 2 == 0 || found_learner) continue;  // function names
    const SourceLine frame = parse_location(line);
    if (frame.file.empty()) continue;
    SourceLine& chosen = known[current];
    if (chosen.file.empty()) chosen = frame;  // the innermost frame, if no frame is the learner's
    if (is_learner_file(frame.file)) {
      chosen = frame;
      found_learner = true;
    }
  }
  for (size_t i = 0; i < pcs.size(); ++i) result[i] = known[pcs[i] - 1 - base];
  return result;
}

}  // namespace sim
