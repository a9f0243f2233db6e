// Running baselines/torch_bench.py: a stand-in interpreter ($PUZZLE_PYTHON) that is missing, prints
// garbage, crashes, hangs or answers; and the real script's checks of its request and arguments, with a
// python that has no torch (skipped where there is no python3).
#include <doctest/doctest.h>
#include <sys/stat.h>

#include <cstdlib>
#include <fstream>

#include "judge/torch_answer.hpp"
#include "model/build_config.hpp"
#include "pipelines/bench_torch.hpp"
#include "registry.hpp"
#include "run/torch_script.hpp"
#include "scoped_env.hpp"
#include "support/file_io.hpp"
#include "support/subprocess.hpp"
#include "support/temp_dir.hpp"

using namespace puzzle::cli;
using puzzle::cli::testing::ScopedEnv;
using std::chrono::milliseconds;

namespace {

std::filesystem::path write_file(const std::filesystem::path& file, const std::string& text,
                                 bool executable) {
  write_atomically(file, text);
  if (executable) chmod(file.c_str(), 0755);
  return file;
}

// A GPU bench of puzzle 1 on its first two shapes, with nothing timed yet.
BenchReport bench_of_puzzle_1() {
  BenchReport r{.command = "puzzle bench 1"};
  r.spec = puzzle::find_puzzle(1);
  r.backend = Backend::gpu;
  r.metric = "GB/s";
  for (size_t s = 0; s < 2; ++s) r.shapes.push_back(&r.spec->sweep.at(s));
  return r;
}

// PyTorch's columns with `interpreter_script` (a shell script) standing in for python.
TorchColumns torch_with_stub(const TempDir& dir, const std::string& interpreter_script,
                             milliseconds timeout = milliseconds(20000)) {
  const auto stub = write_file(dir.path() / "python", "#!/bin/sh\n" + interpreter_script, true);
  const ScopedEnv python("PUZZLE_PYTHON", stub.string());
  return time_torch(bench_of_puzzle_1(), {.puzzle = "1"}, build_config(), timeout, {});
}

bool have_python3() {
  try {
    return run_captured({"python3", "-c", "pass"}, milliseconds(20000)).status.ok();
  } catch (const std::exception&) {
    return false;
  }
}

// What the real script answers to `request`, with `fake_torch` as the torch module it imports.
TorchColumns real_script_answer(const puzzle::PuzzleSpec& spec, const nlohmann::json& request,
                                const std::string& fake_torch) {
  TempDir modules("cli-torch-modules-");
  write_file(modules.path() / "torch.py", fake_torch, false);
  const ScopedEnv path("PYTHONPATH", modules.path().string());
  const ScopedEnv python("PUZZLE_PYTHON", "python3");
  TorchAnswer answer(spec, {});
  const auto script = build_config().source_dir / "baselines" / "torch_bench.py";
  const std::string failure = run_torch_script(script, request, milliseconds(20000),
                                               [&](const std::string& line) { answer.read_line(line); });
  return answer.finish(failure);
}

const char* kNoTorch = "raise ModuleNotFoundError(\"No module named 'torch'\")\n";
const char* kTorchWithoutCuda =
    "class cuda:\n    @staticmethod\n    def is_available():\n        return False\n";

}  // namespace

