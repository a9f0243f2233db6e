#include "support/file_io.hpp"

#include <unistd.h>

#include <atomic>
#include <cstdint>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "protocol.hpp"

namespace puzzle::cli {

std::optional<std::string> read_text(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) return std::nullopt;
  return text.str();
}

std::optional<FloatImage> read_floats(const std::filesystem::path& file) {
  std::error_code error;
  const uintmax_t bytes = std::filesystem::file_size(file, error);
  if (error || bytes % sizeof(float) != 0) return std::nullopt;
  FloatImage image(bytes / sizeof(float));
  try {
    protocol::read_bytes(file, reinterpret_cast<char*>(image.data()), static_cast<int64_t>(bytes));
  } catch (const std::runtime_error&) {  // unreadable, or shorter than it was a moment ago
    return std::nullopt;
  }
  return image;
}

std::string modification_stamp(const std::filesystem::path& file) {
  std::error_code ec;
  const auto time = std::filesystem::last_write_time(file, ec);
  return ec ? "missing" : std::to_string(time.time_since_epoch().count());
}

std::string read_clipped(const std::filesystem::path& file, size_t head, size_t tail) {
  std::error_code ec;
  const uintmax_t size = std::filesystem::file_size(file, ec);
  if (ec) return {};
  if (size <= head + tail) return read_text(file).value_or("");
  std::ifstream in(file, std::ios::binary);
  std::string first(head, '\0'), last(tail, '\0');
  in.read(first.data(), static_cast<std::streamsize>(head));
  in.seekg(static_cast<std::streamoff>(size - tail));
  in.read(last.data(), static_cast<std::streamsize>(tail));
  return first + "\n[... " + std::to_string(size - head - tail) + " bytes left out ...]\n" + last;
}

std::string unique_suffix() {
  static std::atomic<uint64_t> calls{0};
  return std::to_string(getpid()) + "-" + std::to_string(calls++);
}

void write_atomically(const std::filesystem::path& file, const std::string& content) {
  if (file.has_parent_path()) std::filesystem::create_directories(file.parent_path());
  const std::filesystem::path temp = file.string() + ".tmp-" + unique_suffix();
  {
    std::ofstream out(temp, std::ios::binary | std::ios::trunc);
    out << content;
    out.flush();
    if (!out) {
      std::error_code ignored;
      std::filesystem::remove(temp, ignored);
      throw std::runtime_error("cannot write " + temp.string());
    }
  }
  std::error_code ec;
  std::filesystem::rename(temp, file, ec);
  if (ec) {
    std::filesystem::remove(temp, ec);
    throw std::runtime_error("cannot write " + file.string() + ": " + ec.message());
  }
}

bool is_runnable(const std::filesystem::path& program) {
  return !program.empty() && access(program.c_str(), X_OK) == 0;
}

}  // namespace puzzle::cli
