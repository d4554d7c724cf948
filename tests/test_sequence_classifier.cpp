#include <doctest/doctest.h>

#include <cmath>
#include <cstring>

#include "attn/io/model_file.hpp"
#include "attn/losses/binary_cross_entropy.hpp"
#include "attn/models/sequence_classifier.hpp"
#include "support/grad_check.hpp"

using namespace attn;
using attn::test::check_parameter_gradients;
using attn::test::GradCheckOptions;

namespace {
ClassifierConfig small(EncoderKind encoder, PoolingKind pooling, ScoreKind score = ScoreKind::additive) {
  ClassifierConfig c;
  c.vocab_size = 12;
  c.embed_dim = 4;
  c.encoder = encoder;
  c.units = 3;
  c.pooling = pooling;
  c.score = score;
  c.attention_dim = 4;
  c.layers = 1;
  c.heads = 2;
  c.ff_dim = 6;
  c.max_len = 8;
  return c;
}

// B = 3, T = 5: sequence 1 has pre-padding, sequence 2 post-padding.
const TokenIds kIds = {{4, 5, 6, 7, 8}, {0, 0, 9, 10, 11}, {5, 7, 9, 0, 0}};
const Mask2 kMask = {{1, 1, 1, 1, 1}, {0, 0, 1, 1, 1}, {1, 1, 1, 0, 0}};
const Tensor1 kLabels = {1.f, 0.f, 1.f};

// Whole model + BCE: analytic gradients of every parameter against central differences.
void check_model(const ClassifierConfig& config, double step = 1e-2) {
  SequenceClassifier model(config, 17);
  Rng rng(1);
  Tensor1 logits, dlogits;
  zero_grads(model.parameters());
  model.forward(kIds, kMask, false, rng, logits);
  binary_cross_entropy_with_logits(logits, kLabels, &dlogits);
  model.backward(dlogits);
  auto loss = [&]() {
    model.forward(kIds, kMask, false, rng, logits);
    return static_cast<double>(binary_cross_entropy_with_logits(logits, kLabels, nullptr));
  };
  // tolerance: |analytic - numeric| <= 1e-4 + 2e-2 · max(|analytic|, |numeric|), h = 1e-2
  // (the BCE loss is O(1) and its gradients O(0.01–0.1), so the absolute floor is smaller).
  GradCheckOptions opt;
  opt.abs_tol = 1e-4;
  opt.max_probes = 12;
  opt.step = step;
  check_parameter_gradients(model.parameters(), loss, opt);
}
}  // namespace

TEST_CASE("sequence_classifier.gradients_bilstm_attention_bce") {
  check_model(small(EncoderKind::bilstm, PoolingKind::attention));
}

TEST_CASE("sequence_classifier.gradients_bigru_with_every_pooling_score") {
  for (ScoreKind score : {ScoreKind::additive, ScoreKind::concat, ScoreKind::general, ScoreKind::scaled_dot}) {
    CAPTURE(score_kind_name(score));
    check_model(small(EncoderKind::bigru, PoolingKind::attention, score));
  }
}

TEST_CASE("sequence_classifier.gradients_last_state_and_mean_pooling") {
  check_model(small(EncoderKind::bilstm, PoolingKind::last));
  check_model(small(EncoderKind::bilstm, PoolingKind::mean));
}

// h = 1e-3 here: with D = 4 the LayerNorms make the loss strongly curved in the embeddings, and
// h = 1e-2 gave ~10% truncation error on the largest embedding gradients (not a bug: the same
// entries agree to < 2% at h = 1e-3).
TEST_CASE("sequence_classifier.gradients_transformer") {
  check_model(small(EncoderKind::transformer, PoolingKind::attention), 1e-3);
  ClassifierConfig learned = small(EncoderKind::transformer, PoolingKind::mean);
  learned.positional = PositionalKind::learned;
  check_model(learned, 1e-3);
}

TEST_CASE("sequence_classifier.gradients_with_bigram_embeddings") {
  // (d): no encoder, words + hashed bigrams, attention or mean pooling; and a BiGRU reading them.
  ClassifierConfig ngrams = small(EncoderKind::none, PoolingKind::attention);
  ngrams.bigram_buckets = 7;
  check_model(ngrams);
  ngrams.pooling = PoolingKind::mean;
  check_model(ngrams);
  ClassifierConfig gru = small(EncoderKind::bigru, PoolingKind::attention);
  gru.bigram_buckets = 5;
  check_model(gru);
}

