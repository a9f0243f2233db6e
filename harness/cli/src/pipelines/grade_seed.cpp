#include "pipelines/grade_seed.hpp"

#include <cstdlib>

#include "compile/content_hash.hpp"
#include "support/errors.hpp"
#include "support/file_io.hpp"

namespace puzzle::cli {
namespace {

std::string trimmed(const std::string& text) {
  const auto first = text.find_first_not_of(" \t\r\n");
  if (first == std::string::npos) return "";
  return text.substr(first, text.find_last_not_of(" \t\r\n") - first + 1);
}

std::optional<std::string> secret_text(const SecretSeedSources& secret) {
  std::optional<std::filesystem::path> file = secret.file_option;
  if (!file && secret.file_variable && !secret.file_variable->empty()) file = *secret.file_variable;
  if (file) {
    const auto text = read_text(*file);
    if (!text) throw UsageError("cannot read the secret seed file " + file->string());
    return trimmed(*text);
  }
  if (secret.variable) return trimmed(*secret.variable);
  return std::nullopt;
}

}  // namespace

SecretSeedSources secret_seed_sources_from_environment(std::optional<std::filesystem::path> file_option) {
  SecretSeedSources sources{.file_option = std::move(file_option)};
  if (const char* file = std::getenv(kSecretSeedFileVariable)) sources.file_variable = file;
  if (const char* value = std::getenv(kSecretSeedVariable)) sources.variable = value;
  return sources;
}

uint64_t seed_from_secret(const std::string& secret) {
  const uint64_t hashed = std::stoull(hash_text(secret), nullptr, 16) & ((uint64_t{1} << 53) - 1);
  return hashed == 0 ? 1 : hashed;
}

GradeSeed resolve_grade_seed(std::optional<uint64_t> seed_option, const SecretSeedSources& secret) {
  if (seed_option) return {.value = *seed_option, .source = SeedSource::option};
  const auto text = secret_text(secret);
  if (!text) return {};
  if (text->empty()) throw UsageError("the secret seed is empty");
  return {.value = seed_from_secret(*text), .source = SeedSource::secret};
}

}  // namespace puzzle::cli
