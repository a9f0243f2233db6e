// Where the flagged elements (unwritten, wrong) of a row-major buffer lie, so that a diagnosis can
// say "rows 64..127" or "columns 1024 and up" instead of listing elements.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "registry.hpp"

namespace puzzle {

struct ElementPattern {
  enum class Shape { none, whole_rows, tail_columns, scattered };
  Shape shape = Shape::none;
  int64_t flagged = 0;
  int64_t elements = 0;
  int64_t row_length = 0;
  int64_t rows_touched = 0;  // rows with at least one flagged element
  int64_t first_row = -1, last_row = -1;
  int64_t first_index = -1;      // the first flagged element
  int64_t tail_from = -1;        // the smallest column of a flagged element
  bool rows_contiguous = false;  // the touched rows are first_row..last_row, all of them
};

// whole_rows: every touched row is flagged entirely. tail_columns: every flagged element is at column
// tail_from > 0 or later, and most (3/4) of those columns of the touched rows are flagged; a bug in a
// loop's last partial chunk looks like this. A 1-D buffer (row_length 0) is one row.
ElementPattern find_pattern(const std::vector<bool>& flagged, int64_t row_length);

// "whole rows 64..127", "columns 1024 and up of 5 rows", "scattered, the first at row 3, col 17".
std::string describe(const ElementPattern& pattern, const BufferSpec& spec, const Params& params);

int64_t row_length_of(const BufferSpec& spec, const Params& params);  // the buffer's size if 1-D

}  // namespace puzzle
