#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "reference.hpp"

using puzzle::reference::softmax_row;

TEST_CASE("softmax_row matches hand-computed rows") {
  const float x[] = {1, 2, 3};
  double y[3];
  softmax_row(x, 3, y);
  const double s = std::exp(-2.0) + std::exp(-1.0) + 1.0;
  CHECK(y[0] == doctest::Approx(std::exp(-2.0) / s).epsilon(1e-15));
  CHECK(y[1] == doctest::Approx(std::exp(-1.0) / s).epsilon(1e-15));
  CHECK(y[2] == doctest::Approx(1.0 / s).epsilon(1e-15));

  const float one[] = {-7.25f};
  softmax_row(one, 1, y);
  CHECK(y[0] == 1.0);

  const float equal[] = {0.5f, 0.5f, 0.5f, 0.5f};
  double quarter[4];
  softmax_row(equal, 4, quarter);
  for (double v : quarter) CHECK(v == 0.25);
}

TEST_CASE("softmax_row gives exactly 0 for -inf and 1 for the only finite value") {
  const float inf = std::numeric_limits<float>::infinity();
  const float x[] = {-inf, 2.0f, -inf, 2.0f};
  double y[4];
  softmax_row(x, 4, y);
  CHECK(y[0] == 0.0);
  CHECK(y[1] == 0.5);
  CHECK(y[2] == 0.0);
  CHECK(y[3] == 0.5);

  const float lone[] = {-inf, -inf, 3.0f};
  softmax_row(lone, 3, y);
  CHECK(y[0] == 0.0);
  CHECK(y[2] == 1.0);

  const float none[] = {-inf, -inf};
  softmax_row(none, 2, y);
  CHECK(std::isnan(y[0]));
}

TEST_CASE("softmax_row stays finite for huge values") {
  const float x[] = {1e4f, 1e4f - 1.0f, -1e4f};
  double y[3];
  softmax_row(x, 3, y);
  const double s = 1.0 + std::exp(-1.0);
  CHECK(y[0] == doctest::Approx(1.0 / s).epsilon(1e-12));
  CHECK(y[1] == doctest::Approx(std::exp(-1.0) / s).epsilon(1e-12));
  CHECK(y[2] == 0.0);

  const float low[] = {-1e4f, -1e4f};
  softmax_row(low, 2, y);
  CHECK(y[0] == 0.5);
}
