// Attention masks. Shapes are [Tq, Tk] (queries × keys); 1 = the query may attend to the key.
#pragma once

#include "attn/tensor.hpp"

namespace attn {

// [n, n], lower triangle including the diagonal: query i sees keys 0..i (no peeking ahead).
Mask2 causal_mask(std::size_t n);
// [tq, tk]: every query sees keys 0..valid_keys-1; keys from valid_keys on are padding.
Mask2 padding_mask(std::size_t tq, std::size_t tk, std::size_t valid_keys);
// key_valid [Tk] (1 = real token, 0 = padding) -> [tq, Tk], the same row for every query.
Mask2 padding_mask(std::size_t tq, const Mask1& key_valid);
// a, b [Tq, Tk] -> [Tq, Tk], visible only where both are.
Mask2 combine_masks(const Mask2& a, const Mask2& b);

}  // namespace attn
