#include <doctest/doctest.h>

#include <cmath>
#include <functional>
#include <limits>
#include <stdexcept>
#include <vector>

#include "attn/attention/attend.hpp"
#include "attn/attention/softmax.hpp"
#include "attn/models/seq2seq.hpp"
#include "attn/text/sequences.hpp"
#include "attn/train/seq2seq_trainer.hpp"

using namespace attn;

namespace {

// Digits 0-9 are ids 4..13 on both sides.
void reversal_data(std::size_t n, std::size_t lo, std::size_t hi, std::uint64_t seed, Sequences& sources,
                   Sequences& targets) {
  Rng rng(seed);
  for (std::size_t i = 0; i < n; ++i) {
    std::vector<int> s(lo + rng.below(static_cast<std::uint32_t>(hi - lo + 1)));
    for (int& d : s) d = 4 + static_cast<int>(rng.below(10));
    std::vector<int> t{kBosId};
    t.insert(t.end(), s.rbegin(), s.rend());
    t.push_back(kEosId);
    sources.push_back(s);
    targets.push_back(t);
  }
}

Seq2SeqConfig small_config(CellKind cell) {
  Seq2SeqConfig c;
  c.source_vocab = c.target_vocab = 14;
  c.embed = 12;
  c.units = 24;
  c.attention_dim = 24;
  c.cell = cell;
  return c;
}

// A reversal model trained for a few seconds: about 0.9+ exact match on held-out strings.
const Seq2SeqModel& trained_model() {
  static const Seq2SeqModel model = [] {
    Sequences sources, targets;
    reversal_data(2000, 3, 5, 1, sources, targets);
    Seq2SeqModel m(small_config(CellKind::lstm), 3);
    Seq2SeqTrainerConfig c;
    c.epochs = 6;
    c.batch = 32;
    c.learning_rate = 0.01f;
    c.early_stopping_patience = 0;
    c.validation_split = 0.1f;
    train_seq2seq(m, sources, targets, c);
    return m;
  }();
  return model;
}

TokenIds padded(const Sequences& sources) {
  std::vector<std::vector<std::int32_t>> rows(sources.begin(), sources.end());
  return pad_to_longest(rows, PadMode::post).ids;
}

// Weights and context for decoder states s [B, Ds] over an encoding: any attention function.
using AttentionFn = std::function<Seq2SeqAttention(const Seq2SeqEncoding&, const Tensor2&)>;

// Greedy decoding of a batch through the step API, attention supplied by `attention`: the loop a
// caller outside the engine writes (the course page writes it in JS).
std::vector<Decoded> drive(const Seq2SeqModel& model, const TokenIds& source, const AttentionFn& attention,
                           std::size_t max_len) {
  const std::size_t nb = source.shape(0), tx = source.shape(1);
  const Seq2SeqEncoding enc = model.encode(source);
  Seq2SeqDecoderState state = enc.start;
  std::vector<std::int32_t> previous(nb, kBosId);
  std::vector<Decoded> out(nb);
  std::vector<std::vector<float>> rows(nb);
  for (std::size_t t = 0; t < max_len; ++t) {
    const Seq2SeqAttention a = attention(enc, state.s);
    Seq2SeqStep step = model.decoder_step(previous, state, a.context);
    for (std::size_t b = 0; b < nb; ++b) {
      Decoded& r = out[b];
      if (r.finished) continue;
      const std::int32_t token = step.tokens[b];
      r.log_prob += std::log(step.probabilities(b, static_cast<std::size_t>(token)));
      rows[b].insert(rows[b].end(), &a.weights(b, 0), &a.weights(b, 0) + tx);
      if (token == kEosId) {
        r.finished = true;
      } else {
        r.tokens.push_back(token);
      }
    }
    previous = step.tokens;
    state = std::move(step.state);
  }
  for (std::size_t b = 0; b < nb; ++b) {
    out[b].alignment = Tensor2({rows[b].size() / tx, tx});
    std::copy(rows[b].begin(), rows[b].end(), out[b].alignment.begin());
  }
  return out;
}

double exact_match(const std::vector<Decoded>& decoded, const Sequences& targets) {
  std::size_t hits = 0;
  for (std::size_t i = 0; i < decoded.size(); ++i) {
    const std::vector<int> gold(targets[i].begin() + 1, targets[i].end() - 1);
    hits += decoded[i].finished && decoded[i].tokens == gold ? 1 : 0;
  }
  return static_cast<double>(hits) / static_cast<double>(decoded.size());
}

void check_same_decoding(const std::vector<Decoded>& a, const std::vector<Decoded>& b) {
  REQUIRE(a.size() == b.size());
  for (std::size_t i = 0; i < a.size(); ++i) {
    CAPTURE(i);
    CHECK(a[i].tokens == b[i].tokens);
    CHECK(a[i].finished == b[i].finished);
    CHECK(a[i].log_prob == doctest::Approx(b[i].log_prob).epsilon(1e-5));
    REQUIRE(a[i].alignment.shape() == b[i].alignment.shape());
    float worst = 0;
    for (std::size_t k = 0; k < a[i].alignment.size(); ++k) {
      worst = std::max(worst, std::abs(a[i].alignment.data()[k] - b[i].alignment.data()[k]));
    }
    CHECK(worst <= 1e-6f);
  }
}

AttentionFn engine_attention(const Seq2SeqModel& model) {
  return [&model](const Seq2SeqEncoding& enc, const Tensor2& s) { return model.attend(enc, s); };
}

// The same weight on every source token (none on PAD): attention that reads nothing.
Seq2SeqAttention uniform_attention(const Seq2SeqEncoding& enc, const Tensor2&) {
  const std::size_t nb = enc.annotations.shape(0), tx = enc.annotations.shape(1), dh = enc.annotations.shape(2);
  Seq2SeqAttention a{Tensor2({nb, tx}), Tensor2({nb, dh})};
  a.context.fill(0.f);
  for (std::size_t b = 0; b < nb; ++b) {
    float n = 0;
    for (std::size_t j = 0; j < tx; ++j) n += enc.mask(b, j);
    for (std::size_t j = 0; j < tx; ++j) {
      a.weights(b, j) = enc.mask(b, j) / n;
      for (std::size_t k = 0; k < dh; ++k) a.context(b, k) += a.weights(b, j) * enc.annotations(b, j, k);
    }
  }
  return a;
}

}  // namespace

