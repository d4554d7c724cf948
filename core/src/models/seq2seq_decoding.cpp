#include "attn/models/seq2seq_decoding.hpp"

#include <stdexcept>
#include <string>

namespace attn {

std::int32_t best_emittable_token(const float* z, std::size_t v) {
  std::int32_t best = kEosId;
  for (std::size_t id = kEosId + 1; id < v; ++id) {
    if (z[id] > z[best]) best = static_cast<std::int32_t>(id);
  }
  return best;
}

std::vector<std::int32_t> greedy_decode(const DecoderStep& step, std::size_t vocab, std::size_t max_len) {
  if (vocab <= static_cast<std::size_t>(kEosId)) {
    throw std::invalid_argument("greedy_decode: the vocabulary needs PAD, BOS and EOS (at least 3 ids), got " +
                                std::to_string(vocab));
  }
  std::vector<float> logits(vocab);
  std::vector<std::int32_t> out;
  std::int32_t previous = kBosId;
  for (std::size_t t = 0; t < max_len; ++t) {
    step(previous, logits.data());
    previous = best_emittable_token(logits.data(), vocab);
    if (previous == kEosId) break;
    out.push_back(previous);
  }
  return out;
}

std::vector<std::int32_t> decoder_input_tokens(const std::vector<std::int32_t>& target, const Tensor2& logits,
                                               bool teacher_forcing) {
  const char* where = "decoder_input_tokens";
  if (target.size() < 2) throw_shape_error(where, "the target needs at least BOS and EOS");
  const std::size_t steps = target.size() - 1;
  if (logits.shape(0) != steps || logits.shape(1) <= static_cast<std::size_t>(kEosId)) {
    throw_shape_error(where, "logits have shape " + shape_string(logits.shape()) + "; a target of " +
                                 std::to_string(target.size()) + " tokens needs [" + std::to_string(steps) +
                                 ", V >= 3]");
  }
  std::vector<std::int32_t> fed(steps);
  for (std::size_t t = 0; t < steps; ++t) {
    fed[t] = teacher_forcing || t == 0 ? target[t] : best_emittable_token(&logits(t - 1, 0), logits.shape(1));
  }
  return fed;
}

}  // namespace attn
