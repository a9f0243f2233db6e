#include "seal.hpp"

#include <cstring>
#include <random>
#include <vector>

#include "parallel_for.hpp"

namespace puzzle::protocol {
namespace {

constexpr uint64_t rotl(uint64_t x, int b) {
  return (x << b) | (x >> (64 - b));
}

struct SipState {
  uint64_t v0, v1, v2, v3;

  void round() {
    v0 += v1;
    v1 = rotl(v1, 13) ^ v0;
    v0 = rotl(v0, 32);
    v2 += v3;
    v3 = rotl(v3, 16) ^ v2;
    v0 += v3;
    v3 = rotl(v3, 21) ^ v0;
    v2 += v1;
    v1 = rotl(v1, 17) ^ v2;
    v2 = rotl(v2, 32);
  }
  void absorb(uint64_t m) {
    v3 ^= m;
    round();
    round();
    v0 ^= m;
  }
};

uint64_t siphash24(const SessionKey& key, std::string_view bytes) {
  SipState s{key.k0 ^ 0x736f6d6570736575ull, key.k1 ^ 0x646f72616e646f6dull, key.k0 ^ 0x6c7967656e657261ull,
             key.k1 ^ 0x7465646279746573ull};
  const size_t whole = bytes.size() / 8 * 8;
  for (size_t i = 0; i < whole; i += 8) {
    uint64_t m;
    std::memcpy(&m, bytes.data() + i, 8);  // little-endian hosts only (x86-64, aarch64)
    s.absorb(m);
  }
  uint64_t last = static_cast<uint64_t>(bytes.size()) << 56;
  for (size_t i = whole; i < bytes.size(); ++i)
    last |= static_cast<uint64_t>(static_cast<unsigned char>(bytes[i])) << (8 * (i - whole));
  s.absorb(last);
  s.v2 ^= 0xff;
  for (int i = 0; i < 4; ++i) s.round();
  return s.v0 ^ s.v1 ^ s.v2 ^ s.v3;
}

std::string hex64(uint64_t value) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string text(16, '0');
  for (int i = 15; i >= 0; --i, value >>= 4) text[i] = kDigits[value & 15];
  return text;
}

std::optional<uint64_t> parse64(std::string_view hex) {
  uint64_t value = 0;
  for (char c : hex) {
    const int digit = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
    if (digit < 0) return std::nullopt;
    value = value << 4 | static_cast<uint64_t>(digit);
  }
  return value;
}

}  // namespace

SessionKey SessionKey::random() {
  std::random_device device;  // /dev/urandom on Linux
  const auto draw = [&] { return static_cast<uint64_t>(device()) << 32 | device(); };
  return {draw(), draw()};
}

std::optional<SessionKey> SessionKey::parse(std::string_view hex) {
  if (hex.size() != 32) return std::nullopt;
  const auto k0 = parse64(hex.substr(0, 16)), k1 = parse64(hex.substr(16));
  if (!k0 || !k1) return std::nullopt;
  return SessionKey{*k0, *k1};
}

std::string SessionKey::hex() const {
  return hex64(k0) + hex64(k1);
}

std::string seal(const SessionKey& key, std::string_view bytes) {
  // Outputs of the large cases are hundreds of megabytes: above a chunk, each chunk is hashed on its own
  // core under a key with its index mixed in (so chunks cannot be swapped), then the chunks' hashes and
  // the length are hashed under a third key.
  constexpr size_t kChunk = size_t{1} << 20;
  if (bytes.size() <= kChunk) return hex64(siphash24(key, bytes));
  const size_t chunks = (bytes.size() + kChunk - 1) / kChunk;
  std::vector<uint64_t> hashes(chunks + 1);
  parallel_for(static_cast<int64_t>(chunks), [&](int64_t c) {
    const SessionKey chunk_key{key.k0 ^ static_cast<uint64_t>(c + 1), key.k1};
    hashes[c] = siphash24(chunk_key, bytes.substr(static_cast<size_t>(c) * kChunk, kChunk));
  });
  hashes[chunks] = bytes.size();
  const SessionKey top_key{key.k0, ~key.k1};
  return hex64(siphash24(top_key, {reinterpret_cast<const char*>(hashes.data()), hashes.size() * 8}));
}

}  // namespace puzzle::protocol
