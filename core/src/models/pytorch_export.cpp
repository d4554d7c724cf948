#include "attn/models/pytorch_export.hpp"

#include <map>
#include <stdexcept>

#include "attn/io/flat_json.hpp"
#include "attn/io/safetensors.hpp"

namespace attn {
namespace {

// The classifier's parameters by engine name, handed out under PyTorch names.
class Renamer {
 public:
  explicit Renamer(ParameterList& parameters) {
    for (const Parameter& p : parameters) by_name_.emplace(p.name, &p);
  }

  // The parameter as stored.
  void same(const std::string& from, const std::string& to) {
    const Parameter& p = get(from);
    out.push_back({to, p.shape, std::vector<float>(p.value, p.value + p.size)});
  }
  // A [in, out] matrix as PyTorch's [out, in]; a vector [n] becomes the row [1, n].
  void transposed(const std::string& from, const std::string& to) {
    const Parameter& p = get(from);
    if (p.shape.size() == 1) {
      out.push_back({to, {1, p.size}, std::vector<float>(p.value, p.value + p.size)});
      return;
    }
    const std::size_t rows = p.shape[0], cols = p.shape[1];
    NamedTensor t{to, {cols, rows}, std::vector<float>(p.size)};
    for (std::size_t r = 0; r < rows; ++r) {
      for (std::size_t c = 0; c < cols; ++c) t.values[c * rows + r] = p.value[r * cols + c];
    }
    out.push_back(std::move(t));
  }
  void zeros(const std::string& to, std::size_t n) { out.push_back({to, {n}, std::vector<float>(n, 0.f)}); }

  std::vector<NamedTensor> out;

 private:
  const Parameter& get(const std::string& name) const {
    const auto it = by_name_.find(name);
    if (it == by_name_.end()) throw std::logic_error("export_pytorch: the model has no parameter '" + name + "'");
    return *it->second;
  }
  std::map<std::string, const Parameter*> by_name_;
};

void export_recurrent(Renamer& r, const ClassifierConfig& c) {
  const bool lstm = c.encoder == EncoderKind::bilstm;
  for (const char* direction : {"forward", "backward"}) {
    const std::string from = std::string("encoder.") + direction + ".";
    const std::string suffix = std::string("_l0") + (direction[0] == 'b' ? "_reverse" : "");
    r.transposed(from + "w_x", "rnn.weight_ih" + suffix);
    r.transposed(from + "w_h", "rnn.weight_hh" + suffix);
    if (lstm) {
      r.same(from + "b", "rnn.bias_ih" + suffix);
      r.zeros("rnn.bias_hh" + suffix, 4 * c.units);
    } else {
      r.same(from + "b_x", "rnn.bias_ih" + suffix);
      r.same(from + "b_h", "rnn.bias_hh" + suffix);
    }
  }
}

void export_norm(Renamer& r, const std::string& from, const std::string& to) {
  r.same(from + "gamma", to + "weight");
  r.same(from + "beta", to + "bias");
}

void export_linear(Renamer& r, const std::string& from, const std::string& to) {
  r.transposed(from + "w", to + "weight");
  r.same(from + "b", to + "bias");
}

void export_transformer(Renamer& r, const ClassifierConfig& c) {
  if (c.positional == PositionalKind::learned) r.same("encoder.positional.position", "positional.weight");
  for (std::size_t l = 0; l < c.layers; ++l) {
    const std::string from = "encoder.block" + std::to_string(l) + ".", to = "blocks." + std::to_string(l) + ".";
    export_norm(r, from + "ln1.", to + "ln1.");
    for (const char* p : {"q", "k", "v", "o"}) {
      const std::string name = p[0] == 'o' ? "out" : p;
      r.transposed(from + "attention.w_" + p, to + "attention." + name + "_proj.weight");
      r.same(from + "attention.b_" + p, to + "attention." + name + "_proj.bias");
    }
    export_norm(r, from + "ln2.", to + "ln2.");
    export_linear(r, from + "ff1.", to + "ff1.");
    export_linear(r, from + "ff2.", to + "ff2.");
  }
  export_norm(r, "encoder.final_norm.", "final_norm.");
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
  if (c.encoder == EncoderKind::transformer) {
    export_transformer(r, c);
  } else {
    export_recurrent(r, c);
  }
  export_pooling(r, c);
  export_linear(r, "output.", "output.");
  const std::vector<std::uint8_t> weights = write_safetensors(r.out, architecture(c));
  return {{"model.safetensors", std::string(weights.begin(), weights.end())},
          {"vocab.json", vocab_json(model.pipeline)},
          {"model.py", std::string(pytorch_model_py())}};
}

}  // namespace attn
