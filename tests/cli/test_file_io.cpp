#include <doctest/doctest.h>
#include <unistd.h>

#include <string>
#include <thread>

#include "support/file_io.hpp"
#include "support/temp_dir.hpp"

using namespace puzzle::cli;

TEST_CASE("a huge output file is read as its head and its tail") {
  TempDir dir("cli-test-");
  const auto file = dir.path() / "stderr";
  const std::string middle(10000, 'm');
  write_atomically(file, "HEAD" + middle + "[sim] crash: at the end\n");
  const std::string text = read_clipped(file, 4, 24);
  CHECK(text.starts_with("HEAD\n[... 10000 bytes left out ...]\n"));
  CHECK(text.ends_with("[sim] crash: at the end\n"));
  CHECK(read_clipped(file, 1 << 20, 0).size() == 10028);  // small enough: all of it
  CHECK(read_clipped(dir.path() / "missing", 4, 4).empty());
  CHECK_FALSE(read_text(dir.path() / "missing"));
}

TEST_CASE("a scratch name part is new at each call, threads included, and starts with the process id") {
  // Two threads of `grade --class` built the same runner in one scratch folder named by the pid alone.
  std::string first, second;
  std::thread other([&] { second = unique_suffix(); });
  first = unique_suffix();
  other.join();
  CHECK(first != second);
  CHECK(first.starts_with(std::to_string(getpid()) + "-"));
  CHECK(second.starts_with(std::to_string(getpid()) + "-"));
}
