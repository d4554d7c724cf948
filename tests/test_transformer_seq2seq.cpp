#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>

#include "attn/data/seq2seq_tasks.hpp"
#include "attn/io/flat_json.hpp"
#include "attn/io/model_file.hpp"
#include "attn/models/seq2seq.hpp"
#include "attn/models/transformer_seq2seq.hpp"
#include "attn/models/translator_file.hpp"
#include "attn/optim/adam.hpp"
#include "attn/text/seq2seq_vocabulary.hpp"
#include "attn/train/seq2seq_trainer.hpp"
#include "support/grad_check.hpp"

using namespace attn;
using attn::test::GradCheckOptions;

namespace {
TransformerSeq2SeqConfig tiny_config() {
  TransformerSeq2SeqConfig c;
  c.source_vocab = 9;
  c.target_vocab = 9;
  c.d_model = 8;
  c.heads = 2;
  c.ff_dim = 12;
  c.encoder_layers = 2;
  c.decoder_layers = 2;
  c.dropout = 0.f;
  c.activation = Activation::gelu;
  return c;
}
// Sources 'post'- and 'pre'-padded; targets BOS .. EOS then PAD.
const TokenIds kSource = {{4, 5, 6, 7}, {0, 8, 4, 5}};
const TokenIds kTarget = {{1, 7, 6, 5, 4, 2}, {1, 5, 4, 8, 2, 0}};

// Gives biases and LayerNorm shifts values, so their gradients are exercised.
void randomise_vectors(const ParameterList& params, Rng& rng) {
  for (const Parameter& p : params) {
    if (p.shape.size() == 1) {
      for (std::size_t i = 0; i < p.size; ++i) p.value[i] += rng.uniform(-0.2f, 0.2f);
    }
  }
}

// The greedy adapter a shared search would be: encode once, step on the previous tokens, pick the
// best token that is neither PAD nor BOS, stop at EOS.
std::vector<std::vector<int>> greedy(const TransformerSeq2Seq& model, const TokenIds& source, std::size_t max_len) {
  TransformerDecodingState state = model.encode(source);
  const std::size_t nb = source.shape(0);
  std::vector<std::int32_t> previous(nb, kBosId);
  std::vector<std::vector<int>> out(nb);
  std::vector<bool> done(nb, false);
  for (std::size_t t = 0; t < max_len; ++t) {
    const TransformerStepResult step = model.step(state, previous);
    for (std::size_t b = 0; b < nb; ++b) {
      const float* row = step.log_probs.data() + b * model.config().target_vocab;
      std::int32_t best = kEosId;
      for (std::size_t v = kEosId; v < model.config().target_vocab; ++v) {
        if (row[v] > row[best]) best = static_cast<std::int32_t>(v);
      }
      previous[b] = best;
      if (done[b]) continue;
      if (best == kEosId) {
        done[b] = true;
      } else {
        out[b].push_back(best);
      }
    }
    if (std::all_of(done.begin(), done.end(), [](bool x) { return x; })) break;
  }
  return out;
}

// A beam adapter over the same interface: one source, `width` hypotheses as batch rows; each step
// ranks every extension (never PAD / BOS) by summed log-probability, keeps the best `width`, sets
// finished ones aside and reorders the state to the survivors. Returns the best finished one
// (by log-probability), or the best live one after max_len steps.
std::vector<int> beam(const TransformerSeq2Seq& model, const std::vector<int>& source, std::size_t width,
                      std::size_t max_len) {
  TokenIds ids = xt::empty<std::int32_t>({std::size_t{1}, source.size()});
  for (std::size_t t = 0; t < source.size(); ++t) ids(0, t) = source[t];
  TransformerDecodingState state = model.encode(ids);
  struct Hypothesis {
    std::vector<int> tokens;
    float log_prob = 0;
  };
  std::vector<Hypothesis> live(1), finished;
  const std::size_t nv = model.config().target_vocab;
  for (std::size_t t = 0; t < max_len && !live.empty(); ++t) {
    std::vector<std::int32_t> previous;
    for (const Hypothesis& h : live) previous.push_back(h.tokens.empty() ? kBosId : h.tokens.back());
    const Tensor2 log_probs = model.step(state, previous).log_probs;
    struct Candidate {
      float score;
      std::size_t row;
      int token;
    };
    std::vector<Candidate> candidates;
    for (std::size_t r = 0; r < live.size(); ++r) {
      for (std::size_t v = kEosId; v < nv; ++v) {
        candidates.push_back({live[r].log_prob + log_probs(r, v), r, static_cast<int>(v)});
      }
    }
    std::sort(candidates.begin(), candidates.end(),
              [](const Candidate& a, const Candidate& b) { return a.score > b.score; });
    std::vector<Hypothesis> next;
    std::vector<std::size_t> rows;
    for (std::size_t i = 0; i < std::min(width, candidates.size()); ++i) {
      Hypothesis h{live[candidates[i].row].tokens, candidates[i].score};
      if (candidates[i].token == kEosId) {
        finished.push_back(h);
        continue;
      }
      h.tokens.push_back(candidates[i].token);
      next.push_back(h);
      rows.push_back(candidates[i].row);
    }
    if (finished.size() >= width || next.empty()) break;
    TransformerSeq2Seq::reorder(state, rows);
    live = std::move(next);
  }
  const std::vector<Hypothesis>& pool = finished.empty() ? live : finished;
  return std::max_element(pool.begin(), pool.end(),
                          [](const Hypothesis& a, const Hypothesis& b) { return a.log_prob < b.log_prob; })
      ->tokens;
}

void check_whole_model_gradients(const TransformerSeq2SeqConfig& config) {
  TransformerSeq2Seq model(config, 7);
  Rng rng(8);
  randomise_vectors(model.parameters(), rng);
  zero_grads(model.parameters());
  Rng drop(3);
  model.train_batch(kSource, kTarget, drop);
  auto loss = [&] {
    Rng same(3);  // the dropout masks of train_batch
    return static_cast<double>(model.loss(kSource, kTarget, true, same).loss);
  };
  GradCheckOptions opt;
  opt.max_probes = 6;
  opt.abs_tol = 1e-3;
  for (const Parameter& p : model.parameters()) {
    const bool table = p.name.find("embedding.weight") != std::string::npos;
    // Row PAD of a table is held at zero (no gradient by design): skip its entries.
    attn::test::check_gradient(p.name, p.value, p.grad, p.size, loss, opt,
                               [&](std::size_t i) { return table && i < config.d_model; });
  }
}
}  // namespace

