// The PyTorch export of a translator (attn/models/pytorch_export.hpp, docs/pytorch.md).
#include <cmath>
#include <stdexcept>
#include <string>

#include "attn/io/flat_json.hpp"
#include "attn/io/safetensors.hpp"
#include "attn/models/pytorch_export.hpp"
#include "attn/models/seq2seq.hpp"
#include "attn/models/transformer_seq2seq.hpp"
#include "pytorch_export_detail.hpp"

namespace attn {
namespace {

using pytorch_detail::Renamer;

void export_rnn(Renamer& r, const Seq2SeqConfig& c) {
  const bool lstm = c.cell == CellKind::lstm;
  r.same("source_embedding.weight", "source_embedding.weight");
  r.recurrent("encoder.forward.", "encoder.", "_l0", lstm, c.units);
  r.recurrent("encoder.backward.", "encoder.", "_l0_reverse", lstm, c.units);
  r.linear("init.", "init.");
  r.same("target_embedding.weight", "target_embedding.weight");
  r.recurrent("decoder.", "decoder.", "", lstm, 2 * c.units);
  if (c.attention == AttentionForm::bahdanau) {
    r.transposed("attention.w1", "attention.query.weight");
    r.transposed("attention.w2", "attention.key.weight");
    r.transposed("attention.v", "attention.v.weight");
  } else if (c.attention == AttentionForm::luong) {
    if (c.score == ScoreKind::general || c.score == ScoreKind::concat || c.score == ScoreKind::location) {
      r.transposed("attention.w_a", "attention.score.weight");
    }
    if (c.score == ScoreKind::concat) r.transposed("attention.v_a", "attention.v.weight");
    r.transposed("attention.w_c", "attention.combine.weight");
  }
  r.linear("output.", "output.");
}

void export_transformer(Renamer& r, const TransformerSeq2SeqConfig& c) {
  if (c.share_embeddings) {
    r.same("embedding.weight", "embedding.weight");
  } else {
    r.same("source_embedding.weight", "source_embedding.weight");
    r.same("target_embedding.weight", "target_embedding.weight");
  }
  for (std::size_t i = 0; i < c.encoder_layers; ++i) {
    const std::string block = "encoder." + std::to_string(i) + ".";
    r.encoder_block(block, block);
  }
  r.norm("encoder_norm.", "encoder_norm.");
  for (std::size_t i = 0; i < c.decoder_layers; ++i) {
    const std::string block = "decoder." + std::to_string(i) + ".";
    r.norm(block + "ln1.", block + "ln1.");
    r.attention(block + "self_attention.", block + "self_attention.");
    r.norm(block + "ln2.", block + "ln2.");
    r.attention(block + "cross_attention.", block + "cross_attention.");
    r.norm(block + "ln3.", block + "ln3.");
    r.linear(block + "ff1.", block + "ff1.");
    r.linear(block + "ff2.", block + "ff2.");
  }
  r.norm("decoder_norm.", "decoder_norm.");
  if (c.tie_output) {
    r.same("output.b", "output.bias");  // the weight is the target table, already written
  } else {
    r.linear("output.", "output.");
  }
}

// config.json: the model's own configuration, format fields and the decoding rules.
std::string config_json(const std::string& model_json) {
  FlatJson j = FlatJson::parse(model_json);
  j.set("format", "attn-pytorch-translator")
      .set("format_version", 1.0)
      .set("layer_norm_eps", 1e-5)
      .set("max_len_per_source_token", static_cast<double>(kDecodeStepsPerSourceToken))
      .set("max_len_extra", static_cast<double>(kDecodeExtraSteps))
      // 0.6, not the float's 0.60000002 (the scores' ranking cannot tell them apart)
      .set("beam_alpha", std::round(1e6 * static_cast<double>(kDefaultLengthAlpha)) / 1e6);
  // The engine's "gelu" is the tanh approximation (layers/activations.hpp): say so.
  if (j.has("activation") && j.get_string("activation") == "gelu") j.set("activation", "gelu_tanh");
  return j.dump() + "\n";
}

// Version 2: each word side's tokenizer ("<side>_tokenizer": "mt" with its version, language and
// lowercasing, or "project"); version 1 files (no such key) are the project tokenizer's.
std::string vocab_json(const std::string& task, const ParallelVocabularies& v) {
  FlatJson j;
  j.set("format", "attn-translator-vocab")
      .set("format_version", 2.0)
      .set("task", task)
      .set("reserved", std::vector<std::string>{"<pad>", "<bos>", "<eos>", "<unk>"})
      .set("first_token_id", static_cast<double>(Seq2SeqVocabulary::first_token))
      // Seq2SeqVocabulary::split's settings of the project tokenizer at word level.
      .set("word_lowercase", true)
      .set("word_strip_html", false)
      .set("word_keep_punctuation", true);
  for (const auto& [side, vocabulary] : {std::pair<std::string, const Seq2SeqVocabulary*>{"source", &v.source},
                                         std::pair<std::string, const Seq2SeqVocabulary*>{"target", &v.target}}) {
    j.set(side + "_level", token_level_name(vocabulary->level())).set(side + "_tokens", vocabulary->tokens());
    if (vocabulary->level() != TokenLevel::word) continue;
    if (vocabulary->tokenizer().scheme == WordTokenizer::Scheme::project) {
      j.set(side + "_tokenizer", "project");
    } else {
      vocabulary->write_tokenizer_json(j, side + "_");
    }
  }
  return j.dump() + "\n";
}

void require_size(const char* side, std::size_t vocabulary, std::size_t model) {
  if (vocabulary != model) {
    throw std::invalid_argument(std::string("export_pytorch_translator: the ") + side + " vocabulary has " +
                                std::to_string(vocabulary) + " ids but the model reads " + std::to_string(model));
  }
}

// The lines of `text` between "# >>> shared: NAME\n" and "# <<< shared: NAME\n".
std::string_view shared_block(std::string_view text, const std::string& name) {
  const std::string open = "# >>> shared: " + name + "\n", close = "# <<< shared: " + name + "\n";
  const std::size_t begin = text.find(open), end = text.find(close);
  if (begin == std::string_view::npos || end == std::string_view::npos || end < begin) {
    throw std::logic_error("pytorch_model.py has no shared block '" + name + "'");
  }
  return text.substr(begin + open.size(), end - begin - open.size());
}

}  // namespace

std::string pytorch_translator_py() {
  const std::string_view source = pytorch_model_py();
  std::string_view rest = pytorch_translator_template();
  const std::string_view marker = "# === shared: ";
  std::string out;
  for (std::size_t at; (at = rest.find(marker)) != std::string_view::npos;) {
    const std::size_t name_end = rest.find(" ===\n", at);
    if (name_end == std::string_view::npos) throw std::logic_error("pytorch_translator.py: unclosed shared marker");
    out.append(rest.substr(0, at));
    out.append(shared_block(source, std::string(rest.substr(at + marker.size(), name_end - at - marker.size()))));
    rest.remove_prefix(name_end + 5);
  }
  out.append(rest);
  return out;
}

std::vector<ExportedFile> export_pytorch_translator(const TrainableTranslator& model, const std::string& task,
                                                    const ParallelVocabularies& vocabularies) {
  require_size("source", vocabularies.source.size(), model.source_vocab());
  require_size("target", vocabularies.target.size(), model.target_vocab());
  std::string kind, model_json;
  std::vector<NamedTensor> tensors;
  if (const auto* rnn = dynamic_cast<const Seq2SeqModel*>(&model)) {
    Renamer r(rnn->parameters());
    export_rnn(r, rnn->config());
    kind = "seq2seq";
    model_json = rnn->config().to_json();
    tensors = std::move(r.out);
  } else if (const auto* transformer = dynamic_cast<const TransformerSeq2Seq*>(&model)) {
    Renamer r(transformer->parameters());
    export_transformer(r, transformer->config());
    kind = "transformer_seq2seq";
    model_json = transformer->config().to_json();
    tensors = std::move(r.out);
  } else {
    throw std::invalid_argument("export_pytorch_translator: a translator that is neither the RNN nor the Transformer");
  }
  const std::vector<std::uint8_t> weights =
      write_safetensors(tensors, {{"format", "attn-pytorch-translator"}, {"format_version", "1"}, {"model", kind}});
  return {{"model.safetensors", std::string(weights.begin(), weights.end())},
          {"config.json", config_json(model_json)},
          {"vocab.json", vocab_json(task, vocabularies)},
          {"model.py", pytorch_translator_py()}};
}

}  // namespace attn
