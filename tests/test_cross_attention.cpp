#include <doctest/doctest.h>

#include "attn/layers/cross_attention.hpp"
#include "attn/layers/multi_head_attention.hpp"
#include "support/grad_check.hpp"
#include "support/tensor_check.hpp"

using namespace attn;
using attn::test::check_close;

namespace {
Tensor3 random_sequence(Rng& rng, std::size_t b, std::size_t t, std::size_t d) {
  Tensor3 x = xt::empty<float>({b, t, d});
  for (auto& v : x) v = rng.uniform(-1.f, 1.f);
  return x;
}
void randomise_biases(MultiHeadCrossAttention& mha, Rng& rng) {
  for (Tensor1* b : {&mha.b_q, &mha.b_k, &mha.b_v, &mha.b_o}) {
    for (auto& v : *b) v = rng.uniform(-0.5f, 0.5f);
  }
}
}  // namespace

TEST_CASE("cross_attention.hand_computed") {
  // D = 2, H = 1, every W = I, b_o = [1, -1]; one query x = [1, 0] over memory m = [[1, 0], [0, 1]].
  // S = x mᵀ / √2 = [0.707107, 0]; P = [e^0.707107, 1] / (e^0.707107 + 1) = [0.669762, 0.330238];
  // C = P m = [0.669762, 0.330238]; y = C + b_o = [1.669762, -0.669762].
  // With the second memory row padded: P = [1, 0], y = [1, 0] + b_o = [2, -1].
  Rng rng(1);
  MultiHeadCrossAttention mha(2, 1, rng);
  for (Tensor2* w : {&mha.w_q, &mha.w_k, &mha.w_v, &mha.w_o}) *w = xt::eye<float>(2);
  mha.b_o = {1.f, -1.f};
  const Tensor3 x = {{{1.f, 0.f}}};
  const Tensor3 memory = {{{1.f, 0.f}, {0.f, 1.f}}};
  Tensor3 y;
  CrossAttentionCache cache;
  mha.forward(x, memory, nullptr, y, cache);
  check_close(cache.weights, {1, 1, 1, 2}, {0.669762f, 0.330238f}, 1e-6f);
  check_close(y, {1, 1, 2}, {1.669762f, -0.669762f}, 1e-5f);
  const Mask2 padding = {{1, 0}};
  mha.forward(x, memory, &padding, y, cache);
  check_close(cache.weights, {1, 1, 1, 2}, {1.f, 0.f}, 0.f);
  check_close(y, {1, 1, 2}, {2.f, -1.f}, 1e-6f);
}

TEST_CASE("cross_attention.gradients_match_finite_differences") {
  // B = 2, Ty = 3, Tx = 4, D = 4, H = 2; row 1's last source position is padding.
  Rng rng(2);
  MultiHeadCrossAttention mha(4, 2, rng);
  randomise_biases(mha, rng);
  ParameterList params;
  mha.parameters(params, "cross.");
  Tensor3 x = random_sequence(rng, 2, 3, 4);
  Tensor3 memory = random_sequence(rng, 2, 4, 4);
  const Mask2 padding = {{1, 1, 1, 1}, {1, 1, 1, 0}};
  Tensor3 y, dx, dmemory;
  CrossAttentionCache cache;
  mha.forward(x, memory, &padding, y, cache);
  const Tensor3 r = attn::test::probe_weights(y, 7);
  zero_grads(params);
  mha.backward(r, cache, dx, dmemory);
  auto loss = [&] {
    Tensor3 out;
    CrossAttentionCache c;
    mha.forward(x, memory, &padding, out, c);
    return attn::test::probe_loss(out, r);
  };
  attn::test::check_parameter_gradients(params, loss, {1e-2, 2e-2, 2e-3, 40, 1});
  attn::test::check_gradient("x", x.data(), dx.data(), x.size(), loss);
  attn::test::check_gradient("memory", memory.data(), dmemory.data(), memory.size(), loss);
  // The padded memory row gets no gradient at all: no query sees it.
  for (std::size_t j = 0; j < 4; ++j) CHECK(dmemory(1, 3, j) == 0.f);
}

