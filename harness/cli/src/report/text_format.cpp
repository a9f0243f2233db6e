#include "report/text_format.hpp"

#include <cstdio>
#include <ctime>

namespace puzzle::cli {

std::string fixed(double value, int decimals) {
  char text[64];
  std::snprintf(text, sizeof text, "%.*f", decimals, value);
  return text;
}

std::string format_seconds(double s) {
  char text[64];
  std::snprintf(text, sizeof text, "%.2g s", s);
  if (s >= 10) std::snprintf(text, sizeof text, "%.0f s", s);
  return text;
}

std::string significant(double value, int digits) {
  char text[64];
  std::snprintf(text, sizeof text, "%.*g", digits, value);
  return text;
}

std::string padded(std::string text, size_t width) {
  if (text.size() < width) text.append(width - text.size(), ' ');
  return text;
}

std::string format_bytes(double bytes) {
  const char* units[] = {"B", "KB", "MB", "GB", "TB"};
  int unit = 0;
  while (bytes >= 1000 && unit < 4) {
    bytes /= 1000;
    ++unit;
  }
  return fixed(bytes, unit == 0 ? 0 : 1) + " " + units[unit];
}

std::string time_now(const char* strftime_format, TimeZone zone) {
  const std::time_t now = std::time(nullptr);
  std::tm parts{};
  zone == TimeZone::utc ? gmtime_r(&now, &parts) : localtime_r(&now, &parts);
  char text[64];
  std::strftime(text, sizeof text, strftime_format, &parts);
  return text;
}

}  // namespace puzzle::cli
