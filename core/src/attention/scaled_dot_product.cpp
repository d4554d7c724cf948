#include "attn/attention/scaled_dot_product.hpp"

#include <cmath>

#include "attn/attention/context.hpp"
#include "attn/attention/scores.hpp"
#include "attn/attention/softmax.hpp"

namespace attn {
namespace {

void require_qkv(const Tensor2& q, const Tensor2& k, const Tensor2& v, const char* where) {
  ATTN_REQUIRE(q.shape(0) > 0 && q.shape(1) > 0 && k.shape(0) > 0, where,
               "Q has shape " + shape_string(q.shape()) + " and K has shape " + shape_string(k.shape()) +
                   "; both need at least one row and d_k >= 1");
  ATTN_REQUIRE(q.shape(1) == k.shape(1), where,
               "Q has shape " + shape_string(q.shape()) + " but K has shape " + shape_string(k.shape()) +
                   "; Q and K must share d_k");
  ATTN_REQUIRE(k.shape(0) == v.shape(0), where,
               "K has shape " + shape_string(k.shape()) + " but V has shape " + shape_string(v.shape()) +
                   "; K and V need the same number of rows");
}

AttentionResult attend(const Tensor2& q, const Tensor2& k, const Tensor2& v, const Mask2* mask) {
  const Tensor2 s = scaled_dot_scores(q, k);
  AttentionResult r;
  if (mask != nullptr) {
    ATTN_REQUIRE(mask->shape(0) == q.shape(0) && mask->shape(1) == k.shape(0), "scaled_dot_product_attention",
                 "mask has shape " + shape_string(mask->shape()) + "; expected [Tq, Tk] = [" +
                     std::to_string(q.shape(0)) + ", " + std::to_string(k.shape(0)) + "]");
    r.weights = masked_softmax(s, *mask, 1);
  } else {
    r.weights = softmax(s, 1);
  }
  r.output = context_vectors(r.weights, v);
  return r;
}

}  // namespace

AttentionResult scaled_dot_product_attention(const Tensor2& q, const Tensor2& k, const Tensor2& v) {
  require_qkv(q, k, v, "scaled_dot_product_attention");
  return attend(q, k, v, nullptr);
}

AttentionResult scaled_dot_product_attention(const Tensor2& q, const Tensor2& k, const Tensor2& v, const Mask2& mask) {
  require_qkv(q, k, v, "scaled_dot_product_attention");
  return attend(q, k, v, &mask);
}

MultiHeadAttentionResult scaled_dot_product_attention(const Tensor3& q, const Tensor3& k, const Tensor3& v,
                                                      const Mask2* mask) {
  const std::size_t heads = q.shape(0);
  ATTN_REQUIRE(heads > 0 && k.shape(0) == heads && v.shape(0) == heads, "scaled_dot_product_attention",
               "Q, K, V have shapes " + shape_string(q.shape()) + ", " + shape_string(k.shape()) + ", " +
                   shape_string(v.shape()) + "; they need the same number of heads (first axis, >= 1)");
  MultiHeadAttentionResult r;
  r.output = xt::empty<float>({heads, q.shape(1), v.shape(2)});
  r.weights = xt::empty<float>({heads, q.shape(1), k.shape(1)});
  for (std::size_t h = 0; h < heads; ++h) {
    const Tensor2 qh = xt::view(q, h, xt::all(), xt::all());
    const Tensor2 kh = xt::view(k, h, xt::all(), xt::all());
    const Tensor2 vh = xt::view(v, h, xt::all(), xt::all());
    require_qkv(qh, kh, vh, "scaled_dot_product_attention");
    const AttentionResult one = attend(qh, kh, vh, mask);
    xt::view(r.output, h, xt::all(), xt::all()) = one.output;
    xt::view(r.weights, h, xt::all(), xt::all()) = one.weights;
  }
  return r;
}

Tensor3 split_heads(const Tensor2& x, std::size_t heads) {
  const std::size_t t = x.shape(0), d = x.shape(1);
  ATTN_REQUIRE(heads > 0 && d % heads == 0, "split_heads",
               "x has shape " + shape_string(x.shape()) + "; its last axis (" + std::to_string(d) +
                   ") must be divisible by the number of heads (" + std::to_string(heads) + ")");
  const std::size_t dh = d / heads;
  Tensor3 out = xt::empty<float>({heads, t, dh});
  for (std::size_t h = 0; h < heads; ++h) {
    for (std::size_t i = 0; i < t; ++i) {
      for (std::size_t j = 0; j < dh; ++j) out(h, i, j) = x(i, h * dh + j);
    }
  }
  return out;
}

Tensor2 merge_heads(const Tensor3& x) {
  const std::size_t heads = x.shape(0), t = x.shape(1), dh = x.shape(2);
  Tensor2 out = xt::empty<float>({t, heads * dh});
  for (std::size_t h = 0; h < heads; ++h) {
    for (std::size_t i = 0; i < t; ++i) {
      for (std::size_t j = 0; j < dh; ++j) out(i, h * dh + j) = x(h, i, j);
    }
  }
  return out;
}

}  // namespace attn
