#include "rng.hpp"

#include <bit>
#include <cmath>
#include <utility>

namespace puzzle {
namespace {

uint64_t splitmix64(uint64_t& state) {
  uint64_t z = (state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

uint64_t fnv1a(std::string_view text) {
  uint64_t h = 0xCBF29CE484222325ull;
  for (unsigned char c : text) h = (h ^ c) * 0x100000001B3ull;
  return h;
}

}  // namespace

Rng::Rng(uint64_t seed) {
  for (uint64_t& word : s_) word = splitmix64(seed);
}

Rng Rng::for_buffer(uint64_t seed, int puzzle, std::string_view case_name, int buffer) {
  uint64_t key = seed;
  for (uint64_t part : {static_cast<uint64_t>(puzzle), fnv1a(case_name), static_cast<uint64_t>(buffer)}) {
    key ^= part;
    key = splitmix64(key);
  }
  return Rng(key);
}

Rng Rng::substream(uint64_t index) const {
  uint64_t key = s_[0] ^ std::rotl(s_[1], 16) ^ std::rotl(s_[2], 32) ^ std::rotl(s_[3], 48);
  key ^= splitmix64(index);  // index is a copy: mixing it leaves nothing else changed
  return Rng(key);
}

uint64_t Rng::next() {
  const uint64_t result = std::rotl(s_[1] * 5, 7) * 9;
  const uint64_t t = s_[1] << 17;
  s_[2] ^= s_[0];
  s_[3] ^= s_[1];
  s_[1] ^= s_[2];
  s_[0] ^= s_[3];
  s_[2] ^= t;
  s_[3] = std::rotl(s_[3], 45);
  return result;
}

double Rng::uniform() {
  return static_cast<double>(next() >> 11) * 0x1.0p-53;
}

double Rng::uniform(double lo, double hi) {
  return lo + (hi - lo) * uniform();
}

int64_t Rng::below(int64_t n) {
  __extension__ using u128 = unsigned __int128;  // GCC and Clang
  return static_cast<int64_t>((static_cast<u128>(next()) * static_cast<uint64_t>(n)) >> 64);
}

double Rng::normal() {
  // Marsaglia's polar method gives two independent normals per accepted pair; the second is kept for the
  // next call. It needs no sine or cosine, which made Box-Muller's draws most of the time it took to draw
  // the large cases' inputs.
  if (spare_) return *std::exchange(spare_, std::nullopt);
  double u, v, s;
  do {
    u = 2 * uniform() - 1;
    v = 2 * uniform() - 1;
    s = u * u + v * v;
  } while (s >= 1 || s == 0);
  const double factor = std::sqrt(-2 * std::log(s) / s);
  spare_ = v * factor;
  return u * factor;
}

}  // namespace puzzle
