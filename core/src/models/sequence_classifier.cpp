#include "attn/models/sequence_classifier.hpp"

#include <cmath>
#include <stdexcept>

#include "attn/io/flat_json.hpp"
#include "attn/io/model_file.hpp"
#include "attn/layers/layer_norm.hpp"
#include "attn/layers/positional_encoding.hpp"
#include "attn/layers/transformer_encoder.hpp"

namespace attn {
namespace {

// Embedding · √E + positional encoding → N pre-norm blocks → LayerNorm.
class TransformerEncoder final : public SequenceEncoder {
 public:
  TransformerEncoder(const ClassifierConfig& c, Rng& rng)
      : config_(c), final_norm_(c.embed_dim), scale_(std::sqrt(static_cast<float>(c.embed_dim))) {
    if (c.positional == PositionalKind::learned)
      learned_ = std::make_unique<LearnedPositionalEncoding>(c.max_len, c.embed_dim, rng);
    TransformerEncoderConfig block;
    block.d_model = c.embed_dim;
    block.heads = c.heads;
    block.ff_dim = c.ff_dim;
    block.dropout = c.dropout;
    for (std::size_t i = 0; i < c.layers; ++i) blocks_.emplace_back(block, rng);
    caches_.resize(c.layers);
    activations_.resize(c.layers + 1);
  }

  void forward(const Tensor3& x, const Mask2& mask, bool training, Rng& rng, Tensor3& h,
               Tensor2& final_state) override {
    ATTN_REQUIRE(
        x.shape(1) <= config_.max_len, "SequenceClassifier",
        "sequence length " + std::to_string(x.shape(1)) + " exceeds max_len " + std::to_string(config_.max_len));
    // activations_[0] = x · √E + PE, positions counted from each row's first real token (so
    // a review reads the same positions alone, 'pre'- or 'post'-padded).
    sequence_starts(mask, starts_);
    Tensor3& in = activations_[0];
    Tensor3& scaled = learned_ ? scaled_ : in;
    ensure_shape(scaled, x.shape());
    for (std::size_t i = 0; i < x.size(); ++i) scaled.data()[i] = x.data()[i] * scale_;
    if (learned_) {
      learned_->forward(scaled_, in, &starts_);
    } else {
      add_sinusoidal_positional_encoding(in, &starts_, &sinusoids_);
    }
    for (std::size_t l = 0; l < blocks_.size(); ++l) {
      blocks_[l].forward(activations_[l], &mask, config_.causal, training, rng, activations_[l + 1], caches_[l]);
    }
    final_norm_.forward(activations_.back(), h, norm_cache_);
    final_state.resize({0, 0});
  }

  void backward(const Tensor3& dh, const Tensor2*, Tensor3& dx) override {
    final_norm_.backward(dh, norm_cache_, d_a_);
    for (std::size_t l = blocks_.size(); l-- > 0;) {
      blocks_[l].backward(d_a_, caches_[l], d_b_);
      std::swap(d_a_, d_b_);
    }
    // activations_[0] = scaled + PE: the positional term is a constant (or learned) addend.
    if (learned_) {
      learned_->backward(d_a_, d_b_, &starts_);
      std::swap(d_a_, d_b_);
    }
    ensure_shape(dx, d_a_.shape());
    for (std::size_t i = 0; i < dx.size(); ++i) dx.data()[i] = d_a_.data()[i] * scale_;
  }

  void parameters(ParameterList& out, const std::string& prefix) override {
    if (learned_) learned_->parameters(out, prefix + "positional.");
    for (std::size_t l = 0; l < blocks_.size(); ++l)
      blocks_[l].parameters(out, prefix + "block" + std::to_string(l) + ".");
    final_norm_.parameters(out, prefix + "final_norm.");
  }
  std::size_t output_dim() const override { return config_.embed_dim; }
  const Tensor4* self_attention(std::size_t layer) const override {
    return layer < caches_.size() ? &caches_[layer].attention.weights : nullptr;
  }
  MultiHeadSelfAttention* attention_layer(std::size_t layer) override {
    return layer < blocks_.size() ? &blocks_[layer].attention() : nullptr;
  }
  const MultiHeadAttentionCache* attention_cache(std::size_t layer) const override {
    return layer < caches_.size() ? &caches_[layer].attention : nullptr;
  }
  const LearnedPositionalEncoding* learned_positional() const override { return learned_.get(); }
  void set_causal(bool causal) override { config_.causal = causal; }

