// The GPU probe's copy figure: measured once per device, then only the device's name is asked for; and the
// probe holding the device open for as long as its answer lives.
#include <doctest/doctest.h>
#include <signal.h>
#include <sys/stat.h>

#include <chrono>
#include <fstream>
#include <thread>

#include "run/device_probe.hpp"
#include "support/file_io.hpp"
#include "support/temp_dir.hpp"

using namespace puzzle::cli;

namespace {

// A stand-in for puzzle-device-probe: appends its arguments to calls.txt and answers as the device named in
// device.txt, with a copy figure only when it was not told --without-copy; told --hold, it writes its pid
// to held.pid (before it answers: the answer is all the caller waits for) and stays until its stdin ends,
// as the real one keeps its CUDA context.
std::filesystem::path fake_probe(const std::filesystem::path& dir) {
  const auto script = dir / "probe.sh";
  std::ofstream(script)
      << "#!/bin/sh\n"
      << "dir=$(dirname \"$0\")\n"
      << "echo \"[$*]\" >> \"$dir/calls.txt\"\n"
      << "name=$(cat \"$dir/device.txt\")\n"
      << "case \" $* \" in *\" --hold \"*) echo $$ > \"$dir/held.pid\" ;; esac\n"
      << "case \" $* \" in\n"
      << "  *\" --without-copy \"*) echo \"{\\\"name\\\": \\\"$name\\\", \\\"compute_capability\\\": "
         "\\\"9.0\\\"}\" ;;\n"
      << "  *) echo \"{\\\"name\\\": \\\"$name\\\", \\\"compute_capability\\\": \\\"9.0\\\", "
         "\\\"copy_gbps\\\": 3000}\" ;;\n"
      << "esac\n"
      << "case \" $* \" in *\" --hold \"*) cat > /dev/null ;; esac\n";
  chmod(script.c_str(), 0755);
  return script;
}

// A build whose probe is the stand-in in `dir`, answering as "GPU A".
BuildConfig config_with_fake_probe(const TempDir& dir) {
  BuildConfig config;
  config.have_cuda = true;
  config.build_dir = dir.path();
  config.probe = fake_probe(dir.path());
  write_atomically(dir.path() / "device.txt", "GPU A");
  return config;
}

bool alive(pid_t pid) {
  return kill(pid, 0) == 0;
}

}  // namespace

TEST_CASE("the probe measures the copy bandwidth once per device, then asks only for the device") {
  TempDir dir("cli-probe-");
  const BuildConfig config = config_with_fake_probe(dir);
  const auto calls = [&] { return read_text(dir.path() / "calls.txt").value_or(""); };

  GpuProbe first = probe_gpu(config);
  REQUIRE(first.found);
  CHECK(first.device.name == "GPU A");
  CHECK(first.device.copy_gbps == 3000);
  CHECK(calls() == "[--hold]\n");  // nothing known yet: measured

  GpuProbe again = probe_gpu(config);
  REQUIRE(again.found);
  CHECK(again.device.copy_gbps == 3000);  // the cached figure
  CHECK(again.device.compute_capability == "9.0");
  CHECK(calls() == "[--hold]\n[--hold --without-copy]\n");

  // Another device in the same build (a card swapped, a machine image reused): asked, then measured.
  write_atomically(dir.path() / "device.txt", "GPU B");
  GpuProbe other = probe_gpu(config);
  REQUIRE(other.found);
  CHECK(other.device.name == "GPU B");
  CHECK(other.device.copy_gbps == 3000);
  CHECK(calls() == "[--hold]\n[--hold --without-copy]\n[--hold --without-copy]\n[--hold]\n");
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

TEST_CASE("the probe holds the device open while its answer lives, and goes when it is dropped") {
  TempDir dir("cli-probe-");
  std::optional<GpuProbe> probe = probe_gpu(config_with_fake_probe(dir));
  REQUIRE(probe->found);
  CHECK(probe->held_device != nullptr);
  const pid_t pid = std::stoi(read_text(dir.path() / "held.pid").value_or("0"));
  REQUIRE(pid > 0);
  CHECK(alive(pid));  // answered, and still there
  probe.reset();
  bool gone = false;  // killed and collected on a thread of its own: wait for it, up to 5 s on a busy machine
  for (int i = 0; i < 500 && !gone; ++i) {
    gone = !alive(pid);
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  CHECK(gone);
}

TEST_CASE("no NVIDIA device: the backend is the simulator because there is no GPU, whatever the build") {
  TempDir dir("cli-probe-");
  CHECK_FALSE(gpu_device_visible(dir.path()));
  std::ofstream(dir.path() / "nvidiactl");
  CHECK_FALSE(gpu_device_visible(dir.path()));  // the driver's control node alone is no device
  std::ofstream(dir.path() / "nvidia0");
  CHECK(gpu_device_visible(dir.path()));
  if (gpu_device_visible()) return;  // a machine with a GPU: the rest is about one without
  BuildConfig config;
  config.have_cuda = false;
  // CUDA left out of the build (./puzzle does so where it sees no GPU, nvcc or not): no GPU is the reason.
  const BackendChoice choice = choose_backend(BackendRequest::automatic, config);
  CHECK(choice.backend == Backend::sim);
  CHECK(choice.reason == "no GPU found");
  CHECK_THROWS_WITH_AS(choose_backend(BackendRequest::gpu, config), doctest::Contains("no CUDA parts"),
                       std::runtime_error);
}
