#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>
#include <limits>
#include <vector>

#include "attn/io/model_file.hpp"
#include "attn/models/seq2seq.hpp"
#include "support/grad_check.hpp"

using namespace attn;

namespace {

// rows -> [B, width] padded 'post' with PAD.
TokenIds padded(const std::vector<std::vector<int>>& rows, std::size_t width) {
  TokenIds ids = xt::zeros<std::int32_t>({rows.size(), width});
  for (std::size_t b = 0; b < rows.size(); ++b) {
    for (std::size_t t = 0; t < rows[b].size(); ++t) ids(b, t) = rows[b][t];
  }
  return ids;
}

// y -> BOS y EOS.
std::vector<int> framed(std::vector<int> y) {
  y.insert(y.begin(), kBosId);
  y.push_back(kEosId);
  return y;
}

Seq2SeqConfig tiny(AttentionForm attention, ScoreKind score, CellKind cell) {
  Seq2SeqConfig c;
  c.source_vocab = 7;
  c.target_vocab = 6;
  c.embed = 3;
  c.units = 3;
  c.attention_dim = 4;
  c.cell = cell;
  c.attention = attention;
  c.score = score;
  c.max_source_len = 6;
  return c;
}

// Two sources of different lengths (post-padded) and targets of different lengths (post-padded).
struct Batch {
  TokenIds source = padded({{4, 5, 6, 4}, {6, 5}}, 4);
  TokenIds target = padded({framed({4, 5, 3}), framed({5})}, 5);
};

std::vector<float> all_grads(const ParameterList& params) {
  std::vector<float> g;
  for (const Parameter& p : params) g.insert(g.end(), p.grad, p.grad + p.size);
  return g;
}

// Tolerances: the loss is a float32 mean cross-entropy (~1.8) whose rounding noise is ~1e-6, so
// central differences with h = 1e-2 carry ~1e-4 of noise; curvature error is O(h²).
attn::test::GradCheckOptions model_tolerances() {
  attn::test::GradCheckOptions opt;
  opt.step = 1e-2;
  opt.rel_tol = 2e-2;
  opt.abs_tol = 2e-4;
  opt.max_probes = 16;
  return opt;
}

void check_model_gradients(const Seq2SeqConfig& config) {
  Seq2SeqModel model(config, 3);
  Batch batch;
  zero_grads(model.parameters());
  Rng rng(1);
  const float loss = model.train_batch(batch.source, batch.target, 1.f, rng);
  CHECK(loss == doctest::Approx(model.loss(batch.source, batch.target)).epsilon(1e-6));
  // Every parameter takes part (except the PAD rows of the embeddings).
  for (const Parameter& p : model.parameters()) {
    double norm = 0;
    for (std::size_t i = 0; i < p.size; ++i) norm += std::fabs(p.grad[i]);
    INFO(p.name);
    CHECK(norm > 0);
  }
  attn::test::check_parameter_gradients(
      model.parameters(), [&] { return model.loss(batch.source, batch.target); }, model_tolerances());
}

}  // namespace

TEST_CASE("seq2seq.gradients_bahdanau_lstm") {
  check_model_gradients(tiny(AttentionForm::bahdanau, ScoreKind::additive, CellKind::lstm));
}

TEST_CASE("seq2seq.gradients_bahdanau_gru") {
  check_model_gradients(tiny(AttentionForm::bahdanau, ScoreKind::additive, CellKind::gru));
}

TEST_CASE("seq2seq.gradients_luong_input_feeding") {
  for (ScoreKind score : {ScoreKind::general, ScoreKind::dot, ScoreKind::concat, ScoreKind::location}) {
    INFO(score_kind_name(score));
    check_model_gradients(tiny(AttentionForm::luong, score, CellKind::lstm));
  }
  check_model_gradients(tiny(AttentionForm::luong, ScoreKind::scaled_dot, CellKind::gru));
}