TEST_CASE("transformer_seq2seq.gradients_of_the_whole_model") {
  SUBCASE("separate tables, untied output, dropout and label smoothing") {
    TransformerSeq2SeqConfig c = tiny_config();
    c.dropout = 0.2f;
    c.label_smoothing = 0.1f;
    check_whole_model_gradients(c);
  }
  SUBCASE("shared tables tied to the output, relu") {
    TransformerSeq2SeqConfig c = tiny_config();
    c.share_embeddings = true;
    c.tie_output = true;
    c.activation = Activation::relu;
    c.encoder_layers = 1;
    check_whole_model_gradients(c);
  }
}

TEST_CASE("transformer_seq2seq.parameters_are_named_and_tied") {
  TransformerSeq2SeqConfig c = tiny_config();
  TransformerSeq2Seq separate(c, 1);
  const ParameterList& p = separate.parameters();
  CHECK(p.front().name == "source_embedding.weight");
  CHECK(p[1].name == "target_embedding.weight");
  CHECK(p.back().name == "output.b");
  CHECK(p[p.size() - 2].name == "output.w");
  c.share_embeddings = c.tie_output = true;
  TransformerSeq2Seq tied(c, 1);
  CHECK(tied.parameters().front().name == "embedding.weight");
  CHECK(tied.parameters()[1].name == "encoder.0.ln1.gamma");
  CHECK(parameter_count(tied.parameters()) + 2 * 9 * 8 == parameter_count(separate.parameters()));
}

TEST_CASE("transformer_seq2seq.no_peeking") {
  // Changing target token t never changes the logits of positions before t (bit for bit), and
  // does change those at t.
  TransformerSeq2SeqConfig c = tiny_config();
  TransformerSeq2Seq model(c, 2);
  Rng rng(1);
  const TokenIds inputs = {{1, 7, 6, 5, 4}, {1, 5, 4, 8, 2}};
  const Tensor2 base = model.forward(kSource, inputs, false, rng);
  const std::size_t nt = 5, nv = 9;
  for (std::size_t t = 1; t < nt; ++t) {
    CAPTURE(t);
    TokenIds changed = inputs;
    changed(0, t) = changed(0, t) == 3 ? 4 : 3;
    const Tensor2& logits = model.forward(kSource, changed, false, rng);
    for (std::size_t s = 0; s < nt; ++s) {
      bool same = true;
      for (std::size_t v = 0; v < nv; ++v) same = same && logits(s, v) == base(s, v);
      CHECK(same == (s < t));
    }
    for (std::size_t s = 0; s < nt; ++s) {  // the other row is untouched
      for (std::size_t v = 0; v < nv; ++v) CHECK(logits(nt + s, v) == base(nt + s, v));
    }
  }
}

TEST_CASE("transformer_seq2seq.cached_steps_equal_the_teacher_forced_forward") {
  for (bool tied : {false, true}) {
    CAPTURE(tied);
    TransformerSeq2SeqConfig c = tiny_config();
    c.dropout = 0.3f;  // configured, but neither path draws: both run without dropout
    c.tie_output = tied;
    TransformerSeq2Seq model(c, 3);
    Rng rng(1);
    randomise_vectors(model.parameters(), rng);
    const TokenIds inputs = {{1, 7, 6, 5, 4}, {1, 5, 4, 8, 2}};
    const Tensor2 logits = model.forward(kSource, inputs, false, rng);
    TransformerDecodingState state = model.encode(kSource);
    for (std::size_t t = 0; t < 5; ++t) {
      CAPTURE(t);
      const TransformerStepResult step = model.step(state, {inputs(0, t), inputs(1, t)});
      REQUIRE(step.cross_weights.size() == 2);
      CHECK(step.cross_weights[1].shape() == std::array<std::size_t, 4>{2, 2, 1, 4});
      CHECK(step.self_weights[0].shape() == std::array<std::size_t, 4>{2, 2, 1, t + 1});
      CHECK(step.cross_weights[0](1, 0, 0, 0) == 0.f);  // row 1's source starts with PAD
      for (std::size_t b = 0; b < 2; ++b) {
        const float* z = logits.data() + (b * 5 + t) * 9;
        double norm = 0;
        for (std::size_t v = 0; v < 9; ++v) norm += std::exp(static_cast<double>(z[v]));
        for (std::size_t v = 0; v < 9; ++v) {
          const float expected = z[v] - static_cast<float>(std::log(norm));
          CHECK(step.log_probs(b, v) == doctest::Approx(expected).epsilon(1e-4));
        }
      }
    }
    CHECK(state.length() == 5);
  }
}

