// Sealing what the child reports, so that the learner's code, which runs in the child's process, cannot
// write a record or an output file the parent accepts. The parent draws a fresh key for every child
// process and hands it over on the child's stdin, which the runner reads in main(), after every static
// constructor: a constructor that reads it first leaves the runner without a key, and the run fails.
// Each progress line carries its sequence number and a keyed MAC (SipHash-2-4) over its text; each
// output file's MAC is in its case's sealed done record. See docs/grading.md for what this covers.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace puzzle::protocol {

struct SessionKey {
  uint64_t k0 = 0, k1 = 0;

  static SessionKey random();                                    // from the OS's random source
  static std::optional<SessionKey> parse(std::string_view hex);  // 32 hex digits
  std::string hex() const;
};

// SipHash-2-4 of `bytes` under `key`, as 16 hex digits.
std::string seal(const SessionKey& key, std::string_view bytes);

}  // namespace puzzle::protocol
