// Deterministic random numbers for test inputs. The parent and the child must draw bit-identical
// inputs, so the transforms are our own: <random>'s distributions differ between standard libraries.
#pragma once
#include <cstdint>
#include <optional>
#include <string_view>

namespace puzzle {

// xoshiro256** (Blackman & Vigna), seeded through SplitMix64.
class Rng {
 public:
  explicit Rng(uint64_t seed);
  // One independent stream per (run seed, puzzle, case, input buffer), so that a case's inputs do not
  // depend on which other cases run, or on their order. Cases are keyed by name, not index, so that
  // adding a case leaves the others' inputs alone.
  static Rng for_buffer(uint64_t seed, int puzzle, std::string_view case_name, int buffer);
  // An independent stream keyed by this one's state and `index`, which leaves this one as it is: a large
  // buffer is drawn as blocks (or rows) in parallel, each from the substream of its index.
  Rng substream(uint64_t index) const;

  uint64_t next();
  double uniform();                      // [0, 1), 53 random bits
  double uniform(double lo, double hi);  // [lo, hi)
  int64_t below(int64_t n);              // [0, n) for n > 0; bias below n / 2^64 (Lemire)
  double normal();                       // mean 0, standard deviation 1 (Marsaglia polar)

 private:
  uint64_t s_[4];
  std::optional<double> spare_;  // the second value of the last Box-Muller draw
};

}  // namespace puzzle
