// A binary sequence classifier in the families the course compares:
//
//   (a) Embedding → BiLSTM | BiGRU → attention pooling (any learnable scoring) → Dense → σ
//   (b) Embedding (· √D) + positional encoding → N pre-norm Transformer blocks → LayerNorm →
//       attention or mean pooling → Dense → σ
//   (c) baseline without attention: Embedding → BiLSTM | BiGRU → last states → Dense → σ
//   (d) attention over n-grams, no encoder: (Embedding + hashed bigram Embedding) → attention
//       pooling → Dense → σ — each position is its word and the bigram ending there, and the
//       pooling's weights say which of them decided (a bag of n-grams that attends)
//
// Any encoder can take the bigram embeddings (bigram_buckets > 0): position t's input is
// word[ids[b,t]] + bigram[bigram_bucket(ids[b,t-1], ids[b,t], bigram_buckets)], the previous id
// being 0 at the start of a row and after padding; padded positions take the zero row 0.
//
// Legend: B batch, T time, V vocabulary, E embedding size, U recurrent units per direction,
// Dh encoder output size (2U for recurrent encoders, E for the Transformer).
// The model owns its layers' caches: forward() then backward() on the same batch.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "attn/attention/scores.hpp"
#include "attn/io/settings_schema.hpp"
#include "attn/layers/attention_pooling.hpp"
#include "attn/layers/dense.hpp"
#include "attn/layers/dropout.hpp"
#include "attn/layers/embedding.hpp"
#include "attn/layers/parameter.hpp"
#include "attn/models/sequence_encoder.hpp"
#include "attn/random.hpp"

namespace attn {

enum class EncoderKind { bilstm, bigru, transformer, none };  // none: h = the embeddings
enum class PoolingKind { attention, last, mean };
enum class PositionalKind { sinusoidal, learned };

struct ClassifierConfig {
  std::size_t vocab_size = 5000;
  std::size_t embed_dim = 32;  // E (= d_model for the Transformer)
  EncoderKind encoder = EncoderKind::bilstm;
  std::size_t units = 32;  // U, per direction
  PoolingKind pooling = PoolingKind::attention;
  ScoreKind score = ScoreKind::additive;  // attention pooling's scoring function
  std::size_t attention_dim = 32;         // A, for additive/concat scoring
  std::size_t layers = 1;                 // Transformer blocks
  std::size_t heads = 2;
  std::size_t ff_dim = 64;
  std::size_t max_len = 512;  // longest sequence the positional encoding supports
  PositionalKind positional = PositionalKind::sinusoidal;
  float dropout = 0.f;             // on the embeddings, on the pooled vector, and inside Transformer blocks
  float word_dropout = 0.f;        // drops whole token embeddings (spatial dropout), after `dropout`
  bool causal = false;             // Transformer: causal self-attention mask
  std::size_t bigram_buckets = 0;  // rows of the hashed bigram table (0 = no bigram embeddings)

  // Checks ranges and combinations; throws std::invalid_argument saying what is wrong.
  void validate() const;
  std::string to_json() const;  // flat JSON with "model": "sequence_classifier"
  static ClassifierConfig from_json(const std::string& json);
};

// ClassifierConfig's fields (io/settings_schema.hpp): to_json / from_json follow it; validate()
// adds the checks that combine fields ("invalid model configuration: ...").
const SettingsSchema<ClassifierConfig>& classifier_settings();

// The bigram table's row for the pair (previous id, id) at a real position: 1 + (previous ·
// 1000003 + id) mod (buckets − 1), in 64-bit arithmetic; row 0 is the padding row. buckets >= 2.
std::int32_t bigram_bucket(std::int32_t previous, std::int32_t id, std::size_t buckets);

const char* encoder_kind_name(EncoderKind kind);
EncoderKind encoder_kind_from_name(const std::string& name);
const char* pooling_kind_name(PoolingKind kind);
PoolingKind pooling_kind_from_name(const std::string& name);

class SequenceClassifier {
 public:
  SequenceClassifier(const ClassifierConfig& config, std::uint64_t seed);
  ~SequenceClassifier();
  SequenceClassifier(const SequenceClassifier&) = delete;
  SequenceClassifier& operator=(const SequenceClassifier&) = delete;

  // ids [B, T], mask [B, T] (1 = real token) -> logits [B]. `training` enables dropout (from rng).
  void forward(const TokenIds& ids, const Mask2& mask, bool training, Rng& rng, Tensor1& logits);
  // dlogits [B] -> parameter gradients (accumulated; zero them once per step).
  void backward(const Tensor1& dlogits);

