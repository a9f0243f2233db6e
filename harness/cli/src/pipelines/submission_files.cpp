#include "pipelines/submission_files.hpp"

#include <vector>

namespace puzzle::cli {

namespace fs = std::filesystem;

std::optional<fs::path> find_submitted_file(const fs::path& dir, const std::string& name) {
  std::optional<fs::path> best;
  size_t best_depth = 0;
  std::error_code ec;
  fs::recursive_directory_iterator it(dir, fs::directory_options::skip_permission_denied, ec), end;
  for (; !ec && it != end; it.increment(ec)) {
    const auto& entry = *it;
    const std::string file_name = entry.path().filename().string();
    if (entry.is_directory(ec) && (file_name.starts_with(".") || file_name == "__MACOSX")) {
      it.disable_recursion_pending();
      continue;
    }
    if (file_name != name || !entry.is_regular_file(ec)) continue;
    const size_t depth = static_cast<size_t>(it.depth());
    if (!best || depth < best_depth || (depth == best_depth && entry.path() < *best)) {
      best = entry.path();
      best_depth = depth;
    }
  }
  return best;
}

}  // namespace puzzle::cli