TEST_CASE("transformer_seq2seq.decoding_runs_without_dropout") {
  TransformerSeq2SeqConfig c = tiny_config();
  c.dropout = 0.5f;
  TransformerSeq2Seq model(c, 4);
  const auto first = greedy(model, kSource, 8);
  const auto second = greedy(model, kSource, 8);
  CHECK(first == second);
  TransformerDecodingState a = model.encode(kSource), b = model.encode(kSource);
  CHECK(model.step(a, {1, 1}).log_probs == model.step(b, {1, 1}).log_probs);
  // Training mode does draw: two training forwards with different draws differ.
  Rng r1(1), r2(2);
  const Tensor2 train1 = model.forward(kSource, kTarget, true, r1);
  const Tensor2 train2 = model.forward(kSource, kTarget, true, r2);
  CHECK(train1 != train2);
  Rng r3(3), r4(4);
  const Tensor2 eval1 = model.forward(kSource, kTarget, false, r3);
  const Tensor2 eval2 = model.forward(kSource, kTarget, false, r4);
  CHECK(eval1 == eval2);
}

TEST_CASE("transformer_seq2seq.reorder_moves_whole_hypotheses") {
  // After a step, reordering rows [1, 0, 1] and stepping gives each row what its source row gives.
  TransformerSeq2Seq model(tiny_config(), 5);
  TransformerDecodingState state = model.encode(kSource);
  model.step(state, {1, 1});
  TransformerDecodingState reordered = state;
  TransformerSeq2Seq::reorder(reordered, {1, 0, 1});
  CHECK(reordered.batch() == 3);
  const Tensor2 plain = model.step(state, {6, 7}).log_probs;
  const Tensor2 moved = model.step(reordered, {7, 6, 7}).log_probs;
  for (std::size_t v = 0; v < 9; ++v) {
    CHECK(moved(0, v) == doctest::Approx(plain(1, v)).epsilon(1e-5));
    CHECK(moved(1, v) == doctest::Approx(plain(0, v)).epsilon(1e-5));
    CHECK(moved(2, v) == doctest::Approx(plain(1, v)).epsilon(1e-5));
  }
  CHECK_THROWS_AS(TransformerSeq2Seq::reorder(reordered, {3}), ShapeError);
  CHECK_THROWS_WITH_AS(model.step(state, {1}), doctest::Contains("one token per row"), ShapeError);
  CHECK_THROWS_WITH_AS(model.step(state, {1, 9}), doctest::Contains("token 9 of row 1"), std::invalid_argument);
}

TEST_CASE("transformer_seq2seq.save_and_load") {
  TransformerSeq2SeqConfig c = tiny_config();
  c.tie_output = true;
  c.label_smoothing = 0.1f;
  TransformerSeq2Seq model(c, 6);
  Rng rng(2);
  randomise_vectors(model.parameters(), rng);
  const auto bytes = save_transformer_seq2seq(model, "{\"note\":1}");
  std::string extra;
  TransformerSeq2Seq loaded = load_transformer_seq2seq(bytes, &extra);
  CHECK(extra == "{\"note\":1}");
  CHECK(loaded.config().tie_output);
  CHECK(loaded.config().label_smoothing == doctest::Approx(0.1f));
  Rng r(1);
  CHECK(model.forward(kSource, kTarget, false, r) == loaded.forward(kSource, kTarget, false, r));
  // An RNN seq2seq file is refused with a message, not loaded.
  Seq2SeqConfig rnn;
  rnn.source_vocab = rnn.target_vocab = 9;
  rnn.embed = rnn.units = rnn.attention_dim = 4;
  const auto foreign = save_seq2seq(Seq2SeqModel(rnn, 1));
  CHECK_THROWS_WITH_AS(load_transformer_seq2seq(foreign), doctest::Contains("not a transformer_seq2seq model"),
                       ModelFileError);
}

TEST_CASE("transformer_seq2seq.config_is_validated") {
  TransformerSeq2SeqConfig c = tiny_config();
  c.heads = 3;
  CHECK_THROWS_WITH_AS(TransformerSeq2Seq(c, 1), doctest::Contains("divisible by heads"), std::invalid_argument);
  c = tiny_config();
  c.source_vocab = 12;
  c.share_embeddings = true;
  CHECK_THROWS_WITH_AS(c.validate(), doctest::Contains("share_embeddings needs one vocabulary"), std::invalid_argument);
  c = tiny_config();
  c.label_smoothing = 1.f;
  CHECK_THROWS_AS(c.validate(), std::invalid_argument);
  c = tiny_config();
  c.decoder_layers = 0;
  CHECK_THROWS_WITH_AS(c.validate(),
                       "TransformerSeq2SeqConfig: decoder_layers must be a whole number from 1 to 64, got 0",
                       std::invalid_argument);
  CHECK(TransformerSeq2SeqConfig::from_json(tiny_config().to_json()).to_json() == tiny_config().to_json());
}

namespace {
TokenIds pad_batch(const std::vector<std::vector<int>>& rows) {
  std::size_t width = 0;
  for (const auto& r : rows) width = std::max(width, r.size());
  TokenIds ids = xt::zeros<std::int32_t>({rows.size(), width});
  for (std::size_t b = 0; b < rows.size(); ++b) {
    for (std::size_t t = 0; t < rows[b].size(); ++t) ids(b, t) = rows[b][t];
  }
  return ids;
}
}  // namespace

