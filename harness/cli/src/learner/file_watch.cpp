#include "learner/file_watch.hpp"

#include <thread>

namespace puzzle::cli {

FileStamp stamp_of(const std::filesystem::path& file) {
  std::error_code ec;
  const auto status = std::filesystem::status(file, ec);
  if (ec || !std::filesystem::is_regular_file(status)) return {};
  FileStamp stamp{.exists = true, .mtime = std::filesystem::last_write_time(file, ec)};
  stamp.size = std::filesystem::file_size(file, ec);
  if (ec) return {};
  return stamp;
}

bool FileWatcher::saved() {
  const FileStamp now = stamp_of(file_);
  if (now != seen_) {
    seen_ = now;
    pending_ = true;
    return false;  // still being written, maybe: report it at the next poll if it stays the same
  }
  if (!pending_ || !now.exists) return false;
  pending_ = false;
  return true;
}

void watch_file(const std::filesystem::path& file, const std::function<void()>& on_save,
                const std::function<bool()>& keep_going, std::chrono::milliseconds interval) {
  FileWatcher watcher(file);
  while (keep_going()) {
    std::this_thread::sleep_for(interval);
    if (watcher.saved()) on_save();
  }
}

}  // namespace puzzle::cli
