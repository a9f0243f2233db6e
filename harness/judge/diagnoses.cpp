#include "diagnoses.hpp"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <utility>

#include "compare.hpp"
#include "pattern.hpp"
#include "sim_report.hpp"

namespace puzzle {
namespace {

std::string plural(int64_t n, const std::string& word) {
  return std::to_string(n) + " " + word + (n == 1 ? "" : "s");
}

void out_of_bounds(const BufferCheck& c, std::vector<Diagnosis>& out) {
  if (c.guard_after > 0) {
    out.push_back({"out_of_bounds_write", "wrote " + plural(c.guard_after, "float") + " past the end of " +
                                              c.name + " (the farthest " + std::to_string(c.farthest_after) +
                                              " past it): check the bounds test on the last row/block"});
  }
  if (c.guard_before > 0) {
    out.push_back({"out_of_bounds_write", "wrote " + plural(c.guard_before, "float") +
                                              " before the start of " + c.name + " (the farthest " +
                                              std::to_string(c.farthest_before) +
                                              " before it): a negative index?"});
  }
}

// Why a kernel wrote none of an output: named from the evidence rather than guessed, so that a kernel
// stopped by a misaligned or out-of-bounds access is not asked whether it launched at all.
std::string nothing_written_because(const CaseEvidence& e, const std::string& buffer) {
  if (e.record.kernel_launches == 0) return "the launcher launched no kernel";
  if (!launch_error_of(e.record).empty())
    return "the kernel failed with the CUDA error above before any store";
  for (const SimFinding& f : sim_findings(e.record.sim)) {
    if (f.severity == "error") return "the kernel stopped at the simulator's error above before any store";
  }
  return "a kernel ran but stored nothing to " + buffer + ": does it store to " + buffer +
         ", and do its bounds checks let any thread through?";
}

void unwritten(const CaseEvidence& e, size_t k, std::vector<Diagnosis>& out) {
  const BufferCheck& c = e.checks[k];
  if (c.unwritten == 0 || !c.available) return;
  const BufferSpec& spec = e.puzzle->outputs[k];
  const std::vector<float>& got = (*e.outputs)[k];
  std::vector<bool> flagged(got.size());
  for (size_t i = 0; i < got.size(); ++i) flagged[i] = is_poison(got[i]);
  if (c.unwritten == c.elements) {
    out.push_back({"unwritten_elements",
                   "nothing was written to " + c.name + ": " + nothing_written_because(e, c.name)});
    return;
  }
  const ElementPattern pattern = find_pattern(flagged, row_length_of(spec, e.test->params));
  out.push_back({"unwritten_elements",
                 std::to_string(c.unwritten) + " of " + std::to_string(c.elements) + " elements of " +
                     c.name + " were never written: " + describe(pattern, spec, e.test->params)});
}

void non_finite(const BufferCheck& c, std::vector<Diagnosis>& out) {
  if (c.nan_count == 0 && c.inf_count == 0) return;
  std::string message = c.name + " has ";
  if (c.nan_count > 0) message += std::to_string(c.nan_count) + " NaN";
  if (c.nan_count > 0 && c.inf_count > 0) message += " and ";
  if (c.inf_count > 0) message += std::to_string(c.inf_count) + " inf";
  message += " where the answer is finite";
  for (const Mismatch& m : c.first) {
    if (!is_poison(m.got) && !std::isfinite(m.got)) {
      message += " (the first at " + m.location + ")";
      break;
    }
  }
  out.push_back(
      {"nan_output", message + ": look for overflow in exp, 0/0, inf - inf or uninitialised values"});
}

void scratch(const CaseEvidence& e, std::vector<Diagnosis>& out) {
  if (!scratch_too_large(*e.puzzle, e.test->params, e.record)) return;
  out.push_back({"scratch_too_large",
                 "the launcher allocated " +
                     plural(static_cast<int64_t>(e.record.scratch_allocated_bytes), "byte") +
                     " of device memory at its peak, more than the " +
                     plural(static_cast<int64_t>(e.puzzle->max_scratch_bytes(e.test->params)), "byte") +
                     " this case allows. The rule: " + e.puzzle->scratch_budget});
}

void conflicts(const CaseEvidence& e, std::vector<Diagnosis>& out) {
  if (!bank_conflicts_over(*e.puzzle, e.test->params, e.record)) return;
  out.push_back(
      {"bank_conflicts",
       "shared-memory bank conflicts cost " +
           plural(static_cast<int64_t>(bank_conflicts(e.record.sim)), "extra wavefront") +
           ", more than the " +
           plural(static_cast<int64_t>(e.puzzle->max_bank_conflicts(e.test->params)), "extra wavefront") +
           " this case allows: " + describe_bank_conflicts(e.record.sim, 3) +
           ". The rule: " + e.puzzle->bank_conflict_budget});
}

}  // namespace

bool bank_conflicts_over(const PuzzleSpec& puzzle, const Params& params, const protocol::CaseRecord& record) {
  return puzzle.max_bank_conflicts && record.sim.is_object() &&
         static_cast<double>(bank_conflicts(record.sim)) > puzzle.max_bank_conflicts(params);
}

// What this call allocated, not what it held: a right kernel whose workspace an earlier, larger case sized
// (and that it keeps) must pass a smaller case.
bool scratch_too_large(const PuzzleSpec& puzzle, const Params& params, const protocol::CaseRecord& record) {
  return puzzle.max_scratch_bytes && record.scratch_allocated_bytes != protocol::kUnknownBytes &&
         static_cast<double>(record.scratch_allocated_bytes) > puzzle.max_scratch_bytes(params);
}

std::string launch_error_of(const protocol::CaseRecord& record) {
  if (!record.launch_error.empty()) return record.launch_error;
  const auto refused = refused_launches(record.sim);
  return refused.empty() ? std::string() : refused.front();
}

bool kernel_crashed(const std::string& error) {
  static const char* const kCrashes[] = {
      "cudaErrorIllegalAddress",     "cudaErrorMisalignedAddress",
      "cudaErrorLaunchFailure",      "cudaErrorIllegalInstruction",
      "cudaErrorInvalidPc",          "cudaErrorInvalidAddressSpace",
      "cudaErrorHardwareStackError", "cudaErrorAssert",
      "cudaErrorLaunchTimeout",
  };
  for (const char* name : kCrashes) {
    if (error.starts_with(name)) return true;
  }
  return false;
}

std::string explain_launch_error(const std::string& error, bool simulated) {
  struct Meaning {
    const char* name;
    const char* meaning;
    bool located;  // a line to look at: the simulator names it
  };
  static const Meaning kCommon[] = {
      {"cudaErrorInvalidConfiguration",
       "The launch configuration is invalid: more than 1024 threads per block, a zero-sized grid or block, "
       "or gridDim.y/z above 65535",
       false},
      // CUDA 13 reports every refused launch this way (measured on an H200).
      {"cudaErrorInvalidValue",
       "A launch argument is invalid: more than 1024 threads per block, a zero-sized grid or block, "
       "gridDim.y/z above 65535, or more than 48 KiB of dynamic shared memory without "
       "cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes)",
       false},
      {"cudaErrorIllegalAddress", "A kernel read or wrote outside its buffers", true},
      {"cudaErrorMisalignedAddress",
       "An access was not aligned to its size (a float4 load from an address that is not a multiple of 16?)",
       true},
      {"cudaErrorLaunchOutOfResources",
       "The block needs more registers than the SM has: use fewer threads per block or __launch_bounds__",
       false},
      {"cudaErrorLaunchFailure", "The kernel crashed", true},
      {"cudaErrorAssert", "An assert() in a kernel failed", false},
      {"cudaErrorMemoryAllocation", "cudaMalloc ran out of device memory", false},
      {"cudaErrorNoKernelImageForDevice", "The file was compiled for another GPU architecture", false},
  };
  for (const Meaning& m : kCommon) {
    if (error.starts_with(m.name) || error.find(std::string(": ") + m.name) != std::string::npos) {
      const char* where = !m.located  ? ""
                          : simulated ? ": the simulator's finding names the line"
                                      : ": run with --backend sim to see the line";
      return error + ". " + m.meaning + where;
    }
  }
  return error;
}

bool generic_diagnosis(const std::string& id) {
  static const char* const kGeneric[] = {"no_device_work",     "launch_error",   "out_of_bounds_write",
                                         "unwritten_elements", "nan_output",     "scratch_too_large",
                                         "bank_conflicts",     "inputs_modified"};
  return std::find(std::begin(kGeneric), std::end(kGeneric), id) != std::end(kGeneric);
}

void generic_diagnoses(const CaseEvidence& e, std::vector<Diagnosis>& out) {
  if (const std::string error = launch_error_of(e.record); !error.empty()) {
    out.push_back({"launch_error", "CUDA error: " + explain_launch_error(error, e.record.sim.is_object())});
  }
  for (const SimFinding& f : sim_findings(e.record.sim)) {
    if (f.severity == "error") out.push_back({"sim_" + f.kind, describe(f)});
  }
  for (const BufferCheck& c : e.checks) out_of_bounds(c, out);
  for (size_t k = 0; k < e.checks.size(); ++k) unwritten(e, k, out);
  for (const BufferCheck& c : e.checks) non_finite(c, out);
  scratch(e, out);
  conflicts(e, out);
  if (e.record.inputs_modified > 0) {
    out.push_back({"inputs_modified", "the kernel changed " + plural(e.record.inputs_modified, "float") +
                                          " of its inputs (or their guard zones): inputs are read-only"});
  }
}

}  // namespace puzzle