TEST_CASE("transformer_seq2seq.learns_to_reverse_digit_strings") {
  // A 1 + 1 block model (D 32, H 4) trained for 1000 Adam steps on reversing 2–5 digit strings
  // decodes held-out strings greedily with >= 95% exact match (100% measured).
  const TaskSplit split = make_digit_split(DigitTask::reverse, 2000, 100, 2, 5, 2, 5, 11);
  std::vector<std::string> texts;
  for (const auto& e : split.train) texts.push_back(e.source);
  const Seq2SeqVocabulary vocab = Seq2SeqVocabulary::fit(texts, TokenLevel::character, 20);
  TransformerSeq2SeqConfig c;
  c.source_vocab = c.target_vocab = vocab.size();
  c.d_model = 32;
  c.heads = 4;
  c.ff_dim = 64;
  c.encoder_layers = c.decoder_layers = 1;
  c.dropout = 0.f;
  c.share_embeddings = c.tie_output = true;
  TransformerSeq2Seq model(c, 1);
  Adam adam(3e-3f);
  Rng rng(2);
  const std::size_t batch = 32;
  float last = 0;
  for (std::size_t step = 0; step < 1000; ++step) {
    std::vector<std::vector<int>> sources, targets;
    for (std::size_t i = 0; i < batch; ++i) {
      const ParallelExample& e = split.train[rng.below(static_cast<std::uint32_t>(split.train.size()))];
      sources.push_back(vocab.encode(e.source));
      targets.push_back(vocab.encode(e.target, true));
    }
    zero_grads(model.parameters());
    last = model.train_batch(pad_batch(sources), pad_batch(targets), rng).loss;
    adam.step(model.parameters());
  }
  CHECK(last < 0.1f);
  std::vector<std::vector<int>> sources;
  for (const auto& e : split.test) sources.push_back(vocab.encode(e.source));
  const auto decoded = greedy(model, pad_batch(sources), 8);
  std::size_t exact = 0;
  for (std::size_t i = 0; i < split.test.size(); ++i) exact += vocab.decode(decoded[i]) == split.test[i].target ? 1 : 0;
  MESSAGE("exact match " << exact << " / " << split.test.size() << ", last loss " << last);
  CHECK(exact >= 95);
  // The same model through a beam of 3 that reorders the cached states after every step.
  std::size_t beam_exact = 0;
  for (std::size_t i = 0; i < 30; ++i) {
    beam_exact += vocab.decode(beam(model, sources[i], 3, 8)) == split.test[i].target ? 1 : 0;
  }
  MESSAGE("beam 3 exact match " << beam_exact << " / 30");
  CHECK(beam_exact >= 28);
}

// --- as a TrainableTranslator: the shared searches, trainer and model files drive it ---

TEST_CASE("transformer_seq2seq.greedy_search_equals_its_own_step_loop") {
  TransformerSeq2Seq model(tiny_config(), 11);
  Rng rng(5);
  randomise_vectors(model.parameters(), rng);
  const Translator& translator = model;
  CHECK(translator.attends());
  CHECK(translator.target_vocab() == 9);
  const std::vector<Decoded> shared = greedy_search(translator, kSource, 8);
  const auto own = greedy(model, kSource, 8);
  REQUIRE(shared.size() == 2);
  for (std::size_t b = 0; b < 2; ++b) {
    CHECK(shared[b].tokens == own[b]);
    // The alignment is the last block's cross-attention averaged over heads, from attention_maps
    // as well; every row sums to 1 over the source and PAD columns are 0.
    const std::size_t rows = shared[b].alignment.shape(0);
    CHECK(rows == own[b].size() + (shared[b].finished ? 1 : 0));
    for (std::size_t t = 0; t < rows; ++t) {
      float sum = 0;
      for (std::size_t j = 0; j < 4; ++j) sum += shared[b].alignment(t, j);
      CHECK(sum == doctest::Approx(1.f).epsilon(1e-5));
    }
    if (b == 1) CHECK(shared[b].alignment(0, 0) == 0.f);  // row 1 is 'pre'-padded
  }
  std::vector<int> source0{4, 5, 6, 7};
  std::vector<int> outputs = shared[0].tokens;
  if (shared[0].finished) outputs.push_back(kEosId);
  const TransformerAttentionMaps maps = model.attention_maps(source0, outputs);
  CHECK(maps.cross.shape() == std::array<std::size_t, 4>{2, 2, outputs.size(), 4});
  CHECK(maps.self.shape() == std::array<std::size_t, 4>{2, 2, outputs.size(), outputs.size()});
  for (std::size_t t = 0; t < outputs.size(); ++t) {
    for (std::size_t j = 0; j < 4; ++j) {
      const float mean = (maps.cross(1, 0, t, j) + maps.cross(1, 1, t, j)) / 2;
      CHECK(mean == doctest::Approx(shared[0].alignment(t, j)).epsilon(1e-5));
    }
    float self_sum = 0;
    for (std::size_t j = 0; j < outputs.size(); ++j) {
      if (j > t) CHECK(maps.self(0, 1, t, j) == 0.f);  // masked: no peeking at later positions
      self_sum += maps.self(0, 1, t, j);
    }
    CHECK(self_sum == doctest::Approx(1.f).epsilon(1e-5));
  }
}