TEST_CASE("seq2seq.gradients_luong_without_input_feeding") {
  Seq2SeqConfig c = tiny(AttentionForm::luong, ScoreKind::general, CellKind::gru);
  c.input_feeding = false;
  check_model_gradients(c);
}

TEST_CASE("seq2seq.gradients_no_attention") {
  check_model_gradients(tiny(AttentionForm::none, ScoreKind::additive, CellKind::lstm));
  check_model_gradients(tiny(AttentionForm::none, ScoreKind::additive, CellKind::gru));
}

TEST_CASE("seq2seq.uniform_output_gives_log_v") {
  // With W_out = 0 and b_out = 0 every logit is 0, so p = 1/Vt for every token and the mean
  // cross-entropy over the 4 + 2 non-PAD targets is exactly ln 6 = 1.791759...
  Seq2SeqModel model(tiny(AttentionForm::bahdanau, ScoreKind::additive, CellKind::lstm), 3);
  for (const Parameter& p : model.parameters()) {
    if (p.name.rfind("output.", 0) == 0) std::fill(p.value, p.value + p.size, 0.f);
  }
  Batch batch;
  CHECK(model.loss(batch.source, batch.target) == doctest::Approx(std::log(6.0)).epsilon(1e-6));
  // Raising b_out[EOS] by ln 2 makes p(EOS) = 2/7 and every other p = 1/7: the targets are
  // 4 5 3 EOS / 5 EOS, so the loss is (4 ln 7 + 2 (ln 7 − ln 2)) / 6 = ln 7 − ln 2 / 3.
  for (const Parameter& p : model.parameters()) {
    if (p.name == "output.b") p.value[kEosId] = static_cast<float>(std::log(2.0));
  }
  CHECK(model.loss(batch.source, batch.target) == doctest::Approx(std::log(7.0) - std::log(2.0) / 3.0).epsilon(1e-6));
}

TEST_CASE("seq2seq.teacher_forcing_ratio_zero_feeds_argmax") {
  for (AttentionForm form : {AttentionForm::bahdanau, AttentionForm::luong}) {
    const ScoreKind score = form == AttentionForm::luong ? ScoreKind::general : ScoreKind::additive;
    Seq2SeqModel model(tiny(form, score, CellKind::lstm), 10);
    // Peaked logits keep the argmax gaps larger than the check's perturbations (with model seed 5
    // one fed token sits at a near-tie and flips, which shows as a jump of the numeric gradient).
    for (const Parameter& p : model.parameters()) {
      if (p.name == "output.w") {
        for (std::size_t i = 0; i < p.size; ++i) p.value[i] *= 8.f;
      }
    }
    Batch batch;
    Rng rng(9);
    const float forced = model.loss(batch.source, batch.target);
    const float own = model.loss(batch.source, batch.target, 0.f, rng);
    // Step 0 is the same (BOS), later steps read other tokens: the losses differ.
    CHECK(std::fabs(forced - own) > 1e-4f);
    // Ratio 1 draws nothing and is plain teacher forcing.
    CHECK(model.loss(batch.source, batch.target, 1.f, rng) == forced);

    // Gradients at ratio 0 treat the fed argmax tokens as constants; no fed token flips under
    // the check's perturbations (a flip would show as a jump of the numeric gradient).
    zero_grads(model.parameters());
    Rng fixed(4);
    const float trained = model.train_batch(batch.source, batch.target, 0.f, fixed);
    CHECK(trained == own);
    attn::test::GradCheckOptions opt = model_tolerances();
    opt.step = 1e-3;
    opt.abs_tol = 2e-3;  // float noise / 2h is 10× larger at this step
    attn::test::check_parameter_gradients(
        model.parameters(),
        [&] {
          Rng r(4);
          return model.loss(batch.source, batch.target, 0.f, r);
        },
        opt);
  }
}

