// The GPU probe's copy figure: measured once per device, then only the device's name is asked for.
#include <doctest/doctest.h>
#include <sys/stat.h>

#include <fstream>

#include "device_probe.hpp"
#include "file_io.hpp"
#include "temp_dir.hpp"

using namespace puzzle::cli;

namespace {

// A stand-in for puzzle-device-probe: appends its arguments to calls.txt and answers as the device named in
// device.txt, with a copy figure only when it was not told --without-copy.
std::filesystem::path fake_probe(const std::filesystem::path& dir) {
  const auto script = dir / "probe.sh";
  std::ofstream(script)
      << "#!/bin/sh\n"
      << "dir=$(dirname \"$0\")\n"
      << "echo \"[$*]\" >> \"$dir/calls.txt\"\n"
      << "name=$(cat \"$dir/device.txt\")\n"
      << "if [ \"$1\" = --without-copy ]; then\n"
      << "  echo \"{\\\"name\\\": \\\"$name\\\", \\\"compute_capability\\\": \\\"9.0\\\"}\"\n"
      << "else\n"
      << "  echo \"{\\\"name\\\": \\\"$name\\\", \\\"compute_capability\\\": \\\"9.0\\\", "
         "\\\"copy_gbps\\\": 3000}\"\n"
      << "fi\n";
  chmod(script.c_str(), 0755);
  return script;
}

}  // namespace

TEST_CASE("the probe measures the copy bandwidth once per device, then asks only for the device") {
  TempDir dir("cli-probe-");
  BuildConfig config;
  config.have_cuda = true;
  config.build_dir = dir.path();
  config.probe = fake_probe(dir.path());
  const auto calls = [&] { return read_text(dir.path() / "calls.txt").value_or(""); };
  write_atomically(dir.path() / "device.txt", "GPU A");

  GpuProbe first = probe_gpu(config);
  REQUIRE(first.found);
  CHECK(first.device.name == "GPU A");
  CHECK(first.device.copy_gbps == 3000);
  CHECK(calls() == "[]\n");  // nothing known yet: measured

  GpuProbe again = probe_gpu(config);
  REQUIRE(again.found);
  CHECK(again.device.copy_gbps == 3000);  // the cached figure
  CHECK(again.device.compute_capability == "9.0");
  CHECK(calls() == "[]\n[--without-copy]\n");

  // Another device in the same build (a card swapped, a machine image reused): asked, then measured.
  write_atomically(dir.path() / "device.txt", "GPU B");
  GpuProbe other = probe_gpu(config);
  REQUIRE(other.found);
  CHECK(other.device.name == "GPU B");
  CHECK(other.device.copy_gbps == 3000);
  CHECK(calls() == "[]\n[--without-copy]\n[--without-copy]\n[]\n");
}

TEST_CASE("a probe that fails says why, and a GPU is not found") {
  TempDir dir("cli-probe-");
  BuildConfig config;
  config.have_cuda = true;
  config.build_dir = dir.path();
  config.probe = dir.path() / "probe.sh";
  std::ofstream(config.probe)
      << "#!/bin/sh\necho '{\"error\": \"cudaErrorNoDevice: no CUDA-capable device\"}'\n"
      << "exit 2\n";
  chmod(config.probe.c_str(), 0755);
  const GpuProbe probe = probe_gpu(config);
  CHECK_FALSE(probe.found);
  CHECK(probe.why_not == "cudaErrorNoDevice: no CUDA-capable device");
}
