// The settings schemas (io/settings_schema.hpp): one table per struct drives reading, writing and
// checking, with one wording of errors.
#include <doctest/doctest.h>

#include <string>

#include "attn/io/settings_schema.hpp"
#include "attn/train/classifier_session.hpp"
#include "attn/train/classifier_trainer.hpp"

namespace {

struct Example {
  std::size_t count = 3;
  float rate = 0.5f;
  std::string mode = "fast";
  bool on = true;
};

const attn::SettingsSchema<Example>& example_settings() {
  using C = Example;
  static const attn::SettingsSchema<C> schema(
      "Example", {attn::whole_setting<C>(
                      "count", [](C & c) -> auto& { return c.count; }, attn::whole_range(1, 10), "n", "n"),
                  attn::number_setting<C>(
                      "rate", [](C & c) -> auto& { return c.rate; }, attn::rate_range(), "r"),
                  attn::choice_setting<C>(
                      "mode", [](C & c) -> auto& { return c.mode; }, {"fast", "slow"}, "m"),
                  attn::flag_setting<C>(
                      "on", [](C & c) -> auto& { return c.on; }, "o")});
  return schema;
}

}  // namespace

TEST_CASE("settings_schema.reads_over_the_defaults_and_writes_every_field") {
  const Example e = example_settings().read(R"({"count": 7, "mode": "slow"})");
  CHECK(e.count == 7);
  CHECK(e.mode == "slow");
  CHECK(e.rate == 0.5f);  // the struct's own default
  CHECK(e.on);
  CHECK(example_settings().write(e) == R"({"count":7,"mode":"slow","on":true,"rate":0.5})");
  CHECK(std::get<double>(example_settings().default_of(example_settings().at("count"))) == 3);
}

TEST_CASE("settings_schema.one_wording_of_errors") {
  const auto& s = example_settings();
  CHECK_THROWS_WITH_AS(s.read(R"({"cout": 7})"), "Example: unknown setting 'cout'", std::invalid_argument);
  CHECK_THROWS_WITH_AS(s.read(R"({"count": 0})"), "Example: count must be a whole number from 1 to 10, got 0",
                       std::invalid_argument);
  CHECK_THROWS_WITH_AS(s.read(R"({"count": 2.5})"), "Example: count must be a whole number from 1 to 10, got 2.5",
                       std::invalid_argument);
  CHECK_THROWS_WITH_AS(s.read(R"({"count": "ten"})"), "Example: count must be a whole number from 1 to 10, got 'ten'",
                       std::invalid_argument);
  CHECK_THROWS_WITH_AS(s.read(R"({"rate": 1})"), "Example: rate must be in [0, 1), got 1", std::invalid_argument);
  CHECK_THROWS_WITH_AS(s.read(R"({"mode": "medium"})"), "Example: mode must be one of fast, slow, got 'medium'",
                       std::invalid_argument);
  CHECK_THROWS_WITH_AS(s.read(R"({"on": 1})"), "Example: on must be true or false, got 1", std::invalid_argument);
  // A long value is cut at a character boundary, with its size.
  const std::string long_mode = std::string(79, 'a') + "é" + std::string(100, 'b');
  CHECK_THROWS_WITH_AS(
      s.read(R"({"mode": ")" + long_mode + R"("})"),
      ("Example: mode must be one of fast, slow, got '" + std::string(79, 'a') + "…' (181 bytes)").c_str(),
      std::invalid_argument);
  // Files hold every field.
  CHECK_THROWS_WITH_AS(s.read(attn::FlatJson::parse(R"({"count": 2})"), {}, {true, {"on"}, {}}),
                       "Example: missing setting 'rate'", std::invalid_argument);
}

TEST_CASE("settings_schema.the_engine_structs_follow_their_tables") {
  attn::TrainerConfig t;
  t.learning_rate = 0.25f;
  t.schedule = "cosine";
  CHECK(attn::TrainerConfig::from_json(t.to_json()).to_json() == t.to_json());
  CHECK(attn::trainer_settings().at("learning_rate").spec.rule() == "finite and > 0");
  CHECK(attn::trainer_settings().at("clip_norm").spec.rule() == "finite");
  CHECK(attn::trainer_settings().at("batch_size").spec.flag == "batch");
  // The model's settings: the pipeline's and the classifier's fields, vocab_size and max_len
  // following the pipeline.
  const attn::SentimentModelConfig m = attn::SentimentModelConfig::from_json(R"({"num_words": 300, "maxlen": 40})");
  CHECK(m.classifier.vocab_size == 300);
  CHECK(m.classifier.max_len == 40);
  CHECK(attn::sentiment_model_settings().find("vocab_size") == nullptr);
  CHECK_THROWS_WITH_AS(attn::SentimentModelConfig::from_json(R"({"dropout": 1})"),
                       "SentimentModelConfig: dropout must be in [0, 1), got 1", std::invalid_argument);
}
