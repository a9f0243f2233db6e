// The shared parts of a tensor-core product puzzle's spec: shape, buffers, cases, inputs, FLOPs.
#include "families/matmul_family.hpp"

#include <cmath>

#include "random_fill.hpp"

namespace puzzle::puzzles::matmul {

Shape shape_of(const Params& p) {
  return {.m = p.at("m"), .n = p.at("n"), .k = p.at("k")};
}

TestCase sized(int64_t m, int64_t n, int64_t k, std::string about) {
  return {.name = std::to_string(m) + "x" + std::to_string(n) + "x" + std::to_string(k),
          .params = {{"m", m}, {"n", n}, {"k", k}},
          .input_kind = "random",
          .about = std::move(about)};
}

std::vector<TestCase> bench_shapes() {
  std::vector<TestCase> shapes;
  for (const int64_t size : {1024, 2048, 4096, 8192}) {
    TestCase shape = timed(sized(size, size, size, "a square product"));
    shape.input_kind = "bench";
    shapes.push_back(std::move(shape));
  }
  return shapes;
}

namespace {

std::string row_and(int64_t i, int64_t row_length, const char* column) {
  return "row " + std::to_string(i / row_length) + ", " + column + " " + std::to_string(i % row_length);
}

}  // namespace

BufferSpec a_buffer() {
  return {.name = "a",
          .elements = [](const Params& p) { return p.at("m") * p.at("k"); },
          .locate = [](const Params& p, int64_t i) { return row_and(i, p.at("k"), "k"); },
          .row_length = [](const Params& p) { return p.at("k"); },
          .dtype = Dtype::bf16};
}

BufferSpec b_buffer() {
  return {.name = "b",
          .elements = [](const Params& p) { return p.at("n") * p.at("k"); },
          .locate = [](const Params& p, int64_t i) { return row_and(i, p.at("k"), "k"); },
          .row_length = [](const Params& p) { return p.at("k"); },
          .dtype = Dtype::bf16};
}

BufferSpec c_buffer() {
  return {.name = "c",
          .elements = [](const Params& p) { return p.at("m") * p.at("n"); },
          .locate = [](const Params& p, int64_t i) { return row_and(i, p.at("n"), "col"); },
          .row_length = [](const Params& p) { return p.at("n"); },
          .dtype = Dtype::f32};
}

void make_inputs(int puzzle_id, const TestCase& test, uint64_t seed, Buffers& inputs) {
  const bool integers = test.input_kind == "integers";
  for (size_t k = 0; k < inputs.size(); ++k) {
    random_fill(Rng::for_buffer(seed, puzzle_id, test.name, static_cast<int>(k)), inputs[k], [&](Rng& block) {
      return integers ? static_cast<float>(block.below(9) - 4) : static_cast<float>(block.normal());
    });
  }
}

PuzzleSpec spec(Own own) {
  const int id = own.id;
  return {
      .id = own.id,
      .slug = std::move(own.slug),
      .title = std::move(own.title),
      .summary = std::move(own.summary),
      .signature = std::move(own.signature),
      .inputs = {a_buffer(), b_buffer()},
      .outputs = {c_buffer()},
      .cases = std::move(own.cases),
      .sweep = bench_shapes(),
      .baseline_title = "cuBLAS bf16",
      // The judge adds k 2^-22 ||a_i|| ||b_j|| per element (harness/judge/families/matmul_judge.cpp).
      .tolerance = {.atol = 0, .rtol = 1e-6},
      .min_bytes = min_bytes,
      .flops = flops,
      .make_inputs = [id](const TestCase& test, uint64_t seed,
                          Buffers& inputs) { make_inputs(id, test, seed, inputs); },
      .judge = "matmul",
      .hints = std::move(own.hints),
      .line_budget = own.line_budget,
      .traffic_budget = std::move(own.traffic_budget),
      .max_bank_conflicts = std::move(own.max_bank_conflicts),
      .bank_conflict_budget = std::move(own.bank_conflict_budget),
  };
}

double flops(const Params& p) {
  const Shape s = shape_of(p);
  return 2.0 * static_cast<double>(s.m) * static_cast<double>(s.n) * static_cast<double>(s.k);
}

double min_bytes(const Params& p) {
  const Shape s = shape_of(p);
  return 2.0 * static_cast<double>((s.m + s.n) * s.k) + 4.0 * static_cast<double>(s.m * s.n);
}

}  // namespace puzzle::puzzles::matmul
