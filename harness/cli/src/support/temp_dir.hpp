// A fresh directory under $TMPDIR, removed with its contents when the object goes away.
#pragma once
#include <filesystem>
#include <string>

namespace puzzle::cli {

class TempDir {
 public:
  explicit TempDir(const std::string& prefix);  // e.g. "puzzle-check-"
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  ~TempDir();

  const std::filesystem::path& path() const { return path_; }
  void keep() { keep_ = true; }  // leave it for inspection (--verbose)

 private:
  std::filesystem::path path_;
  bool keep_ = false;
};

}  // namespace puzzle::cli
