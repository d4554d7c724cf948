#include <doctest/doctest.h>

#include "attn/optim/schedule.hpp"

using namespace attn;

TEST_CASE("schedule.constant_with_warmup") {
  // W = 4: 0.1·s/4 for s < 4.
  const LearningRateSchedule s = LearningRateSchedule::constant(0.1f, 4);
  CHECK(s.at(0) == 0.f);
  CHECK(s.at(1) == doctest::Approx(0.025));
  CHECK(s.at(2) == doctest::Approx(0.05));
  CHECK(s.at(3) == doctest::Approx(0.075));
  CHECK(s.at(4) == 0.1f);
  CHECK(s.at(1000000) == 0.1f);
  CHECK(LearningRateSchedule().at(123) == 1e-3f);
}

TEST_CASE("schedule.linear_decay") {
  // base 0.1, W = 2, total 12, final 0.01: D = 10.
  //   s = 1: warm-up 0.05;  s = 2: 0.1;  s = 7: d = 5 -> 0.1 + (0.01 − 0.1)·0.5 = 0.055;
  //   s = 12: 0.01;  s = 100: stays 0.01.
  const LearningRateSchedule s = LearningRateSchedule::linear(0.1f, 2, 12, 0.01f);
  CHECK(s.at(1) == doctest::Approx(0.05));
  CHECK(s.at(2) == doctest::Approx(0.1));
  CHECK(s.at(7) == doctest::Approx(0.055));
  CHECK(s.at(12) == doctest::Approx(0.01));
  CHECK(s.at(100) == doctest::Approx(0.01));
}

TEST_CASE("schedule.cosine_decay") {
  // base 0.1, W = 0, total 100, min 0: 0.05·(1 + cos(π·s/100)).
  //   s = 25: 0.05·(1 + 0.707107) = 0.085355;  s = 50: 0.05;  s = 100: 0;  s = 200: 0.
  const LearningRateSchedule s = LearningRateSchedule::cosine(0.1f, 0, 100);
  CHECK(s.at(0) == doctest::Approx(0.1));
  CHECK(s.at(25) == doctest::Approx(0.085355));
  CHECK(s.at(50) == doctest::Approx(0.05));
  CHECK(s.at(100) == doctest::Approx(0.0));
  CHECK(s.at(200) == doctest::Approx(0.0));
  // min 0.01, W = 10, total 110: at s = 60 (half-way) 0.01 + 0.09·0.5 = 0.055; s = 5: 0.05.
  const LearningRateSchedule m = LearningRateSchedule::cosine(0.1f, 10, 110, 0.01f);
  CHECK(m.at(5) == doctest::Approx(0.05));
  CHECK(m.at(60) == doctest::Approx(0.055));
  CHECK(m.at(110) == doctest::Approx(0.01));
}

TEST_CASE("schedule.exponential_decay") {
  // γ = 0.5 per step: 0.1, 0.05, 0.025, 0.0125.
  const LearningRateSchedule s = LearningRateSchedule::exponential(0.1f, 0, 0.5f);
  CHECK(s.at(0) == doctest::Approx(0.1));
  CHECK(s.at(1) == doctest::Approx(0.05));
  CHECK(s.at(3) == doctest::Approx(0.0125));
  // Staircase: W = 5, every 10 steps: s = 5..14 -> 0.1, 15..24 -> 0.05, 25 -> 0.025.
  const LearningRateSchedule stairs = LearningRateSchedule::exponential(0.1f, 5, 0.5f, 10);
  CHECK(stairs.at(5) == doctest::Approx(0.1));
  CHECK(stairs.at(14) == doctest::Approx(0.1));
  CHECK(stairs.at(15) == doctest::Approx(0.05));
  CHECK(stairs.at(25) == doctest::Approx(0.025));
}

TEST_CASE("schedule.inverse_sqrt_decay") {
  // W = 4: warm-up to 0.1 at s = 4, then 0.1·sqrt(4/s): s = 16 -> 0.05, s = 64 -> 0.025.
  const LearningRateSchedule s = LearningRateSchedule::inverse_sqrt(0.1f, 4);
  CHECK(s.at(2) == doctest::Approx(0.05));
  CHECK(s.at(4) == doctest::Approx(0.1));
  CHECK(s.at(16) == doctest::Approx(0.05));
  CHECK(s.at(64) == doctest::Approx(0.025));
  // W = 0 counts as W' = 1: s = 0, 1 -> 0.1; s = 4 -> 0.05.
  const LearningRateSchedule z = LearningRateSchedule::inverse_sqrt(0.1f, 0);
  CHECK(z.at(0) == doctest::Approx(0.1));
  CHECK(z.at(1) == doctest::Approx(0.1));
  CHECK(z.at(4) == doctest::Approx(0.05));
}

TEST_CASE("schedule.from_name") {
  ScheduleConfig c;
  c.base_lr = 0.1f;
  c.total_steps = 100;
  const LearningRateSchedule s = LearningRateSchedule::from_name("cosine", c);
  CHECK(s.config().kind == DecayKind::cosine);
  CHECK(s.at(50) == doctest::Approx(0.05));
  for (const char* name : {"constant", "linear", "cosine", "exponential", "inverse_sqrt"}) {
    CHECK(decay_kind_name(parse_decay_kind(name)) == name);
  }
  CHECK_THROWS_WITH_AS(LearningRateSchedule::from_name("cosin", c),
                       "learning-rate schedule: unknown decay 'cosin'; expected one of constant, linear, cosine, "
                       "exponential, inverse_sqrt",
                       std::invalid_argument);
}

TEST_CASE("schedule.rejects_bad_configurations") {
  CHECK_THROWS_WITH_AS(LearningRateSchedule::linear(0.1f, 10, 10),
                       "learning-rate schedule (linear): total_steps (10) must be greater than warmup_steps (10)",
                       std::invalid_argument);
  CHECK_THROWS_AS(LearningRateSchedule::cosine(0.1f, 0, 0), std::invalid_argument);
  CHECK_THROWS_AS(LearningRateSchedule::exponential(0.1f, 0, 1.5f), std::invalid_argument);
  CHECK_THROWS_AS(LearningRateSchedule::exponential(0.1f, 0, 0.f), std::invalid_argument);
  CHECK_THROWS_AS(LearningRateSchedule::exponential(0.1f, 0, 0.5f, 0), std::invalid_argument);
  CHECK_THROWS_AS(LearningRateSchedule::constant(-1.f), std::invalid_argument);
  CHECK_THROWS_AS(LearningRateSchedule::linear(0.1f, 0, 10, -0.5f), std::invalid_argument);
}
