// Noticing that a file was saved, by polling its modification time and size: no inotify, works on every
// file system (also network and container mounts, where inotify misses changes).
#pragma once
#include <chrono>
#include <filesystem>
#include <functional>

namespace puzzle::cli {

struct FileStamp {
  bool exists = false;
  std::filesystem::file_time_type mtime{};
  uintmax_t size = 0;
  bool operator==(const FileStamp&) const = default;
};

FileStamp stamp_of(const std::filesystem::path& file);

class FileWatcher {
 public:
  explicit FileWatcher(std::filesystem::path file) : file_(std::move(file)), seen_(stamp_of(file_)) {}

  // True once per save: the file changed since the last save reported (or since the watcher was made),
  // exists, and looked the same at this poll as at the one before (an editor may save in several writes,
  // or delete and re-create the file).
  bool saved();

 private:
  std::filesystem::path file_;
  FileStamp seen_;
  bool pending_ = false;
};

// Calls `on_save` after each save of `file`, polling every `interval`, until `keep_going` says false.
void watch_file(const std::filesystem::path& file, const std::function<void()>& on_save,
                const std::function<bool()>& keep_going, std::chrono::milliseconds interval);

}  // namespace puzzle::cli