TEST_CASE("transformer_seq2seq.beam_of_one_is_greedy_and_wider_beams_rank") {
  TransformerSeq2Seq model(tiny_config(), 12);
  Rng rng(6);
  randomise_vectors(model.parameters(), rng);
  const std::vector<int> source{4, 5, 6, 7};
  const Decoded greedy_one = greedy_search(model, source_row(source), 8).front();
  const std::vector<Decoded> one = beam_search(model, source, 1, 0.f, 8);
  REQUIRE(one.size() == 1);
  CHECK(one[0].tokens == greedy_one.tokens);
  CHECK(one[0].log_prob == doctest::Approx(greedy_one.log_prob).epsilon(1e-5));
  // A beam of 4 finds a hypothesis at least as likely (alpha 0 ranks by log_prob).
  const std::vector<Decoded> four = beam_search(model, source, 4, 0.f, 8);
  REQUIRE(!four.empty());
  CHECK(four[0].log_prob >= one[0].log_prob - 1e-5f);
  for (std::size_t i = 1; i < four.size(); ++i) CHECK(four[i - 1].log_prob >= four[i].log_prob);
}

TEST_CASE("transformer_seq2seq.shared_decoding_runs_without_dropout") {
  TransformerSeq2SeqConfig c = tiny_config();
  c.dropout = 0.5f;
  TransformerSeq2Seq model(c, 4);
  const std::vector<Decoded> a = greedy_search(model, kSource, 8), b = greedy_search(model, kSource, 8);
  for (std::size_t r = 0; r < 2; ++r) {
    CHECK(a[r].tokens == b[r].tokens);
    CHECK(a[r].log_prob == b[r].log_prob);
    CHECK(a[r].alignment == b[r].alignment);
  }
  CHECK(beam_search(model, {4, 5, 6}, 3, 0.6f, 8)[0].tokens == beam_search(model, {4, 5, 6}, 3, 0.6f, 8)[0].tokens);
}

TEST_CASE("transformer_seq2seq.teacher_forcing_only") {
  TransformerSeq2Seq model(tiny_config(), 2);
  TrainableTranslator& trainable = model;
  Rng rng(1);
  CHECK_THROWS_WITH_AS(trainable.train_batch(kSource, kTarget, 0.5f, rng), doctest::Contains("must be 1"),
                       std::invalid_argument);
  zero_grads(model.parameters());
  Rng same(1);
  const float loss = trainable.train_batch(kSource, kTarget, 1.f, rng);
  CHECK(loss == doctest::Approx(model.loss(kSource, kTarget, true, same).loss));
  CHECK(trainable.loss(kSource, kTarget) == doctest::Approx(model.evaluate(kSource, kTarget).loss));
}

TEST_CASE("transformer_seq2seq.either_file_loads_as_a_translator") {
  TransformerSeq2SeqConfig c = tiny_config();
  c.share_embeddings = true;
  TransformerSeq2Seq model(c, 9);
  Rng rng(3);
  randomise_vectors(model.parameters(), rng);
  const auto bytes = save_translator(model, "{\"task\":\"x\"}");
  CHECK(bytes == save_transformer_seq2seq(model, "{\"task\":\"x\"}"));
  std::string extra;
  const std::unique_ptr<TrainableTranslator> loaded = load_translator(bytes, &extra);
  CHECK(extra == "{\"task\":\"x\"}");
  CHECK(translator_kind(*loaded) == "transformer_seq2seq");
  const std::vector<Decoded> before = greedy_search(model, kSource, 8), after = greedy_search(*loaded, kSource, 8);
  for (std::size_t r = 0; r < 2; ++r) {
    CHECK(before[r].tokens == after[r].tokens);
    CHECK(before[r].log_prob == after[r].log_prob);
    CHECK(before[r].alignment == after[r].alignment);
  }
  CHECK(beam_search(model, {4, 5, 6}, 3, 0.6f, 8)[0].tokens == beam_search(*loaded, {4, 5, 6}, 3, 0.6f, 8)[0].tokens);

  Seq2SeqConfig rnn;
  rnn.source_vocab = rnn.target_vocab = 9;
  rnn.embed = rnn.units = rnn.attention_dim = 4;
  const Seq2SeqModel rnn_model(rnn, 1);
  const std::unique_ptr<TrainableTranslator> rnn_loaded = load_translator(save_translator(rnn_model));
  CHECK(translator_kind(*rnn_loaded) == "seq2seq");
  CHECK(greedy_search(*rnn_loaded, kSource, 5)[0].tokens == greedy_search(rnn_model, kSource, 5)[0].tokens);

  FlatJson other;
  other.set("model", "sentiment");
  const auto foreign = save_model(other.dump(), ParameterList{});
  CHECK_THROWS_WITH_AS(load_translator(foreign), doctest::Contains("holds a 'sentiment' model, not a seq2seq model"),
                       ModelFileError);
  CHECK_THROWS_AS(load_translator(std::vector<std::uint8_t>{1, 2, 3}), ModelFileError);
}