TEST_CASE("sequence_classifier.bigram_rows_follow_the_hash_and_padding_takes_row_zero") {
  CHECK(bigram_bucket(4, 5, 11) == 8);  // 1 + (4 · 1000003 + 5) mod 10
  CHECK(bigram_bucket(0, 1, 2) == 1);
  CHECK(bigram_bucket(4999, 4999, 131072) ==
        1 + static_cast<std::int32_t>((4999ull * 1000003ull + 4999ull) % 131071ull));
  CHECK_THROWS_AS(bigram_bucket(1, 2, 1), std::invalid_argument);
  ClassifierConfig c = small(EncoderKind::none, PoolingKind::attention);
  c.bigram_buckets = 11;
  SequenceClassifier model(c, 3);
  Rng rng(1);
  Tensor1 logits, dlogits = {1.f, 1.f, 1.f};
  zero_grads(model.parameters());
  model.forward(kIds, kMask, false, rng, logits);
  model.backward(dlogits);
  // Row 0 (padding) never moves; the first real token of a row pairs with id 0.
  const Parameter* bigrams = nullptr;
  for (const Parameter& p : model.parameters())
    if (p.name == "bigrams.weight") bigrams = &p;
  REQUIRE(bigrams != nullptr);
  for (std::size_t d = 0; d < 4; ++d) {
    CHECK(bigrams->value[d] == 0.f);
    CHECK(bigrams->grad[d] == 0.f);
  }
  // Row 1 + (0 · 1000003 + 4) mod 10 = 5 is the pair (start of row 0, 4): it has a gradient.
  double row5 = 0;
  for (std::size_t d = 0; d < 4; ++d) row5 += std::abs(bigrams->grad[5 * 4 + d]);
  CHECK(row5 > 0);
}

TEST_CASE("sequence_classifier.gradients_with_dropout") {
  // Dropout on the embeddings and the pooled vector (and inside the Transformer block): the
  // masks are fixed by re-seeding the generator before every forward, so the loss is smooth.
  for (EncoderKind encoder : {EncoderKind::bilstm, EncoderKind::transformer, EncoderKind::none}) {
    CAPTURE(encoder_kind_name(encoder));
    ClassifierConfig config = small(encoder, PoolingKind::attention);
    if (encoder == EncoderKind::none) config.bigram_buckets = 9;
    config.dropout = 0.3f;
    config.word_dropout = 0.3f;
    SequenceClassifier model(config, 17);
    Tensor1 logits, dlogits;
    auto forward = [&]() {
      Rng rng(7);
      model.forward(kIds, kMask, true, rng, logits);
    };
    zero_grads(model.parameters());
    forward();
    binary_cross_entropy_with_logits(logits, kLabels, &dlogits);
    model.backward(dlogits);
    auto loss = [&]() {
      forward();
      return static_cast<double>(binary_cross_entropy_with_logits(logits, kLabels, nullptr));
    };
    GradCheckOptions opt;
    opt.abs_tol = 1e-4;
    opt.max_probes = 12;
    opt.step = 1e-3;
    check_parameter_gradients(model.parameters(), loss, opt);
  }
}

TEST_CASE("sequence_classifier.padding_does_not_change_predictions") {
  for (EncoderKind encoder : {EncoderKind::bilstm, EncoderKind::transformer, EncoderKind::none}) {
    CAPTURE(encoder_kind_name(encoder));
    ClassifierConfig config = small(encoder, PoolingKind::attention);
    if (encoder == EncoderKind::none) config.bigram_buckets = 13;
    SequenceClassifier model(config, 5);
    Rng rng(1);
    Tensor1 short_logits, long_logits;
    const TokenIds ids = {{4, 5, 6}};
    const Mask2 mask = {{1, 1, 1}};
    model.forward(ids, mask, false, rng, short_logits);
    const Tensor2 short_weights = model.pooling_weights();
    const TokenIds padded = {{4, 5, 6, 0, 0}};
    const Mask2 padded_mask = {{1, 1, 1, 0, 0}};
    model.forward(padded, padded_mask, false, rng, long_logits);
    CHECK(long_logits(0) == doctest::Approx(short_logits(0)).epsilon(1e-5));
    CHECK(model.pooling_weights()(0, 3) == 0.f);
    CHECK(model.pooling_weights()(0, 0) == doctest::Approx(short_weights(0, 0)).epsilon(1e-5));
  }
}

