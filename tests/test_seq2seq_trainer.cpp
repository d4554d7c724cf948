#include <doctest/doctest.h>

#include <chrono>
#include <cmath>
#include <limits>
#include <vector>

#include "attn/train/seq2seq_trainer.hpp"

using namespace attn;

namespace {

// Digits 0-9 are ids 4..13 on both sides.
constexpr int kDigit0 = 4;

// n random digit strings of length [lo, hi] and their reversals framed BOS .. EOS.
void reversal_data(std::size_t n, std::size_t lo, std::size_t hi, std::uint64_t seed, Sequences& sources,
                   Sequences& targets) {
  Rng rng(seed);
  for (std::size_t i = 0; i < n; ++i) {
    const std::size_t len = lo + rng.below(static_cast<std::uint32_t>(hi - lo + 1));
    std::vector<int> s(len);
    for (int& d : s) d = kDigit0 + static_cast<int>(rng.below(10));
    std::vector<int> t{kBosId};
    t.insert(t.end(), s.rbegin(), s.rend());
    t.push_back(kEosId);
    sources.push_back(s);
    targets.push_back(t);
  }
}

Seq2SeqConfig digits_config() {
  Seq2SeqConfig c;
  c.source_vocab = 14;
  c.target_vocab = 14;
  c.embed = 16;
  c.units = 32;
  c.attention_dim = 32;
  return c;
}

}  // namespace

TEST_CASE("seq2seq_trainer.learns_to_reverse_digit_strings") {
  Sequences sources, targets, test_sources, test_targets;
  reversal_data(3000, 3, 6, 1, sources, targets);
  reversal_data(300, 3, 6, 2, test_sources, test_targets);
  Seq2SeqModel model(digits_config(), 1);
  Seq2SeqTrainerConfig config;
  config.epochs = 8;
  config.batch = 32;
  config.learning_rate = 0.005f;
  config.validation_split = 0.1f;
  std::size_t steps_seen = 0;
  Seq2SeqCallbacks callbacks;
  callbacks.on_step = [&](const Seq2SeqStepProgress& p) {
    steps_seen = p.step;
    return true;
  };
  const auto start = std::chrono::steady_clock::now();
  const Seq2SeqHistory history = train_seq2seq(model, sources, targets, config, callbacks);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  MESSAGE("reversal 3-6 digits: " << history.epochs.size() << " epochs, " << seconds << " s, best epoch "
                                  << history.best_epoch);
  CHECK(history.steps == steps_seen);
  CHECK(history.train_examples == 2700);
  CHECK(history.validation_examples == 300);
  REQUIRE(!history.epochs.empty());
  CHECK(history.epochs.back().train_loss < history.epochs.front().train_loss);
  const Seq2SeqMetrics m = evaluate_seq2seq(model, test_sources, test_targets, 8);
  MESSAGE("test exact match " << m.exact_match << ", token accuracy " << m.token_accuracy);
  CHECK(m.exact_match >= 0.95);
  CHECK(m.token_accuracy >= m.exact_match);
  REQUIRE(m.by_source_length.size() == 4);
  std::size_t total = 0;
  for (const Seq2SeqLengthMetrics& l : m.by_source_length) total += l.count;
  CHECK(total == 300);
  CHECK(m.by_source_length.front().source_length == 3);
}

TEST_CASE("seq2seq_trainer.metrics_of_a_model_that_always_stops") {
  // b_out[EOS] = 100 makes EOS the argmax at step 0: every decoding is empty and finished.
  // Targets [BOS EOS] and [BOS 4 EOS]: exact match 1 of 2; token positions: EOS hit (1/1),
  // then y1 = 4 vs EOS missed and the gold EOS has no decoded token (0/2) -> accuracy 1/3.
  Seq2SeqModel model(digits_config(), 3);
  for (const Parameter& p : model.parameters()) {
    if (p.name == "output.b") p.value[kEosId] = 100.f;
  }
  const Seq2SeqMetrics m = evaluate_seq2seq(model, {{5, 6}, {7}}, {{kBosId, kEosId}, {kBosId, 4, kEosId}}, 5);
  CHECK(m.count == 2);
  CHECK(m.exact_match == doctest::Approx(0.5));
  CHECK(m.token_accuracy == doctest::Approx(1.0 / 3.0));
  REQUIRE(m.by_source_length.size() == 2);
  CHECK(m.by_source_length[0].source_length == 1);
  CHECK(m.by_source_length[0].exact == 0);
  CHECK(m.by_source_length[1].source_length == 2);
  CHECK(m.by_source_length[1].exact == 1);
}

TEST_CASE("seq2seq_trainer.config_and_data_errors") {
  Seq2SeqTrainerConfig c;
  c.teacher_forcing_end = 1.5f;
  CHECK_THROWS_WITH_AS(c.validate(), "Seq2SeqTrainerConfig: teacher_forcing_end must be in [0, 1], got 1.5",
                       std::invalid_argument);
  c.teacher_forcing_start = 1.f;
  c.teacher_forcing_end = 0.f;
  c.epochs = 5;
  CHECK(c.teacher_forcing_at(0) == 1.f);
  CHECK(c.teacher_forcing_at(2) == doctest::Approx(0.5f));
  CHECK(c.teacher_forcing_at(4) == 0.f);
  Seq2SeqModel model(digits_config(), 1);
  CHECK_THROWS_WITH_AS(train_seq2seq(model, {{4}}, {{4, kEosId}}, c),
                       "train_seq2seq: training target 0 must be BOS y1 .. yn EOS (ids 1 ... 2)",
                       std::invalid_argument);
  CHECK_THROWS_WITH_AS(train_seq2seq(model, {{40}}, {{kBosId, kEosId}}, c),
                       "train_seq2seq: training source 0 holds id 40, outside [0, 14)", std::invalid_argument);
}