TEST_CASE("seq2seq_step.engine_attention_reproduces_greedy_on_held_out_inputs") {
  const Seq2SeqModel& model = trained_model();
  Sequences sources, targets;
  reversal_data(60, 3, 5, 99, sources, targets);  // another seed: strings the model did not train on
  const TokenIds source = padded(sources);
  const std::vector<Decoded> engine = model.greedy_batch(source, 8);
  const std::vector<Decoded> stepped = drive(model, source, engine_attention(model), 8);
  check_same_decoding(stepped, engine);
  MESSAGE("held-out exact match " << exact_match(engine, targets));
  CHECK(exact_match(engine, targets) >= 0.8);
}

TEST_CASE("seq2seq_step.gru_model_steps_like_greedy_too") {
  // Untrained GRU weights: the identity holds for any parameters.
  const Seq2SeqModel model(small_config(CellKind::gru), 11);
  Sequences sources, targets;
  reversal_data(9, 1, 6, 4, sources, targets);
  const TokenIds source = padded(sources);
  check_same_decoding(drive(model, source, engine_attention(model), 7), model.greedy_batch(source, 7));
}

TEST_CASE("seq2seq_step.uniform_attention_breaks_the_trained_model") {
  const Seq2SeqModel& model = trained_model();
  Sequences sources, targets;
  reversal_data(60, 3, 5, 99, sources, targets);
  const TokenIds source = padded(sources);
  const double engine = exact_match(drive(model, source, engine_attention(model), 8), targets);
  const double uniform = exact_match(drive(model, source, uniform_attention, 8), targets);
  MESSAGE("exact match: engine attention " << engine << ", uniform weights " << uniform);
  CHECK(uniform <= engine - 0.5);
}

TEST_CASE("seq2seq_step.alignment_parameters_give_the_model_scores_as_additive_and_concat") {
  const Seq2SeqModel& model = trained_model();
  const Seq2SeqEncoding enc = model.encode(padded({{4, 5, 6, 7}, {8, 9}}));
  const Seq2SeqAttention own = model.attend(enc, enc.start.s);
  const ScoreParams params = model.alignment_parameters();
  const std::size_t tx = enc.annotations.shape(1), dh = enc.annotations.shape(2);
  for (std::size_t b = 0; b < 2; ++b) {
    CAPTURE(b);
    const Tensor1 s = xt::view(enc.start.s, b, xt::all());
    const Tensor2 h = xt::view(enc.annotations, b, xt::all(), xt::all());
    const Mask1 mask = xt::view(enc.mask, b, xt::all());
    for (const ScoreKind kind : {ScoreKind::additive, ScoreKind::concat}) {
      const AttendResult r = attend(kind, s, h, params, 1.f, &mask);
      for (std::size_t j = 0; j < tx; ++j) CHECK(r.weights(j) == doctest::Approx(own.weights(b, j)).epsilon(1e-5));
      for (std::size_t k = 0; k < dh; ++k) CHECK(r.context(k) == doctest::Approx(own.context(b, k)).epsilon(1e-5));
    }
  }
}

TEST_CASE("seq2seq_step.errors_name_what_does_not_fit") {
  const Seq2SeqModel model(small_config(CellKind::gru), 2);
  const Seq2SeqEncoding enc = model.encode(padded({{4, 5, 6}}));
  const Tensor2 context = model.attend(enc, enc.start.s).context;
  CHECK_NOTHROW(model.decoder_step({kBosId}, enc.start, context));
  CHECK_THROWS_WITH_AS(model.decoder_step({kBosId, kBosId}, enc.start, context),
                       "Seq2SeqModel::decoder_step: the state s has shape [1, 48]; expected [2, 48]", ShapeError);
  CHECK_THROWS_WITH_AS(model.decoder_step({kBosId}, enc.start, Tensor2({1, 5})),
                       "Seq2SeqModel::decoder_step: the context has shape [1, 5]; expected [1, 48]", ShapeError);
  Tensor2 bad = context;
  bad(0, 3) = std::numeric_limits<float>::quiet_NaN();
  CHECK_THROWS_WITH_AS(model.decoder_step({kBosId}, enc.start, bad),
                       "Seq2SeqModel::decoder_step: the context holds a non-finite value at [0, 3]",
                       std::invalid_argument);
  CHECK_THROWS_AS(model.decoder_step({14}, enc.start, context), std::invalid_argument);
  CHECK_THROWS_AS(model.decoder_step({}, enc.start, context), ShapeError);
  CHECK_THROWS_AS(model.attend(enc, Tensor2({2, 48})), ShapeError);

  Seq2SeqConfig luong = small_config(CellKind::gru);
  luong.attention = AttentionForm::luong;
  luong.score = ScoreKind::dot;
  const Seq2SeqModel other(luong, 2);
  CHECK_THROWS_WITH_AS(other.encode(padded({{4}})),
                       "Seq2SeqModel::encode: the step API takes the attention from the previous decoder state, "
                       "which only 'bahdanau' models read; this model's attention is 'luong'",
                       std::invalid_argument);
  CHECK_THROWS_AS(other.alignment_parameters(), std::invalid_argument);
}
