// Element-wise comparison helpers for doctest.
#pragma once

#include <doctest/doctest.h>

#include <cmath>
#include <initializer_list>
#include <vector>

#include "attn/tensor.hpp"

namespace attn::test {

// Checks every entry of `actual` against `expected` (row-major) within `tol`, and the shape.
template <class E>
void check_close(const E& actual, std::initializer_list<std::size_t> shape,
                 const std::vector<float>& expected, float tol = 1e-5f) {
  const std::vector<std::size_t> want_shape(shape);
  REQUIRE(actual.dimension() == want_shape.size());
  for (std::size_t i = 0; i < want_shape.size(); ++i) REQUIRE(actual.shape()[i] == want_shape[i]);
  REQUIRE(actual.size() == expected.size());
  std::size_t i = 0;
  for (auto value : actual) {
    INFO("flat index " << i);
    CHECK(std::fabs(value - expected[i]) <= tol);
    ++i;
  }
}

inline Tensor2 matrix(std::initializer_list<std::initializer_list<float>> rows) {
  Tensor2 out = xt::zeros<float>({rows.size(), rows.begin()->size()});
  std::size_t i = 0;
  for (const auto& row : rows) {
    std::size_t j = 0;
    for (float x : row) out(i, j++) = x;
    ++i;
  }
  return out;
}

inline Tensor1 vector(std::initializer_list<float> values) {
  Tensor1 out = xt::zeros<float>({values.size()});
  std::size_t i = 0;
  for (float x : values) out(i++) = x;
  return out;
}

}  // namespace attn::test
