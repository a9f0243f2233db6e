// The float64 references' tiled products (double_products.hpp) against plain loops, on sizes that leave
// partial tiles, an odd d and more terms than one block; and the order they promise: a sum does not depend
// on the tile it falls in, and a . b has the same bits as b . a.
#include <doctest/doctest.h>

#include <cmath>
#include <random>
#include <vector>

#include "double_products.hpp"

namespace {

std::vector<float> random_floats(int64_t n, unsigned seed) {
  std::mt19937 rng(seed);
  std::normal_distribution<float> normal;
  std::vector<float> x(n);
  for (float& e : x) e = normal(rng);
  return x;
}

// |got - want| within a few roundings of the sum of |terms|.
void check_close(double got, double want, double magnitude) {
  CHECK(std::abs(got - want) <= 1e-14 * magnitude);
}

}  // namespace

TEST_CASE("dot_products: every a_r . b_j, with partial tiles, an odd d and several blocks of b") {
  for (const int64_t d : {1, 7, 64}) {
    const int64_t a_rows = 5, b_rows = 131, stride = b_rows + 3;
    const auto a = random_floats(a_rows * d, 1), b = random_floats(b_rows * d, 2);
    std::vector<double> out(a_rows * stride, -1.0);
    puzzle::dot_products(a.data(), a_rows, b.data(), b_rows, d, out.data(), stride);
    for (int64_t r = 0; r < a_rows; ++r) {
      for (int64_t j = 0; j < b_rows; ++j) {
        double want = 0, magnitude = 0;
        for (int64_t c = 0; c < d; ++c) {
          const double term = static_cast<double>(a[r * d + c]) * b[j * d + c];
          want += term;
          magnitude += std::abs(term);
        }
        check_close(out[r * stride + j], want, magnitude);
      }
      for (int64_t j = b_rows; j < stride; ++j)
        CHECK(out[r * stride + j] == -1.0);  // past the rows: untouched
    }
  }
}

TEST_CASE("dot_products: a sum has the same bits in any tile and either way round") {
  const int64_t d = 37, a_rows = 9, b_rows = 70;
  const auto a = random_floats(a_rows * d, 3), b = random_floats(b_rows * d, 4);
  std::vector<double> ab(a_rows * b_rows), ba(b_rows * a_rows), one_row(b_rows);
  puzzle::dot_products(a.data(), a_rows, b.data(), b_rows, d, ab.data(), b_rows);
  puzzle::dot_products(b.data(), b_rows, a.data(), a_rows, d, ba.data(), a_rows);
  puzzle::dot_products(a.data() + 3 * d, 1, b.data(), b_rows, d, one_row.data(), b_rows);  // row 3 alone
  for (int64_t r = 0; r < a_rows; ++r) {
    for (int64_t j = 0; j < b_rows; ++j) CHECK(ab[r * b_rows + j] == ba[j * a_rows + r]);
  }
  for (int64_t j = 0; j < b_rows; ++j) CHECK(one_row[j] == ab[3 * b_rows + j]);
}

TEST_CASE(
    "add_products: c_r += sum_t w_rt b_t onto what c held, with partial tiles, an odd d and several blocks") {
  for (const int64_t d : {3, 64}) {
    const int64_t c_rows = 6, terms = 150, w_stride = terms + 5;
    const auto b = random_floats(terms * d, 5);
    const auto w_floats = random_floats(c_rows * w_stride, 6), c_floats = random_floats(c_rows * d, 7);
    const std::vector<double> w(w_floats.begin(), w_floats.end()), c0(c_floats.begin(), c_floats.end());
    std::vector<double> c = c0;
    puzzle::add_products(c.data(), c_rows, w.data(), w_stride, b.data(), terms, d);
    for (int64_t r = 0; r < c_rows; ++r) {
      for (int64_t x = 0; x < d; ++x) {
        double want = c0[r * d + x], magnitude = std::abs(want);
        for (int64_t t = 0; t < terms; ++t) {
          const double term = w[r * w_stride + t] * b[t * d + x];
          want += term;
          magnitude += std::abs(term);
        }
        check_close(c[r * d + x], want, magnitude);
      }
    }
  }
}
