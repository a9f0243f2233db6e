#include "pattern.hpp"

#include <algorithm>

namespace puzzle {

ElementPattern find_pattern(const std::vector<bool>& flagged, int64_t row_length) {
  ElementPattern p;
  const auto n = static_cast<int64_t>(flagged.size());
  p.elements = n;
  p.row_length = row_length > 0 ? row_length : n;
  if (p.row_length == 0) return p;
  int64_t previous_row = -1;
  bool gap = false;
  for (int64_t i = 0; i < n; ++i) {
    if (!flagged[i]) continue;
    const int64_t row = i / p.row_length;
    if (p.flagged++ == 0) {
      p.first_index = i;
      p.first_row = row;
      p.tail_from = i % p.row_length;
    }
    p.tail_from = std::min(p.tail_from, i % p.row_length);
    if (row != previous_row) {
      gap |= previous_row >= 0 && row != previous_row + 1;
      ++p.rows_touched;
      previous_row = row;
    }
  }
  if (p.flagged == 0) return p;
  p.last_row = previous_row;
  p.rows_contiguous = !gap;
  const int64_t tail_elements = p.rows_touched * (p.row_length - p.tail_from);
  if (p.flagged == p.rows_touched * p.row_length) {
    p.shape = ElementPattern::Shape::whole_rows;
  } else if (p.tail_from > 0 && 4 * p.flagged >= 3 * tail_elements) {
    p.shape = ElementPattern::Shape::tail_columns;
  } else {
    p.shape = ElementPattern::Shape::scattered;
  }
  return p;
}

std::string describe(const ElementPattern& p, const BufferSpec& spec, const Params& params) {
  const auto rows = [&] {
    if (p.rows_touched == 1) return "row " + std::to_string(p.first_row);
    if (p.rows_contiguous) return "rows " + std::to_string(p.first_row) + ".." + std::to_string(p.last_row);
    return std::to_string(p.rows_touched) + " rows from row " + std::to_string(p.first_row) + " to " +
           std::to_string(p.last_row);
  };
  switch (p.shape) {
    case ElementPattern::Shape::none:
      return "none";
    case ElementPattern::Shape::whole_rows:
      return "whole rows: " + rows();  // nothing written at all is diagnosed before a pattern is sought
    case ElementPattern::Shape::tail_columns:
      return "columns " + std::to_string(p.tail_from) + " and up (of " + std::to_string(p.row_length) +
             ") in " + rows();
    case ElementPattern::Shape::scattered:
      return "scattered over " + rows() + ", the first at " + spec.locate(params, p.first_index);
  }
  return {};
}

int64_t row_length_of(const BufferSpec& spec, const Params& params) {
  return spec.row_length ? spec.row_length(params) : spec.elements(params);
}

}  // namespace puzzle