TEST_CASE("sequence_classifier.config_json_round_trip_and_validation") {
  ClassifierConfig c = small(EncoderKind::transformer, PoolingKind::mean);
  c.dropout = 0.25f;
  c.word_dropout = 0.125f;
  c.causal = true;
  const ClassifierConfig back = ClassifierConfig::from_json(c.to_json());
  CHECK(back.to_json() == c.to_json());
  CHECK(back.encoder == EncoderKind::transformer);
  CHECK(back.dropout == 0.25f);
  CHECK(back.word_dropout == 0.125f);
  // Files from before word dropout have no such key and load with it off.
  std::string old_json = c.to_json();
  const std::string key = ",\"word_dropout\":0.125";  // keys are sorted: it comes last
  REQUIRE(old_json.find(key) != std::string::npos);
  old_json.erase(old_json.find(key), key.size());
  CHECK(ClassifierConfig::from_json(old_json).word_dropout == 0.f);
  // ... and files from before bigrams have none.
  ClassifierConfig with_bigrams = small(EncoderKind::none, PoolingKind::attention);
  with_bigrams.bigram_buckets = 64;
  CHECK(ClassifierConfig::from_json(with_bigrams.to_json()).bigram_buckets == 64);
  CHECK(ClassifierConfig::from_json(with_bigrams.to_json()).encoder == EncoderKind::none);
  std::string no_bigrams = c.to_json();
  const std::string bigram_key = "\"bigram_buckets\":0,";
  REQUIRE(no_bigrams.find(bigram_key) != std::string::npos);
  no_bigrams.erase(no_bigrams.find(bigram_key), bigram_key.size());
  CHECK(ClassifierConfig::from_json(no_bigrams).bigram_buckets == 0);

  ClassifierConfig bad = small(EncoderKind::transformer, PoolingKind::attention);
  bad.heads = 3;
  CHECK_THROWS_WITH_AS(SequenceClassifier(bad, 1), "invalid model configuration: heads (3) must divide embed_dim (4)",
                       std::invalid_argument);
  for (EncoderKind encoder : {EncoderKind::transformer, EncoderKind::none}) {
    CAPTURE(encoder_kind_name(encoder));
    CHECK_THROWS_WITH_AS(
        small(encoder, PoolingKind::last).validate(),
        "invalid model configuration: pooling 'last' needs a recurrent encoder; use 'attention' or 'mean'",
        std::invalid_argument);
  }
  bad = small(EncoderKind::bilstm, PoolingKind::attention);
  bad.vocab_size = 3;
  CHECK_THROWS_AS(bad.validate(), std::invalid_argument);
  CHECK_THROWS_WITH_AS(encoder_kind_from_name("lstm"),
                       "unknown encoder 'lstm'; valid: bilstm, bigru, transformer, none", std::invalid_argument);
  bad = small(EncoderKind::none, PoolingKind::attention);
  bad.bigram_buckets = 1;
  CHECK_THROWS_WITH_AS(bad.validate(),
                       "invalid model configuration: bigram_buckets must be 0 (no bigrams) or between 2 and 4194304, "
                       "got 1",
                       std::invalid_argument);
}

TEST_CASE("sequence_classifier.same_seed_same_parameters") {
  SequenceClassifier a(small(EncoderKind::bilstm, PoolingKind::attention), 9);
  SequenceClassifier b(small(EncoderKind::bilstm, PoolingKind::attention), 9);
  REQUIRE(a.parameters().size() == b.parameters().size());
  for (std::size_t i = 0; i < a.parameters().size(); ++i) {
    const Parameter& pa = a.parameters()[i];
    CHECK(std::equal(pa.value, pa.value + pa.size, b.parameters()[i].value));
  }
}

TEST_CASE("sequence_classifier.save_load_round_trip_is_bit_exact") {
  for (EncoderKind encoder : {EncoderKind::bigru, EncoderKind::transformer}) {
    CAPTURE(encoder_kind_name(encoder));
    SequenceClassifier model(small(encoder, PoolingKind::attention), 21);
    // Move the weights away from their initial values so a fresh model would differ.
    for (const Parameter& p : model.parameters()) {
      for (std::size_t i = 0; i < p.size; ++i) p.value[i] += 0.01f * static_cast<float>(i % 7);
    }
    const std::vector<std::uint8_t> bytes = save_classifier(model);
    const auto loaded = load_classifier(bytes.data(), bytes.size());
    CHECK(loaded->config().to_json() == model.config().to_json());
    REQUIRE(loaded->parameters().size() == model.parameters().size());
    for (std::size_t i = 0; i < model.parameters().size(); ++i) {
      const Parameter& a = model.parameters()[i];
      const Parameter& b = loaded->parameters()[i];
      CHECK(a.name == b.name);
      CHECK(std::memcmp(a.value, b.value, a.size * sizeof(float)) == 0);
    }
    Rng rng(1);
    Tensor1 original, reloaded;
    model.forward(kIds, kMask, false, rng, original);
    loaded->forward(kIds, kMask, false, rng, reloaded);
    CHECK(original == reloaded);
    CHECK(save_classifier(*loaded) == bytes);
  }
}

TEST_CASE("sequence_classifier.load_rejects_damaged_and_foreign_files") {
  SequenceClassifier model(small(EncoderKind::bilstm, PoolingKind::attention), 21);
  std::vector<std::uint8_t> bytes = save_classifier(model);
  std::vector<std::uint8_t> truncated(bytes.begin(), bytes.end() - 9);
  CHECK_THROWS_WITH_AS(load_classifier(truncated.data(), truncated.size()), doctest::Contains("truncated"),
                       ModelFileError);
  std::vector<std::uint8_t> flipped = bytes;
  flipped[flipped.size() / 2] ^= 0x10;
  CHECK_THROWS_AS(load_classifier(flipped.data(), flipped.size()), ModelFileError);
  // Same configuration text, other shapes: a GRU's parameters presented as an LSTM's.
  SequenceClassifier gru(small(EncoderKind::bigru, PoolingKind::attention), 21);
  const std::vector<std::uint8_t> foreign = save_model(model.config().to_json(), gru.parameters());
  CHECK_THROWS_WITH_AS(load_classifier(foreign.data(), foreign.size()), doctest::Contains("another architecture"),
                       ModelFileError);
}
