// TransformerSeq2Seq decoding: encode once, then one cached decoder step per position.
#include <cmath>
#include <limits>
#include <stdexcept>
#include <tuple>

#include "attn/layers/positional_encoding.hpp"
#include "attn/models/seq2seq.hpp"
#include "attn/models/transformer_seq2seq.hpp"
#include "transformer_seq2seq_impl.hpp"

namespace attn {
namespace {
// Rows of a [B, ...] tensor gathered: out[i] = in[rows[i]].
template <class T>
T gather_rows(const T& in, const std::vector<std::size_t>& rows) {
  auto shape = in.shape();
  const std::size_t row_size = in.shape(0) == 0 ? 0 : in.size() / in.shape(0);
  std::array<std::size_t, std::tuple_size<typename T::shape_type>::value> out_shape;
  std::copy(shape.begin(), shape.end(), out_shape.begin());
  out_shape[0] = rows.size();
  T out = xt::empty<typename T::value_type>(out_shape);
  for (std::size_t i = 0; i < rows.size(); ++i) {
    std::copy(in.data() + rows[i] * row_size, in.data() + (rows[i] + 1) * row_size, out.data() + i * row_size);
  }
  return out;
}
}  // namespace

TransformerDecodingState TransformerSeq2Seq::encode(const TokenIds& source) const {
  const Impl& m = *impl_;
  const std::size_t nb = source.shape(0), nx = source.shape(1);
  ATTN_REQUIRE(nb > 0 && nx > 0, "TransformerSeq2Seq::encode",
               "source has shape " + shape_string(source.shape()) + "; expected [B, Tx] with B, Tx >= 1");
  TransformerDecodingState state;
  state.source_mask = xt::empty<std::uint8_t>(source.shape());
  for (std::size_t i = 0; i < source.size(); ++i) state.source_mask.data()[i] = source.data()[i] != kPadId ? 1 : 0;
  std::vector<std::size_t> starts;
  sequence_starts(state.source_mask, starts);
  // e = √D · E_s[x] + PE (no dropout), m = LN_e(Enc_N(… Enc_1(e)))
  Tensor3 x, y;
  EmbeddingCache lookup;
  m.source_table().forward(source, x, lookup);
  const float embed_scale = std::sqrt(static_cast<float>(m.config.d_model));
  for (float& v : x) v *= embed_scale;
  add_sinusoidal_positional_encoding(x, &starts);
  Rng unused(0);  // inference draws nothing
  TransformerEncoderCache cache;
  for (const TransformerEncoderBlock& block : m.encoder) {
    block.forward(x, &state.source_mask, false, false, unused, y, cache);
    std::swap(x, y);
  }
  LayerNormCache norm;
  m.encoder_norm.forward(x, state.memory, norm);
  // Every decoder block's projections of m, once.
  state.source_bias = xt::empty<float>({nb, nx});
  state.source_padded = xt::empty<std::uint8_t>({nb});
  const float neg_inf = -std::numeric_limits<float>::infinity();
  for (std::size_t b = 0; b < nb; ++b) {
    bool padded = false;
    for (std::size_t i = 0; i < nx; ++i) {
      const bool real = state.source_mask(b, i) != 0;
      state.source_bias(b, i) = real ? 0.f : neg_inf;
      padded = padded || !real;
    }
    state.source_padded(b) = padded ? 1 : 0;
  }
  state.layers.resize(m.decoder.size());
  for (std::size_t i = 0; i < m.decoder.size(); ++i) m.decoder[i].start(state.memory, state.layers[i]);
  return state;
}

TransformerStepResult TransformerSeq2Seq::step(TransformerDecodingState& state,
                                               const std::vector<std::int32_t>& previous) const {
  // begin_step, then every block's own cross-attention: the parts a caller can cut open.
  TransformerPartialStep partial = begin_step(state, previous);
  Tensor3 heads;
  Tensor4 weights;
  while (!partial.finished()) {
    cross_attention(state, partial, heads, weights);
    continue_step(state, partial, heads, &weights);
  }
  return std::move(partial.result);
}

namespace {
// Row t of the caller's decoder mask (null: causal); a step beyond the mask is an error.
const std::uint8_t* self_mask_row(const Mask2& mask, std::size_t t) {
  if (mask.size() == 0) return nullptr;
  ATTN_REQUIRE(t < mask.shape(0), "TransformerSeq2Seq::step",
               "decoding position " + std::to_string(t) + " but the decoder's self-attention mask is only " +
                   std::to_string(mask.shape(0)) + " × " + std::to_string(mask.shape(0)) +
                   "; set a mask that covers the longest decoding");
  return mask.data() + t * mask.shape(1);
}
}  // namespace

TransformerPartialStep TransformerSeq2Seq::begin_step(TransformerDecodingState& state,
                                                      const std::vector<std::int32_t>& previous) const {
  const Impl& m = *impl_;
  const std::size_t nb = state.batch(), d = m.config.d_model, nv = m.config.target_vocab, t = state.length();
  ATTN_REQUIRE(previous.size() == nb && state.layers.size() == m.decoder.size(), "TransformerSeq2Seq::step",
               "previous has " + std::to_string(previous.size()) + " tokens for a state of " + std::to_string(nb) +
                   " rows; pass one token per row (and a state from this model's encode)");
  for (std::size_t b = 0; b < nb; ++b) {
    if (previous[b] < 0 || static_cast<std::size_t>(previous[b]) >= nv) {
      throw std::invalid_argument("TransformerSeq2Seq::step: token " + std::to_string(previous[b]) + " of row " +
                                  std::to_string(b) + " is outside the target vocabulary [0, " + std::to_string(nv) +
                                  ")");
    }
  }
  const std::uint8_t* mask_row = self_mask_row(m.self_mask, t);
  // x_t = √D · E_t[y_{t-1}] + PE[t]
  TokenIds ids = xt::empty<std::int32_t>({nb, std::size_t{1}});
  for (std::size_t b = 0; b < nb; ++b) ids(b, 0) = previous[b];
  Tensor3 x;
  EmbeddingCache lookup;
  m.target_embedding.forward(ids, x, lookup);
  const Tensor2 far = t < m.positions.shape(0) ? Tensor2() : sinusoidal_positional_encoding(t + 1, d);
  const float* pe = (t < m.positions.shape(0) ? m.positions.data() : far.data()) + t * d;
  const float embed_scale = std::sqrt(static_cast<float>(d));
  for (std::size_t b = 0; b < nb; ++b) {
    for (std::size_t j = 0; j < d; ++j) x(b, 0, j) = x(b, 0, j) * embed_scale + pe[j];
  }
  // Block 0 attends over its cache (which grows by this position), up to its cross-attention.
  TransformerPartialStep partial;
  partial.result.self_weights.resize(m.decoder.size());
  partial.result.cross_weights.resize(m.decoder.size());
  m.decoder[0].step_self(x, state.layers[0], mask_row, partial.residual, partial.queries_input,
                         partial.result.self_weights[0]);
  return partial;
}

void TransformerSeq2Seq::cross_attention(const TransformerDecodingState& state, const TransformerPartialStep& partial,
                                         Tensor3& heads, Tensor4& weights) const {
  const Impl& m = *impl_;
  ATTN_REQUIRE(!partial.finished() && partial.block < m.decoder.size() && state.layers.size() == m.decoder.size(),
               "TransformerSeq2Seq::cross_attention",
               std::string("the step is finished (or from another model): no cross-attention is pending"));
  m.decoder[partial.block].step_cross(partial.queries_input, state.source_bias, state.source_padded,
                                      state.layers[partial.block], heads, weights);
}

void TransformerSeq2Seq::continue_step(TransformerDecodingState& state, TransformerPartialStep& partial,
                                       const Tensor3& heads, const Tensor4* cross_weights) const {
  const Impl& m = *impl_;
  const std::size_t nb = state.batch(), nv = m.config.target_vocab, i = partial.block;
  const std::size_t nh = m.config.heads, nx = state.memory.shape(1);
  ATTN_REQUIRE(!partial.finished() && i < m.decoder.size() && state.layers.size() == m.decoder.size(),
               "TransformerSeq2Seq::continue_step",
               std::string("the step is finished (or from another model): no cross-attention is pending"));
  const std::array<std::size_t, 4> weights_shape{nb, nh, 1, nx};
  if (cross_weights != nullptr) {
    ATTN_REQUIRE(cross_weights->shape() == weights_shape, "TransformerSeq2Seq::continue_step",
                 "cross_weights has shape " + shape_string(cross_weights->shape()) + "; expected " +
                     shape_string(weights_shape));
    partial.result.cross_weights[i] = *cross_weights;
  } else {
    partial.result.cross_weights[i] = xt::zeros<float>(weights_shape);
  }
  // Block i after its cross-attention, then block i + 1 up to its own.
  Tensor3 y;
  m.decoder[i].step_finish(partial.residual, heads, y);
  partial.block = i + 1;
  if (partial.block < m.decoder.size()) {
    const std::uint8_t* mask_row = self_mask_row(m.self_mask, state.layers[partial.block].length);
    m.decoder[partial.block].step_self(y, state.layers[partial.block], mask_row, partial.residual,
                                       partial.queries_input, partial.result.self_weights[partial.block]);
    return;
  }
  // log p = log softmax(LN_d(y) W_out + b_out)
  LayerNormCache norm;
  Tensor3 normed;
  m.decoder_norm.forward(y, normed, norm);
  Tensor2& log_probs = partial.result.log_probs;
  log_probs = xt::empty<float>({nb, nv});
  m.project(normed.data(), nb, log_probs.data());
  for (std::size_t b = 0; b < nb; ++b) {
    float* z = log_probs.data() + b * nv;
    float top = z[0];
    for (std::size_t v = 1; v < nv; ++v) top = std::max(top, z[v]);
    double sum = 0.0;
    for (std::size_t v = 0; v < nv; ++v) sum += std::exp(static_cast<double>(z[v] - top));
    const float log_norm = top + static_cast<float>(std::log(sum));
    for (std::size_t v = 0; v < nv; ++v) z[v] -= log_norm;
  }
}

void TransformerSeq2Seq::reorder(TransformerDecodingState& state, const std::vector<std::size_t>& rows) {
  const std::size_t nb = state.batch();
  ATTN_REQUIRE(!rows.empty(), "TransformerSeq2Seq::reorder", std::string("rows is empty; keep at least one row"));
  for (std::size_t r : rows) {
    ATTN_REQUIRE(r < nb, "TransformerSeq2Seq::reorder",
                 "row " + std::to_string(r) + " is outside the state's " + std::to_string(nb) + " rows");
  }
  state.memory = gather_rows(state.memory, rows);
  state.source_mask = gather_rows(state.source_mask, rows);
  state.source_bias = gather_rows(state.source_bias, rows);
  state.source_padded = gather_rows(state.source_padded, rows);
  for (TransformerDecoderLayerState& layer : state.layers) {
    layer.cross_k = gather_rows(layer.cross_k, rows);
    layer.cross_v = gather_rows(layer.cross_v, rows);
    if (layer.length > 0) {
      layer.self_k = gather_rows(layer.self_k, rows);
      layer.self_v = gather_rows(layer.self_v, rows);
    }
  }
}

}  // namespace attn

