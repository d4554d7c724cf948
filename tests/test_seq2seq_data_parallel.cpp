// Data-parallel steps of the seq2seq trainer (Seq2SeqTrainingRun::shard_gradient /
// apply_gradient through Seq2SeqSession, docs/data-parallel.md): the shards add up to the batch
// for both model kinds, replicas stay bit-identical with dropout, K = 2 follows K = 1 without it.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>

#include "attn/train/gradient_exchange.hpp"
#include "attn/train/seq2seq_session.hpp"
#include "support/parallel_step.hpp"
#include "support/parameter_values.hpp"

using namespace attn;

namespace {
// The reverse task with sources of 3 to 7 digits: batches pad to different widths.
Seq2SeqSessionConfig config(const char *extra = "") {
  return Seq2SeqSessionConfig::from_json(
      std::string(R"({"train_size": 72, "test_size": 8, "min_len": 3, "max_len": 7, "units": 8, "embed": 6,
                      "attention_dim": 8, "epochs": 2, "batch": 16, "early_stopping_patience": 0, "seed": 5,
                      "d_model": 8, "heads": 2, "layers": 1, "ff": 16)") +
      extra + "}");
}

std::unique_ptr<Seq2SeqSession> started(const Seq2SeqSessionConfig &c) {
  auto s = std::make_unique<Seq2SeqSession>(c);
  s->start_training();
  return s;
}

// The largest |a - b| over every parameter value, and the parameter it is in. Attention key
// biases (".b_k") are left out: a key bias adds the same q·b_k to every score of a query, which
// softmax ignores, so their gradient is exactly 0 in exact arithmetic and float rounding noise in
// ours, and Adam turns noise into steps of ±lr whatever its size: they differ between any two
// summation orders, sharded or not.
std::pair<double, std::string> largest_difference(const ParameterList &a, const ParameterList &b) {
  const auto want = test::parameter_values(a), got = test::parameter_values(b);
  std::pair<double, std::string> worst{0.0, ""};
  for (std::size_t p = 0; p < want.size(); ++p) {
    const std::string &name = a[p].name;
    if (name.size() >= 4 && name.compare(name.size() - 4, 4, ".b_k") == 0) continue;
    for (std::size_t i = 0; i < want[p].size(); ++i) {
      const double d = std::abs(static_cast<double>(want[p][i]) - got[p][i]);
      if (d > worst.first) worst = {d, a[p].name + "[" + std::to_string(i) + "]"};
    }
  }
  return worst;
}
}  // namespace

TEST_CASE("seq2seq_data_parallel.shard_gradients_sum_to_the_full_batch_gradient") {
  for (const char *kind : {R"(, "model": "rnn")", R"(, "model": "transformer", "dropout": 0)"}) {
    CAPTURE(kind);
    auto session = started(config(kind));
    const std::size_t P = session->exchange_size();
    CHECK(P == parameter_count(session->model().parameters()) + 2);
    const std::vector<float> full = test::check_shards_add_up_to_the_batch(*session, session->model().parameters());
    // One shard of one is the batch's own step: its loss is the step's (mean = sum / tokens).
    const float loss = full[P - 2] / full[P - 1];
    CHECK(session->run_steps(1).last.loss == doctest::Approx(loss).epsilon(1e-5));
  }
}

TEST_CASE("seq2seq_data_parallel.two_replicas_stay_bit_identical_with_dropout") {
  // The Transformer with dropout and label smoothing (the Translation tab's), 2 epochs.
  const Seq2SeqSessionConfig c = config(R"(, "model": "transformer", "dropout": 0.2)");
  auto a = started(c), b = started(c);
  std::vector<float> losses;
  while (a->training()) {
    const Seq2SeqSessionProgress p = test::parallel_step<Seq2SeqSession>({a.get(), b.get()});
    CHECK(p.steps_run == 1);
    losses.push_back(p.last.loss);
  }
  // 65 training pairs after the 10% hold-out: 5 batches of 16 per epoch, 2 epochs.
  CHECK(losses.size() == 10);
  CHECK(a->history().epochs.size() == 2);
  CHECK_FALSE(b->training());
  CHECK(test::parameter_values(a->model().parameters()) == test::parameter_values(b->model().parameters()));
  CHECK(a->translate("40715", 1).output == b->translate("40715", 1).output);
  CHECK(a->save_model() == b->save_model());
  // The same seed and K give the same run again.
  auto c1 = started(c), c2 = started(c);
  for (float loss : losses) CHECK(test::parallel_step<Seq2SeqSession>({c1.get(), c2.get()}).last.loss == loss);
  CHECK(c1->save_model() == a->save_model());
}

