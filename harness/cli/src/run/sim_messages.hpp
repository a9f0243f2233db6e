// The simulator's last words on stderr ("[sim] crash: ...", "[sim] timeout: ...") in the learner's terms.
#pragma once
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace puzzle::cli {

// The text after "[sim] <kind>: " on the last such line, e.g. kind "crash".
std::optional<std::string> find_sim_message(std::string_view stderr_text, std::string_view kind);

// "file:line (in function)" for a code offset inside `program`, via addr2line; nullopt if unknown.
std::optional<std::string> symbolize(const std::filesystem::path& program, std::string_view offset_hex);

// "SIGSEGV in kernel k, ..., pc 0x1a2b, address 0x10" -> the same with "pc 0x1a2b" replaced by
// "at file.cu:23 (in k)" when the offset can be symbolized.
std::string locate_crash(const std::string& crash_message, const std::filesystem::path& program);

}  // namespace puzzle::cli
