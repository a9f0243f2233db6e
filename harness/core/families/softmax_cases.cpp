// The cases of rows longer than a block holds, shared by puzzles 2-4.
#include "families/softmax_family.hpp"

namespace puzzle::puzzles::softmax {

std::vector<TestCase> long_rows() {
  std::vector<TestCase> cases = {
      sized(1, 262145, "one row of 2^18 + 1 columns: many tiles, and a tail of one column"),
      sized(2, 100003, "rows of a prime length: no tile size divides them"),
      sized(3, 65537, "rows one past 2^16"),
      sized(50, 73728,
            "50 rows of 73728 columns: more 8192-column pieces (450) than an H100 runs blocks at once, so a "
            "kernel with a fixed grid gives its blocks several each"),
      sized(2, 90000,
            "rows of a multiple of 4 that no tile size divides: 16-byte accesses, a partial last tile"),
  };
  // Every side of the usual tile sizes (256, 1024, 4096, 8192 columns): the last tile full, one short,
  // or a single column.
  for (const int64_t cols : {255, 256, 257, 1023, 1025, 4095, 4097, 8191, 8193}) {
    cases.push_back(sized(
        3, cols, "a tail of every size around " + std::to_string((cols + 1) / 256 * 256) + "-column tiles"));
  }
  return cases;
}

std::vector<TestCase> long_row_cases() {
  std::vector<TestCase> cases = {
      sized(1, 1, "a single element: the answer is exactly 1"),
      sized(7, 17, "short rows: most of the first tile is past the end of the row"),
  };
  for (TestCase& test : long_rows()) cases.push_back(std::move(test));
  for (TestCase& test : std::vector<TestCase>{
           of_kind("huge_logits", "huge_logits", 8, 65537,
                   "logits up to 1e4 over many tiles: the max of one tile is not the max of the row"),
           of_kind("constant_rows", "constant_rows", 8, 30000,
                   "every row one value (0, -3.5, 5000, ...): the answer is 1/cols everywhere"),
           of_kind("neg_inf", "neg_inf", 16, 20000, "rows with -inf entries, some almost all -inf"),
           of_kind("neg_inf_tiles", "neg_inf_tiles", 8, 100003,
                   "whole tiles of -inf: the first 75000 columns, the middle third, every other 4096 "
                   "columns; max -inf there, and exp(-inf - -inf) is NaN"),
           gpu_only(sized(4, kMaxCols, "the widest rows allowed: 2^20 columns")),
           timed(256, 262144, "bandwidth: 512 MiB moved, rows of 1 MiB, far larger than L2"),
           timed(4096, 16384, "bandwidth with rows of 64 KiB"),
       }) {
    cases.push_back(std::move(test));
  }
  return cases;
}

}  // namespace puzzle::puzzles::softmax