 private:
  ClassifierConfig config_;
  std::unique_ptr<LearnedPositionalEncoding> learned_;
  std::vector<TransformerEncoderBlock> blocks_;
  std::vector<TransformerEncoderCache> caches_;
  std::vector<Tensor3> activations_;
  LayerNorm final_norm_;
  LayerNormCache norm_cache_;
  float scale_;
  std::vector<std::size_t> starts_;  // [B] first real token of each row, from the last forward
  Tensor3 scaled_, d_a_, d_b_;
  Tensor2 sinusoids_;  // the sinusoidal PE table, filled on the first forward (see add_sinusoidal_positional_encoding)
};

// No encoder: each position's vector is its embedding (h = x), so the pooling reads the words
// (and bigrams) themselves.
class IdentityEncoder final : public SequenceEncoder {
 public:
  explicit IdentityEncoder(std::size_t dim) : dim_(dim) {}
  void forward(const Tensor3& x, const Mask2&, bool, Rng&, Tensor3& h, Tensor2& final_state) override {
    copy_into(h, x);
    final_state.resize({0, 0});
  }
  void backward(const Tensor3& dh, const Tensor2*, Tensor3& dx) override { copy_into(dx, dh); }
  void parameters(ParameterList&, const std::string&) override {}
  std::size_t output_dim() const override { return dim_; }