TEST_CASE("seq2seq.partial_teacher_forcing_is_reproducible") {
  Seq2SeqModel model(tiny(AttentionForm::bahdanau, ScoreKind::additive, CellKind::gru), 5);
  Batch batch;
  Rng a(11), b(11);
  const float first = model.loss(batch.source, batch.target, 0.5f, a);
  CHECK(model.loss(batch.source, batch.target, 0.5f, b) == first);
  CHECK(a.next_u32() == b.next_u32());  // the same number of draws
  Rng c(11);
  CHECK_THROWS_WITH_AS(model.train_batch(batch.source, batch.target, 1.5f, c),
                       "Seq2SeqModel::train_batch: teacher_forcing_ratio must be in [0, 1], got 1.500000",
                       std::invalid_argument);
}

TEST_CASE("seq2seq.padding_is_masked") {
  for (AttentionForm form : {AttentionForm::bahdanau, AttentionForm::luong}) {
    const ScoreKind score = form == AttentionForm::luong ? ScoreKind::location : ScoreKind::additive;
    Seq2SeqModel model(tiny(form, score, CellKind::lstm), 6);
    Batch batch;
    // Three more PAD columns change neither the loss nor any gradient.
    TokenIds wider = padded({{4, 5, 6, 4}, {6, 5}}, 6);
    Rng rng(1);
    zero_grads(model.parameters());
    const float narrow_loss = model.train_batch(batch.source, batch.target, 1.f, rng);
    const std::vector<float> narrow_grads = all_grads(model.parameters());
    zero_grads(model.parameters());
    const float wide_loss = model.train_batch(wider, batch.target, 1.f, rng);
    const std::vector<float> wide_grads = all_grads(model.parameters());
    CHECK(wide_loss == doctest::Approx(narrow_loss).epsilon(1e-6));
    REQUIRE(wide_grads.size() == narrow_grads.size());
    for (std::size_t i = 0; i < wide_grads.size(); ++i) {
      INFO(i);
      CHECK(wide_grads[i] == doctest::Approx(narrow_grads[i]).epsilon(1e-5).scale(1e-6));
    }
    // PAD positions receive exactly zero attention, and decoding ignores the extra padding.
    const std::vector<Decoded> decoded = model.greedy_batch(wider, 4);
    const Decoded single = model.greedy({6, 5}, 4);
    CHECK(decoded[1].tokens == single.tokens);
    REQUIRE(decoded[1].alignment.shape(1) == 6);
    for (std::size_t t = 0; t < decoded[1].alignment.shape(0); ++t) {
      for (std::size_t j = 2; j < 6; ++j) CHECK(decoded[1].alignment(t, j) == 0.f);
      CHECK(decoded[1].alignment(t, 0) + decoded[1].alignment(t, 1) == doctest::Approx(1.f));
    }
    for (std::size_t t = 0; t < decoded[0].alignment.shape(0); ++t) {
      for (std::size_t j = 4; j < 6; ++j) CHECK(decoded[0].alignment(t, j) == 0.f);
    }
  }
}

namespace {

// Every sequence the decoder can emit in at most max_len steps (never PAD / BOS): y EOS with
// |y| < max_len, and the unfinished y with |y| = max_len. log p from the teacher-forced loss.
struct Scored {
  std::vector<int> tokens;
  bool finished;
  double log_prob;
};

std::vector<Scored> exhaustive(Seq2SeqModel& model, const std::vector<int>& source, std::size_t max_len) {
  const TokenIds src = padded({source}, source.size());
  std::vector<int> symbols;
  for (int v = kEosId + 1; v < static_cast<int>(model.config().target_vocab); ++v) symbols.push_back(v);
  std::vector<Scored> out;
  std::function<void(std::vector<int>)> grow = [&](std::vector<int> prefix) {
    if (prefix.size() < max_len) {
      std::vector<int> closed = framed(prefix);
      const double n = static_cast<double>(prefix.size() + 1);
      out.push_back({prefix, true, -n * model.loss(src, padded({closed}, closed.size()))});
      for (int s : symbols) {
        std::vector<int> longer = prefix;
        longer.push_back(s);
        grow(longer);
      }
    } else {
      std::vector<int> open = prefix;
      open.insert(open.begin(), kBosId);
      out.push_back({prefix, false, -static_cast<double>(max_len) * model.loss(src, padded({open}, open.size()))});
    }
  };
  grow({});
  return out;
}

}  // namespace

