// `puzzle bench`'s PyTorch columns from baselines/torch_bench.py's answer, read line by line as it comes:
// a first line that names torch, the device and the columns (or says why there are none), then a line per
// shape with each column's median time or why it has none.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "model/bench_report.hpp"

namespace puzzle::cli {

class TorchAnswer {
 public:
  TorchAnswer(const PuzzleSpec& spec, std::vector<const TestCase*> shapes);

  // One line of the answer; the index (into the shapes) of the shape it timed, if it timed one.
  std::optional<size_t> read_line(const std::string& line);
  // What the answer gave, once the script has ended: `failure` is why its run failed ("" when it exited
  // with code 0, run_torch_script). Without a first line that names the columns, `absent` says why.
  TorchColumns finish(const std::string& failure) const;

  const TorchColumns& columns() const { return columns_; }

 private:
  void read_first_line(const nlohmann::json& line, const std::string& text);
  std::optional<size_t> read_shape_line(const nlohmann::json& line);
  BenchTiming timing_of(const nlohmann::json& result, const TestCase& shape) const;

  const PuzzleSpec& spec_;
  std::vector<const TestCase*> shapes_;
  TorchColumns columns_;
  bool named_ = false;       // the first line named the columns, or said why there are none
  std::vector<bool> timed_;  // per shape: its line came
  std::string refusal_;      // the script's {"error": ...}: a request it could not read
  std::string unreadable_;   // the first line that was not what the answer's first line must be
};

}  // namespace puzzle::cli