 private:
  std::size_t dim_;
};

std::unique_ptr<SequenceEncoder> make_encoder(const ClassifierConfig& c, Rng& rng) {
  switch (c.encoder) {
    case EncoderKind::bilstm:
      return make_recurrent_encoder(CellKind::lstm, c.embed_dim, c.units, rng);
    case EncoderKind::bigru:
      return make_recurrent_encoder(CellKind::gru, c.embed_dim, c.units, rng);
    case EncoderKind::transformer:
      return std::make_unique<TransformerEncoder>(c, rng);
    case EncoderKind::none:
      return std::make_unique<IdentityEncoder>(c.embed_dim);
  }
  throw std::invalid_argument("unknown encoder");
}

template <class Kind>
Kind kind_from_name(const std::string& name, std::initializer_list<Kind> kinds, const char* (*to_name)(Kind),
                    const char* what) {
  std::string valid;
  for (Kind k : kinds) {
    if (name == to_name(k)) return k;
    valid += (valid.empty() ? "" : ", ") + std::string(to_name(k));
  }
  throw std::invalid_argument("unknown " + std::string(what) + " '" + name + "'; valid: " + valid);
}

}  // namespace

std::int32_t bigram_bucket(std::int32_t previous, std::int32_t id, std::size_t buckets) {
  ATTN_REQUIRE(buckets >= 2 && previous >= 0 && id >= 0, "bigram_bucket",
               "needs buckets >= 2 and ids >= 0, got buckets " + std::to_string(buckets) + ", ids " +
                   std::to_string(previous) + ", " + std::to_string(id));
  const std::uint64_t pair = static_cast<std::uint64_t>(previous) * 1000003u + static_cast<std::uint64_t>(id);
  return static_cast<std::int32_t>(1 + pair % (buckets - 1));
}

const char* encoder_kind_name(EncoderKind kind) {
  switch (kind) {
    case EncoderKind::bilstm:
      return "bilstm";
    case EncoderKind::bigru:
      return "bigru";
    case EncoderKind::transformer:
      return "transformer";
    case EncoderKind::none:
      return "none";
  }
  return "unknown";
}

EncoderKind encoder_kind_from_name(const std::string& name) {
  return kind_from_name(name, {EncoderKind::bilstm, EncoderKind::bigru, EncoderKind::transformer, EncoderKind::none},
                        encoder_kind_name, "encoder");
}

const char* pooling_kind_name(PoolingKind kind) {
  switch (kind) {
    case PoolingKind::attention:
      return "attention";
    case PoolingKind::last:
      return "last";
    case PoolingKind::mean:
      return "mean";
  }
  return "unknown";
}

PoolingKind pooling_kind_from_name(const std::string& name) {
  return kind_from_name(name, {PoolingKind::attention, PoolingKind::last, PoolingKind::mean}, pooling_kind_name,
                        "pooling");
}

void ClassifierConfig::validate() const {
  auto fail = [](const std::string& what) { throw std::invalid_argument("invalid model configuration: " + what); };
  if (vocab_size < 4)
    fail("vocab_size must be at least 4 (pad, start, out-of-vocabulary and one word), got " +
         std::to_string(vocab_size));
  if (embed_dim < 1 || embed_dim > 4096) fail("embed_dim must be between 1 and 4096");
  // 2^28 floats (1 GiB): the byte count must also fit wasm32's 32-bit size_t.
  if (static_cast<double>(vocab_size) * static_cast<double>(embed_dim) > 268435456.0) {
    fail("the embedding table (vocab_size " + std::to_string(vocab_size) + " × embed_dim " + std::to_string(embed_dim) +
         ") must have at most 268435456 values");
  }
  if (encoder != EncoderKind::transformer && (units < 1 || units > 4096)) fail("units must be between 1 and 4096");
  if ((encoder == EncoderKind::transformer || encoder == EncoderKind::none) && pooling == PoolingKind::last)
    fail("pooling 'last' needs a recurrent encoder; use 'attention' or 'mean'");
  if (bigram_buckets == 1 || bigram_buckets > (1u << 22))
    fail("bigram_buckets must be 0 (no bigrams) or between 2 and 4194304, got " + std::to_string(bigram_buckets));
  if (static_cast<double>(bigram_buckets) * static_cast<double>(embed_dim) > 268435456.0) {
    fail("the bigram table (bigram_buckets " + std::to_string(bigram_buckets) + " × embed_dim " +
         std::to_string(embed_dim) + ") must have at most 268435456 values");
  }
  if (attention_dim < 1 || attention_dim > 4096) fail("attention_dim must be between 1 and 4096");
  if (!(dropout >= 0.f && dropout < 1.f)) fail("dropout must be in [0, 1)");
  if (!(word_dropout >= 0.f && word_dropout < 1.f)) fail("word_dropout must be in [0, 1)");
  if (encoder == EncoderKind::transformer) {
    if (layers < 1 || layers > 64) fail("layers must be between 1 and 64");
    if (heads < 1 || embed_dim % heads != 0) {
      fail("heads (" + std::to_string(heads) + ") must divide embed_dim (" + std::to_string(embed_dim) + ")");
    }
    if (ff_dim < 1 || ff_dim > 16384) fail("ff_dim must be between 1 and 16384");
    if (max_len < 1 || max_len > 65536) fail("max_len must be between 1 and 65536");
  }
  if (pooling == PoolingKind::attention && (score == ScoreKind::location || score == ScoreKind::cosine)) {
    fail(std::string("attention pooling cannot use '") + score_kind_name(score) +
         "' scoring; use additive, concat, general, dot or scaled_dot");
  }
}

const SettingsSchema<ClassifierConfig>& classifier_settings() {
  using C = ClassifierConfig;
  static const SettingsSchema<C> schema(
      "ClassifierConfig",
      {
          whole_setting<C>(
              "vocab_size", [](C & c) -> auto& { return c.vocab_size; }, whole_range(4, 1 << 22),
              "vocabulary ids the embedding holds (the pipeline's num_words)"),
          whole_setting<C>(
              "embed_dim", [](C & c) -> auto& { return c.embed_dim; }, whole_range(1, 4096),
              "embedding size / Transformer d_model", "embed"),
          enum_setting<C>(
              "encoder", [](C & c) -> auto& { return c.encoder; },
              std::vector<std::pair<std::string, EncoderKind>>{{"bilstm", EncoderKind::bilstm},
                                                               {"bigru", EncoderKind::bigru},
                                                               {"transformer", EncoderKind::transformer},
                                                               {"none", EncoderKind::none}},
              "the sequence encoder"),
          whole_setting<C>(
              "units", [](C & c) -> auto& { return c.units; }, whole_range(1, 4096), "recurrent units per direction",
              "units"),
          enum_setting<C>(
              "pooling", [](C & c) -> auto& { return c.pooling; },
              std::vector<std::pair<std::string, PoolingKind>>{
                  {"attention", PoolingKind::attention}, {"mean", PoolingKind::mean}, {"last", PoolingKind::last}},
              "how the encoder's states become one vector", "pooling"),
          enum_setting<C>(
              "score", [](C & c) -> auto& { return c.score; },
              std::vector<std::pair<std::string, ScoreKind>>{{"additive", ScoreKind::additive},
                                                             {"concat", ScoreKind::concat},
                                                             {"general", ScoreKind::general},
                                                             {"dot", ScoreKind::dot},
                                                             {"scaled_dot", ScoreKind::scaled_dot}},
              "attention score", "score"),
          whole_setting<C>(
              "attention_dim", [](C & c) -> auto& { return c.attention_dim; }, whole_range(1, 4096),
              "additive/concat scoring size"),
          whole_setting<C>(
              "layers", [](C & c) -> auto& { return c.layers; }, whole_range(1, 64), "Transformer blocks", "layers"),
          whole_setting<C>(
              "heads", [](C & c) -> auto& { return c.heads; }, whole_range(1, 64), "attention heads", "heads"),
          whole_setting<C>(
              "ff_dim", [](C & c) -> auto& { return c.ff_dim; }, whole_range(1, 16384), "Transformer feed-forward size",
              "ff"),
          whole_setting<C>(
              "max_len", [](C & c) -> auto& { return c.max_len; }, whole_range(1, 65536),
              "longest sequence the positional encoding supports"),
          enum_setting<C>(
              "positional", [](C & c) -> auto& { return c.positional; },
              std::vector<std::pair<std::string, PositionalKind>>{{"sinusoidal", PositionalKind::sinusoidal},
                                                                  {"learned", PositionalKind::learned}},
              "Transformer positional encoding"),
          number_setting<C>(
              "dropout", [](C & c) -> auto& { return c.dropout; }, rate_range(),
              "dropout rate on the embeddings, the pooled vector and inside Transformer blocks", "dropout"),
          number_setting<C>(
              "word_dropout", [](C & c) -> auto& { return c.word_dropout; }, rate_range(),
              "rate of dropping whole token embeddings while training", "word-dropout"),
          flag_setting<C>(
              "causal", [](C & c) -> auto& { return c.causal; }, "Transformer: causal self-attention mask"),
          whole_setting<C>(
              "bigram_buckets", [](C & c) -> auto& { return c.bigram_buckets; }, whole_range(0, 1 << 22),
              "rows of the hashed bigram embedding table added to the word embeddings (0 = none)", "bigram-buckets"),
      },
      [](C& c) { c.validate(); });
  return schema;
}

std::string ClassifierConfig::to_json() const {
  FlatJson j;
  classifier_settings().write(*this, j).set("model", "sequence_classifier");
  return j.dump();
}

ClassifierConfig ClassifierConfig::from_json(const std::string& json) {
  const FlatJson j = FlatJson::parse(json);
  if (j.get_string("model") != "sequence_classifier") {
    throw std::invalid_argument("this file holds a '" + j.get_string("model") + "' model, not a sequence classifier");
  }
  // Files written before word dropout or bigrams existed have no key; they trained without them.
  return classifier_settings().read(j, {}, {true, {"word_dropout", "bigram_buckets"}, {"model"}});
}

namespace {
// Validates before any layer is built (a bad configuration must not allocate absurd sizes).
const ClassifierConfig& validated(const ClassifierConfig& c) {
  c.validate();
  return c;
}
}  // namespace

SequenceClassifier::SequenceClassifier(const ClassifierConfig& config, std::uint64_t seed)
    : SequenceClassifier(validated(config), Rng(seed)) {}

SequenceClassifier::SequenceClassifier(const ClassifierConfig& config, Rng&& rng)
    : config_(config),
      embedding_(config.vocab_size, config.embed_dim, rng, 0),
      bigrams_(config.bigram_buckets ? std::make_unique<Embedding>(config.bigram_buckets, config.embed_dim, rng, 0)
                                     : nullptr),
      encoder_(make_encoder(config, rng)),
      output_(encoder_->output_dim(), 1, rng),
      embedding_dropout_(config.dropout),
      pooled_dropout_(config.dropout),
      word_dropout_(config.word_dropout) {
  if (config.pooling == PoolingKind::attention) {
    pooling_ = std::make_unique<AttentionPooling>(config.score, encoder_->output_dim(), config.attention_dim, rng);
  }
  embedding_.parameters(parameters_, "embedding.");
  if (bigrams_) bigrams_->parameters(parameters_, "bigrams.");
  encoder_->parameters(parameters_, "encoder.");
  if (pooling_) pooling_->parameters(parameters_, "pooling.");
  output_.parameters(parameters_, "output.");
}

SequenceClassifier::~SequenceClassifier() = default;

void SequenceClassifier::forward(const TokenIds& ids, const Mask2& mask, bool training, Rng& rng, Tensor1& logits) {
  ATTN_REQUIRE(mask.shape() == ids.shape(), "SequenceClassifier::forward",
               "mask has shape " + shape_string(mask.shape()) + " but ids has shape " + shape_string(ids.shape()));
  ATTN_REQUIRE(ids.shape(0) > 0 && ids.shape(1) > 0, "SequenceClassifier::forward",
               "ids has shape " + shape_string(ids.shape()) + "; need at least one sequence of length >= 1");
  const std::size_t batch = ids.shape(0), time = ids.shape(1), dh = encoder_->output_dim();
  mask_ = mask;
  embedding_.forward(ids, embedded_, embedding_cache_);
  if (bigrams_) {
    ensure_shape(bigram_ids_, ids.shape());
    for (std::size_t b = 0; b < batch; ++b) {
      for (std::size_t t = 0; t < time; ++t) {
        const std::int32_t previous = t > 0 && mask(b, t - 1) ? ids(b, t - 1) : 0;
        bigram_ids_(b, t) = mask(b, t) ? bigram_bucket(previous, ids(b, t), config_.bigram_buckets) : 0;
      }
    }
    bigrams_->forward(bigram_ids_, bigram_embedded_, bigram_cache_);
    add_to(embedded_, bigram_embedded_);
  }
  embedding_dropout_.forward(embedded_, dropped_embedded_, training, rng, embedding_dropout_cache_);
  word_dropout_.forward(dropped_embedded_.data(), dropped_embedded_.data(), dropped_embedded_.size(), training, rng,
                        word_dropout_cache_, config_.embed_dim);
  encoder_->forward(dropped_embedded_, mask_, training, rng, encoded_, final_state_);
  switch (config_.pooling) {
    case PoolingKind::attention:
      pooling_->forward(encoded_, &mask_, pooled_, pooling_cache_);
      break;
    case PoolingKind::last:
      pooled_ = final_state_;
      break;
    case PoolingKind::mean: {
      // pooled[b] = Σ_t mask[b,t] h[b,t] / max(1, Σ_t mask[b,t])
      ensure_shape(pooled_, std::array<std::size_t, 2>{batch, dh});
      pooled_.fill(0.f);
      for (std::size_t b = 0; b < batch; ++b) {
        std::size_t count = 0;
        for (std::size_t t = 0; t < time; ++t) {
          if (!mask_(b, t)) continue;
          ++count;
          for (std::size_t d = 0; d < dh; ++d) pooled_(b, d) += encoded_(b, t, d);
        }
        const float inv = 1.f / static_cast<float>(std::max<std::size_t>(count, 1));
        for (std::size_t d = 0; d < dh; ++d) pooled_(b, d) *= inv;
      }
      break;
    }
  }
  pooled_dropout_.forward(pooled_, dropped_pooled_, training, rng, pooled_dropout_cache_);
  output_.forward(dropped_pooled_, logits2_, output_cache_);
  ensure_shape(logits, std::array<std::size_t, 1>{batch});
  for (std::size_t b = 0; b < batch; ++b) logits(b) = logits2_(b, 0);
}

void SequenceClassifier::backward(const Tensor1& dlogits) {
  const std::size_t batch = logits2_.shape(0), time = encoded_.shape(1), dh = encoder_->output_dim();
  ATTN_REQUIRE(dlogits.shape(0) == batch, "SequenceClassifier::backward",
               "dlogits has shape " + shape_string(dlogits.shape()) + " but the last forward had batch " +
                   std::to_string(batch));
  ensure_shape(d_logits2_, std::array<std::size_t, 2>{batch, 1});
  for (std::size_t b = 0; b < batch; ++b) d_logits2_(b, 0) = dlogits(b);
  // logits = Dense(dropout(pooled))
  output_.backward(d_logits2_, output_cache_, d_dropped_pooled_);
  pooled_dropout_.backward(d_dropped_pooled_, pooled_dropout_cache_, d_pooled_);
  // pooled = pool(encoded)
  const Tensor2* dfinal = nullptr;
  switch (config_.pooling) {
    case PoolingKind::attention:
      pooling_->backward(d_pooled_, pooling_cache_, d_encoded_);
      break;
    case PoolingKind::last:
      ensure_shape(d_encoded_, encoded_.shape());
      d_encoded_.fill(0.f);
      d_final_ = d_pooled_;
      dfinal = &d_final_;
      break;
    case PoolingKind::mean:
      ensure_shape(d_encoded_, encoded_.shape());
      for (std::size_t b = 0; b < batch; ++b) {
        std::size_t count = 0;
        for (std::size_t t = 0; t < time; ++t) count += mask_(b, t) ? 1 : 0;
        const float inv = 1.f / static_cast<float>(std::max<std::size_t>(count, 1));
        for (std::size_t t = 0; t < time; ++t) {
          for (std::size_t d = 0; d < dh; ++d) d_encoded_(b, t, d) = mask_(b, t) ? d_pooled_(b, d) * inv : 0.f;
        }
      }
      break;
  }
  // encoded = encoder(word_dropout(dropout(embedded))), word dropout applied in place
  encoder_->backward(d_encoded_, dfinal, d_dropped_embedded_);
  word_dropout_.backward(d_dropped_embedded_.data(), d_dropped_embedded_.data(), d_dropped_embedded_.size(),
                         word_dropout_cache_);
  embedding_dropout_.backward(d_dropped_embedded_, embedding_dropout_cache_, d_embedded_);
  // embedded = Embedding(ids) (+ bigrams(bucket ids))
  embedding_.backward(d_embedded_, embedding_cache_);
  if (bigrams_) bigrams_->backward(d_embedded_, bigram_cache_);
}

const Tensor2& SequenceClassifier::pooling_weights() const { return pooling_ ? pooling_cache_.weights : no_weights_; }

const Tensor4* SequenceClassifier::self_attention(std::size_t layer) const { return encoder_->self_attention(layer); }
MultiHeadSelfAttention* SequenceClassifier::attention_layer(std::size_t layer) {
  return encoder_->attention_layer(layer);
}
const MultiHeadAttentionCache* SequenceClassifier::attention_cache(std::size_t layer) const {
  return encoder_->attention_cache(layer);
}
const LearnedPositionalEncoding* SequenceClassifier::learned_positional() const {
  return encoder_->learned_positional();
}
void SequenceClassifier::set_causal(bool causal) { encoder_->set_causal(causal); }

const Tensor2& SequenceClassifier::pooling_scores() const { return pooling_ ? pooling_cache_.scores : no_weights_; }

void SequenceClassifier::forward_with_attention(const TokenIds& ids, const Mask2& mask, const Tensor2& weights,
                                                Tensor1& logits) {
  if (!pooling_) {
    throw std::logic_error(std::string("SequenceClassifier::forward_with_attention: the model pools with '") +
                           pooling_kind_name(config_.pooling) + "', not attention");
  }
  ATTN_REQUIRE(
      weights.shape() == ids.shape(), "SequenceClassifier::forward_with_attention",
      "weights has shape " + shape_string(weights.shape()) + " but ids has shape " + shape_string(ids.shape()));
  Rng unused(0);  // inference: no dropout draws
  forward(ids, mask, false, unused, logits);
  // pooled[b] = Σ_t weights[b, t] h[b, t] over the real tokens, in place of the model's own weights.
  const std::size_t batch = ids.shape(0), time = ids.shape(1), dh = encoder_->output_dim();
  pooled_.fill(0.f);
  for (std::size_t b = 0; b < batch; ++b) {
    for (std::size_t t = 0; t < time; ++t) {
      if (!mask_(b, t)) continue;
      const float a = weights(b, t);
      for (std::size_t d = 0; d < dh; ++d) pooled_(b, d) += a * encoded_(b, t, d);
    }
  }
  output_.forward(pooled_, logits2_, output_cache_);
  for (std::size_t b = 0; b < batch; ++b) logits(b) = logits2_(b, 0);
}

std::vector<std::uint8_t> save_classifier(SequenceClassifier& model) {
  return save_model(model.config().to_json(), model.parameters());
}

std::unique_ptr<SequenceClassifier> load_classifier(const std::uint8_t* data, std::size_t size) {
  const ModelFile file = read_model(data, size);
  // The seed is irrelevant: every parameter is overwritten from the file.
  auto model = std::make_unique<SequenceClassifier>(ClassifierConfig::from_json(file.config_json), 0);
  load_parameters(file, model->parameters());
  return model;
}

}  // namespace attn
