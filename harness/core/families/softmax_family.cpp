// The shared parts of a softmax puzzle's spec: buffers, case builders, inputs, bench shapes.
#include "families/softmax_family.hpp"

#include "families/softmax_inputs.hpp"

namespace puzzle::puzzles::softmax {

int64_t rows_of(const Params& p) {
  return p.at("rows");
}
int64_t cols_of(const Params& p) {
  return p.at("cols");
}

TestCase sized(int64_t rows, int64_t cols, std::string about) {
  return {.name = std::to_string(rows) + "x" + std::to_string(cols),
          .params = {{"rows", rows}, {"cols", cols}},
          .input_kind = "random",
          .about = std::move(about)};
}

TestCase of_kind(std::string kind, std::string name, int64_t rows, int64_t cols, std::string about) {
  TestCase test = sized(rows, cols, std::move(about));
  test.input_kind = std::move(kind);
  test.name = std::move(name);
  return test;
}

TestCase timed(int64_t rows, int64_t cols, std::string about) {
  TestCase test = gpu_only(sized(rows, cols, std::move(about)));
  test.perf = true;
  return test;
}

std::vector<TestCase> bench_shapes(int64_t widest_row) {
  const std::vector<TestCase> all = {
      timed(4096, 1024, "rows a block holds in registers"),
      timed(8192, 8192, "the classic square benchmark"),
      timed(16384, 16384, "1 GiB in, 1 GiB out"),
      timed(65536, 128, "many short rows: one block per row leaves threads idle"),
      timed(256, 262144, "long rows: a tile loop per row"),
      timed(32, kMaxCols, "few very long rows: 32 blocks cannot fill the GPU"),
  };
  std::vector<TestCase> shapes;
  for (const TestCase& shape : all) {
    if (cols_of(shape.params) <= widest_row) shapes.push_back(shape);
  }
  return shapes;
}

PuzzleSpec spec(Own own) {
  const auto elements = [](const Params& p) { return rows_of(p) * cols_of(p); };
  const auto locate = [](const Params& p, int64_t i) {
    return "row " + std::to_string(i / cols_of(p)) + ", col " + std::to_string(i % cols_of(p));
  };
  const int id = own.id;
  return {
      .id = id,
      .slug = own.slug,
      .title = std::move(own.title),
      .summary = std::move(own.summary),
      .signature = std::move(own.signature),
      .inputs = {{"x", elements, locate, cols_of}},
      .outputs = {{"y", elements, locate, cols_of}},
      .cases = std::move(own.cases),
      .sweep = bench_shapes(own.widest_row),
      .tolerance = own.tolerance,
      // Effective bandwidth: the least a kernel can move (read x once, write y once) over its time.
      .min_bytes =
          [](const Params& p) { return 2.0 * static_cast<double>(rows_of(p) * cols_of(p)) * sizeof(float); },
      .flops = {},
      .make_inputs = [id](const TestCase& test, uint64_t seed,
                          Buffers& inputs) { make_inputs(id, test, seed, inputs); },
      .judge = "softmax",
      .diagnoses = std::move(own.diagnoses),
      .hints = std::move(own.hints),
      .line_budget = own.line_budget,
      .traffic_budget = std::move(own.traffic_budget),
  };
}

}  // namespace puzzle::puzzles::softmax
