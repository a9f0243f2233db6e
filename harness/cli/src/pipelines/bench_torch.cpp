#include "pipelines/bench_torch.hpp"

#include "judge/torch_answer.hpp"
#include "run/torch_script.hpp"

namespace puzzle::cli {

TorchColumns time_torch(const BenchReport& report, const BenchOptions& options, const BuildConfig& config,
                        std::chrono::milliseconds shape_timeout, const BenchObserver& observer) {
  const PuzzleSpec& spec = *report.spec;
  if (!options.torch) return {.absent = "left out (--no-torch)"};
  if (torch_op(spec).empty())
    return {.absent = "torch_bench.py has no counterpart to puzzle " + std::to_string(spec.id)};
  const auto script = config.source_dir / "baselines" / "torch_bench.py";
  if (!std::filesystem::exists(script)) return {.absent = script.string() + " is missing"};
  if (observer.torch_started) observer.torch_started(torch_python() + " " + script.string());
  TorchAnswer answer(spec, report.shapes);
  const std::string failure = run_torch_script(
      script, torch_request(spec, report.shapes), shape_timeout, [&](const std::string& line) {
        const auto shape = answer.read_line(line);
        if (shape && observer.torch_shape_timed)
          observer.torch_shape_timed(report, *report.shapes[*shape], answer.columns(), *shape);
      });
  return answer.finish(failure);
}

}  // namespace puzzle::cli