TEST_CASE("seq2seq.beam_of_full_width_is_exhaustive_search") {
  // Vt = 6: the decoder chooses among EOS, UNK, 4, 5. With max_len 3 there are 1 + 3 + 9 finished
  // and 27 unfinished sequences; at most 9 · 4 extensions per step, so width 128 prunes nothing.
  for (AttentionForm form : {AttentionForm::bahdanau, AttentionForm::luong, AttentionForm::none}) {
    const ScoreKind score = form == AttentionForm::luong ? ScoreKind::dot : ScoreKind::additive;
    Seq2SeqModel model(tiny(form, score, CellKind::gru), 8);
    // Larger output weights make the distributions peaked enough for distinct rankings.
    for (const Parameter& p : model.parameters()) {
      if (p.name == "output.w") {
        for (std::size_t i = 0; i < p.size; ++i) p.value[i] *= 6.f;
      }
    }
    const std::vector<int> source{4, 6, 5};
    for (float alpha : {0.f, 0.8f}) {
      INFO("attention " << attention_form_name(form) << ", alpha " << alpha);
      std::vector<Scored> all = exhaustive(model, source, 3);
      REQUIRE(all.size() == 40);
      std::stable_sort(all.begin(), all.end(), [&](const Scored& a, const Scored& b) {
        return length_penalised_score(static_cast<float>(a.log_prob), a.tokens.size() + a.finished, alpha) >
               length_penalised_score(static_cast<float>(b.log_prob), b.tokens.size() + b.finished, alpha);
      });
      const std::vector<Decoded> beams = model.beam(source, 128, alpha, 3);
      REQUIRE(beams.size() == 40);
      for (std::size_t i = 0; i < 5; ++i) {
        INFO("rank " << i);
        CHECK(beams[i].tokens == all[i].tokens);
        CHECK(beams[i].finished == all[i].finished);
        CHECK(beams[i].log_prob == doctest::Approx(all[i].log_prob).epsilon(1e-4));
      }
      // The enumeration covers every sequence but those with PAD / BOS, so its mass is just below 1.
      double total = 0;
      for (const Decoded& d : beams) total += std::exp(static_cast<double>(d.log_prob));
      CHECK(total < 1.0);
      CHECK(total > 0.3);
    }
  }
}

TEST_CASE("seq2seq.beam_of_width_one_is_greedy") {
  for (AttentionForm form : {AttentionForm::bahdanau, AttentionForm::luong, AttentionForm::none}) {
    const ScoreKind score = form == AttentionForm::luong ? ScoreKind::concat : ScoreKind::additive;
    INFO(attention_form_name(form));
    Seq2SeqModel model(tiny(form, score, CellKind::lstm), 12);
    for (const std::vector<int>& source :
         {std::vector<int>{4, 5, 6}, std::vector<int>{6}, std::vector<int>{5, 5, 4, 6}}) {
      const Decoded greedy = model.greedy(source, 6);
      const std::vector<Decoded> beam = model.beam(source, 1, 0.6f, 6);
      REQUIRE(beam.size() == 1);
      CHECK(beam[0].tokens == greedy.tokens);
      CHECK(beam[0].finished == greedy.finished);
      CHECK(beam[0].log_prob == greedy.log_prob);
      CHECK(beam[0].alignment == greedy.alignment);
      const std::size_t rows = greedy.tokens.size() + (greedy.finished ? 1 : 0);
      if (form == AttentionForm::none) {
        CHECK(greedy.alignment.size() == 0);
      } else {
        CHECK(greedy.alignment.shape(0) == rows);
        CHECK(greedy.alignment.shape(1) == source.size());
      }
    }
  }
}

