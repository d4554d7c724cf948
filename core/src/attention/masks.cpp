#include "attn/attention/masks.hpp"

namespace attn {

Mask2 causal_mask(std::size_t n) {
  Mask2 mask = xt::zeros<std::uint8_t>({n, n});
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t j = 0; j <= i; ++j) mask(i, j) = 1;
  }
  return mask;
}

Mask2 padding_mask(std::size_t tq, std::size_t tk, std::size_t valid_keys) {
  ATTN_REQUIRE(valid_keys <= tk, "padding_mask",
               "valid_keys is " + std::to_string(valid_keys) + " but there are only " + std::to_string(tk) + " keys");
  Mask2 mask = xt::zeros<std::uint8_t>({tq, tk});
  xt::view(mask, xt::all(), xt::range(0, valid_keys)) = std::uint8_t{1};
  return mask;
}

Mask2 padding_mask(std::size_t tq, const Mask1& key_valid) {
  Mask2 mask = xt::empty<std::uint8_t>({tq, key_valid.shape(0)});
  for (std::size_t i = 0; i < tq; ++i) {
    for (std::size_t j = 0; j < key_valid.shape(0); ++j) mask(i, j) = key_valid(j) != 0 ? 1 : 0;
  }
  return mask;
}

Mask2 combine_masks(const Mask2& a, const Mask2& b) {
  ATTN_REQUIRE(a.shape() == b.shape(), "combine_masks",
               "a has shape " + shape_string(a.shape()) + " but b has shape " + shape_string(b.shape()));
  Mask2 out = xt::empty<std::uint8_t>(a.shape());
  for (std::size_t i = 0; i < a.size(); ++i) out.data()[i] = (a.data()[i] != 0 && b.data()[i] != 0) ? 1 : 0;
  return out;
}

}  // namespace attn
