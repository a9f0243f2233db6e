#include "report/estimate_text.hpp"

#include "report/text_format.hpp"

namespace puzzle::cli {

std::string estimate_time(double ms, bool at_least, bool at_most) {
  const std::string time = ms < 0.1  ? fixed(ms * 1e3, 1) + " us"
                           : ms < 10 ? fixed(ms, 3) + " ms"
                                     : fixed(ms, 1) + " ms";
  return (at_least ? "at least " : at_most ? "at most " : "") + time;
}

std::string estimate_line(const SpeedEstimate& e) {
  const bool vowel = !e.gpu.empty() && std::string("AEFHILMNORSX").find(e.gpu[0]) != std::string::npos;
  std::string text = std::string("estimated on ") + (vowel ? "an " : "a ") + e.gpu + ": " +
                     estimate_time(e.ms, e.at_least, e.at_most) + ", " + e.bound;
  if (e.pct_of_copy) text += " at " + fixed(*e.pct_of_copy, 0) + "% of copy";
  if (e.tflops) text += " at " + fixed(*e.tflops, 1) + " TFLOP/s";
  if (e.solution_ms) text += "; the solution: " + estimate_time(*e.solution_ms);
  return text;
}

std::string counters_line(const SpeedEstimate& e) {
  std::string text =
      "sectors per request " + fixed(e.sectors_per_request, 1) + " (" + fixed(100 * e.sector_use, 0) +
      "% of their bytes used), bank conflicts " +
      (e.bank_ways == 0     ? "none (no shared memory)"
       : e.bank_ways < 1.05 ? "none"
                            : fixed(e.bank_ways, 1) + "-way") +
      ", occupancy " + std::to_string(e.warps_per_sm) + " of " + std::to_string(e.max_warps_per_sm) +
      " warps per SM (limited by " + e.occupancy_limit + "; " + std::to_string(e.registers) +
      " registers a thread" + (e.registers_measured ? "" : ", assumed without nvcc") + "), " +
      std::to_string(e.busy_sms) + " of " + std::to_string(e.sms) + " SMs busy, bound by " + e.binding;
  if (e.at_most)
    text += " (its blocks wait for one another: the simulator runs a few at a time, so the estimate is high)";
  if (e.at_least) text += " (a block ran past the simulator's budget: the estimate is a lower bound)";
  return text;
}

std::string slow_line(const SpeedEstimate& e) {
  if (e.slow_reason.empty() || !e.solution_ms || *e.solution_ms <= 0) return "";
  return fixed(e.ms / *e.solution_ms, 0) + "x the solution's estimate: " + e.slow_reason;
}

}  // namespace puzzle::cli