TEST_CASE("seq2seq_trainer.divergence_restores_and_throws") {
  Sequences sources, targets;
  reversal_data(40, 3, 4, 5, sources, targets);
  Seq2SeqModel model(digits_config(), 1);
  Parameter& w = model.parameters().back();  // output.b
  w.value[5] = std::numeric_limits<float>::quiet_NaN();
  const float kept = model.parameters().front().value[20];
  Seq2SeqTrainerConfig c;
  c.epochs = 1;
  c.batch = 8;
  CHECK_THROWS_WITH_AS(train_seq2seq(model, sources, targets, c),
                       doctest::Contains("training diverged at epoch 1, step 1"), std::runtime_error);
  CHECK(model.parameters().front().value[20] == kept);
}

TEST_CASE("seq2seq_trainer.cancel_and_external_validation") {
  Sequences sources, targets, vs, vt;
  reversal_data(64, 3, 5, 6, sources, targets);
  reversal_data(16, 3, 5, 7, vs, vt);
  Seq2SeqModel model(digits_config(), 1);
  Seq2SeqTrainerConfig c;
  c.epochs = 4;
  c.batch = 16;
  c.teacher_forcing_start = 1.f;
  c.teacher_forcing_end = 0.5f;
  Seq2SeqCallbacks callbacks;
  std::vector<float> ratios;
  callbacks.on_epoch = [&](const Seq2SeqEpochProgress& p) {
    ratios.push_back(p.teacher_forcing);
    return p.epoch < 1;  // stop after the second epoch
  };
  const Seq2SeqHistory h = train_seq2seq(model, sources, targets, vs, vt, c, callbacks);
  CHECK(h.cancelled);
  CHECK(h.epochs.size() == 2);
  CHECK(h.steps == 8);
  CHECK(h.validation_examples == 16);
  CHECK(h.best_epoch >= 0);
  CHECK(h.epochs[0].has_validation);
  CHECK(h.epochs[0].validation.count == 16);
  REQUIRE(ratios.size() == 2);
  CHECK(ratios[1] == doctest::Approx(1.f - 0.5f / 3.f));
}

TEST_CASE("seq2seq_trainer.learning_rate_schedule") {
  Sequences sources, targets;
  reversal_data(64, 3, 5, 8, sources, targets);
  Seq2SeqTrainerConfig c;
  c.epochs = 2;
  c.batch = 16;  // 4 batches an epoch: 8 planned steps
  c.learning_rate = 0.01f;
  c.validation_split = 0.f;
  c.schedule = "linear";
  c.warmup_steps = 2;
  Seq2SeqModel model(digits_config(), 1);
  const auto snapshot = [&model] {
    std::vector<float> all;
    for (const Parameter& p : model.parameters()) all.insert(all.end(), p.value, p.value + p.size);
    return all;
  };
  const std::vector<float> before = snapshot();
  std::vector<float> rates;
  bool unchanged_after_first = false;
  Seq2SeqCallbacks callbacks;
  callbacks.on_step = [&](const Seq2SeqStepProgress& p) {
    rates.push_back(p.learning_rate);
    if (p.step == 1) unchanged_after_first = snapshot() == before;  // warm-up starts at 0: nothing moves
    return true;
  };
  const Seq2SeqHistory h = train_seq2seq(model, sources, targets, c, callbacks);
  CHECK(h.steps == 8);
  CHECK(unchanged_after_first);
  // Warm-up 0, 0.005, then 0.01 decaying linearly to 0 at step 8: 0.01 · (1 − d / 6).
  const std::vector<float> expected = {0.f,           0.005f,        0.01f,         0.01f * 5 / 6,
                                       0.01f * 4 / 6, 0.01f * 3 / 6, 0.01f * 2 / 6, 0.01f * 1 / 6};
  REQUIRE(rates.size() == expected.size());
  for (std::size_t i = 0; i < rates.size(); ++i) CHECK(rates[i] == doctest::Approx(expected[i]));
  CHECK(snapshot() != before);  // the later steps did train

  c.schedule = "constant";
  c.warmup_steps = 0;
  rates.clear();
  Seq2SeqModel constant_model(digits_config(), 1);
  callbacks.on_step = [&](const Seq2SeqStepProgress& p) {
    rates.push_back(p.learning_rate);
    return true;
  };
  train_seq2seq(constant_model, sources, targets, c, callbacks);
  REQUIRE(rates.size() == 8);
  for (float r : rates) CHECK(r == doctest::Approx(0.01f));

  c.schedule = "steps";
  CHECK_THROWS_WITH_AS(c.validate(),
                       "Seq2SeqTrainerConfig: schedule must be one of constant, linear, cosine, inverse_sqrt, got "
                       "'steps'",
                       std::invalid_argument);
  // A warm-up longer than the run (a recipe sized for a large file, trained on a small one) is
  // cut to half the planned steps: 4 of 8 here, then the linear decay over the other 4.
  c.schedule = "linear";
  c.warmup_steps = 800;
  rates.clear();
  Seq2SeqModel small_file_model(digits_config(), 1);
  train_seq2seq(small_file_model, sources, targets, c, callbacks);
  const std::vector<float> capped = {0.f, 0.0025f, 0.005f, 0.0075f, 0.01f, 0.01f * 3 / 4, 0.01f * 2 / 4, 0.01f * 1 / 4};
  REQUIRE(rates.size() == capped.size());
  for (std::size_t i = 0; i < rates.size(); ++i) CHECK(rates[i] == doctest::Approx(capped[i]));
}
