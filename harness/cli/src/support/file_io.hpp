// Reading and writing whole files.
#pragma once
#include <filesystem>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace puzzle::cli {

std::optional<std::string> read_text(const std::filesystem::path& file);  // nullopt if unreadable
// A file of floats in memory that is not zeroed first, read on every core (protocol::read_bytes): the
// outputs of the large cases are hundreds of megabytes, and zeroing a vector for them first took 0.15 s of
// each 256 MB case's judging on an H100's host, where the whole read now takes 0.03 s.
class FloatImage {
 public:
  explicit FloatImage(size_t size) : data_(std::make_unique_for_overwrite<float[]>(size)), size_(size) {}
  float* data() { return data_.get(); }
  std::span<const float> floats() const { return {data_.get(), size_}; }
  std::string_view bytes() const {
    return {reinterpret_cast<const char*>(data_.get()), size_ * sizeof(float)};
  }

 private:
  std::unique_ptr<float[]> data_;
  size_t size_;
};
// nullopt if the file is unreadable or its size is not a whole number of floats.
std::optional<FloatImage> read_floats(const std::filesystem::path& file);

// The file's last-modified time as text ("missing" if there is none): a rebuilt program gets a new one.
std::string modification_stamp(const std::filesystem::path& file);

// A program this process may run: a non-empty path to an executable file.
bool is_runnable(const std::filesystem::path& program);

// The first `head` and the last `tail` bytes of a file that may be huge (a kernel printing from every
// thread), with a line saying how much was left out between them. Empty if unreadable.
std::string read_clipped(const std::filesystem::path& file, size_t head, size_t tail);

// Writes to a temporary file beside `file`, then renames it over `file`: readers see the old
// content or the new, never half of it. Creates missing parent directories. Throws on failure.
void write_atomically(const std::filesystem::path& file, const std::string& content);
// "<pid>-<n>": a name part no other call gets, in this process (threads: `grade --class`) or another one
// (ctest -j); the pid first, so that a half-made file's owner can be asked whether it still runs.
std::string unique_suffix();

}  // namespace puzzle::cli
