#include "attn/text/text_pipeline.hpp"

#include <stdexcept>

#include "attn/io/flat_json.hpp"

namespace attn {

const SettingsSchema<TextPipelineConfig>& text_pipeline_settings() {
  using C = TextPipelineConfig;
  const std::vector<std::pair<std::string, PadMode>> sides = {{"pre", PadMode::pre}, {"post", PadMode::post}};
  static const SettingsSchema<C> schema(
      "TextPipelineConfig",
      {
          // Four ids are reserved, so fewer than 5 leaves no room for a single word.
          whole_setting<C>(
              "num_words", [](C & c) -> auto& { return c.num_words; }, whole_range(5, 1 << 22),
              "vocabulary size, Keras' num_words", "vocab"),
          whole_setting<C>(
              "maxlen", [](C & c) -> auto& { return c.maxlen; }, whole_range(1, 100000),
              "pad/truncate reviews to this many tokens", "maxlen"),
          enum_setting<C>(
              "padding", [](C & c) -> auto& { return c.padding; }, sides,
              "where batches put the padding (pre: right-aligned reviews)"),
          enum_setting<C>(
              "truncating", [](C & c) -> auto& { return c.truncating; }, sides,
              "pre keeps the last maxlen ids (Keras' default)"),
          flag_setting<C>(
              "lowercase", [](C & c) -> auto& { return c.tokenizer.lowercase; }, "lowercase the text"),
          flag_setting<C>(
              "strip_html", [](C & c) -> auto& { return c.tokenizer.strip_html; }, "drop HTML tags"),
          flag_setting<C>(
              "keep_punctuation", [](C & c) -> auto& { return c.tokenizer.keep_punctuation; },
              "keep punctuation marks as tokens"),
      },
      [](C& c) { c.validate(); });
  return schema;
}

void TextPipelineConfig::validate() const { text_pipeline_settings().check(*this); }

const char* pad_mode_name(PadMode mode) { return mode == PadMode::pre ? "pre" : "post"; }

PadMode pad_mode_from_name(const std::string& name) {
  if (name == "pre") return PadMode::pre;
  if (name == "post") return PadMode::post;
  throw std::invalid_argument("padding/truncating must be 'pre' or 'post', got '" + name + "'");
}

TextPipeline::TextPipeline(const TextPipelineConfig& config) : config_(config) {
  config_.validate();
  vocabulary_ = Vocabulary::fit({}, config_.num_words);  // reserved ids only, but the right bound
}

void TextPipeline::fit(const std::vector<LabelledText>& train) {
  std::vector<std::vector<std::string>> docs;
  docs.reserve(train.size());
  for (const LabelledText& example : train)
    docs.push_back(tokenize(example.text, config_.tokenizer, example.origin, 1));
  vocabulary_ = Vocabulary::fit(docs, config_.num_words);
  fitted_ = true;
}

std::vector<std::int32_t> TextPipeline::encode(std::string_view text, std::vector<std::string>* words) const {
  std::vector<std::string> tokens = tokenize(text, config_.tokenizer);
  std::vector<std::int32_t> ids = vocabulary_.encode(tokens, true);
  std::size_t drop_front = 0, keep = ids.size();
  if (ids.size() > config_.maxlen) {
    keep = config_.maxlen;
    if (config_.truncating == PadMode::pre) drop_front = ids.size() - keep;
  }
  if (words) {
    words->clear();
    words->reserve(keep);
    for (std::size_t i = drop_front; i < drop_front + keep; ++i) {
      words->push_back(i == 0 ? "<start>" : std::move(tokens[i - 1]));
    }
  }
  return std::vector<std::int32_t>(ids.begin() + static_cast<std::ptrdiff_t>(drop_front),
                                   ids.begin() + static_cast<std::ptrdiff_t>(drop_front + keep));
}

std::vector<std::vector<std::int32_t>> TextPipeline::encode_all(const std::vector<LabelledText>& examples) const {
  std::vector<std::vector<std::int32_t>> out;
  out.reserve(examples.size());
  for (const LabelledText& example : examples) out.push_back(encode(example.text));
  return out;
}

std::vector<std::string> TextPipeline::tokens_for(const std::vector<std::int32_t>& ids) const {
  std::vector<std::string> out;
  out.reserve(ids.size());
  for (std::int32_t id : ids) out.push_back(vocabulary_.word(id));
  return out;
}

std::string TextPipeline::to_json() const {
  FlatJson j;
  text_pipeline_settings().write(config_, j);
  j.set("pipeline", "text_pipeline").set("fitted", fitted_).set("vocabulary", vocabulary_.to_string());
  return j.dump();
}

TextPipeline TextPipeline::from_json(const std::string& json) {
  const FlatJson j = FlatJson::parse(json);
  if (!j.has("pipeline") || j.get_string("pipeline") != "text_pipeline") {
    throw std::invalid_argument(
        "TextPipeline::from_json: not a text pipeline (missing \"pipeline\": \"text_pipeline\")");
  }
  const TextPipelineConfig c = text_pipeline_settings().read(j, {}, {true, {}, {"pipeline", "fitted", "vocabulary"}});
  TextPipeline pipeline(c);
  pipeline.vocabulary_ = Vocabulary::from_string(j.get_string("vocabulary"), "<pipeline vocabulary>");
  if (pipeline.vocabulary_.num_words() != c.num_words) {
    throw std::invalid_argument("TextPipeline::from_json: the vocabulary was fitted with num_words " +
                                std::to_string(pipeline.vocabulary_.num_words()) + " but the pipeline says " +
                                std::to_string(c.num_words));
  }
  pipeline.fitted_ = j.get_bool("fitted");
  return pipeline;
}

}  // namespace attn