TEST_SUITE("bench_torch") {
  TEST_CASE("torch columns are absent with the reason when the interpreter cannot answer") {
    TempDir dir("cli-torch-stub-");
    {
      const ScopedEnv python("PUZZLE_PYTHON", (dir.path() / "no-such-python").string());
      const TorchColumns missing =
          time_torch(bench_of_puzzle_1(), {.puzzle = "1"}, build_config(), milliseconds(20000), {});
      CHECK(missing.columns.empty());
      CHECK(missing.absent ==
            "cannot run " + (dir.path() / "no-such-python").string() + ": No such file or directory");
    }
    CHECK(torch_with_stub(dir, "echo 'hello there'\n").absent ==
          "torch_bench.py answered something else than JSON: hello there");
    CHECK(torch_with_stub(dir, "printf '{\"torch\": '\n")
              .absent.starts_with("torch_bench.py answered something else"));
    CHECK(torch_with_stub(
              dir, "echo 'Traceback (most recent call last):' >&2\necho 'RuntimeError: boom' >&2\nexit 1\n")
              .absent == "torch_bench.py ended with exit code 1: RuntimeError: boom");
    CHECK(torch_with_stub(dir, "kill -SEGV $$\n").absent == "torch_bench.py ended with signal SIGSEGV");
    CHECK(torch_with_stub(dir, "sleep 30\n", milliseconds(500)).absent ==
          "torch_bench.py did not answer in 0.5 s");
    CHECK(time_torch(bench_of_puzzle_1(), {.puzzle = "1", .torch = false}, build_config(), milliseconds(1000),
                     {})
              .absent == "left out (--no-torch)");
  }

  TEST_CASE("a stub that answers: the request on its stdin, its lines read as they come, a hang after them") {
    TempDir dir("cli-torch-stub-");
    const auto request = dir.path() / "request.json";
    std::vector<std::string> timed;
    const auto stub = write_file(
        dir.path() / "python",
        "#!/bin/sh\ncat > " + request.string() +
            "\necho '{\"torch\": \"9.9\", \"device\": \"Stub GPU\", \"columns\": [\"torch.softmax\"]}'"
            "\necho '{\"shape\": \"4096x1024\", \"results\": {\"torch.softmax\": {\"ms\": 0.5}}}'"
            "\nsleep 30\n",
        true);
    const ScopedEnv python("PUZZLE_PYTHON", stub.string());
    const BenchReport report = bench_of_puzzle_1();
    const TorchColumns torch =
        time_torch(report, {.puzzle = "1"}, build_config(), milliseconds(1500),
                   {.torch_shape_timed = [&](const BenchReport&, const puzzle::TestCase& shape,
                                             const TorchColumns&, size_t) { timed.push_back(shape.name); }});
    CHECK(timed == std::vector<std::string>{"4096x1024"});
    CHECK(torch.absent.empty());
    CHECK(torch.version == "9.9");
    REQUIRE(torch.columns.size() == 1);
    CHECK(torch.columns[0].timings[0].time_ms == 0.5);
    CHECK(*torch.columns[0].timings[0].rate == doctest::Approx(2.0 * 4096 * 1024 * 4 / 0.5e-3 / 1e9));
    CHECK(torch.columns[0].timings[1].problem == "torch_bench.py did not answer in 1.5 s");
    const auto sent = nlohmann::json::parse(read_text(request).value_or("null"), nullptr, false);
    CHECK(sent == torch_request(*report.spec, report.shapes));
  }

  TEST_CASE("torch_bench.py checks its request and arguments before it imports torch") {
    if (!have_python3()) {
      MESSAGE("no python3 here: torch_bench.py's checks are not run");
      return;
    }
    for (int id : {1, 5, 6}) {
      const auto* spec = puzzle::find_puzzle(id);
      std::vector<const puzzle::TestCase*> shapes;
      for (const auto& shape : spec->sweep) shapes.push_back(&shape);
      CAPTURE(id);
      CHECK(real_script_answer(*spec, torch_request(*spec, shapes), kNoTorch).absent ==
            "not importable (ModuleNotFoundError)");
      CHECK(real_script_answer(*spec, torch_request(*spec, shapes), kTorchWithoutCuda).absent ==
            "no CUDA device");
    }
    const auto* spec = puzzle::find_puzzle(5);
    const auto refusal = [&](nlohmann::json request) {
      return real_script_answer(*spec, request, kNoTorch).absent;
    };
    const nlohmann::json good = torch_request(*spec, {&spec->sweep.at(0)});
    CHECK(refusal(nlohmann::json::object({{"op", "matmul"}, {"shapes", good["shapes"]}})) ==
          "torch_bench.py refused the request: op must be one of softmax, attention_forward, "
          "attention_backward, "
          "not \"matmul\"");
    nlohmann::json bad = good;
    bad["shapes"][0].erase("d");
    CHECK(refusal(bad) ==
          "torch_bench.py refused the request: shape d64_n512: d must be a positive integer, not null");
    bad = good;
    bad["shapes"][0]["causal"] = "yes";
    CHECK(refusal(bad) ==
          "torch_bench.py refused the request: shape d64_n512: causal must be true, false, 0 or 1");
    bad = good;
    bad["dtype"] = "float64";
    CHECK(refusal(bad).starts_with("torch_bench.py refused the request: dtype must be one of float32"));
    bad = good;
    bad["shapes"] = nlohmann::json::array();
    CHECK(refusal(bad) == "torch_bench.py refused the request: shapes must be a non-empty list");
    bad = good;
    bad["repeats"] = 5;
    CHECK(refusal(bad) == "torch_bench.py refused the request: unknown keys: repeats");

    const auto script = build_config().source_dir / "baselines" / "torch_bench.py";
    // SDPA's warnings when a backend forced alone refuses (torch 2.11 on an H100, fp32): a header and the
    // failed check per fused backend, whichever was asked for. Each column takes its own backend's reason.
    const std::string refusals =
        "import torch_bench as t\n"
        "w = ['Memory efficient kernel not used because:', 'Memory Efficient attention has been runtime "
        "disabled.',\n"
        "     'Flash attention kernel not used because:', 'Expected query, key and value to all be of dtype: "
        "{Half, BFloat16}. Got Query dtype: float, Key dtype: float, and Value dtype: float instead. "
        "(Triggered "
        "internally at sdp_utils.cpp:1.)',\n"
        "     'CuDNN attention kernel not used because:', 'cuDNN attention needs a head dim of at most 128. "
        "More.']\n"
        "print(t.refusal_reason(w, 'flash attention', 'No available kernel'))\n"
        "print(t.refusal_reason(w, 'cudnn attention', 'No available kernel'))\n"
        "print(t.refusal_reason(w[:2], 'flash attention', 'No available kernel. Aborting execution.'))\n";
    const ScopedEnv path("PYTHONPATH", script.parent_path().string());
    const CapturedRun reasons = run_captured({"python3", "-c", refusals}, milliseconds(20000));
    CHECK(reasons.output ==
          "needs Half or BFloat16\ncuDNN attention needs a head dim of at most 128\nNo available kernel\n");

    const CapturedRun with_argument =
        run_captured({"python3", script.string(), "--help"}, milliseconds(20000));
    CHECK(with_argument.status.code == 2);
    CHECK(with_argument.output.find("takes no arguments") != std::string::npos);
  }
}
