// Element-wise comparison helpers for doctest.
#pragma once

#include <doctest/doctest.h>

#include <cmath>
#include <initializer_list>
#include <vector>

#include "attn/random.hpp"
#include "attn/tensor.hpp"

namespace attn::test {

// Checks every entry of `actual` against `expected` (row-major) within `tol`, and the shape.
template <class E>
void check_close(const E& actual, std::initializer_list<std::size_t> shape, const std::vector<float>& expected,
                 float tol = 1e-5f) {
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

// A tensor of `shape` filled from U(lo, hi).
template <class T, class S>
T random_tensor(const S& shape, Rng& rng, float lo = -1.f, float hi = 1.f) {
  T t = xt::empty<float>(shape);
  for (auto& v : t) v = rng.uniform(lo, hi);
  return t;
}

// Element-wise |a - b| <= tol for two tensors (or containers) of the same size.
template <class A, class B>
void check_near(const A& a, const B& b, float tol, const char* what) {
  REQUIRE(a.size() == b.size());
  auto ai = a.begin();
  auto bi = b.begin();
  for (std::size_t i = 0; ai != a.end(); ++ai, ++bi, ++i) {
    INFO(what << " flat index " << i << ": " << *ai << " vs " << *bi);
    CHECK(std::fabs(*ai - *bi) <= tol);
  }
}

}  // namespace attn::test
