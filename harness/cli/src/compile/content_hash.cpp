#include "compile/content_hash.hpp"

#include <cstdio>

namespace puzzle::cli {

void ContentHash::mix(std::string_view bytes) {
  for (unsigned char c : bytes) {
    state_ ^= c;
    state_ *= 1099511628211ull;  // FNV-1a 64 prime
  }
}

ContentHash& ContentHash::add(std::string_view bytes) {
  mix(std::to_string(bytes.size()) + ":");
  mix(bytes);
  return *this;
}

std::string ContentHash::hex() const {
  char digits[17];
  std::snprintf(digits, sizeof digits, "%016llx", static_cast<unsigned long long>(state_));
  return digits;
}

std::string hash_text(std::string_view text) {
  return ContentHash().add(text).hex();
}

}  // namespace puzzle::cli