TEST_CASE("seq2seq.greedy_batch_matches_greedy") {
  Seq2SeqModel model(tiny(AttentionForm::luong, ScoreKind::general, CellKind::gru), 13);
  const std::vector<std::vector<int>> sources{{4, 5, 6, 4, 4}, {6}, {5, 4}};
  const std::vector<Decoded> batch = model.greedy_batch(padded(sources, 5), 7);
  REQUIRE(batch.size() == 3);
  for (std::size_t b = 0; b < 3; ++b) {
    const Decoded one = model.greedy(sources[b], 7);
    CHECK(batch[b].tokens == one.tokens);
    CHECK(batch[b].log_prob == doctest::Approx(one.log_prob).epsilon(1e-5));
  }
}

TEST_CASE("seq2seq.config_validation_messages") {
  Seq2SeqConfig c = tiny(AttentionForm::bahdanau, ScoreKind::dot, CellKind::lstm);
  CHECK_THROWS_WITH_AS(c.validate(),
                       "Seq2SeqConfig: attention 'bahdanau' scores with the previous decoder state through an additive "
                       "layer, so score must be 'additive', got 'dot'",
                       std::invalid_argument);
  CHECK_THROWS_WITH_AS(Seq2SeqModel(c, 1), doctest::Contains("score must be 'additive'"), std::invalid_argument);
  c.attention = AttentionForm::luong;
  c.score = ScoreKind::additive;
  CHECK_THROWS_WITH_AS(c.validate(),
                       "Seq2SeqConfig: attention 'luong' supports score dot, scaled_dot, general, concat or location, "
                       "got 'additive'",
                       std::invalid_argument);
  c.score = ScoreKind::cosine;
  CHECK_THROWS_AS(c.validate(), std::invalid_argument);
  c.score = ScoreKind::dot;
  c.validate();
  c.attention = AttentionForm::none;
  c.score = ScoreKind::cosine;  // ignored without attention
  c.validate();
  c.units = 0;
  CHECK_THROWS_WITH_AS(c.validate(), "Seq2SeqConfig: units must be a whole number from 1 to 4096, got 0",
                       std::invalid_argument);
  c.units = 3;
  c.target_vocab = 3;
  CHECK_THROWS_WITH_AS(c.validate(), "Seq2SeqConfig: target_vocab must be >= 4 (PAD, BOS, EOS, UNK), got 3",
                       std::invalid_argument);
  CHECK_THROWS_WITH_AS(attention_form_from_name("global"), "unknown attention 'global'; valid: none, bahdanau, luong",
                       std::invalid_argument);
}

TEST_CASE("seq2seq.shape_errors_name_the_arguments") {
  Seq2SeqModel model(tiny(AttentionForm::bahdanau, ScoreKind::additive, CellKind::lstm), 1);
  const TokenIds source = padded({{4, 5}}, 2);
  const TokenIds target = padded({{1, 4}, {1, 5}}, 2);
  Rng rng(1);
  CHECK_THROWS_WITH_AS(model.train_batch(source, target, 1.f, rng),
                       "Seq2SeqModel::train_batch: target has shape [2, 2] but source has shape [1, 2]; expected "
                       "[B, Ty] with Ty >= 2 (BOS ... EOS)",
                       ShapeError);
  CHECK_THROWS_AS(model.loss(padded({{4, 9}}, 2), padded({framed({4})}, 3)), std::invalid_argument);  // 9 >= Vs
}

