#include "support/temp_dir.hpp"

#include <stdlib.h>

#include <cerrno>
#include <cstring>
#include <system_error>

namespace puzzle::cli {

TempDir::TempDir(const std::string& prefix) {
  std::string pattern = (std::filesystem::temp_directory_path() / (prefix + "XXXXXX")).string();
  if (!mkdtemp(pattern.data())) throw std::system_error(errno, std::generic_category(), "mkdtemp " + pattern);
  path_ = pattern;
}

TempDir::~TempDir() {
  std::error_code ignored;
  if (!keep_) std::filesystem::remove_all(path_, ignored);
}

}  // namespace puzzle::cli
