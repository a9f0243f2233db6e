#include "compare.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <stdexcept>

#include "parallel_for.hpp"
#include "protocol.hpp"

namespace puzzle {
namespace {

using protocol::kGuardElems;

// Guard elements that are no longer the guard pattern; `distance(i)` is how far guard element i
// lies outside the buffer.
template <class Distance>
void count_overwritten(std::span<const float> guard, int64_t& count, int64_t& farthest, Distance distance) {
  for (size_t i = 0; i < guard.size(); ++i) {
    if (is_guard(guard[i])) continue;
    ++count;
    farthest = std::max(farthest, distance(static_cast<int64_t>(i)));
  }
}

}  // namespace

bool is_poison(float value) {
  return std::bit_cast<uint32_t>(value) == protocol::kPoisonBits;
}

bool is_guard(float value) {
  return std::bit_cast<uint32_t>(value) == protocol::kGuardBits;
}

Outcome compare_element(float got, double expected, const Tolerance& tolerance, double allowance) {
  if (is_poison(got)) return Outcome::unwritten;
  if (std::isnan(got)) return std::isnan(expected) ? Outcome::ok : Outcome::nan;
  if (std::isinf(got)) {
    if (got == expected) return Outcome::ok;
    return std::isfinite(expected) ? Outcome::inf : Outcome::wrong;
  }
  if (!std::isfinite(expected)) return Outcome::wrong;
  const double error = std::abs(static_cast<double>(got) - expected);
  return error <= tolerance.atol + allowance + tolerance.rtol * std::abs(expected) ? Outcome::ok
                                                                                   : Outcome::wrong;
}

BufferCheck check_buffer(const BufferSpec& spec, const Params& params, std::span<const float> with_guards,
                         const std::vector<double>& expected, const Tolerance& tolerance,
                         std::span<const double> allowance) {
  BufferCheck check;
  check.name = spec.name;
  check.dtype = spec.dtype;
  check.elements = static_cast<int64_t>(expected.size());
  if (with_guards.empty()) {
    check.available = false;
    return check;
  }
  if (!allowance.empty() && allowance.size() != expected.size())
    throw std::logic_error("output " + spec.name + ": an allowance per element, or none");
  if (with_guards.size() != expected.size() + 2 * kGuardElems) {
    throw std::runtime_error("output " + spec.name + " has " + std::to_string(with_guards.size()) +
                             " floats, expected " + std::to_string(expected.size() + 2 * kGuardElems));
  }
  const auto before = with_guards.first(kGuardElems);
  const auto data = with_guards.subspan(kGuardElems, expected.size());
  const auto after = with_guards.last(kGuardElems);
  count_overwritten(before, check.guard_before, check.farthest_before,
                    [](int64_t i) { return kGuardElems - i; });
  count_overwritten(after, check.guard_after, check.farthest_after, [](int64_t i) { return i + 1; });

  // Relative error is reported only where the relative tolerance governs (|expected| >= atol / rtol):
  // below that, tiny expected values make it meaningless.
  const double relative_from = tolerance.rtol > 0 ? tolerance.atol / tolerance.rtol : INFINITY;
  // Ranges of elements in parallel, each into a part of its own; the parts are added up in range order,
  // so that `first` lists the first mismatches of the whole buffer.
  constexpr int64_t kRange = 1 << 18;
  std::vector<BufferCheck> parts((check.elements + kRange - 1) / kRange);
  const double atol = tolerance.atol, rtol = tolerance.rtol;  // locals: the stores below cannot alias them
  parallel_ranges(check.elements, kRange, [&](int64_t begin, int64_t end) {
    BufferCheck& part = parts[begin / kRange];
    double max_abs_err = 0, max_rel_err = 0;
    for (int64_t i = begin; i < end; ++i) {
      const float got = data[i];
      const double want = expected[i];
      const double allowed = allowance.empty() ? 0.0 : allowance[i];
      Outcome outcome;
      if (std::isfinite(got) && std::isfinite(want)) {
        // Almost every element (the poison is a NaN): compare_element's verdict without its branches, and
        // a division only for a new largest relative error. A GPU case has 64 M elements, and this loop
        // was most of the parent's time on one.
        const double error = std::abs(static_cast<double>(got) - want), size = std::abs(want);
        max_abs_err = std::max(max_abs_err, error);
        if (size >= relative_from && error > max_rel_err * size) max_rel_err = error / size;
        outcome = error <= atol + allowed + rtol * size ? Outcome::ok : Outcome::wrong;
      } else {
        outcome = compare_element(got, want, tolerance, allowed);
        part.unwritten += outcome == Outcome::unwritten;
        part.nan_count += outcome == Outcome::nan;
        part.inf_count += outcome == Outcome::inf;
      }
      if (outcome == Outcome::ok) continue;
      if (part.mismatches++ < kListedMismatches) part.first.push_back({i, spec.locate(params, i), want, got});
    }
    part.max_abs_err = max_abs_err;
    part.max_rel_err = max_rel_err;
  });
  for (const BufferCheck& part : parts) {
    check.unwritten += part.unwritten;
    check.nan_count += part.nan_count;
    check.inf_count += part.inf_count;
    check.mismatches += part.mismatches;
    check.max_abs_err = std::max(check.max_abs_err, part.max_abs_err);
    check.max_rel_err = std::max(check.max_rel_err, part.max_rel_err);
    for (const Mismatch& m : part.first) {
      if (check.first.size() < static_cast<size_t>(kListedMismatches)) check.first.push_back(m);
    }
  }
  return check;
}

}  // namespace puzzle