TEST_CASE("seq2seq.save_load_round_trip_is_bit_exact") {
  Seq2SeqConfig config = tiny(AttentionForm::luong, ScoreKind::concat, CellKind::gru);
  config.input_feeding = false;
  Seq2SeqModel model(config, 21);
  Batch batch;
  Rng rng(2);
  zero_grads(model.parameters());
  model.train_batch(batch.source, batch.target, 1.f, rng);  // any non-initial state would do
  const std::string extra = "{\"source_tokens\": [\"a\", \"b\"]}";
  const std::vector<std::uint8_t> bytes = save_seq2seq(model, extra);
  std::string extra_back;
  Seq2SeqModel loaded = load_seq2seq(bytes, &extra_back);
  CHECK(extra_back == extra);
  CHECK(loaded.config().to_json() == config.to_json());
  CHECK(loaded.config().input_feeding == false);
  const float a = model.loss(batch.source, batch.target), b = loaded.loss(batch.source, batch.target);
  CHECK(std::memcmp(&a, &b, sizeof a) == 0);
  const Decoded x = model.greedy({4, 5, 6}, 5), y = loaded.greedy({4, 5, 6}, 5);
  CHECK(x.tokens == y.tokens);
  CHECK(std::memcmp(&x.log_prob, &y.log_prob, sizeof x.log_prob) == 0);
  CHECK(x.alignment == y.alignment);
  // A model of another architecture is refused by name.
  Seq2SeqConfig other = config;
  other.units = 4;
  const std::vector<std::uint8_t> other_bytes = save_seq2seq(Seq2SeqModel(other, 1));
  ModelFile file = read_model(other_bytes);
  CHECK_THROWS_AS(load_parameters(file, model.parameters()), ModelFileError);
  std::vector<std::uint8_t> damaged = bytes;
  damaged[damaged.size() / 2] ^= 1;
  CHECK_THROWS_AS(load_seq2seq(damaged), ModelFileError);
}

TEST_CASE("seq2seq.same_seed_same_model") {
  const Seq2SeqConfig c = tiny(AttentionForm::bahdanau, ScoreKind::additive, CellKind::lstm);
  Seq2SeqModel a(c, 7), b(c, 7), d(c, 8);
  CHECK(all_grads(a.parameters()).size() == all_grads(b.parameters()).size());
  bool same = true, differs = false;
  for (std::size_t i = 0; i < a.parameters().size(); ++i) {
    const Parameter& p = a.parameters()[i];
    same = same && std::equal(p.value, p.value + p.size, b.parameters()[i].value);
    differs = differs || !std::equal(p.value, p.value + p.size, d.parameters()[i].value);
  }
  CHECK(same);
  CHECK(differs);
}

TEST_CASE("seq2seq.load_refuses_non_finite_weights_and_damaged_configurations") {
  Seq2SeqModel model(tiny(AttentionForm::bahdanau, ScoreKind::additive, CellKind::lstm), 3);
  const Parameter& first = model.parameters().front();
  first.value[0] = std::numeric_limits<float>::quiet_NaN();
  CHECK_THROWS_WITH_AS(
      load_seq2seq(save_seq2seq(model)),
      ("this seq2seq model holds non-finite parameter values (NaN or Inf) in '" + first.name + "'; it cannot predict")
          .c_str(),
      ModelFileError);
  first.value[0] = 3e30f;  // finite, but would overflow float32 inside the first products
  CHECK_THROWS_AS(load_seq2seq(save_seq2seq(model)), ModelFileError);
  first.value[0] = 0.5f;
  CHECK_NOTHROW(load_seq2seq(save_seq2seq(model)));
  // A configuration whose vocabulary would need far more floats than the file holds is refused
  // before the model is built (a damaged file must not allocate gigabytes).
  Seq2SeqConfig huge = model.config();
  huge.source_vocab = 1u << 26;
  const std::vector<std::uint8_t> lying = save_model(huge.to_json(), Seq2SeqModel(model.config(), 1).parameters());
  CHECK_THROWS_AS(load_seq2seq(lying), ModelFileError);
  std::vector<std::uint8_t> bad_json =
      save_model("{\"model\": \"seq2seq\", \"source_vocab\": \"many\"}", Seq2SeqModel(model.config(), 1).parameters());
  CHECK_THROWS_AS(load_seq2seq(bad_json), ModelFileError);
}
