#include "attn/layers/attention_pooling.hpp"

#include <cmath>

#include "attention_layer_common.hpp"
#include "attn/attention/softmax_backward.hpp"
#include "attn/kernels/vector_math.hpp"

namespace attn {
namespace {
using layers_detail::check;
using layers_detail::copy_into;
using layers_detail::ensure_shape;

constexpr const char* kWhere = "AttentionPooling";

ScoreKind supported_kind(ScoreKind kind) {
  if (kind == ScoreKind::location || kind == ScoreKind::cosine) {
    throw std::invalid_argument(std::string(kWhere) + ": score '" + score_kind_name(kind) +
                                "' is not supported (pooling has no decoder state); supported: "
                                "additive, concat, general, scaled_dot, dot");
  }
  return kind;
}
}  // namespace

AttentionPooling::AttentionPooling(ScoreKind kind, std::size_t input_dim, std::size_t attention_dim, Rng& rng)
    : kind_(supported_kind(kind)), input_dim_(input_dim), attention_dim_(attention_dim) {
  check(input_dim > 0, kWhere, [&] { return "input_dim must be >= 1"; });
  const std::size_t d = input_dim, a = attention_dim;
  if (uses_hidden_layer() || kind_ == ScoreKind::scaled_dot) {
    check(a > 0, kWhere, [&] { return std::string("attention_dim must be >= 1 for '") + score_kind_name(kind) + "'"; });
  }
  switch (kind_) {
    case ScoreKind::additive:
      w = layers_detail::glorot(rng, d, a);
      b = xt::zeros<float>({a});
      v = layers_detail::glorot_vector(rng, a);
      break;
    case ScoreKind::concat:
      q = layers_detail::glorot_vector(rng, d);
      w = layers_detail::glorot(rng, 2 * d, a);
      v = layers_detail::glorot_vector(rng, a);
      break;
    case ScoreKind::general:
      q = layers_detail::glorot_vector(rng, d);
      w = layers_detail::glorot(rng, d, d);
      break;
    case ScoreKind::scaled_dot:
      // The query has unit variance, as a Transformer's queries do: the 1/√A scale assumes it.
      // A Glorot-sized query (|q_j| ≈ 0.17) left the scores too small to move (header comment).
      q = random_uniform(rng, a, -std::sqrt(3.f), std::sqrt(3.f));
      w = layers_detail::glorot(rng, d, a);
      break;
    default:  // dot
      q = layers_detail::glorot_vector(rng, d);
      break;
  }
  dq = xt::zeros<float>(q.shape());
  dw = xt::zeros<float>(w.shape());
  db = xt::zeros<float>(b.shape());
  dv = xt::zeros<float>(v.shape());
}

void AttentionPooling::parameters(ParameterList& out, const std::string& prefix) {
  switch (kind_) {
    case ScoreKind::additive:
      add_parameter(out, prefix, "w", w, dw);
      add_parameter(out, prefix, "b", b, db);
      add_parameter(out, prefix, "v", v, dv);
      break;
    case ScoreKind::concat:
      add_parameter(out, prefix, "q", q, dq);
      add_parameter(out, prefix, "w", w, dw);
      add_parameter(out, prefix, "v", v, dv);
      break;
    case ScoreKind::general:
    case ScoreKind::scaled_dot:
      add_parameter(out, prefix, "q", q, dq);
      add_parameter(out, prefix, "w", w, dw);
      break;
    default:
      add_parameter(out, prefix, "q", q, dq);
      break;
  }
}

void AttentionPooling::forward(const Tensor3& h, const Mask2* mask, Tensor2& pooled,
                               AttentionPoolingCache& cache) const {
  const std::size_t nb = h.shape(0), nt = h.shape(1), d = input_dim_, a = attention_dim_;
  check(nb > 0 && nt > 0 && h.shape(2) == d, "AttentionPooling::forward", [&] {
    return "h has shape " + shape_string(h.shape()) + "; expected [B, T, " + std::to_string(d) + "] with B, T >= 1";
  });
  if (mask != nullptr) {
    check(mask->shape(0) == nb && mask->shape(1) == nt, "AttentionPooling::forward", [&] {
      return "mask has shape " + shape_string(mask->shape()) + " but h has shape " + shape_string(h.shape()) +
             "; mask must be [B, T] = [" + std::to_string(nb) + ", " + std::to_string(nt) + "]";
    });
  }
  copy_into(cache.h, h);
  copy_mask_or_ones(mask, nb, nt, cache.mask);
  ensure_shape(cache.scores, std::array<std::size_t, 2>{nb, nt});
  ensure_shape(cache.weights, std::array<std::size_t, 2>{nb, nt});
  ensure_shape(pooled, std::array<std::size_t, 2>{nb, d});
  const std::size_t rows = nb * nt;

  if (uses_hidden_layer()) {
    // hidden = tanh(h W + c): additive c = b; concat [q; h] W = q W[:D] + h W[D:], so c = q W[:D].
    ensure_shape(cache.hidden, std::array<std::size_t, 3>{nb, nt, a});
    ensure_shape(cache.query_key, std::array<std::size_t, 1>{a});  // holds c for these kinds
    const float* w_h = w.data();
    if (kind_ == ScoreKind::concat) {
      kernels::gemm(false, false, 1, a, d, 1.f, q.data(), d, w.data(), a, 0.f, cache.query_key.data(), a);
      w_h = w.data() + d * a;
    } else {
      std::copy(b.begin(), b.end(), cache.query_key.begin());
    }
    layers_detail::linear(h.data(), rows, d, w_h, a, cache.query_key.data(), cache.hidden.data());
    kernels::tanh(cache.hidden.data(), cache.hidden.data(), cache.hidden.size());
    // score = hidden v
    kernels::gemm(false, false, rows, 1, a, 1.f, cache.hidden.data(), a, v.data(), 1, 0.f, cache.scores.data(), 1);
  } else {
    // score_t = k·h_t with k = q (dot), qᵀ W (general) or W q / √A (scaled_dot: the key
    // projection h_t W [A] dotted with q [A], scaled, computed as h_t · (W q / √A)).
    ensure_shape(cache.query_key, std::array<std::size_t, 1>{d});
    if (kind_ == ScoreKind::general) {
      kernels::gemm(false, false, 1, d, d, 1.f, q.data(), d, w.data(), d, 0.f, cache.query_key.data(), d);
    } else if (kind_ == ScoreKind::scaled_dot) {
      kernels::gemm(false, false, d, 1, a, 1.f / std::sqrt(static_cast<float>(a)), w.data(), a, q.data(), 1, 0.f,
                    cache.query_key.data(), 1);
    } else {
      std::copy(q.begin(), q.end(), cache.query_key.begin());
    }
    kernels::gemm(false, false, rows, 1, d, 1.f, h.data(), d, cache.query_key.data(), 1, 0.f, cache.scores.data(), 1);
  }

  // a = masked softmax over t; an all-masked row gives zeros.
  detail::softmax_strided(cache.scores.data(), cache.mask.data(), cache.weights.data(), nb, nt, 1, 1.f);
  // pooled[b] = Σ_t a[b, t] h[b, t]
  layers_detail::weighted_sum(cache.weights.data(), h.data(), nb, nt, d, pooled.data());
}

void AttentionPooling::backward(const Tensor2& dpooled, const AttentionPoolingCache& cache, Tensor3& dh) {
  const std::size_t nb = cache.h.shape(0), nt = cache.h.shape(1), d = input_dim_, a = attention_dim_;
  check(dpooled.shape(0) == nb && dpooled.shape(1) == d, "AttentionPooling::backward", [&] {
    return "dpooled has shape " + shape_string(dpooled.shape()) + " but forward produced [" + std::to_string(nb) +
           ", " + std::to_string(d) + "]";
  });
  const std::size_t rows = nb * nt;
  const float* h = cache.h.data();
  ensure_shape(dh, cache.h.shape());
  ensure_shape(dweights_, std::array<std::size_t, 2>{nb, nt});
  ensure_shape(dscores_, std::array<std::size_t, 2>{nb, nt});

  // pooled[b] = Σ_t a[b, t] h[b, t]  ->  dh[b, t] = a[b, t] dpooled[b],  da[b, t] = dpooled[b]·h[b, t]
  layers_detail::weighted_sum_backward(cache.weights.data(), h, dpooled.data(), nb, nt, d, dh.data(), false,
                                       dweights_.data());
  // a = masked softmax(score)
  detail::softmax_backward_strided(cache.weights.data(), dweights_.data(), cache.mask.data(), dscores_.data(), nb, nt,
                                   1, 1.f);
  const float* ds = dscores_.data();

  if (uses_hidden_layer()) {
    // score = hidden v  ->  dv += hiddenᵀ ds;  dhidden = ds vᵀ
    kernels::gemm(true, false, a, 1, rows, 1.f, cache.hidden.data(), a, ds, 1, 1.f, dv.data(), 1);
    // hidden = tanh(pre)  ->  dpre = dhidden ⊙ (1 − hidden²)
    ensure_shape(dpre_, std::array<std::size_t, 3>{nb, nt, a});
    for (std::size_t r = 0; r < rows; ++r) {
      for (std::size_t j = 0; j < a; ++j) {
        const float u = cache.hidden.data()[r * a + j];
        dpre_.data()[r * a + j] = ds[r] * v(j) * (1.f - u * u);
      }
    }
    // pre = h W_h + c  ->  dW_h += hᵀ dpre, dc = Σ dpre, dh += dpre W_hᵀ
    ensure_shape(dbias_, std::array<std::size_t, 1>{a});
    std::fill(dbias_.begin(), dbias_.end(), 0.f);
    const std::size_t offset = kind_ == ScoreKind::concat ? d * a : 0;
    layers_detail::linear_backward(h, rows, d, w.data() + offset, a, dpre_.data(), dw.data() + offset, dbias_.data(),
                                   dh.data(), true);
    if (kind_ == ScoreKind::additive) {
      // A plain loop: xtensor's `db += ...` assigns through a temporary, which would move db's
      // buffer out from under the published Parameter pointers.
      for (std::size_t j = 0; j < a; ++j) db(j) += dbias_(j);
    } else {
      // concat: c = q W[:D]  ->  dW[:D] += q dcᵀ,  dq += W[:D] dc
      kernels::gemm(true, false, d, a, 1, 1.f, q.data(), d, dbias_.data(), a, 1.f, dw.data(), a);
      kernels::gemm(false, true, 1, d, a, 1.f, dbias_.data(), a, w.data(), a, 1.f, dq.data(), d);
    }
  } else {
    // score_t = k·h_t  ->  dk = Σ_{b,t} ds h_t,  dh_t += ds k
    ensure_shape(dkey_, std::array<std::size_t, 1>{d});
    kernels::gemm(false, false, 1, d, rows, 1.f, ds, rows, h, d, 0.f, dkey_.data(), d);
    for (std::size_t r = 0; r < rows; ++r) {
      for (std::size_t i = 0; i < d; ++i) dh.data()[r * d + i] += ds[r] * cache.query_key(i);
    }
    if (kind_ == ScoreKind::general) {
      // k = qᵀ W  ->  dW += q dkᵀ,  dq += W dk
      kernels::gemm(true, false, d, d, 1, 1.f, q.data(), d, dkey_.data(), d, 1.f, dw.data(), d);
      kernels::gemm(false, true, 1, d, d, 1.f, dkey_.data(), d, w.data(), d, 1.f, dq.data(), d);
    } else if (kind_ == ScoreKind::scaled_dot) {
      // k = W q / √A  ->  dW += dk qᵀ / √A [D, A],  dq += Wᵀ dk / √A [A]
      const float scale = 1.f / std::sqrt(static_cast<float>(a));
      kernels::gemm(false, false, d, a, 1, scale, dkey_.data(), 1, q.data(), a, 1.f, dw.data(), a);
      kernels::gemm(true, false, a, 1, d, scale, w.data(), a, dkey_.data(), 1, 1.f, dq.data(), 1);
    } else {
      for (std::size_t i = 0; i < d; ++i) dq(i) += dkey_(i);
    }
  }
}

}  // namespace attn
