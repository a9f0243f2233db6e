// The seed `grade` draws its inputs from: --seed, else the grader's secret seed, else a fixed default, so
// that two grades of the same files agree. A secret seed keeps a kernel that hard-codes the outputs of
// the default inputs from passing.
#pragma once
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>

#include "model/grade_report.hpp"

namespace puzzle::cli {

inline constexpr uint64_t kDefaultGradeSeed = 20261121;
inline constexpr const char* kSecretSeedVariable = "PUZZLE_SECRET_SEED";
inline constexpr const char* kSecretSeedFileVariable = "PUZZLE_SECRET_SEED_FILE";

struct GradeSeed {
  uint64_t value = kDefaultGradeSeed;
  SeedSource source = SeedSource::fixed;
};

// Where a secret may come from: --secret-seed-file, then the two environment variables.
struct SecretSeedSources {
  std::optional<std::filesystem::path> file_option;
  std::optional<std::string> file_variable;  // $PUZZLE_SECRET_SEED_FILE
  std::optional<std::string> variable;       // $PUZZLE_SECRET_SEED
};

SecretSeedSources secret_seed_sources_from_environment(std::optional<std::filesystem::path> file_option);

// UsageError for a secret file that cannot be read or a secret that is empty.
GradeSeed resolve_grade_seed(std::optional<uint64_t> seed_option, const SecretSeedSources& secret);

// Any text -> a seed below 2^53 (exact in every JSON reader).
uint64_t seed_from_secret(const std::string& secret);

}  // namespace puzzle::cli
