#include <doctest/doctest.h>

#include <stdexcept>

#include "attn/text/text_pipeline.hpp"

using namespace attn;

namespace {
std::vector<LabelledText> small_corpus() {
  // Counts: the 3, film 2, was 2, good 1, bad 1, end 1 -> ids 4..9 in that order (ties by first
  // appearance, as Keras' Tokenizer).
  return {{"The film was good.", 1, "a:1"}, {"the film was BAD", 0, "a:2"}, {"The end", 0, "a:3"}};
}
}  // namespace

TEST_CASE("text_pipeline.fit_uses_only_training_texts_and_encodes_with_start_and_oov") {
  TextPipeline pipeline;
  CHECK_FALSE(pipeline.fitted());
  pipeline.fit(small_corpus());
  CHECK(pipeline.fitted());
  CHECK(pipeline.vocabulary().size() == 10);
  CHECK(pipeline.encode("the film was good") == std::vector<std::int32_t>{1, 4, 5, 6, 7});
  // "brilliant" never occurred in training: <oov> (2), though we encode it now.
  CHECK(pipeline.encode("a brilliant end") == std::vector<std::int32_t>{1, 2, 2, 9});
  CHECK(pipeline.tokens_for({1, 4, 2, 0}) == std::vector<std::string>{"<start>", "the", "<oov>", "<pad>"});
  std::vector<std::string> words;
  pipeline.encode("Brilliant END", &words);
  CHECK(words == std::vector<std::string>{"<start>", "brilliant", "end"});  // unknown word kept for display
}

TEST_CASE("text_pipeline.truncation_keeps_the_end_for_pre_and_the_start_for_post") {
  TextPipelineConfig config;
  config.maxlen = 3;
  TextPipeline pre(config);
  pre.fit(small_corpus());
  std::vector<std::string> words;
  // Full encoding [1, 4, 5, 6, 8]: pre drops the beginning (the start token too, as Keras does).
  CHECK(pre.encode("the film was bad", &words) == std::vector<std::int32_t>{5, 6, 8});
  CHECK(words == std::vector<std::string>{"film", "was", "bad"});
  config.truncating = PadMode::post;
  TextPipeline post(config);
  post.fit(small_corpus());
  CHECK(post.encode("the film was bad", &words) == std::vector<std::int32_t>{1, 4, 5});
  CHECK(words == std::vector<std::string>{"<start>", "the", "film"});
  // Short texts are untouched (padding happens per batch, not here).
  CHECK(post.encode("bad") == std::vector<std::int32_t>{1, 8});
  CHECK(post.encode("") == std::vector<std::int32_t>{1});
}

TEST_CASE("text_pipeline.num_words_bounds_the_ids") {
  TextPipelineConfig config;
  config.num_words = 6;  // ids 4 and 5 only: "the", "film"
  TextPipeline pipeline(config);
  pipeline.fit(small_corpus());
  CHECK(pipeline.encode("the film was good") == std::vector<std::int32_t>{1, 4, 5, 2, 2});
}

TEST_CASE("text_pipeline.json_round_trip_keeps_config_and_vocabulary") {
  TextPipelineConfig config;
  config.num_words = 100;
  config.maxlen = 7;
  config.padding = PadMode::post;
  config.truncating = PadMode::post;
  config.tokenizer.keep_punctuation = true;
  TextPipeline pipeline(config);
  pipeline.fit({{"Café \"naïve\" film, said she", 1, "x:1"}, {"line\nbreak <br /> film", 0, "x:2"}});
  const TextPipeline copy = TextPipeline::from_json(pipeline.to_json());
  CHECK(copy.fitted());
  CHECK(copy.config().num_words == 100);
  CHECK(copy.config().maxlen == 7);
  CHECK(copy.config().padding == PadMode::post);
  CHECK(copy.config().truncating == PadMode::post);
  CHECK(copy.config().tokenizer.keep_punctuation);
  CHECK(copy.vocabulary().words() == pipeline.vocabulary().words());
  CHECK(copy.encode("café film , naïve unknown") == pipeline.encode("café film , naïve unknown"));
  // An unfitted pipeline round-trips too (reserved ids only).
  const TextPipeline empty = TextPipeline::from_json(TextPipeline(config).to_json());
  CHECK_FALSE(empty.fitted());
  CHECK(empty.vocabulary().size() == 4);
}

TEST_CASE("text_pipeline.bad_config_and_json_are_rejected") {
  TextPipelineConfig config;
  config.num_words = 4;
  CHECK_THROWS_WITH_AS(TextPipeline{config},
                       "TextPipelineConfig: num_words must be a whole number from 5 to 4194304, got 4",
                       std::invalid_argument);
  config.num_words = 10;
  config.maxlen = 0;
  CHECK_THROWS_WITH_AS(TextPipeline{config},
                       "TextPipelineConfig: maxlen must be a whole number from 1 to 100000, got 0",
                       std::invalid_argument);
  CHECK_THROWS_AS(TextPipeline::from_json("{\"model\": \"sequence_classifier\"}"), std::invalid_argument);
  CHECK_THROWS_WITH_AS(pad_mode_from_name("middle"), "padding/truncating must be 'pre' or 'post', got 'middle'",
                       std::invalid_argument);
}