TEST_CASE("seq2seq_data_parallel.two_shards_follow_the_single_worker_run_without_dropout") {
  // Without dropout (the RNN has none; teacher forcing is always gold) nothing random differs:
  // K = 2 computes the K = 1 step up to float rounding (the shard sums, × tokens / tokens).
  for (const char *kind : {R"(, "model": "rnn")", R"(, "model": "transformer", "dropout": 0)"}) {
    CAPTURE(kind);
    auto one = started(config(kind)), a = started(config(kind)), b = started(config(kind));
    for (int step = 0; step < 6; ++step) {
      CAPTURE(step);
      const float single = one->run_steps(1).last.loss;
      const float parallel = test::parallel_step<Seq2SeqSession>({a.get(), b.get()}).last.loss;
      CHECK(parallel == doctest::Approx(single).epsilon(1e-4));
    }
    CHECK(one->history().steps == a->history().steps);
    // Six Adam steps at the learning rate 0.005 / 0.001 move the weights by ~0.03 / 0.006.
    // Not a structured binding: doctest's CAPTURE takes a lambda, which cannot capture one in C++17.
    const auto difference = largest_difference(one->model().parameters(), a->model().parameters());
    CAPTURE(difference.second);
    CHECK(difference.first < 1e-4);
  }
}

TEST_CASE("seq2seq_data_parallel.bad_shards_and_buffers_are_refused") {
  Seq2SeqSession session(config());
  CHECK_THROWS_WITH_AS(session.shard_gradient(0, 1), doctest::Contains("start training first"), std::logic_error);
  CHECK_THROWS_WITH_AS(session.exchange_size(), doctest::Contains("start training first"), std::logic_error);
  session.start_training();
  CHECK_THROWS_WITH_AS(session.shard_gradient(2, 2),
                       "Seq2SeqTrainingRun::shard_gradient: shard must be in [0, shards) with shards >= 1, got "
                       "shard 2 of 2",
                       std::invalid_argument);
  CHECK_THROWS_AS(session.shard_gradient(0, 0), std::invalid_argument);
  test::check_apply_gradient_errors(session, session.model().parameters());
  CHECK(session.history().steps == 0);  // nothing was applied
  CHECK_THROWS_WITH_AS(session.shard_gradient(0, 2), doctest::Contains("the run is finished"), std::logic_error);
}

TEST_CASE("seq2seq_data_parallel.buffers_are_added_in_shard_order") {
  // Float addition is not associative: ((-1e8 + 1e8) + 1) is 1, ((1 + 1e8) - 1e8) is 0 in float32.
  // Every replica adds the K buffers in shard order, whichever of them is its own.
  std::vector<float> value(1), grad(1);
  ParameterList params;
  params.push_back({"p", {1}, value.data(), grad.data(), 1});
  const std::vector<float> a = {-1e8f, 0.f}, b = {1e8f, 0.f}, c = {1.f, 0.f};
  CHECK(unpack_gradients(params, {a.data(), b.data(), c.data()}, 1.f) == 1);
  CHECK(grad[0] == 1.f);
  CHECK(sum_in_order({c.data(), b.data(), a.data()}, 0) == 0.f);
  unpack_gradients(params, {a.data(), b.data()}, 2.f);
  CHECK(grad[0] == 0.f);
  // A replica's own buffer takes its shard's place among the others.
  for (std::size_t own = 0; own < 3; ++own) {
    CAPTURE(own);
    const std::vector<std::vector<float>> all = {a, b, c};
    ShardBuffers buffers;
    buffers.fill(2) = all[own];
    buffers.filled(own, 3);
    std::vector<std::vector<float>> others;
    for (std::size_t r = 0; r < 3; ++r) {
      if (r != own) others.push_back(all[r]);
    }
    const std::vector<const float *> parts = buffers.in_order("test", others);
    REQUIRE(parts.size() == 3);
    CHECK(sum_in_order(parts, 0) == 1.f);
  }
}