namespace attn {

// --- the Translator interface (models/translator.hpp) ---

namespace {
struct TransformerDecoding final : Translator::Decoding {
  TransformerDecodingState state;
  std::vector<std::int32_t> previous;  // [R] the step's input tokens
  Tensor2 alignment;                   // [R, Tx] the last block's head-mean cross-attention
};
}  // namespace

std::size_t TransformerSeq2Seq::source_vocab() const { return impl_->config.source_vocab; }

std::size_t TransformerSeq2Seq::target_vocab() const { return impl_->config.target_vocab; }

std::unique_ptr<Translator::Decoding> TransformerSeq2Seq::start(const TokenIds& source) const {
  auto decoding = std::make_unique<TransformerDecoding>();
  decoding->state = encode(source);
  return decoding;
}

const Tensor2* TransformerSeq2Seq::step(Decoding& decoding, const std::int32_t* previous, Tensor2& logits) const {
  auto& s = static_cast<TransformerDecoding&>(decoding);
  const std::size_t rows = s.state.batch(), nx = s.state.memory.shape(1);
  s.previous.assign(previous, previous + rows);
  TransformerStepResult result = step(s.state, s.previous);
  logits = std::move(result.log_probs);  // log-softmax: a softmax of it is p again
  // alignment = mean over heads of the last block's cross-attention [R, H, 1, Tx]
  const Tensor4& cross = result.cross_weights.back();
  const std::size_t heads = cross.shape(1);
  ensure_shape(s.alignment, std::array<std::size_t, 2>{rows, nx});
  for (std::size_t r = 0; r < rows; ++r) {
    for (std::size_t j = 0; j < nx; ++j) {
      float sum = 0.f;
      for (std::size_t h = 0; h < heads; ++h) sum += cross(r, h, 0, j);
      s.alignment(r, j) = sum / static_cast<float>(heads);
    }
  }
  return &s.alignment;
}

void TransformerSeq2Seq::reorder(Decoding& decoding, const std::vector<std::size_t>& parents) const {
  reorder(static_cast<TransformerDecoding&>(decoding).state, parents);
}

TransformerAttentionMaps TransformerSeq2Seq::attention_maps(const std::vector<int>& source,
                                                            const std::vector<int>& outputs) const {
  ATTN_REQUIRE(!source.empty() && !outputs.empty(), "TransformerSeq2Seq::attention_maps",
               "source has " + std::to_string(source.size()) + " tokens and outputs " + std::to_string(outputs.size()) +
                   "; both need at least one");
  TransformerDecodingState state = encode(source_row(source));
  const std::size_t layers = impl_->config.decoder_layers, heads = impl_->config.heads;
  const std::size_t ny = outputs.size(), nx = source.size();
  TransformerAttentionMaps maps;
  maps.cross = xt::zeros<float>({layers, heads, ny, nx});
  maps.self = xt::zeros<float>({layers, heads, ny, ny});
  std::vector<std::int32_t> previous{kBosId};
  for (std::size_t t = 0; t < ny; ++t) {
    const TransformerStepResult result = step(state, previous);
    for (std::size_t l = 0; l < layers; ++l) {
      for (std::size_t h = 0; h < heads; ++h) {
        for (std::size_t j = 0; j < nx; ++j) maps.cross(l, h, t, j) = result.cross_weights[l](0, h, 0, j);
        for (std::size_t j = 0; j <= t; ++j) maps.self(l, h, t, j) = result.self_weights[l](0, h, 0, j);
      }
    }
    previous[0] = outputs[t];
  }
  return maps;
}

}  // namespace attn
