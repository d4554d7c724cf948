// Seq2SeqConfig: the names of attention forms, its settings schema, validation and the flat JSON form.
#include <string>

#include "attn/io/flat_json.hpp"
#include "attn/models/seq2seq.hpp"

namespace attn {

const char* attention_form_name(AttentionForm form) {
  switch (form) {
    case AttentionForm::none:
      return "none";
    case AttentionForm::bahdanau:
      return "bahdanau";
    case AttentionForm::luong:
      return "luong";
  }
  return "unknown";
}

AttentionForm attention_form_from_name(const std::string& name) {
  if (name == "none") return AttentionForm::none;
  if (name == "bahdanau") return AttentionForm::bahdanau;
  if (name == "luong") return AttentionForm::luong;
  throw std::invalid_argument("unknown attention '" + name + "'; valid: none, bahdanau, luong");
}

const SettingsSchema<Seq2SeqConfig>& seq2seq_model_settings() {
  using C = Seq2SeqConfig;
  std::vector<std::pair<std::string, ScoreKind>> scores;
  for (const ScoreKind kind : all_score_kinds()) scores.emplace_back(score_kind_name(kind), kind);
  // The order is the model file's (to_json writes the fields in it).
  static const SettingsSchema<C> schema(
      "Seq2SeqConfig",
      {
          whole_setting<C>(
              "source_vocab", [](C & c) -> auto& { return c.source_vocab; }, at_least(1),
              "source vocabulary ids (the 4 special ids included)"),
          whole_setting<C>(
              "target_vocab", [](C & c) -> auto& { return c.target_vocab; }, at_least(1),
              "target vocabulary ids (the 4 special ids included)"),
          whole_setting<C>(
              "embed", [](C & c) -> auto& { return c.embed; }, whole_range(1, 4096), "source and target embedding size",
              "embed"),
          whole_setting<C>(
              "units", [](C & c) -> auto& { return c.units; }, whole_range(1, 4096),
              "recurrent units per encoder direction (the decoder has twice as many)", "units"),
          whole_setting<C>(
              "attention_dim", [](C & c) -> auto& { return c.attention_dim; }, whole_range(1, 4096),
              "additive (bahdanau) attention size", "attention-dim"),
          enum_setting<C>(
              "cell", [](C & c) -> auto& { return c.cell; },
              std::vector<std::pair<std::string, CellKind>>{{"lstm", CellKind::lstm}, {"gru", CellKind::gru}},
              "recurrent cell of the encoder and the decoder", "cell"),
          enum_setting<C>(
              "attention", [](C & c) -> auto& { return c.attention; },
              std::vector<std::pair<std::string, AttentionForm>>{{"bahdanau", AttentionForm::bahdanau},
                                                                 {"luong", AttentionForm::luong},
                                                                 {"none", AttentionForm::none}},
              "the decoder's attention (none: RNNenc, a fixed-length context)", "attention"),
          enum_setting<C>(
              "score", [](C & c) -> auto& { return c.score; }, scores,
              "attention score (bahdanau: additive; luong: dot, scaled_dot, general, concat or location)"),
          flag_setting<C>(
              "input_feeding", [](C & c) -> auto& { return c.input_feeding; },
              "luong: feed the attentional state into the next step"),
          whole_setting<C>(
              "max_source_len", [](C & c) -> auto& { return c.max_source_len; }, at_least(0),
              "luong + location: the longest source it can score"),
      },
      [](C& c) { c.validate(); });
  return schema;
}

void Seq2SeqConfig::validate() const {
  seq2seq_model_settings().check(*this);
  // The decoder needs EOS to stop and both sides reserve the special ids.
  if (target_vocab <= static_cast<std::size_t>(kUnkId)) {
    throw std::invalid_argument("Seq2SeqConfig: target_vocab must be >= 4 (PAD, BOS, EOS, UNK), got " +
                                std::to_string(target_vocab));
  }
  if (attention == AttentionForm::bahdanau && score != ScoreKind::additive) {
    throw std::invalid_argument(
        std::string("Seq2SeqConfig: attention 'bahdanau' scores with the previous decoder state through an additive "
                    "layer, so score must be 'additive', got '") +
        score_kind_name(score) + "'");
  }
  if (attention == AttentionForm::luong) {
    if (score == ScoreKind::additive || score == ScoreKind::cosine) {
      throw std::invalid_argument(
          std::string("Seq2SeqConfig: attention 'luong' supports score dot, scaled_dot, general, concat or location, "
                      "got '") +
          score_kind_name(score) + "'");
    }
    if (score == ScoreKind::location && max_source_len == 0) {
      throw std::invalid_argument("Seq2SeqConfig: max_source_len must be >= 1 for luong + location, got 0");
    }
  }
}

std::string Seq2SeqConfig::to_json() const {
  FlatJson j;
  j.set("model", "seq2seq");
  return seq2seq_model_settings().write(*this, j).dump();
}

Seq2SeqConfig Seq2SeqConfig::from_json(const std::string& json) {
  const FlatJson j = FlatJson::parse(json);
  if (j.get_string("model") != "seq2seq") {
    throw std::invalid_argument("this file holds a '" + j.get_string("model") + "' model, not a seq2seq model");
  }
  return seq2seq_model_settings().read(j, {}, {true, {}, {"model", "extra"}});
}

}  // namespace attn
