// Diagnoses every puzzle shares: launch errors, simulator findings, out-of-bounds writes, unwritten
// elements, NaN/inf outputs, modified inputs. The puzzle's own diagnose() adds to these.
#pragma once
#include <string>
#include <vector>

#include "registry.hpp"
#include "verdict.hpp"

namespace puzzle {

// The CUDA error of the case (the launcher's, else the first launch the simulator refused); empty if none.
std::string launch_error_of(const protocol::CaseRecord& record);
// True for the errors of a kernel that died (illegal address, misaligned access, trap, ...): the GPU's
// counterpart of a crash on the simulator, so the case is `crashed`, not merely wrong.
bool kernel_crashed(const std::string& error);
// True when the launcher allocated more device memory in this call (CaseRecord::scratch_allocated_bytes)
// than the puzzle allows this case (PuzzleSpec::max_scratch_bytes): the case fails even with right values.
bool scratch_too_large(const PuzzleSpec& puzzle, const Params& params, const protocol::CaseRecord& record);
// True when the simulator counted more bank-conflict wavefronts than the puzzle allows this case
// (PuzzleSpec::max_bank_conflicts).
bool bank_conflicts_over(const PuzzleSpec& puzzle, const Params& params, const protocol::CaseRecord& record);
// What a CUDA error usually means in a puzzle and what to try ("cudaErrorX: message" as the child wrote it);
// where to find the line that caused it depends on whether the case ran on the simulator.
std::string explain_launch_error(const std::string& error, bool simulated = false);

void generic_diagnoses(const CaseEvidence& evidence, std::vector<Diagnosis>& diagnoses);

// Whether `id` is one of the readings every puzzle shares (generic_diagnoses' own, and no_device_work),
// rather than a puzzle's own or a simulator finding (sim_*): a console shows the most specific one.
bool generic_diagnosis(const std::string& id);

}  // namespace puzzle