TEST_CASE("cross_attention.on_its_own_input_is_self_attention") {
  // With the same weights and memory = x, cross-attention is self-attention: y matches, and
  // self-attention's dx is cross-attention's dx + dmemory (x feeds both sides).
  Rng rng(3);
  MultiHeadSelfAttention self(6, 3, rng);
  MultiHeadCrossAttention cross(6, 3, rng);
  for (Tensor1* b : {&self.b_q, &self.b_k, &self.b_v, &self.b_o}) {
    for (auto& v : *b) v = rng.uniform(-0.5f, 0.5f);
  }
  cross.w_q = self.w_q, cross.w_k = self.w_k, cross.w_v = self.w_v, cross.w_o = self.w_o;
  cross.b_q = self.b_q, cross.b_k = self.b_k, cross.b_v = self.b_v, cross.b_o = self.b_o;
  const Tensor3 x = random_sequence(rng, 2, 5, 6);
  const Mask2 padding = {{1, 1, 1, 0, 0}, {1, 1, 1, 1, 1}};
  Tensor3 y_self, y_cross, dx_self, dx_cross, dmemory;
  MultiHeadAttentionCache self_cache;
  CrossAttentionCache cross_cache;
  self.forward(x, &padding, false, y_self, self_cache);
  cross.forward(x, x, &padding, y_cross, cross_cache);
  CHECK(y_self == y_cross);  // the same GEMM and softmax calls: bit for bit
  CHECK(self_cache.weights == cross_cache.weights);
  const Tensor3 r = attn::test::probe_weights(y_self, 9);
  self.backward(r, self_cache, dx_self);
  cross.backward(r, cross_cache, dx_cross, dmemory);
  Tensor3 sum = dx_cross + dmemory;
  CHECK(xt::allclose(dx_self, sum, 1e-5, 1e-6));
  CHECK(xt::allclose(self.dw_k, cross.dw_k, 1e-5, 1e-6));
  CHECK(xt::allclose(self.dw_o, cross.dw_o, 1e-5, 1e-6));
}

TEST_CASE("cross_attention.padded_memory_is_invisible") {
  // Changing the memory at padded positions changes nothing the queries see.
  Rng rng(4);
  MultiHeadCrossAttention mha(4, 2, rng);
  randomise_biases(mha, rng);
  const Tensor3 x = random_sequence(rng, 1, 2, 4);
  Tensor3 memory = random_sequence(rng, 1, 3, 4);
  const Mask2 padding = {{0, 1, 1}};  // 'pre' padding
  Tensor3 y1, y2;
  CrossAttentionCache cache;
  mha.forward(x, memory, &padding, y1, cache);
  for (std::size_t h = 0; h < 2; ++h) {
    for (std::size_t t = 0; t < 2; ++t) CHECK(cache.weights(0, h, t, 0) == 0.f);
  }
  for (std::size_t j = 0; j < 4; ++j) memory(0, 0, j) += 5.f;
  mha.forward(x, memory, &padding, y2, cache);
  CHECK(y1 == y2);
}

TEST_CASE("cross_attention.rejects_bad_arguments") {
  Rng rng(5);
  CHECK_THROWS_AS(MultiHeadCrossAttention(6, 4, rng), ShapeError);
  MultiHeadCrossAttention mha(4, 2, rng);
  Tensor3 y;
  CrossAttentionCache cache;
  const Tensor3 x = xt::zeros<float>({2, 3, 4});
  const Tensor3 other_batch = xt::zeros<float>({3, 5, 4});
  const Tensor3 wrong_width = xt::zeros<float>({2, 5, 3});
  CHECK_THROWS_WITH_AS(mha.forward(x, other_batch, nullptr, y, cache), doctest::Contains("memory has shape [3, 5, 4]"),
                       ShapeError);
  CHECK_THROWS_AS(mha.forward(x, wrong_width, nullptr, y, cache), ShapeError);
  const Tensor3 memory = xt::zeros<float>({2, 5, 4});
  const Mask2 padding = xt::ones<std::uint8_t>({2, 3});
  CHECK_THROWS_WITH_AS(mha.forward(x, memory, &padding, y, cache), doctest::Contains("source_padding"), ShapeError);
  mha.forward(x, memory, nullptr, y, cache);
  Tensor3 dx, dmemory;
  CHECK_THROWS_AS(mha.backward(memory, cache, dx, dmemory), ShapeError);
}
