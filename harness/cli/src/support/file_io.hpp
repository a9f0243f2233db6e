// Reading and writing whole files.
#pragma once
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace puzzle::cli {

std::optional<std::string> read_text(const std::filesystem::path& file);  // nullopt if unreadable
// A file of floats, read straight into place (outputs of hundreds of megabytes); nullopt if it is
// unreadable or its size is not a whole number of floats.
std::optional<std::vector<float>> read_floats(const std::filesystem::path& file);

// The file's last-modified time as text ("missing" if there is none): a rebuilt program gets a new one.
std::string modification_stamp(const std::filesystem::path& file);

// The first `head` and the last `tail` bytes of a file that may be huge (a kernel printing from every
// thread), with a line saying how much was left out between them. Empty if unreadable.
std::string read_clipped(const std::filesystem::path& file, size_t head, size_t tail);

// Writes to a temporary file beside `file`, then renames it over `file`: readers see the old
// content or the new, never half of it. Creates missing parent directories. Throws on failure.
void write_atomically(const std::filesystem::path& file, const std::string& content);

}  // namespace puzzle::cli
