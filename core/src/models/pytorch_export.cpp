#include "attn/models/pytorch_export.hpp"

#include <stdexcept>

#include "attn/io/flat_json.hpp"
#include "attn/io/safetensors.hpp"
#include "pytorch_export_detail.hpp"

namespace attn {
namespace {

using pytorch_detail::Renamer;

void export_recurrent(Renamer& r, const ClassifierConfig& c) {
  const bool lstm = c.encoder == EncoderKind::bilstm;
  r.recurrent("encoder.forward.", "rnn.", "_l0", lstm, c.units);
  r.recurrent("encoder.backward.", "rnn.", "_l0_reverse", lstm, c.units);
}

void export_transformer(Renamer& r, const ClassifierConfig& c) {
  if (c.positional == PositionalKind::learned) r.same("encoder.positional.position", "positional.weight");
  for (std::size_t l = 0; l < c.layers; ++l) {
    r.encoder_block("encoder.block" + std::to_string(l) + ".", "blocks." + std::to_string(l) + ".");
  }
  r.norm("encoder.final_norm.", "final_norm.");
}

void export_pooling(Renamer& r, const ClassifierConfig& c) {
  if (c.pooling != PoolingKind::attention) return;
  switch (c.score) {
    case ScoreKind::additive:
      r.transposed("pooling.w", "pooling.proj.weight");
      r.same("pooling.b", "pooling.proj.bias");
      r.transposed("pooling.v", "pooling.v.weight");
      break;
    case ScoreKind::concat:
      r.same("pooling.q", "pooling.query");
      r.transposed("pooling.w", "pooling.proj.weight");
      r.transposed("pooling.v", "pooling.v.weight");
      break;
    case ScoreKind::general:
      r.same("pooling.q", "pooling.query");
      r.same("pooling.w", "pooling.proj.weight");
      break;
    case ScoreKind::scaled_dot:
      r.same("pooling.q", "pooling.query");
      r.transposed("pooling.w", "pooling.proj.weight");
      break;
    default:  // dot
      r.same("pooling.q", "pooling.query");
      break;
  }
}

// The architecture as safetensors metadata (string values only, as the format requires).
std::vector<std::pair<std::string, std::string>> architecture(const ClassifierConfig& c) {
  auto n = [](std::size_t v) { return std::to_string(v); };
  return {{"format", "attn-pytorch"},
          {"format_version", "1"},
          {"encoder", encoder_kind_name(c.encoder)},
          {"vocab_size", n(c.vocab_size)},
          {"embed_dim", n(c.embed_dim)},
          {"units", n(c.units)},
          {"pooling", pooling_kind_name(c.pooling)},
          {"score", score_kind_name(c.score)},
          {"attention_dim", n(c.attention_dim)},
          {"layers", n(c.layers)},
          {"heads", n(c.heads)},
          {"ff_dim", n(c.ff_dim)},
          {"max_len", n(c.max_len)},
          {"positional", c.positional == PositionalKind::learned ? "learned" : "sinusoidal"},
          {"causal", c.causal ? "true" : "false"},
          {"bigram_buckets", n(c.bigram_buckets)},
          {"activation", "gelu_tanh"},
          {"layer_norm_eps", "1e-05"}};
}

std::string vocab_json(const TextPipeline& pipeline) {
  const TextPipelineConfig& c = pipeline.config();
  const Vocabulary& v = pipeline.vocabulary();
  FlatJson j;
  j.set("format", "attn-vocab")
      .set("format_version", 1.0)
      .set("num_words", static_cast<double>(c.num_words))
      .set("maxlen", static_cast<double>(c.maxlen))
      .set("padding", pad_mode_name(c.padding))
      .set("truncating", pad_mode_name(c.truncating))
      .set("lowercase", c.tokenizer.lowercase)
      .set("strip_html", c.tokenizer.strip_html)
      .set("keep_punctuation", c.tokenizer.keep_punctuation)
      .set("reserved", std::vector<std::string>{"<pad>", "<start>", "<oov>", "<unused>"})
      .set("first_word_id", static_cast<double>(Vocabulary::first_word))
      .set("words", v.words());
  return j.dump() + "\n";
}

}  // namespace

std::vector<ExportedFile> export_pytorch(const SentimentModel& model) {
  SequenceClassifier& classifier = classifier_of(model, "export_pytorch");
  const ClassifierConfig& c = classifier.config();
  Renamer r(classifier.parameters());
  r.same("embedding.weight", "embedding.weight");
  if (c.bigram_buckets) r.same("bigrams.weight", "bigrams.weight");
  if (c.encoder == EncoderKind::transformer) {
    export_transformer(r, c);
  } else if (c.encoder != EncoderKind::none) {
    export_recurrent(r, c);
  }
  export_pooling(r, c);
  r.linear("output.", "output.");
  const std::vector<std::uint8_t> weights = write_safetensors(r.out, architecture(c));
  return {{"model.safetensors", std::string(weights.begin(), weights.end())},
          {"vocab.json", vocab_json(model.pipeline)},
          {"model.py", std::string(pytorch_model_py())}};
}

}  // namespace attn
