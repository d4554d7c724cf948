// Data-parallel steps (ClassifierTrainingRun::shard_gradient / apply_gradient through
// SentimentSession): shards add up to the batch, replicas stay bit-identical, K = 2 follows K = 1.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "attn/train/classifier_session.hpp"
#include "support/parallel_step.hpp"
#include "support/parameter_values.hpp"

using namespace attn;

namespace {
SentimentModelConfig tiny_config(const char* extra = "") {
  return SentimentModelConfig::from_json(
      std::string(R"({"num_words": 200, "maxlen": 40, "embed_dim": 8, "units": 8, "attention_dim": 8, "seed": 3)") +
      extra + "}");
}

TrainerConfig short_run() {
  return TrainerConfig::from_json(
      R"({"epochs": 4, "batch_size": 16, "learning_rate": 0.01, "validation_split": 0.25,
          "early_stopping_patience": 0, "seed": 9})");
}

void start(SentimentSession& session, const SentimentModelConfig& model) {
  session.set_data(synthetic_labelled_texts(96, 5), {});
  session.create_model(model);
  session.start_training(short_run());
}

}  // namespace

TEST_CASE("data_parallel.shard_gradients_sum_to_the_full_batch_gradient") {
  SentimentSession session;
  start(session, tiny_config());
  const std::size_t P = session.exchange_size();
  CHECK(P == parameter_count(session.model().classifier->parameters()) + 2);
  test::check_shards_add_up_to_the_batch(session, session.model().classifier->parameters());
}

TEST_CASE("data_parallel.two_replicas_stay_bit_identical_with_dropout") {
  const SentimentModelConfig config = tiny_config(R"(, "dropout": 0.2, "word_dropout": 0.1)");
  SentimentSession a, b;
  start(a, config);
  start(b, config);
  std::vector<float> losses;
  for (int step = 0; step < 20; ++step) {
    const SessionProgress p = test::parallel_step<SentimentSession>({&a, &b});
    CHECK(p.steps_run == 1);
    losses.push_back(p.last.loss);
  }
  CHECK(a.training_result().steps == 20);
  // 72 training reviews: 5 batches of 16 per epoch, 4 epochs; the last step ended the run.
  CHECK(a.training_result().history.size() == 4);
  CHECK_FALSE(a.training());
  CHECK(test::parameter_values(a.model().classifier->parameters()) ==
        test::parameter_values(b.model().classifier->parameters()));
  CHECK(a.predict({"a fine film", "dull"}) == b.predict({"a fine film", "dull"}));
  // The same seed and K give the same run again.
  SentimentSession c, d;
  start(c, config);
  start(d, config);
  for (int step = 0; step < 20; ++step)
    CHECK(test::parallel_step<SentimentSession>({&c, &d}).last.loss == losses[step]);
}

TEST_CASE("data_parallel.two_shards_follow_the_single_worker_run_without_dropout") {
  // Without dropout nothing random differs: K = 2 computes the K = 1 step up to float rounding
  // (the shard sums, the × N / N of the loss gradient). With dropout the masks differ (they are
  // keyed by (seed, step, shard, K)), so only the statistics of the two runs agree.
  SentimentSession one, a, b;
  start(one, tiny_config());
  start(a, tiny_config());
  start(b, tiny_config());
  for (int step = 0; step < 6; ++step) {
    CAPTURE(step);
    const float single = one.run_steps(1).last.loss;
    const float parallel = test::parallel_step<SentimentSession>({&a, &b}).last.loss;
    CHECK(parallel == doctest::Approx(single).epsilon(1e-4));
  }
  const auto want = test::parameter_values(one.model().classifier->parameters());
  const auto got = test::parameter_values(a.model().classifier->parameters());
  double worst = 0;
  for (std::size_t p = 0; p < want.size(); ++p) {
    for (std::size_t i = 0; i < want[p].size(); ++i) {
      worst = std::max(worst, std::abs(static_cast<double>(want[p][i]) - got[p][i]));
    }
  }
  CHECK(worst < 1e-4);  // the learning rate is 0.01: six Adam steps move weights by ~0.06
}

TEST_CASE("data_parallel.bad_shards_and_buffers_are_refused") {
  SentimentSession session;
  CHECK_THROWS_WITH_AS(session.shard_gradient(0, 1), doctest::Contains("start training first"), std::logic_error);
  start(session, tiny_config());
  CHECK_THROWS_WITH_AS(session.shard_gradient(2, 2),
                       "ClassifierTrainingRun::shard_gradient: shard must be in [0, shards) with shards >= 1, got "
                       "shard 2 of 2",
                       std::invalid_argument);
  CHECK_THROWS_AS(session.shard_gradient(0, 0), std::invalid_argument);
  CHECK(session.training_result().steps == 0);
  test::check_apply_gradient_errors(session, session.model().classifier->parameters());
  CHECK(session.training_result().steps == 0);  // nothing was applied
}
