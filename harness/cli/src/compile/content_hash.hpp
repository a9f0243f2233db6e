// A short fingerprint of build inputs, for cache directory names (not for security).
#pragma once
#include <cstdint>
#include <string>
#include <string_view>

namespace puzzle::cli {

class ContentHash {
 public:
  ContentHash& add(std::string_view bytes);  // each piece is length-prefixed: ("ab","c") != ("a","bc")
  std::string hex() const;                   // 16 hex digits

 private:
  void mix(std::string_view bytes);
  uint64_t state_ = 14695981039346656037ull;  // FNV-1a 64 offset basis
};

std::string hash_text(std::string_view text);  // ContentHash().add(text).hex()

}  // namespace puzzle::cli
