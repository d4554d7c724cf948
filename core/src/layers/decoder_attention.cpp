#include "attn/layers/decoder_attention.hpp"

#include <cmath>

#include "attention_layer_common.hpp"
#include "attn/attention/softmax_backward.hpp"
#include "attn/kernels/vector_math.hpp"

namespace attn {
namespace {
using layers_detail::check;
using layers_detail::copy_into;
using layers_detail::ensure_shape;

std::string dims(std::size_t a, std::size_t b) { return "[" + std::to_string(a) + ", " + std::to_string(b) + "]"; }
std::string dims(std::size_t a, std::size_t b, std::size_t c) {
  return "[" + std::to_string(a) + ", " + std::to_string(b) + ", " + std::to_string(c) + "]";
}

// annotations [B, T, Dh] with B, T >= 1 and the layer's Dh.
void require_annotations(const Tensor3& annotations, std::size_t key_dim, const char* where) {
  check(annotations.shape(0) > 0 && annotations.shape(1) > 0 && annotations.shape(2) == key_dim, where, [&] {
    return "annotations has shape " + shape_string(annotations.shape()) + "; expected [B, T, " +
           std::to_string(key_dim) + "] with B, T >= 1";
  });
}

void require_query(const Tensor2& s, const char* name, std::size_t nb, std::size_t query_dim, const char* where) {
  check(s.shape(0) == nb && s.shape(1) == query_dim, where, [&] {
    return std::string(name) + " has shape " + shape_string(s.shape()) + "; expected [B, Ds] = " + dims(nb, query_dim);
  });
}

void require_mask(const Mask2* mask, std::size_t nb, std::size_t nt, const char* where) {
  if (mask == nullptr) return;
  check(mask->shape(0) == nb && mask->shape(1) == nt, where,
        [&] { return "mask has shape " + shape_string(mask->shape()) + "; expected [B, T] = " + dims(nb, nt); });
}

// The annotation accumulator must already have the annotations' shape (it is summed over steps).
void require_accumulator(const Tensor3& dannotations, const Tensor3& annotations, const char* where) {
  check(dannotations.shape() == annotations.shape(), where, [&] {
    return "dannotations has shape " + shape_string(dannotations.shape()) + " but annotations has shape " +
           shape_string(annotations.shape()) + "; it accumulates over steps, so zero it at that shape first";
  });
}

// hidden = tanh(hidden + query[b]) for every t, then score = hidden v.
// hidden [B, T, A] holds annotations·W on entry; query [B, A]; v [A] -> scores [B, T].
void additive_tail(Tensor3& hidden, const Tensor2& query, const Tensor1& v, Tensor2& scores) {
  const std::size_t nb = hidden.shape(0), nt = hidden.shape(1), a = hidden.shape(2);
  for (std::size_t b = 0; b < nb; ++b) {
    for (std::size_t t = 0; t < nt; ++t) {
      float* row = hidden.data() + (b * nt + t) * a;
      for (std::size_t j = 0; j < a; ++j) row[j] += query(b, j);
    }
  }
  kernels::tanh(hidden.data(), hidden.data(), hidden.size());
  kernels::gemm(false, false, nb * nt, 1, a, 1.f, hidden.data(), a, v.data(), 1, 0.f, scores.data(), 1);
}

// Backward of additive_tail: dscores [B, T] -> dv += hiddenᵀ dscores; dpre [B, T, A] =
// dscores v ⊙ (1 − hidden²) (written to dpre, or added when accumulate); dquery [B, A] = Σ_t dpre.
void additive_tail_backward(const Tensor3& hidden, const Tensor1& v, const Tensor2& dscores, Tensor1& dv, float* dpre,
                            bool accumulate, Tensor2& dquery) {
  const std::size_t nb = hidden.shape(0), nt = hidden.shape(1), a = hidden.shape(2);
  // score = hidden v  ->  dv += hiddenᵀ dscore
  kernels::gemm(true, false, a, 1, nb * nt, 1.f, hidden.data(), a, dscores.data(), 1, 1.f, dv.data(), 1);
  ensure_shape(dquery, std::array<std::size_t, 2>{nb, a});
  std::fill(dquery.begin(), dquery.end(), 0.f);
  for (std::size_t b = 0; b < nb; ++b) {
    for (std::size_t t = 0; t < nt; ++t) {
      const std::size_t row = b * nt + t;
      const float ds = dscores.data()[row];
      for (std::size_t j = 0; j < a; ++j) {
        // hidden = tanh(pre), pre = query[b] + keys[b, t]
        const float u = hidden.data()[row * a + j];
        const float g = ds * v(j) * (1.f - u * u);
        dpre[row * a + j] = (accumulate ? dpre[row * a + j] : 0.f) + g;
        dquery(b, j) += g;
      }
    }
  }
}
}  // namespace

// =============================================================================================
// Bahdanau

BahdanauAttention::BahdanauAttention(std::size_t query_dim, std::size_t key_dim, std::size_t attention_dim, Rng& rng)
    : query_dim_(query_dim), key_dim_(key_dim), attention_dim_(attention_dim) {
  check(query_dim > 0 && key_dim > 0 && attention_dim > 0, "BahdanauAttention", [&] {
    return "query_dim, key_dim and attention_dim must be >= 1 (got " + std::to_string(query_dim) + ", " +
           std::to_string(key_dim) + ", " + std::to_string(attention_dim) + ")";
  });
  w1 = layers_detail::glorot(rng, query_dim, attention_dim);
  w2 = layers_detail::glorot(rng, key_dim, attention_dim);
  v = layers_detail::glorot_vector(rng, attention_dim);
  dw1 = xt::zeros<float>(w1.shape());
  dw2 = xt::zeros<float>(w2.shape());
  dv = xt::zeros<float>(v.shape());
}

void BahdanauAttention::parameters(ParameterList& out, const std::string& prefix) {
  add_parameter(out, prefix, "w1", w1, dw1);
  add_parameter(out, prefix, "w2", w2, dw2);
  add_parameter(out, prefix, "v", v, dv);
}

void BahdanauAttention::precompute(const Tensor3& annotations, BahdanauKeys& keys) const {
  require_annotations(annotations, key_dim_, "BahdanauAttention::precompute");
  const std::size_t nb = annotations.shape(0), nt = annotations.shape(1);
  ensure_shape(keys.projected, std::array<std::size_t, 3>{nb, nt, attention_dim_});
  // keys = h W2
  layers_detail::linear(annotations.data(), nb * nt, key_dim_, w2.data(), attention_dim_, nullptr,
                        keys.projected.data());
}

void BahdanauAttention::step_forward(const Tensor2& s_prev, const Tensor3& annotations, const BahdanauKeys& keys,
                                     const Mask2* mask, Tensor2& context, Tensor2& weights,
                                     BahdanauStepCache& cache) const {
  const char* where = "BahdanauAttention::step_forward";
  require_annotations(annotations, key_dim_, where);
  const std::size_t nb = annotations.shape(0), nt = annotations.shape(1), a = attention_dim_;
  require_query(s_prev, "s_prev", nb, query_dim_, where);
  check(keys.projected.shape(0) == nb && keys.projected.shape(1) == nt && keys.projected.shape(2) == a, where, [&] {
    return "keys has shape " + shape_string(keys.projected.shape()) + "; expected [B, T, A] = " + dims(nb, nt, a) +
           " (call precompute on these annotations)";
  });
  require_mask(mask, nb, nt, where);
  copy_into(cache.s_prev, s_prev);
  copy_into(cache.annotations, annotations);
  copy_mask_or_ones(mask, nb, nt, cache.mask);
  copy_into(cache.hidden, keys.projected);
  ensure_shape(cache.query, std::array<std::size_t, 2>{nb, a});
  ensure_shape(cache.scores, std::array<std::size_t, 2>{nb, nt});
  ensure_shape(cache.weights, std::array<std::size_t, 2>{nb, nt});
  ensure_shape(weights, std::array<std::size_t, 2>{nb, nt});
  ensure_shape(context, std::array<std::size_t, 2>{nb, key_dim_});

  // e = vᵀ tanh(s W1 + keys)
  layers_detail::linear(s_prev.data(), nb, query_dim_, w1.data(), a, nullptr, cache.query.data());
  additive_tail(cache.hidden, cache.query, v, cache.scores);
  // a = masked softmax(e);  c = Σ_j a_j h_j
  detail::softmax_strided(cache.scores.data(), cache.mask.data(), cache.weights.data(), nb, nt, 1, 1.f);
  std::copy(cache.weights.begin(), cache.weights.end(), weights.begin());
  layers_detail::weighted_sum(cache.weights.data(), annotations.data(), nb, nt, key_dim_, context.data());
}

void BahdanauAttention::step_backward(const Tensor2& dcontext, const BahdanauStepCache& cache, Tensor2& ds_prev,
                                      Tensor3& dannotations, BahdanauKeysGrad& dkeys) {
  const char* where = "BahdanauAttention::step_backward";
  const std::size_t nb = cache.annotations.shape(0), nt = cache.annotations.shape(1), a = attention_dim_;
  check(dcontext.shape(0) == nb && dcontext.shape(1) == key_dim_, where, [&] {
    return "dcontext has shape " + shape_string(dcontext.shape()) + "; expected [B, Dh] = " + dims(nb, key_dim_);
  });
  require_accumulator(dannotations, cache.annotations, where);
  check(dkeys.projected.shape() == cache.hidden.shape(), where, [&] {
    return "dkeys has shape " + shape_string(dkeys.projected.shape()) + "; expected [B, T, A] = " + dims(nb, nt, a) +
           " (it accumulates over steps, so zero it at that shape first)";
  });
  ensure_shape(dweights_, std::array<std::size_t, 2>{nb, nt});
  ensure_shape(dscores_, std::array<std::size_t, 2>{nb, nt});
  ensure_shape(ds_prev, std::array<std::size_t, 2>{nb, query_dim_});

  // c = Σ_j a_j h_j  ->  dh_j += a_j dc,  da_j = dc·h_j
  layers_detail::weighted_sum_backward(cache.weights.data(), cache.annotations.data(), dcontext.data(), nb, nt,
                                       key_dim_, dannotations.data(), true, dweights_.data());
  // a = masked softmax(e)
  detail::softmax_backward_strided(cache.weights.data(), dweights_.data(), cache.mask.data(), dscores_.data(), nb, nt,
                                   1, 1.f);
  // e = vᵀ tanh(s W1 + keys)  ->  dv +=, dkeys += dpre, dquery = Σ_j dpre
  additive_tail_backward(cache.hidden, v, dscores_, dv, dkeys.projected.data(), true, dquery_);
  // query = s W1  ->  dW1 += sᵀ dquery,  ds = dquery W1ᵀ
  layers_detail::linear_backward(cache.s_prev.data(), nb, query_dim_, w1.data(), a, dquery_.data(), dw1.data(), nullptr,
                                 ds_prev.data(), false);
}

void BahdanauAttention::keys_backward(const BahdanauKeysGrad& dkeys, const Tensor3& annotations,
                                      Tensor3& dannotations) {
  const char* where = "BahdanauAttention::keys_backward";
  require_annotations(annotations, key_dim_, where);
  const std::size_t nb = annotations.shape(0), nt = annotations.shape(1);
  check(dkeys.projected.shape(0) == nb && dkeys.projected.shape(1) == nt && dkeys.projected.shape(2) == attention_dim_,
        where, [&] {
          return "dkeys has shape " + shape_string(dkeys.projected.shape()) +
                 "; expected [B, T, A] = " + dims(nb, nt, attention_dim_);
        });
  require_accumulator(dannotations, annotations, where);
  // keys = h W2  ->  dW2 += hᵀ dkeys,  dh += dkeys W2ᵀ
  layers_detail::linear_backward(annotations.data(), nb * nt, key_dim_, w2.data(), attention_dim_,
                                 dkeys.projected.data(), dw2.data(), nullptr, dannotations.data(), true);
}

// =============================================================================================
// Luong

namespace {
ScoreKind checked_luong_kind(ScoreKind kind, std::size_t query_dim, std::size_t key_dim) {
  if (kind == ScoreKind::cosine || kind == ScoreKind::additive) {
    throw std::invalid_argument(std::string("LuongAttention: score '") + score_kind_name(kind) +
                                "' is not a Luong score; supported: dot, general, concat, location, scaled_dot" +
                                (kind == ScoreKind::additive ? " (use BahdanauAttention for additive)" : ""));
  }
  if ((kind == ScoreKind::dot || kind == ScoreKind::scaled_dot) && query_dim != key_dim) {
    throw std::invalid_argument(std::string("LuongAttention: score '") + score_kind_name(kind) +
                                "' compares s_t and h_j directly, so query_dim must equal key_dim (got " +
                                std::to_string(query_dim) + " and " + std::to_string(key_dim) +
                                "); use 'general' or 'concat' for different sizes");
  }
  return kind;
}
}  // namespace

LuongAttention::LuongAttention(ScoreKind kind, std::size_t query_dim, std::size_t key_dim, std::size_t max_source_len,
                               Rng& rng)
    : kind_(checked_luong_kind(kind, query_dim, key_dim)),
      query_dim_(query_dim),
      key_dim_(key_dim),
      max_source_len_(max_source_len),
      attention_dim_(query_dim) {
  check(query_dim > 0 && key_dim > 0, "LuongAttention", [&] {
    return "query_dim and key_dim must be >= 1 (got " + std::to_string(query_dim) + ", " + std::to_string(key_dim) +
           ")";
  });
  check(kind != ScoreKind::location || max_source_len > 0, "LuongAttention",
        [&] { return "max_source_len must be >= 1 for 'location' (one learned weight column per source position)"; });
  switch (kind_) {
    case ScoreKind::general:
      w_a = layers_detail::glorot(rng, query_dim, key_dim);
      break;
    case ScoreKind::concat:
      w_a = layers_detail::glorot(rng, query_dim + key_dim, attention_dim_);
      v_a = layers_detail::glorot_vector(rng, attention_dim_);
      break;
    case ScoreKind::location:
      w_a = layers_detail::glorot(rng, query_dim, max_source_len);
      break;
    default:
      break;
  }
  w_c = layers_detail::glorot(rng, key_dim + query_dim, query_dim);
  dw_a = xt::zeros<float>(w_a.shape());
  dv_a = xt::zeros<float>(v_a.shape());
  dw_c = xt::zeros<float>(w_c.shape());
}

void LuongAttention::parameters(ParameterList& out, const std::string& prefix) {
  if (kind_ == ScoreKind::general || kind_ == ScoreKind::concat || kind_ == ScoreKind::location) {
    add_parameter(out, prefix, "w_a", w_a, dw_a);
  }
  if (kind_ == ScoreKind::concat) add_parameter(out, prefix, "v_a", v_a, dv_a);
  add_parameter(out, prefix, "w_c", w_c, dw_c);
}

void LuongAttention::step_forward(const Tensor2& s_t, const Tensor3& annotations, const Mask2* mask, Tensor2& context,
                                  Tensor2& attentional, Tensor2& weights, LuongStepCache& cache) const {
  const char* where = "LuongAttention::step_forward";
  require_annotations(annotations, key_dim_, where);
  const std::size_t nb = annotations.shape(0), nt = annotations.shape(1);
  const std::size_t ds = query_dim_, dh = key_dim_, a = attention_dim_;
  require_query(s_t, "s_t", nb, ds, where);
  require_mask(mask, nb, nt, where);
  check(kind_ != ScoreKind::location || nt <= max_source_len_, where, [&] {
    return "annotations has T = " + std::to_string(nt) + " but the 'location' score was built for max_source_len " +
           std::to_string(max_source_len_) + " (one learned weight column per source position)";
  });
  copy_into(cache.s, s_t);
  copy_into(cache.annotations, annotations);
  copy_mask_or_ones(mask, nb, nt, cache.mask);
  ensure_shape(cache.scores, std::array<std::size_t, 2>{nb, nt});
  ensure_shape(cache.weights, std::array<std::size_t, 2>{nb, nt});
  ensure_shape(cache.joined, std::array<std::size_t, 2>{nb, dh + ds});
  ensure_shape(cache.attentional, std::array<std::size_t, 2>{nb, ds});
  ensure_shape(context, std::array<std::size_t, 2>{nb, dh});
  ensure_shape(attentional, std::array<std::size_t, 2>{nb, ds});
  ensure_shape(weights, std::array<std::size_t, 2>{nb, nt});

  switch (kind_) {
    case ScoreKind::concat:
      // e_j = vᵀ tanh([s; h_j] W_a) = vᵀ tanh(s W_a[:Ds] + h_j W_a[Ds:])
      ensure_shape(cache.query, std::array<std::size_t, 2>{nb, a});
      ensure_shape(cache.hidden, std::array<std::size_t, 3>{nb, nt, a});
      layers_detail::linear(s_t.data(), nb, ds, w_a.data(), a, nullptr, cache.query.data());
      layers_detail::linear(annotations.data(), nb * nt, dh, w_a.data() + ds * a, a, nullptr, cache.hidden.data());
      additive_tail(cache.hidden, cache.query, v_a, cache.scores);
      break;
    case ScoreKind::location:
      // e = s W_a[:, :T]
      kernels::gemm(false, false, nb, nt, ds, 1.f, s_t.data(), ds, w_a.data(), max_source_len_, 0.f,
                    cache.scores.data(), nt);
      break;
    default: {
      // e_j = k·h_j, k = s (dot), s / √Dh (scaled_dot), s W_a (general)
      ensure_shape(cache.key, std::array<std::size_t, 2>{nb, dh});
      if (kind_ == ScoreKind::general) {
        layers_detail::linear(s_t.data(), nb, ds, w_a.data(), dh, nullptr, cache.key.data());
      } else {
        const float scale = kind_ == ScoreKind::scaled_dot ? 1.f / std::sqrt(static_cast<float>(dh)) : 1.f;
        for (std::size_t i = 0; i < cache.key.size(); ++i) cache.key.data()[i] = s_t.data()[i] * scale;
      }
      for (std::size_t b = 0; b < nb; ++b) {
        kernels::gemm(false, true, 1, nt, dh, 1.f, cache.key.data() + b * dh, dh, annotations.data() + b * nt * dh, dh,
                      0.f, cache.scores.data() + b * nt, nt);
      }
      break;
    }
  }
  // a = masked softmax(e);  c = Σ_j a_j h_j
  detail::softmax_strided(cache.scores.data(), cache.mask.data(), cache.weights.data(), nb, nt, 1, 1.f);
  std::copy(cache.weights.begin(), cache.weights.end(), weights.begin());
  layers_detail::weighted_sum(cache.weights.data(), annotations.data(), nb, nt, dh, context.data());
  // h̃ = tanh([c; s] W_c)
  for (std::size_t b = 0; b < nb; ++b) {
    std::copy(context.data() + b * dh, context.data() + (b + 1) * dh, cache.joined.data() + b * (dh + ds));
    std::copy(s_t.data() + b * ds, s_t.data() + (b + 1) * ds, cache.joined.data() + b * (dh + ds) + dh);
  }
  layers_detail::linear(cache.joined.data(), nb, dh + ds, w_c.data(), ds, nullptr, cache.attentional.data());
  kernels::tanh(cache.attentional.data(), cache.attentional.data(), cache.attentional.size());
  std::copy(cache.attentional.begin(), cache.attentional.end(), attentional.begin());
}

void LuongAttention::step_backward(const Tensor2& dattentional, const LuongStepCache& cache, Tensor2& ds_t,
                                   Tensor3& dannotations) {
  const char* where = "LuongAttention::step_backward";
  const std::size_t nb = cache.annotations.shape(0), nt = cache.annotations.shape(1);
  const std::size_t ds = query_dim_, dh = key_dim_, a = attention_dim_;
  check(dattentional.shape(0) == nb && dattentional.shape(1) == ds, where, [&] {
    return "dattentional has shape " + shape_string(dattentional.shape()) + "; expected [B, Ds] = " + dims(nb, ds);
  });
  require_accumulator(dannotations, cache.annotations, where);
  ensure_shape(dpre_out_, std::array<std::size_t, 2>{nb, ds});
  ensure_shape(djoined_, std::array<std::size_t, 2>{nb, dh + ds});
  ensure_shape(dweights_, std::array<std::size_t, 2>{nb, nt});
  ensure_shape(dscores_, std::array<std::size_t, 2>{nb, nt});
  ensure_shape(ds_t, std::array<std::size_t, 2>{nb, ds});

  // h̃ = tanh(z), z = [c; s] W_c  ->  dz = dh̃ ⊙ (1 − h̃²), dW_c += [c; s]ᵀ dz, d[c; s] = dz W_cᵀ
  for (std::size_t i = 0; i < dpre_out_.size(); ++i) {
    const float y = cache.attentional.data()[i];
    dpre_out_.data()[i] = dattentional.data()[i] * (1.f - y * y);
  }
  layers_detail::linear_backward(cache.joined.data(), nb, dh + ds, w_c.data(), ds, dpre_out_.data(), dw_c.data(),
                                 nullptr, djoined_.data(), false);
  // ds_t starts as the [c; s] split's s part; the score adds its share below. dc stays in djoined_.
  for (std::size_t b = 0; b < nb; ++b) {
    std::copy(djoined_.data() + b * (dh + ds) + dh, djoined_.data() + (b + 1) * (dh + ds), ds_t.data() + b * ds);
  }
  // c = Σ_j a_j h_j  ->  dh_j += a_j dc,  da_j = dc·h_j   (dc = row b of djoined_, first Dh entries)
  for (std::size_t b = 0; b < nb; ++b) {
    const std::size_t off = b * nt;
    layers_detail::weighted_sum_backward(cache.weights.data() + off, cache.annotations.data() + off * dh,
                                         djoined_.data() + b * (dh + ds), 1, nt, dh, dannotations.data() + off * dh,
                                         true, dweights_.data() + off);
  }
  // a = masked softmax(e)
  detail::softmax_backward_strided(cache.weights.data(), dweights_.data(), cache.mask.data(), dscores_.data(), nb, nt,
                                   1, 1.f);

  switch (kind_) {
    case ScoreKind::concat: {
      // e_j = vᵀ tanh(s W_a[:Ds] + h_j W_a[Ds:])
      ensure_shape(dpre_, std::array<std::size_t, 3>{nb, nt, a});
      additive_tail_backward(cache.hidden, v_a, dscores_, dv_a, dpre_.data(), false, dquery_);
      layers_detail::linear_backward(cache.annotations.data(), nb * nt, dh, w_a.data() + ds * a, a, dpre_.data(),
                                     dw_a.data() + ds * a, nullptr, dannotations.data(), true);
      layers_detail::linear_backward(cache.s.data(), nb, ds, w_a.data(), a, dquery_.data(), dw_a.data(), nullptr,
                                     ds_t.data(), true);
      break;
    }
    case ScoreKind::location:
      // e = s W_a[:, :T]  ->  dW_a[:, :T] += sᵀ de,  ds += de W_a[:, :T]ᵀ
      kernels::gemm(true, false, ds, nt, nb, 1.f, cache.s.data(), ds, dscores_.data(), nt, 1.f, dw_a.data(),
                    max_source_len_);
      kernels::gemm(false, true, nb, ds, nt, 1.f, dscores_.data(), nt, w_a.data(), max_source_len_, 1.f, ds_t.data(),
                    ds);
      break;
    default: {
      // e_j = k·h_j  ->  dk = Σ_j de_j h_j,  dh_j += de_j k
      ensure_shape(dkey_, std::array<std::size_t, 2>{nb, dh});
      for (std::size_t b = 0; b < nb; ++b) {
        kernels::gemm(false, false, 1, dh, nt, 1.f, dscores_.data() + b * nt, nt,
                      cache.annotations.data() + b * nt * dh, dh, 0.f, dkey_.data() + b * dh, dh);
        for (std::size_t t = 0; t < nt; ++t) {
          const float de = dscores_(b, t);
          float* dh_row = dannotations.data() + (b * nt + t) * dh;
          for (std::size_t i = 0; i < dh; ++i) dh_row[i] += de * cache.key(b, i);
        }
      }
      if (kind_ == ScoreKind::general) {
        // k = s W_a  ->  dW_a += sᵀ dk,  ds += dk W_aᵀ
        layers_detail::linear_backward(cache.s.data(), nb, ds, w_a.data(), dh, dkey_.data(), dw_a.data(), nullptr,
                                       ds_t.data(), true);
      } else {
        // k = s · scale
        const float scale = kind_ == ScoreKind::scaled_dot ? 1.f / std::sqrt(static_cast<float>(dh)) : 1.f;
        for (std::size_t i = 0; i < ds_t.size(); ++i) ds_t.data()[i] += scale * dkey_.data()[i];
      }
      break;
    }
  }
}

}  // namespace attn
