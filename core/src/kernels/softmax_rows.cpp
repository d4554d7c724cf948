#include "attn/kernels/softmax_rows.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

#include "simd4_math.hpp"

namespace attn::kernels {

namespace {
constexpr float kInf = std::numeric_limits<float>::infinity();
}  // namespace

bool softmax_row_reference(float* x, std::size_t n, std::size_t limit, const float* key_bias) {
  limit = std::min(limit, n);
  bool finite = true;
  float m = -kInf;
  for (std::size_t j = 0; j < limit; ++j) {
    if (std::isnan(x[j]) || x[j] == kInf) finite = false;
    x[j] += key_bias != nullptr ? key_bias[j] : 0.f;
    m = std::max(m, x[j]);
  }
  if (m == -kInf) {  // nothing visible
    std::fill(x, x + n, 0.f);
    return finite;
  }
  float sum = 0.f;
  for (std::size_t j = 0; j < limit; ++j) {
    x[j] = x[j] == -kInf ? 0.f : std::exp(x[j] - m);
    sum += x[j];
  }
  for (std::size_t j = 0; j < limit; ++j) x[j] /= sum;
  std::fill(x + limit, x + n, 0.f);
  return finite;
}

void softmax_row_backward_reference(const float* p, const float* dy, float* dx, std::size_t n, std::size_t limit,
                                    float scale) {
  limit = std::min(limit, n);
  float dot = 0.f;
  for (std::size_t j = 0; j < limit; ++j) dot += p[j] * dy[j];
  for (std::size_t j = 0; j < limit; ++j) dx[j] = scale * p[j] * (dy[j] - dot);
  std::fill(dx + limit, dx + n, 0.f);
}

namespace {

using namespace simd4;

float sum_lanes(F4 v) {
  float lanes[4];
  store(lanes, v);
  return (lanes[0] + lanes[1]) + (lanes[2] + lanes[3]);
}

float max_lanes(F4 v) {
  float lanes[4];
  store(lanes, v);
  return std::max(std::max(lanes[0], lanes[1]), std::max(lanes[2], lanes[3]));
}

bool all_lanes_set(F4 mask) {
  std::uint32_t lanes[4];
  std::memcpy(lanes, &mask, sizeof lanes);
  return (lanes[0] & lanes[1] & lanes[2] & lanes[3]) == 0xFFFFFFFFu;
}

}  // namespace

bool softmax_row(float* x, std::size_t n, std::size_t limit, const float* key_bias) {
  limit = std::min(limit, n);
  const std::size_t body = limit / 4 * 4;
  const F4 inf = splat(kInf), minus_inf = splat(-kInf);
  // Pass 1: add the key bias, find the maximum, and check that no score is NaN or +inf
  // (x < +inf is false for both).
  F4 finite = less(splat(0.f), splat(1.f));
  F4 m4 = minus_inf;
  for (std::size_t j = 0; j < body; j += 4) {
    F4 v = load(x + j);
    finite = bit_and(finite, less(v, inf));
    if (key_bias != nullptr) {
      v = v + load(key_bias + j);
      store(x + j, v);
    }
    m4 = max_keep_nan(m4, v);
  }
  // The last limit % 4 entries go through the same code in a block padded with −inf (hidden).
  float tail[4] = {-kInf, -kInf, -kInf, -kInf};
  for (std::size_t j = body; j < limit; ++j) tail[j - body] = x[j] + (key_bias != nullptr ? key_bias[j] : 0.f);
  bool ok = all_lanes_set(finite);
  for (std::size_t j = body; j < limit; ++j) ok = ok && x[j] < kInf;
  m4 = max_keep_nan(m4, load(tail));
  const float m = max_lanes(m4);
  if (!(m > -kInf)) {  // nothing visible (or NaN: the caller reports it)
    std::fill(x, x + n, 0.f);
    return ok;
  }
  // Pass 2: e_j = exp(x_j − m), 0 where hidden (x_j = −inf), and their sum.
  const F4 mv = splat(m);
  F4 sum4 = splat(0.f);
  for (std::size_t j = 0; j < body; j += 4) {
    const F4 v = load(x + j);
    const F4 e = bit_and(exp4_nonpositive(v - mv), less(minus_inf, v));
    sum4 = sum4 + e;
    store(x + j, e);
  }
  {
    const F4 v = load(tail);
    const F4 e = bit_and(exp4_nonpositive(v - mv), less(minus_inf, v));
    sum4 = sum4 + e;
    store(tail, e);
  }
  // Pass 3: normalise (sum >= 1: the maximum contributes exp(0)), zero what lies past the limit.
  const F4 inv = splat(1.f / sum_lanes(sum4));
  for (std::size_t j = 0; j < body; j += 4) store(x + j, load(x + j) * inv);
  store(tail, load(tail) * inv);
  for (std::size_t j = body; j < limit; ++j) x[j] = tail[j - body];
  std::fill(x + limit, x + n, 0.f);
  return ok;
}

void softmax_row_backward(const float* p, const float* dy, float* dx, std::size_t n, std::size_t limit, float scale) {
  limit = std::min(limit, n);
  const std::size_t body = limit / 4 * 4;
  F4 dot4 = splat(0.f);
  for (std::size_t j = 0; j < body; j += 4) dot4 = dot4 + load(p + j) * load(dy + j);
  float dot = sum_lanes(dot4);
  for (std::size_t j = body; j < limit; ++j) dot += p[j] * dy[j];
  const F4 dotv = splat(dot), sv = splat(scale);
  for (std::size_t j = 0; j < body; j += 4) store(dx + j, sv * load(p + j) * (load(dy + j) - dotv));
  for (std::size_t j = body; j < limit; ++j) dx[j] = scale * p[j] * (dy[j] - dot);
  std::fill(dx + limit, dx + n, 0.f);
}

}  // namespace attn::kernels
