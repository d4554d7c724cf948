#include <doctest/doctest.h>

#include <stdexcept>
#include <vector>

#include "attn/models/seq2seq_decoding.hpp"
#include "support/tensor_check.hpp"

using namespace attn;
using attn::test::matrix;

TEST_CASE("seq2seq_decoding.best_token_skips_pad_and_bos_and_takes_the_first_tie") {
  const std::vector<float> z{9, 9, 0, 1, 1};
  CHECK(best_emittable_token(z.data(), z.size()) == 3);  // 9 on PAD and BOS do not count; 3 and 4 tie
  const std::vector<float> eos{0, 0, 5, 1};
  CHECK(best_emittable_token(eos.data(), eos.size()) == kEosId);
}

TEST_CASE("seq2seq_decoding.greedy_follows_the_step_until_eos_or_max_len") {
  // A step table: BOS -> 3 -> 4 -> EOS.
  const std::vector<std::vector<float>> table{
      {0, 0, 0, 0, 0}, {0, 0, 0, 1, 0}, {0, 0, 0, 0, 0}, {0, 0, 0, 0, 1}, {0, 0, 1, 0, 0}};
  std::vector<std::int32_t> seen;
  const DecoderStep step = [&](std::int32_t previous, float* logits) {
    seen.push_back(previous);
    std::copy(table[previous].begin(), table[previous].end(), logits);
  };
  CHECK(greedy_decode(step, 5, 10) == std::vector<std::int32_t>{3, 4});
  CHECK(seen == std::vector<std::int32_t>{kBosId, 3, 4});  // EOS is emitted but never read
  CHECK(greedy_decode(step, 5, 1) == std::vector<std::int32_t>{3});
  CHECK(greedy_decode(step, 5, 0).empty());
  CHECK_THROWS_AS(greedy_decode(step, 2, 5), std::invalid_argument);
}

TEST_CASE("seq2seq_decoding.decoder_inputs_teacher_forced_and_free_running") {
  const std::vector<std::int32_t> target{kBosId, 5, 4, kEosId};
  // Step 0 predicts 3 (wrong), step 1 predicts 4, step 2 predicts EOS.
  const Tensor2 logits = matrix({{9, 9, 0, 1, 0, 0}, {0, 0, 0, 0, 1, 0}, {0, 0, 1, 0, 0, 0}});
  CHECK(decoder_input_tokens(target, logits, true) == std::vector<std::int32_t>{kBosId, 5, 4});
  CHECK(decoder_input_tokens(target, logits, false) == std::vector<std::int32_t>{kBosId, 3, 4});
  CHECK_THROWS_AS(decoder_input_tokens(target, matrix({{0, 0, 1}}), false), ShapeError);
  CHECK_THROWS_AS(decoder_input_tokens({kBosId}, logits, false), ShapeError);
}
