// Numbers as the console and the notes print them.
#pragma once
#include <cstddef>
#include <string>

namespace puzzle::cli {

std::string fixed(double value, int decimals);       // fixed(3.14159, 2) == "3.14"
std::string format_seconds(double s);                // "10 s", "0.5 s", "2.3 s"
std::string significant(double value, int digits);   // significant(12345.6, 4) == "1.235e+04"
std::string padded(std::string text, size_t width);  // spaces added up to `width` characters
std::string format_bytes(double bytes);              // "130.0 KB", "4.2 GB"
enum class TimeZone { utc, local };
std::string time_now(const char* strftime_format, TimeZone zone);  // time_now("%Y%m%d", TimeZone::local)

}  // namespace puzzle::cli
