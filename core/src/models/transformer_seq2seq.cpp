// TransformerSeq2Seq: construction, parameters and the teacher-forced forward / backward.
#include "attn/models/transformer_seq2seq.hpp"

#include <cmath>
#include <stdexcept>

#include "attn/kernels/gemm.hpp"
#include "attn/layers/positional_encoding.hpp"
#include "attn/losses/label_smoothed_cross_entropy.hpp"
#include "attn/models/seq2seq.hpp"
#include "transformer_seq2seq_impl.hpp"

namespace attn {
namespace {
constexpr std::size_t kDecodingPositions = 256;  // PE rows precomputed for step(); more are made on demand

TransformerEncoderConfig block_config(const TransformerSeq2SeqConfig& c) {
  TransformerEncoderConfig b;
  b.d_model = c.d_model;
  b.heads = c.heads;
  b.ff_dim = c.ff_dim;
  b.dropout = c.dropout;
  b.activation = c.activation;
  return b;
}

const TransformerSeq2SeqConfig& validated(const TransformerSeq2SeqConfig& c) {
  c.validate();
  return c;
}

void scale_in_place(Tensor3& x, float factor) {
  for (float& v : x) v *= factor;
}

// mask [B, T] = (ids != PAD), reusing mask's buffer.
void fill_mask(const TokenIds& ids, Mask2& mask) {
  ensure_shape(mask, ids.shape());
  for (std::size_t i = 0; i < ids.size(); ++i) mask.data()[i] = ids.data()[i] != kPadId ? 1 : 0;
}
}  // namespace

TransformerSeq2Seq::Impl::Impl(const TransformerSeq2SeqConfig& c, std::uint64_t seed)
    : config(validated(c)),
      init(seed),
      source_embedding(c.share_embeddings ? nullptr : std::make_unique<Embedding>(c.source_vocab, c.d_model, init)),
      target_embedding(c.target_vocab, c.d_model, init),
      embedding_dropout(c.dropout),
      encoder_norm(c.d_model),
      decoder_norm(c.d_model),
      positions(sinusoidal_positional_encoding(kDecodingPositions, c.d_model)) {
  const TransformerEncoderConfig blocks = block_config(c);
  encoder.reserve(c.encoder_layers);  // no reallocation: parameter views point into the blocks
  for (std::size_t i = 0; i < c.encoder_layers; ++i) encoder.emplace_back(blocks, init);
  decoder.reserve(c.decoder_layers);
  for (std::size_t i = 0; i < c.decoder_layers; ++i) decoder.emplace_back(blocks, init);
  if (!c.tie_output) output = std::make_unique<Dense>(c.d_model, c.target_vocab, init);

  if (source_embedding) {
    source_embedding->parameters(params, "source_embedding.");
    target_embedding.parameters(params, "target_embedding.");
  } else {
    target_embedding.parameters(params, "embedding.");
  }
  if (c.tie_output) {  // the tied output reads and writes the target table through its published views
    tied_weight = params.back().value;
    tied_grad = params.back().grad;
  }
  for (std::size_t i = 0; i < c.encoder_layers; ++i)
    encoder[i].parameters(params, "encoder." + std::to_string(i) + ".");
  encoder_norm.parameters(params, "encoder_norm.");
  for (std::size_t i = 0; i < c.decoder_layers; ++i)
    decoder[i].parameters(params, "decoder." + std::to_string(i) + ".");
  decoder_norm.parameters(params, "decoder_norm.");
  if (output) {
    output->parameters(params, "output.");
  } else {
    output_bias = xt::zeros<float>({c.target_vocab});
    doutput_bias = xt::zeros<float>({c.target_vocab});
    add_parameter(params, "output.", "b", output_bias, doutput_bias);
  }
  encoder_states.resize(c.encoder_layers + 1);
  encoder_caches.resize(c.encoder_layers);
  decoder_states.resize(c.decoder_layers + 1);
  decoder_caches.resize(c.decoder_layers);
}

void TransformerSeq2Seq::Impl::project(const float* h, std::size_t rows, float* z) const {
  const std::size_t d = config.d_model, nv = config.target_vocab;
  if (output) {
    output->forward_rows(h, rows, z);  // z = h W_out + b_out
    return;
  }
  // z = h E_tᵀ + b_out
  kernels::gemm(false, true, rows, nv, d, 1.f, h, d, tied_weight, d, 0.f, z, nv);
  for (std::size_t r = 0; r < rows; ++r) {
    for (std::size_t v = 0; v < nv; ++v) z[r * nv + v] += output_bias(v);
  }
}

TransformerSeq2Seq::TransformerSeq2Seq(const TransformerSeq2SeqConfig& config, std::uint64_t seed)
    : impl_(std::make_unique<Impl>(config, seed)) {}
TransformerSeq2Seq::~TransformerSeq2Seq() = default;
TransformerSeq2Seq::TransformerSeq2Seq(TransformerSeq2Seq&&) noexcept = default;
TransformerSeq2Seq& TransformerSeq2Seq::operator=(TransformerSeq2Seq&&) noexcept = default;

const TransformerSeq2SeqConfig& TransformerSeq2Seq::config() const { return impl_->config; }

void TransformerSeq2Seq::set_decoder_self_mask(const Mask2& mask) {
  if (mask.size() == 0) {
    impl_->self_mask = Mask2();
    return;
  }
  ATTN_REQUIRE(mask.shape(0) == mask.shape(1), "TransformerSeq2Seq::set_decoder_self_mask",
               "the mask has shape " + shape_string(mask.shape()) +
                   "; it must be square, [L, L]: row t says which positions query t may see");
  for (std::size_t i = 0; i < mask.size(); ++i) {
    if (mask.data()[i] > 1) {
      throw std::invalid_argument("TransformerSeq2Seq::set_decoder_self_mask: entry " + std::to_string(i) + " is " +
                                  std::to_string(mask.data()[i]) + "; the mask holds 0 (hidden) and 1 (visible)");
    }
  }
  impl_->self_mask = mask;
}

const Mask2& TransformerSeq2Seq::decoder_self_mask() const { return impl_->self_mask; }
ParameterList& TransformerSeq2Seq::parameters() { return impl_->params; }
const ParameterList& TransformerSeq2Seq::parameters() const { return impl_->params; }

const Tensor2& TransformerSeq2Seq::forward(const TokenIds& source, const TokenIds& decoder_input, bool training,
                                           Rng& rng) {
  Impl& m = *impl_;
  const std::size_t nb = source.shape(0), nx = source.shape(1), nt = decoder_input.shape(1);
  ATTN_REQUIRE(nb > 0 && nx > 0 && nt > 0 && decoder_input.shape(0) == nb, "TransformerSeq2Seq::forward",
               "source has shape " + shape_string(source.shape()) + " and decoder_input " +
                   shape_string(decoder_input.shape()) + "; expected [B, Tx] and [B, T] with B, Tx, T >= 1");
  const float embed_scale = std::sqrt(static_cast<float>(m.config.d_model));
  fill_mask(source, m.source_mask);
  fill_mask(decoder_input, m.target_mask);
  sequence_starts(m.source_mask, m.source_starts);

  // e = Dropout(√D · E_s[x] + PE), positions from each source's first token
  Tensor3& embedded = m.encoder_states[0];
  m.source_table().forward(source, embedded, m.source_lookup);
  scale_in_place(embedded, embed_scale);
  add_sinusoidal_positional_encoding(embedded, &m.source_starts);
  m.embedding_dropout.forward(embedded.data(), embedded.data(), embedded.size(), training, rng, m.source_drop);
  // m = LN_e(Enc_N(… Enc_1(e)))
  for (std::size_t i = 0; i < m.encoder.size(); ++i) {
    m.encoder[i].forward(m.encoder_states[i], &m.source_mask, false, training, rng, m.encoder_states[i + 1],
                         m.encoder_caches[i]);
  }
  m.encoder_norm.forward(m.encoder_states.back(), m.memory, m.encoder_norm_cache);

  // d = Dropout(√D · E_t[y_<t] + PE)
  Tensor3& target = m.decoder_states[0];
  m.target_embedding.forward(decoder_input, target, m.target_lookup);
  scale_in_place(target, embed_scale);
  add_sinusoidal_positional_encoding(target);
  m.embedding_dropout.forward(target.data(), target.data(), target.size(), training, rng, m.target_drop);
  // h = LN_d(Dec_N(… Dec_1(d, m))), causal or with the top-left T × T block of the caller's mask
  const Mask2* self_mask = nullptr;
  if (m.self_mask.size() > 0) {
    const std::size_t nl = m.self_mask.shape(0);
    ATTN_REQUIRE(nt <= nl, "TransformerSeq2Seq::forward",
                 "the decoder's self-attention mask is " + std::to_string(nl) + " × " + std::to_string(nl) +
                     " but this batch has " + std::to_string(nt) + " decoder positions; set a mask of at least " +
                     std::to_string(nt) + " × " + std::to_string(nt));
    m.self_mask_block = xt::view(m.self_mask, xt::range(0, nt), xt::range(0, nt));
    self_mask = &m.self_mask_block;
  }
  for (std::size_t i = 0; i < m.decoder.size(); ++i) {
    m.decoder[i].forward(m.decoder_states[i], m.memory, &m.target_mask, &m.source_mask, training, rng,
                         m.decoder_states[i + 1], m.decoder_caches[i], self_mask);
  }
  m.decoder_norm.forward(m.decoder_states.back(), m.decoded, m.decoder_norm_cache);
  // z = h W_out + b_out: one GEMM over all B·T positions
  ensure_shape(m.logits, std::array<std::size_t, 2>{nb * nt, m.config.target_vocab});
  m.project(m.decoded.data(), nb * nt, m.logits.data());
  return m.logits;
}

void TransformerSeq2Seq::backward(const Tensor2& dlogits) {
  Impl& m = *impl_;
  const std::size_t nb = m.decoded.shape(0), nt = m.decoded.shape(1), d = m.config.d_model;
  const std::size_t nv = m.config.target_vocab, rows = nb * nt;
  ATTN_REQUIRE(dlogits.shape() == m.logits.shape(), "TransformerSeq2Seq::backward",
               "dlogits has shape " + shape_string(dlogits.shape()) + " but the last forward produced logits " +
                   shape_string(m.logits.shape()));
  const float embed_scale = std::sqrt(static_cast<float>(d));
  ensure_shape(m.d_decoded, m.decoded.shape());
  // z = h W_out + b_out  ->  dW_out += hᵀ dz, db_out += Σ dz, dh = dz W_outᵀ
  if (m.output) {
    m.output->backward_rows(m.decoded.data(), dlogits.data(), rows, m.d_decoded.data());
  } else {
    // tied: z = h E_tᵀ + b  ->  dE_t += dzᵀ h (not the PAD row, held at zero), dh = dz E_t
    for (std::size_t r = 0; r < rows; ++r) {
      for (std::size_t v = 0; v < nv; ++v) m.doutput_bias(v) += dlogits(r, v);
    }
    ensure_shape(m.pad_row_grad, std::array<std::size_t, 1>{d});
    std::copy(m.tied_grad + kPadId * d, m.tied_grad + (kPadId + 1) * d, m.pad_row_grad.data());
    kernels::gemm(true, false, nv, d, rows, 1.f, dlogits.data(), nv, m.decoded.data(), d, 1.f, m.tied_grad, d);
    std::copy(m.pad_row_grad.begin(), m.pad_row_grad.end(), m.tied_grad + kPadId * d);
    kernels::gemm(false, false, rows, d, nv, 1.f, dlogits.data(), nv, m.tied_weight, d, 0.f, m.d_decoded.data(), d);
  }
  // h = LN_d(s_N)
  m.decoder_norm.backward(m.d_decoded, m.decoder_norm_cache, m.d_state);
  // s_{i+1} = Dec_i(s_i, m): every block also sends a gradient to the memory, summed in d_memory
  ensure_shape(m.d_memory, m.memory.shape());
  std::fill(m.d_memory.begin(), m.d_memory.end(), 0.f);
  for (std::size_t i = m.decoder.size(); i-- > 0;) {
    m.decoder[i].backward(m.d_state, m.decoder_caches[i], m.d_next, m.d_memory_block);
    add_to(m.d_memory, m.d_memory_block);
    std::swap(m.d_state, m.d_next);
  }
  // d = Dropout(√D · E_t[y] + PE)  ->  dE_t[y] += √D · Dropout'(dd)
  m.embedding_dropout.backward(m.d_state.data(), m.d_state.data(), m.d_state.size(), m.target_drop);
  scale_in_place(m.d_state, embed_scale);
  m.target_embedding.backward(m.d_state, m.target_lookup);

  // m = LN_e(e_N)
  m.encoder_norm.backward(m.d_memory, m.encoder_norm_cache, m.d_state);
  for (std::size_t i = m.encoder.size(); i-- > 0;) {
    m.encoder[i].backward(m.d_state, m.encoder_caches[i], m.d_next);
    std::swap(m.d_state, m.d_next);
  }
  // e = Dropout(√D · E_s[x] + PE)
  m.embedding_dropout.backward(m.d_state.data(), m.d_state.data(), m.d_state.size(), m.source_drop);
  scale_in_place(m.d_state, embed_scale);
  m.source_table().backward(m.d_state, m.source_lookup);
}

namespace {
// target [B, Ty] -> decoder inputs target[:, :-1] (EOS as PAD) and labels target[:, 1:] flattened [B·T].
void split_target(const TokenIds& target, TokenIds& inputs, ClassIds& labels) {
  const std::size_t nb = target.shape(0), ny = target.shape(1);
  ATTN_REQUIRE(nb > 0 && ny >= 2, "TransformerSeq2Seq",
               "target has shape " + shape_string(target.shape()) + "; expected [B, Ty] with B >= 1, Ty >= 2");
  ensure_shape(inputs, std::array<std::size_t, 2>{nb, ny - 1});
  ensure_shape(labels, std::array<std::size_t, 1>{nb * (ny - 1)});
  for (std::size_t b = 0; b < nb; ++b) {
    for (std::size_t t = 0; t + 1 < ny; ++t) {
      // A shorter row's EOS is read as PAD: the decoder's input is BOS y1 .. yn for every row, so a
      // decoder mask that shows later positions cannot copy the EOS either (under the causal mask
      // no position reads it: the numbers are the same).
      inputs(b, t) = target(b, t) == kEosId ? kPadId : target(b, t);
      labels(b * (ny - 1) + t) = target(b, t + 1);
    }
  }
}
}  // namespace

CrossEntropyResult TransformerSeq2Seq::loss(const TokenIds& source, const TokenIds& target, bool training, Rng& rng) {
  split_target(target, impl_->decoder_inputs, impl_->labels);
  const Tensor2& logits = forward(source, impl_->decoder_inputs, training, rng);
  return label_smoothed_cross_entropy(logits, impl_->labels, kPadId, impl_->config.label_smoothing, nullptr);
}

CrossEntropyResult TransformerSeq2Seq::evaluate(const TokenIds& source, const TokenIds& target) {
  Rng unused(0);
  return loss(source, target, false, unused);
}

CrossEntropyResult TransformerSeq2Seq::train_batch(const TokenIds& source, const TokenIds& target, Rng& rng) {
  Impl& m = *impl_;
  split_target(target, m.decoder_inputs, m.labels);
  const Tensor2& logits = forward(source, m.decoder_inputs, true, rng);
  const CrossEntropyResult result =
      label_smoothed_cross_entropy(logits, m.labels, kPadId, m.config.label_smoothing, &m.dlogits);
  backward(m.dlogits);
  return result;
}

}  // namespace attn

namespace attn {

float TransformerSeq2Seq::train_batch(const TokenIds& source, const TokenIds& target, float teacher_forcing_ratio,
                                      Rng& rng) {
  if (teacher_forcing_ratio != 1.f) {
    throw std::invalid_argument(
        "TransformerSeq2Seq trains every target position at once with the gold previous tokens, so the "
        "teacher-forcing ratio must be 1, got " +
        std::to_string(teacher_forcing_ratio));
  }
  return train_batch(source, target, rng).loss;
}

float TransformerSeq2Seq::loss(const TokenIds& source, const TokenIds& target) { return evaluate(source, target).loss; }

}  // namespace attn