TEST_CASE("transformer_seq2seq.trained_by_the_seq2seq_trainer" * doctest::timeout(120)) {
  // The shared trainer (Adam, clipping, bucketing, greedy validation through greedy_search, best
  // epoch restored) drives the Transformer through TrainableTranslator: reversing 2-5 digit
  // strings reaches >= 90% held-out exact match (99% measured, 30 epochs).
  const TaskSplit split = make_digit_split(DigitTask::reverse, 2000, 100, 2, 5, 2, 5, 11);
  std::vector<std::string> texts;
  for (const auto& e : split.train) texts.push_back(e.source);
  const Seq2SeqVocabulary vocab = Seq2SeqVocabulary::fit(texts, TokenLevel::character, 20);
  Sequences sources, targets, test_sources, test_targets;
  for (const auto& e : split.train) {
    sources.push_back(vocab.encode(e.source));
    targets.push_back(vocab.encode(e.target, true));
  }
  for (const auto& e : split.test) {
    test_sources.push_back(vocab.encode(e.source));
    test_targets.push_back(vocab.encode(e.target, true));
  }
  TransformerSeq2SeqConfig c;
  c.source_vocab = c.target_vocab = vocab.size();
  c.d_model = 32;
  c.heads = 4;
  c.ff_dim = 64;
  c.encoder_layers = c.decoder_layers = 1;
  c.dropout = 0.f;
  c.share_embeddings = c.tie_output = true;
  TransformerSeq2Seq model(c, 1);
  Seq2SeqTrainerConfig config;
  config.epochs = 30;
  config.batch = 32;
  config.learning_rate = 3e-3f;
  config.validation_split = 0.1f;
  config.early_stopping_patience = 0;
  const Seq2SeqHistory history = train_seq2seq(model, sources, targets, config);
  CHECK(history.epochs.size() == 30);
  CHECK(history.epochs.back().train_loss < history.epochs.front().train_loss);
  const Seq2SeqMetrics test = evaluate_seq2seq(model, test_sources, test_targets, 8);
  MESSAGE("held-out exact match " << test.exact_match << ", validation "
                                  << history.epochs.back().validation.exact_match);
  CHECK(test.exact_match >= 0.9);
}

TEST_CASE("transformer_seq2seq.teacher_forced_accuracy_equals_the_parallel_forward") {
  // teacher_forced_accuracy feeds the gold prefix one step at a time through the Translator
  // interface; the teacher-forced forward computes every position at once. Their best emittable
  // tokens (never PAD / BOS) must agree: hits / positions over y1 .. yn EOS.
  TransformerSeq2Seq model(tiny_config(), 13);
  Rng rng(9);
  randomise_vectors(model.parameters(), rng);
  const Sequences sources = {{4, 5, 6, 7}, {8, 4, 5}, {6}};
  const Sequences targets = {{1, 7, 6, 5, 4, 2}, {1, 5, 4, 8, 2}, {1, 6, 2}};
  const auto parallel_forward_accuracy = [&] {
    std::size_t hits = 0, positions = 0;
    for (std::size_t i = 0; i < sources.size(); ++i) {
      TokenIds source = xt::empty<std::int32_t>({std::size_t{1}, sources[i].size()});
      for (std::size_t t = 0; t < sources[i].size(); ++t) source(0, t) = sources[i][t];
      const std::size_t nt = targets[i].size() - 1;
      TokenIds input = xt::empty<std::int32_t>({std::size_t{1}, nt});
      for (std::size_t t = 0; t < nt; ++t) input(0, t) = targets[i][t];
      Rng unused(0);
      const Tensor2 logits = model.forward(source, input, false, unused);
      for (std::size_t t = 0; t < nt; ++t) {
        std::size_t best = kEosId;
        for (std::size_t v = kEosId; v < 9; ++v) {
          if (logits(t, v) > logits(t, best)) best = v;
        }
        hits += static_cast<int>(best) == targets[i][t + 1] ? 1 : 0;
        ++positions;
      }
    }
    return static_cast<double>(hits) / static_cast<double>(positions);
  };
  // Untrained (few hits), then fitted to the three pairs for 150 Adam steps (most positions hit).
  for (int phase = 0; phase < 2; ++phase) {
    const double expected = parallel_forward_accuracy();
    CHECK(teacher_forced_accuracy(model, sources, targets) == doctest::Approx(expected));
    CHECK(teacher_forced_accuracy(model, sources, targets, 2) == doctest::Approx(expected));  // across batches
    CHECK(parallel_teacher_forced_accuracy(model, sources, targets, 2) == doctest::Approx(expected));
    MESSAGE("phase " << phase << ": teacher-forced accuracy " << expected);
    if (phase == 1) CHECK(expected > 0.8);
    const TokenIds batch_sources = {{4, 5, 6, 7}, {8, 4, 5, 0}, {6, 0, 0, 0}};  // the same pairs, padded
    const TokenIds batch_targets = {{1, 7, 6, 5, 4, 2}, {1, 5, 4, 8, 2, 0}, {1, 6, 2, 0, 0, 0}};
    Adam adam(1e-2f);
    Rng drop(1);
    for (int step = 0; step < 150; ++step) {
      zero_grads(model.parameters());
      model.train_batch(batch_sources, batch_targets, drop);
      adam.step(model.parameters());
    }
  }
  CHECK_THROWS_AS(teacher_forced_accuracy(model, sources, {targets[0]}), std::invalid_argument);
}

