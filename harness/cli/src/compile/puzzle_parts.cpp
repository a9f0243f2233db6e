#include "compile/puzzle_parts.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "support/errors.hpp"
#include "support/subprocess.hpp"

namespace puzzle::cli {
namespace {

bool built(const std::map<int, std::filesystem::path>& libraries, int puzzle_id) {
  const auto it = libraries.find(puzzle_id);
  return it != libraries.end() && std::filesystem::exists(it->second);
}

bool parts_built(const BuildConfig& config, int puzzle_id) {
  return built(config.entry_libraries, puzzle_id) && built(config.glue_libraries, puzzle_id);
}

// An exclusive lock on a file of the build folder, for as long as it lives: two builds of one folder at
// once would corrupt it.
class BuildFolderLock {
 public:
  explicit BuildFolderLock(const std::filesystem::path& file)
      : fd_(open(file.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644)) {
    if (fd_ >= 0) flock(fd_, LOCK_EX);
  }
  BuildFolderLock(const BuildFolderLock&) = delete;
  BuildFolderLock& operator=(const BuildFolderLock&) = delete;
  ~BuildFolderLock() {
    if (fd_ >= 0) close(fd_);  // closing releases the lock
  }

 private:
  int fd_;
};

std::string last_lines(const std::string& text, int count) {
  size_t at = text.size();
  while (count-- > 0 && at > 0) {
    const size_t newline = text.rfind('\n', at - 1);
    if (newline == std::string::npos) return text;
    at = newline;
  }
  return text.substr(at);
}

}  // namespace

void build_missing_puzzle_parts(const BuildConfig& config, int puzzle_id) {
  if (parts_built(config, puzzle_id)) return;
  // Each call opens the lock file anew, so flock also keeps this process's threads (grade --jobs) apart.
  const BuildFolderLock one_build(config.build_dir / "puzzle_parts.lock");
  if (parts_built(config, puzzle_id)) return;  // another check built them meanwhile
  if (config.cmake.empty() || !std::filesystem::exists(config.cmake)) {
    throw EnvironmentError("puzzle " + std::to_string(puzzle_id) + "'s harness libraries are not built in " +
                           config.build_dir.string() + ", and CMake is not found to build them");
  }
  char id[8];
  std::snprintf(id, sizeof id, "%02d", puzzle_id);
  std::fprintf(stderr, "puzzle: building puzzle %d's part of the harness (once)\n", puzzle_id);
  const CapturedRun run =
      run_captured({config.cmake.string(), "--build", config.build_dir.string(), "--target",
                    std::string("puzzle_entry_") + id, std::string("puzzle_glue_") + id});
  if (!run.status.ok() || !parts_built(config, puzzle_id)) {
    throw EnvironmentError("building puzzle " + std::to_string(puzzle_id) +
                           "'s harness libraries failed:" + last_lines(run.output, 12));
  }
}

}  // namespace puzzle::cli
