// The whole preprocessing of the sentiment track in one value: review text -> tokens (Keras-style
// tokenizer) -> ids (IMDB-style Vocabulary fitted on the TRAINING texts only) -> at most maxlen
// ids per review. It travels inside the model file (to_json carries the vocabulary), so a saved
// model encodes new text exactly as it did during training.
//
// Legend: T = ids in one encoded review (1 + tokens, at most maxlen), V = vocabulary ids in use.
// No tensors here: batches are padded later (train/classifier_trainer.hpp) with `padding`.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "attn/data/review_loaders.hpp"
#include "attn/io/settings_schema.hpp"
#include "attn/text/sequences.hpp"
#include "attn/text/tokenizer.hpp"
#include "attn/text/vocabulary.hpp"

namespace attn {

struct TextPipelineConfig {
  std::size_t num_words = 5000;       // ids < num_words survive (Keras' num_words); >= 5
  std::size_t maxlen = 500;           // longest encoded review, start token included; >= 1
  PadMode padding = PadMode::pre;     // where batches put the padding (pre: right-aligned reviews)
  PadMode truncating = PadMode::pre;  // pre keeps the LAST maxlen ids (Keras' default)
  TokenizerOptions tokenizer;

  // Throws std::invalid_argument "TextPipelineConfig: <field> must be <rule>, got <value>".
  void validate() const;
};

// TextPipelineConfig's fields (io/settings_schema.hpp); validate() checks them.
const SettingsSchema<TextPipelineConfig>& text_pipeline_settings();

const char* pad_mode_name(PadMode mode);         // "pre" / "post"
PadMode pad_mode_from_name(const std::string&);  // throws std::invalid_argument for anything else

class TextPipeline {
 public:
  // Unfitted: only the reserved ids, so every word encodes as <oov>.
  TextPipeline() = default;
  // Validates `config`.
  explicit TextPipeline(const TextPipelineConfig& config);

  // Fits the vocabulary on the texts of `train` (labels are not looked at). Validation or test
  // texts must never be passed here: the vocabulary would leak them. Throws TextError for
  // invalid UTF-8 naming the example's origin.
  void fit(const std::vector<LabelledText>& train);
  bool fitted() const { return fitted_; }

  // text -> ids [T]: <start>, then one id per token (<oov> for unknown words), truncated to
  // maxlen per `truncating` (pre drops the beginning, <start> included, as Keras does). When
  // `words` is given it receives the T matching display strings: "<start>" and the token as
  // written (also for <oov> ids, so an explanation can show the unknown word).
  std::vector<std::int32_t> encode(std::string_view text, std::vector<std::string>* words = nullptr) const;
  // The ids of every example, in order.
  std::vector<std::vector<std::int32_t>> encode_all(const std::vector<LabelledText>& examples) const;
  // ids [T] -> vocabulary words [T] ("<pad>", "<start>", "<oov>" for reserved ids), to put
  // attention weights [T] next to words. Throws std::invalid_argument for an id outside [0, V).
  std::vector<std::string> tokens_for(const std::vector<std::int32_t>& ids) const;

  const TextPipelineConfig& config() const { return config_; }
  const Vocabulary& vocabulary() const { return vocabulary_; }

  // Flat JSON: {"pipeline": "text_pipeline", "num_words", "maxlen", "padding", "truncating",
  // "lowercase", "strip_html", "keep_punctuation", "fitted", "vocabulary": Vocabulary::to_string()}.
  std::string to_json() const;
  // Inverse of to_json; throws std::invalid_argument (bad JSON, missing key, wrong kind) or
  // TextError (damaged vocabulary).
  static TextPipeline from_json(const std::string& json);

 private:
  TextPipelineConfig config_;
  Vocabulary vocabulary_;
  bool fitted_ = false;
};

}  // namespace attn