TEST_CASE("transformer_seq2seq.decoder_self_mask_given_by_the_caller") {
  TransformerSeq2SeqConfig c = tiny_config();
  TransformerSeq2Seq model(c, 21);
  Rng rng(1);
  randomise_vectors(model.parameters(), rng);
  const TokenIds inputs = {{1, 7, 6, 5, 4}, {1, 5, 4, 8, 2}};
  const std::size_t nt = 5, nv = 9;
  const Tensor2 causal = model.forward(kSource, inputs, false, rng);
  // The causal pattern as a caller's mask, larger than the batch: its top-left block is used.
  Mask2 lower = xt::zeros<std::uint8_t>({7, 7});
  for (std::size_t t = 0; t < 7; ++t) {
    for (std::size_t i = 0; i <= t; ++i) lower(t, i) = 1;
  }
  model.set_decoder_self_mask(lower);
  CHECK(model.decoder_self_mask().shape(0) == 7);
  CHECK(xt::allclose(model.forward(kSource, inputs, false, rng), causal, 0, 0));
  // No mask at all: position t reads the input at t + 1, so changing it moves the logits before.
  model.set_decoder_self_mask(xt::ones<std::uint8_t>({7, 7}));
  const Tensor2 open = model.forward(kSource, inputs, false, rng);
  TokenIds changed = inputs;
  changed(0, 3) = 3;
  const Tensor2& peeked = model.forward(kSource, changed, false, rng);
  bool earlier_moved = false;
  for (std::size_t v = 0; v < nv; ++v) earlier_moved = earlier_moved || peeked(2, v) != open(2, v);
  CHECK(earlier_moved);
  // Decoding uses row t over the positions 0 .. t: for an open mask that is the causal decoder.
  TransformerDecodingState state = model.encode(kSource);
  model.set_decoder_self_mask(Mask2());
  TransformerDecodingState causal_state = model.encode(kSource);
  for (std::size_t t = 0; t < nt; ++t) {
    const std::vector<std::int32_t> previous{inputs(0, t), inputs(1, t)};
    const Tensor2 expected = model.step(causal_state, previous).log_probs;
    model.set_decoder_self_mask(xt::ones<std::uint8_t>({7, 7}));
    CHECK(xt::allclose(model.step(state, previous).log_probs, expected, 0, 0));
    model.set_decoder_self_mask(Mask2());
  }
  // Checks: square, 0/1, large enough for the batch and for the decoding.
  CHECK_THROWS_WITH_AS(model.set_decoder_self_mask(xt::ones<std::uint8_t>({3, 4})), doctest::Contains("square"),
                       std::invalid_argument);
  Mask2 two = lower;
  two(1, 1) = 2;
  CHECK_THROWS_WITH_AS(model.set_decoder_self_mask(two), doctest::Contains("0 (hidden) and 1 (visible)"),
                       std::invalid_argument);
  model.set_decoder_self_mask(xt::view(lower, xt::range(0, 3), xt::range(0, 3)));
  CHECK_THROWS_WITH_AS(model.forward(kSource, inputs, false, rng), doctest::Contains("set a mask of at least 5 × 5"),
                       std::invalid_argument);
  TransformerDecodingState short_state = model.encode(kSource);
  for (std::size_t t = 0; t < 3; ++t) model.step(short_state, {kBosId, kBosId});
  CHECK_THROWS_WITH_AS(model.step(short_state, {kBosId, kBosId}), doctest::Contains("covers the longest decoding"),
                       std::invalid_argument);
}

TEST_CASE("transformer_seq2seq.step_with_the_cross_attention_from_outside") {
  // begin_step / continue_step with heads computed here, head by head, from the partial step's
  // queries_input, the memory and the published cross-attention weights (what the course's
  // learner does: softmax(Q_h K_hᵀ / √d) V_h over the real source tokens) give step()'s log p.
  TransformerSeq2SeqConfig c = tiny_config();
  TransformerSeq2Seq model(c, 22);
  Rng rng(2);
  randomise_vectors(model.parameters(), rng);
  const std::size_t d = c.d_model, nh = c.heads, hd = d / nh, nb = 2, nx = 4;
  auto param = [&](const std::string& name) {
    for (const Parameter& p : model.parameters()) {
      if (p.name == name) return p.value;
    }
    FAIL("no parameter " << name);
    return static_cast<float*>(nullptr);
  };
  TransformerDecodingState engine = model.encode(kSource);
  TransformerDecodingState outside = model.encode(kSource);
  const TokenIds inputs = {{1, 7, 6, 5, 4}, {1, 5, 4, 8, 2}};
  for (std::size_t t = 0; t < 5; ++t) {
    CAPTURE(t);
    const std::vector<std::int32_t> previous{inputs(0, t), inputs(1, t)};
    const TransformerStepResult expected = model.step(engine, previous);
    TransformerPartialStep partial = model.begin_step(outside, previous);
    while (!partial.finished()) {
      const std::string prefix = "decoder." + std::to_string(partial.block) + ".cross_attention.";
      const float *wq = param(prefix + "w_q"), *wk = param(prefix + "w_k"), *wv = param(prefix + "w_v");
      const float *bq = param(prefix + "b_q"), *bk = param(prefix + "b_k"), *bv = param(prefix + "b_v");
      Tensor3 heads = xt::zeros<float>({nb, std::size_t{1}, d});
      for (std::size_t b = 0; b < nb; ++b) {
        for (std::size_t h = 0; h < nh; ++h) {
          std::vector<double> q(hd, 0.0), scores(nx, 0.0);
          for (std::size_t j = 0; j < hd; ++j) {
            q[j] = bq[h * hd + j];
            for (std::size_t i = 0; i < d; ++i) q[j] += partial.queries_input(b, 0, i) * wq[i * d + h * hd + j];
          }
          std::vector<std::vector<double>> values(nx, std::vector<double>(hd, 0.0));
          double top = -1e30, total = 0.0;
          for (std::size_t s = 0; s < nx; ++s) {
            if (outside.source_mask(b, s) == 0) continue;
            for (std::size_t j = 0; j < hd; ++j) {
              double k = bk[h * hd + j];
              values[s][j] = bv[h * hd + j];
              for (std::size_t i = 0; i < d; ++i) {
                k += outside.memory(b, s, i) * wk[i * d + h * hd + j];
                values[s][j] += outside.memory(b, s, i) * wv[i * d + h * hd + j];
              }
              scores[s] += q[j] * k / std::sqrt(static_cast<double>(hd));
            }
            top = std::max(top, scores[s]);
          }
          std::vector<double> p(nx, 0.0);
          for (std::size_t s = 0; s < nx; ++s) {
            if (outside.source_mask(b, s) != 0) total += (p[s] = std::exp(scores[s] - top));
          }
          for (std::size_t s = 0; s < nx; ++s) {
            for (std::size_t j = 0; j < hd; ++j)
              heads(b, 0, h * hd + j) += static_cast<float>(p[s] / total * values[s][j]);
          }
        }
      }
      Tensor3 engine_heads;
      Tensor4 weights;
      model.cross_attention(outside, partial, engine_heads, weights);
      CHECK(xt::allclose(heads, engine_heads, 1e-5, 1e-5));
      model.continue_step(outside, partial, heads);
    }
    CHECK(xt::allclose(partial.result.log_probs, expected.log_probs, 1e-4, 1e-4));
    CHECK_THROWS_WITH_AS(model.continue_step(outside, partial, xt::zeros<float>({nb, std::size_t{1}, d})),
                         doctest::Contains("no cross-attention is pending"), std::invalid_argument);
  }
  TransformerPartialStep partial = model.begin_step(outside, {kBosId, kBosId});
  CHECK_THROWS_WITH_AS(model.continue_step(outside, partial, xt::zeros<float>({nb, std::size_t{1}, d + 1})),
                       doctest::Contains("expected [2, 1, 8]"), std::invalid_argument);
}