  // Attention-pooling weights of the last forward, [B, T] (empty when pooling isn't attention).
  const Tensor2& pooling_weights() const;
  // Transformer self-attention of block `layer` from the last forward, [B, H, T, T], or null.
  const Tensor4* self_attention(std::size_t layer) const;

  // What-if hooks for analysis (analysis/transformer_inspect.hpp), Transformer encoder only:
  // block `layer`'s self-attention (its head_enabled mask ablates heads), or null for a recurrent
  // encoder or a layer out of range, and its cache from the last forward (Q, K for the scores);
  // the learned positional table (null when sinusoidal or recurrent); and the causal mask forward
  // uses from now on. set_causal does not change config(): a saved model keeps the mask it was
  // trained with. Callers restore what they change.
  MultiHeadSelfAttention* attention_layer(std::size_t layer);
  const MultiHeadAttentionCache* attention_cache(std::size_t layer) const;
  const LearnedPositionalEncoding* learned_positional() const;
  void set_causal(bool causal);

  ParameterList& parameters() { return parameters_; }
  const ClassifierConfig& config() const { return config_; }

  // Inspection (analysis/explanations.hpp) --------------------------------------------------
  // Inference with the attention-pooling weights given instead of computed: ids [B, T], mask
  // [B, T], weights [B, T] -> logits [B], where pooled[b] = Σ_t weights[b, t] h[b, t] (weights
  // used as given: they need not sum to 1; masked positions are skipped). No dropout. Answers
  // "what would the model say if it had attended like this?" (Jain & Wallace 2019). It leaves
  // the caches of a forward(ids, mask, training = false) behind except the pooled vector, so
  // backward() must not follow it. Throws std::logic_error unless pooling is attention, and
  // ShapeError when weights is not [B, T].
  void forward_with_attention(const TokenIds& ids, const Mask2& mask, const Tensor2& weights, Tensor1& logits);
  // Of the last forward: the embedding output x [B, T, E] (words plus bigrams, before dropout), the encoder output
  // h [B, T, Dh], and the pre-softmax pooling scores e [B, T] (empty unless pooling is attention).
  const Tensor3& embedded() const { return embedded_; }
  const Tensor3& encoded() const { return encoded_; }
  const Tensor2& pooling_scores() const;
  // After backward(): ∂loss/∂x [B, T, E], the gradient reaching the embedding output.
  const Tensor3& embedded_gradient() const { return d_embedded_; }
  // logits = output_layer(pooled): its weight [Dh, 1] and bias [1].
  const Dense& output_layer() const { return output_; }

 private:
  SequenceClassifier(const ClassifierConfig& config, Rng&& rng);

  ClassifierConfig config_;
  Embedding embedding_;
  std::unique_ptr<Embedding> bigrams_;  // null unless config_.bigram_buckets > 0
  std::unique_ptr<SequenceEncoder> encoder_;
  std::unique_ptr<AttentionPooling> pooling_;
  Dense output_;
  Dropout embedding_dropout_, pooled_dropout_, word_dropout_;
  ParameterList parameters_;

  // Activations of the last forward and scratch for backward, reused across steps.
  EmbeddingCache embedding_cache_, bigram_cache_;
  TokenIds bigram_ids_;
  Tensor3 bigram_embedded_;
  DropoutCache embedding_dropout_cache_, pooled_dropout_cache_, word_dropout_cache_;
  Tensor3 embedded_, dropped_embedded_, encoded_, d_encoded_, d_dropped_embedded_, d_embedded_;
  Tensor2 final_state_, pooled_, dropped_pooled_, d_dropped_pooled_, d_pooled_, d_final_, logits2_, d_logits2_;
  Mask2 mask_;
  AttentionPoolingCache pooling_cache_;
  DenseCache output_cache_;
  Tensor2 no_weights_;
};

// The whole model — its configuration (as JSON) and every parameter — in one model file
// (io/model_file.hpp: magic, version, named tensors with shapes, CRC-32).
std::vector<std::uint8_t> save_classifier(SequenceClassifier& model);
// Rebuilds the model the bytes describe. Throws ModelFileError for a damaged or foreign file and
// std::invalid_argument for a configuration this build rejects.
std::unique_ptr<SequenceClassifier> load_classifier(const std::uint8_t* data, std::size_t size);

}  // namespace attn
