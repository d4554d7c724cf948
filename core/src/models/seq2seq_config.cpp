// Seq2SeqConfig: the names of cells and attention forms, validation and the flat JSON form.
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

void Seq2SeqConfig::validate() const {
  auto positive = [](std::size_t value, const char* name) {
    if (value == 0) throw std::invalid_argument(std::string("Seq2SeqConfig: ") + name + " must be >= 1, got 0");
  };
  positive(source_vocab, "source_vocab");
  positive(target_vocab, "target_vocab");
  positive(embed, "embed");
  positive(units, "units");
  positive(attention_dim, "attention_dim");
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
    if (score == ScoreKind::location) positive(max_source_len, "max_source_len");
  }
}

std::string Seq2SeqConfig::to_json() const {
  FlatJson j;
  j.set("model", "seq2seq")
      .set("source_vocab", static_cast<double>(source_vocab))
      .set("target_vocab", static_cast<double>(target_vocab))
      .set("embed", static_cast<double>(embed))
      .set("units", static_cast<double>(units))
      .set("attention_dim", static_cast<double>(attention_dim))
      .set("cell", cell_kind_name(cell))
      .set("attention", attention_form_name(attention))
      .set("score", score_kind_name(score))
      .set("input_feeding", input_feeding)
      .set("max_source_len", static_cast<double>(max_source_len));
  return j.dump();
}

Seq2SeqConfig Seq2SeqConfig::from_json(const std::string& json) {
  const FlatJson j = FlatJson::parse(json);
  if (j.get_string("model") != "seq2seq") {
    throw std::invalid_argument("this file holds a '" + j.get_string("model") + "' model, not a seq2seq model");
  }
  Seq2SeqConfig c;
  c.source_vocab = j.get_size("source_vocab");
  c.target_vocab = j.get_size("target_vocab");
  c.embed = j.get_size("embed");
  c.units = j.get_size("units");
  c.attention_dim = j.get_size("attention_dim");
  c.cell = cell_kind_from_name(j.get_string("cell"));
  c.attention = attention_form_from_name(j.get_string("attention"));
  c.score = score_kind_from_name(j.get_string("score"));
  c.input_feeding = j.get_bool("input_feeding");
  c.max_source_len = j.get_size("max_source_len");
  c.validate();
  return c;
}

}  // namespace attn
