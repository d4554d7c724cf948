#include "attn/text/text_pipeline.hpp"

#include <stdexcept>

#include "attn/io/flat_json.hpp"

namespace attn {

void TextPipelineConfig::validate() const {
  auto fail = [](const std::string& field, const std::string& rule, std::size_t value) {
    throw std::invalid_argument("TextPipelineConfig: " + field + " must be " + rule + ", got " + std::to_string(value));
  };
  // Four ids are reserved, so fewer than 5 leaves no room for a single word.
  if (num_words < 5) fail("num_words", ">= 5", num_words);
  if (maxlen < 1) fail("maxlen", ">= 1", maxlen);
}

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
  j.set("pipeline", "text_pipeline")
      .set("num_words", static_cast<double>(config_.num_words))
      .set("maxlen", static_cast<double>(config_.maxlen))
      .set("padding", pad_mode_name(config_.padding))
      .set("truncating", pad_mode_name(config_.truncating))
      .set("lowercase", config_.tokenizer.lowercase)
      .set("strip_html", config_.tokenizer.strip_html)
      .set("keep_punctuation", config_.tokenizer.keep_punctuation)
      .set("fitted", fitted_)
      .set("vocabulary", vocabulary_.to_string());
  return j.dump();
}

TextPipeline TextPipeline::from_json(const std::string& json) {
  const FlatJson j = FlatJson::parse(json);
  if (!j.has("pipeline") || j.get_string("pipeline") != "text_pipeline") {
    throw std::invalid_argument(
        "TextPipeline::from_json: not a text pipeline (missing \"pipeline\": \"text_pipeline\")");
  }
  TextPipelineConfig c;
  c.num_words = j.get_size("num_words");
  c.maxlen = j.get_size("maxlen");
  c.padding = pad_mode_from_name(j.get_string("padding"));
  c.truncating = pad_mode_from_name(j.get_string("truncating"));
  c.tokenizer.lowercase = j.get_bool("lowercase");
  c.tokenizer.strip_html = j.get_bool("strip_html");
  c.tokenizer.keep_punctuation = j.get_bool("keep_punctuation");
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
