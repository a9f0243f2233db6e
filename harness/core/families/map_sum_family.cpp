// The shared parts of the warm-up's spec: buffers, case builder, inputs, bandwidth.
#include "families/map_sum_family.hpp"

#include <algorithm>
#include <utility>

#include "random_fill.hpp"

namespace puzzle::puzzles::map_sum {

int64_t n_of(const Params& p) {
  return p.at("n");
}
int64_t chunks_of(const Params& p) {
  return (n_of(p) + kChunk - 1) / kChunk;
}

TestCase sized(int64_t n, std::string about) {
  return {.name = std::to_string(n), .params = {{"n", n}}, .input_kind = "random", .about = std::move(about)};
}

PuzzleSpec spec(Own own) {
  const auto element = [](const Params&, int64_t i) { return "element " + std::to_string(i); };
  const auto chunk = [](const Params& p, int64_t b) {
    const int64_t last = std::min(n_of(p), (b + 1) * kChunk) - 1;
    return "chunk " + std::to_string(b) + " (elements " + std::to_string(b * kChunk) + ".." +
           std::to_string(last) + ")";
  };
  const int id = own.id;
  return {
      .id = id,
      .slug = std::move(own.slug),
      .title = std::move(own.title),
      .summary = std::move(own.summary),
      .signature = std::move(own.signature),
      .inputs = {{.name = "x", .elements = n_of, .locate = element}},
      .outputs = {{.name = "y", .elements = n_of, .locate = element},
                  {.name = "sums", .elements = chunks_of, .locate = chunk}},
      .cases = std::move(own.cases),
      // `puzzle bench 0`: from what fits in L2 to what does not by far.
      .sweep = {timed(sized(1 << 20, "4 MiB: held in L2")), timed(sized(1 << 24, "64 MiB")),
                timed(sized(1 << 26, "256 MiB"))},
      // __expf is within 2 ulp plus 2^-21.41 |x| of exp here (|x| < 6), a sum of 256 positive terms in
      // float within 256 * 2^-24 of the exact one in any order: 1e-4 holds both with room, and a value
      // left out of a chunk (1/256 of its sum, on average) or a chunk summed over x is far outside it.
      .tolerance = {.atol = 1e-8, .rtol = 1e-4},
      // Read x once, write y once, and a float per chunk.
      .min_bytes = [](const Params& p) { return 4.0 * static_cast<double>(2 * n_of(p) + chunks_of(p)); },
      .flops = {},
      .make_inputs =
          [id](const TestCase& test, uint64_t seed, Buffers& inputs) {
            random_fill(Rng::for_buffer(seed, id, test.name, 0), inputs[0],
                        [](Rng& block) { return static_cast<float>(block.normal()); });
          },
      .judge = "map_sum",
      .hints = std::move(own.hints),
      .line_budget = own.line_budget,
      .traffic_budget = std::move(own.traffic_budget),
  };
}

}  // namespace puzzle::puzzles::map_sum
