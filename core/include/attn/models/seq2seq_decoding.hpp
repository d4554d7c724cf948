// The decoding rules of the seq2seq model, written once: which token a decoder emits from its
// logits, greedy decoding over a decoder step, and the tokens a decoder reads with teacher forcing
// or running free. Token conventions of models/seq2seq.hpp: PAD 0, BOS 1, EOS 2.
//
// Legend: V vocabulary, Ty target length (BOS y1 .. yn EOS).
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "attn/models/seq2seq.hpp"
#include "attn/tensor.hpp"

namespace attn {

// The best emittable token of one logits row z [V]: the argmax over ids >= EOS (a decoder never
// emits PAD or BOS), the smallest id on ties. V >= 3.
std::int32_t best_emittable_token(const float* z, std::size_t v);

// One decoder step: given the previous token, fill `logits` [V] for the next one.
using DecoderStep = std::function<void(std::int32_t previous, float* logits)>;

// Greedy decoding over any decoder step: the first step reads BOS; every step emits
// best_emittable_token of its logits and feeds it to the next; EOS ends the output (and is not part
// of it); at most max_len steps run. Throws std::invalid_argument when vocab < 3.
std::vector<std::int32_t> greedy_decode(const DecoderStep& step, std::size_t vocab, std::size_t max_len);

// The tokens a decoder reads at its steps 0 .. Ty-2 for target [Ty] (BOS y1 .. yn EOS, Ty >= 2):
// with teacher forcing the gold previous token target[t]; running free BOS at step 0, then its own
// previous prediction best_emittable_token(logits[t-1]). logits [Ty-1, V] are the decoder's logits
// at every step (the last row predicts EOS and is read by neither). Seq2SeqModel::train_batch
// mixes the two per step and row with its teacher_forcing_ratio. Throws ShapeError on shapes.
std::vector<std::int32_t> decoder_input_tokens(const std::vector<std::int32_t>& target, const Tensor2& logits,
                                               bool teacher_forcing);

}  // namespace attn