TEST_CASE("transformer_seq2seq.open_decoder_mask_reads_a_padded_batch_as_single_pairs") {
  // With no decoder mask at all (every position visible) a position reads later ones, so the
  // target padding (and a shorter row's EOS, read as PAD) must be hidden exactly as in a pair of its
  // own: the training forward over a padded batch and the evaluation forward over one pair give
  // the same logits at every real position, and the batch loss is the pairs' token-weighted mean.
  TransformerSeq2Seq model(tiny_config(), 23);
  Rng rng(4);
  randomise_vectors(model.parameters(), rng);
  model.set_decoder_self_mask(xt::ones<std::uint8_t>({8, 8}));
  const Sequences sources = {{4, 5, 6, 7}, {8, 4, 5}, {6}};
  const Sequences targets = {{1, 7, 6, 5, 4, 2}, {1, 5, 4, 8, 2}, {1, 6, 2}};
  const TokenIds batch_sources = {{4, 5, 6, 7}, {8, 4, 5, 0}, {6, 0, 0, 0}};
  const TokenIds batch_targets = {{1, 7, 6, 5, 4, 2}, {1, 5, 4, 8, 2, 0}, {1, 6, 2, 0, 0, 0}};
  const std::size_t nt = 5, nv = 9;
  // The decoder inputs loss() builds: target[:, :-1] with a shorter row's EOS read as PAD.
  const TokenIds inputs = {{1, 7, 6, 5, 4}, {1, 5, 4, 8, 0}, {1, 6, 0, 0, 0}};
  const Tensor2 batch_logits = model.forward(batch_sources, inputs, false, rng);
  // Left in, that EOS would be a key every earlier position of its row reads.
  TokenIds with_eos = inputs;
  with_eos(1, 4) = kEosId;
  const Tensor2 eos_logits = model.forward(batch_sources, with_eos, false, rng);
  bool moved = false;
  for (std::size_t v = 0; v < nv; ++v) moved = moved || eos_logits(1 * nt + 0, v) != batch_logits(1 * nt + 0, v);
  CHECK(moved);
  const double batch_loss = model.evaluate(batch_sources, batch_targets).loss;
  double weighted = 0;
  std::size_t tokens = 0;
  for (std::size_t i = 0; i < sources.size(); ++i) {
    CAPTURE(i);
    TokenIds source = xt::empty<std::int32_t>({std::size_t{1}, sources[i].size()});
    std::copy(sources[i].begin(), sources[i].end(), source.begin());
    TokenIds target = xt::empty<std::int32_t>({std::size_t{1}, targets[i].size()});
    std::copy(targets[i].begin(), targets[i].end(), target.begin());
    const std::size_t n = targets[i].size() - 1;
    weighted += model.evaluate(source, target).loss * static_cast<double>(n);
    tokens += n;
    TokenIds own = xt::view(target, xt::all(), xt::range(0, n));
    const Tensor2 single = model.forward(source, own, false, rng);
    for (std::size_t t = 0; t < n; ++t) {
      for (std::size_t v = 0; v < nv; ++v)
        CHECK(single(t, v) == doctest::Approx(batch_logits(i * nt + t, v)).epsilon(1e-4));
    }
  }
  CHECK(batch_loss == doctest::Approx(weighted / static_cast<double>(tokens)).epsilon(1e-5));
  CHECK(parallel_teacher_forced_accuracy(model, sources, targets, 1) ==
        parallel_teacher_forced_accuracy(model, sources, targets, 3));
}
