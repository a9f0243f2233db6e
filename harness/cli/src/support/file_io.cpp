#include "file_io.hpp"

#include <unistd.h>

#include <fstream>
#include <sstream>
#include <stdexcept>

namespace puzzle::cli {

std::optional<std::string> read_text(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) return std::nullopt;
  return text.str();
}

std::optional<std::vector<float>> read_floats(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary | std::ios::ate);
  if (!in) return std::nullopt;
  const std::streamoff size = in.tellg();
  if (size < 0 || size % static_cast<std::streamoff>(sizeof(float)) != 0) return std::nullopt;
  std::vector<float> floats(static_cast<size_t>(size) / sizeof(float));
  in.seekg(0);
  in.read(reinterpret_cast<char*>(floats.data()), size);
  if (in.gcount() != size) return std::nullopt;
  return floats;
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

void write_atomically(const std::filesystem::path& file, const std::string& content) {
  if (file.has_parent_path()) std::filesystem::create_directories(file.parent_path());
  const std::filesystem::path temp = file.string() + ".tmp-" + std::to_string(getpid());
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

}  // namespace puzzle::cli
