#include "attn/attention/scores.hpp"

#include <cmath>

#include "attn/linalg.hpp"

namespace attn {
namespace {

void require_nonempty(const Tensor2& queries, const Tensor2& keys, const char* where) {
  ATTN_REQUIRE(queries.shape(0) > 0 && queries.shape(1) > 0, where,
               "queries has shape " + shape_string(queries.shape()) + "; it needs at least one query of size >= 1");
  ATTN_REQUIRE(keys.shape(0) > 0 && keys.shape(1) > 0, where,
               "keys has shape " + shape_string(keys.shape()) + "; it needs at least one key of size >= 1");
}

void require_same_size(const Tensor2& queries, const Tensor2& keys, const char* where) {
  require_nonempty(queries, keys, where);
  ATTN_REQUIRE(queries.shape(1) == keys.shape(1), where,
               "keys has shape " + shape_string(keys.shape()) + " but queries has shape " +
                   shape_string(queries.shape()) + "; keys must be [T, " + std::to_string(queries.shape(1)) + "]");
}

void require_param_shape(const Tensor2& p, std::size_t rows, std::size_t cols, const char* where, const char* name) {
  ATTN_REQUIRE(p.shape(0) == rows && p.shape(1) == cols, where,
               std::string(name) + " has shape " + shape_string(p.shape()) + "; expected [" + std::to_string(rows) +
                   ", " + std::to_string(cols) + "]");
}

// Shared tail of additive and concat: score[q, t] = Σ_a v[a] tanh(ws[q, a] + wh[t, a]).
// ws [Q, A], wh [T, A], v [A] -> [Q, T]
Tensor2 additive_from_projections(const Tensor2& ws, const Tensor2& wh, const Tensor1& v) {
  const std::size_t nq = ws.shape(0), nt = wh.shape(0), na = v.shape(0);
  Tensor2 out = xt::empty<float>({nq, nt});
  for (std::size_t q = 0; q < nq; ++q) {
    for (std::size_t t = 0; t < nt; ++t) {
      float sum = 0.f;
      for (std::size_t a = 0; a < na; ++a) sum += v(a) * std::tanh(ws(q, a) + wh(t, a));
      out(q, t) = sum;
    }
  }
  return out;
}

}  // namespace

const char* score_kind_name(ScoreKind kind) {
  switch (kind) {
    case ScoreKind::dot:
      return "dot";
    case ScoreKind::scaled_dot:
      return "scaled_dot";
    case ScoreKind::general:
      return "general";
    case ScoreKind::additive:
      return "additive";
    case ScoreKind::concat:
      return "concat";
    case ScoreKind::location:
      return "location";
    case ScoreKind::cosine:
      return "cosine";
  }
  return "unknown";
}

const std::vector<ScoreKind>& all_score_kinds() {
  static const std::vector<ScoreKind> kinds = {ScoreKind::dot,      ScoreKind::scaled_dot, ScoreKind::general,
                                               ScoreKind::additive, ScoreKind::concat,     ScoreKind::location,
                                               ScoreKind::cosine};
  return kinds;
}

ScoreKind score_kind_from_name(const std::string& name) {
  std::string valid;
  for (ScoreKind kind : all_score_kinds()) {
    if (name == score_kind_name(kind)) return kind;
    valid += valid.empty() ? "" : ", ";
    valid += score_kind_name(kind);
  }
  throw std::invalid_argument("unknown scoring function '" + name + "'; valid: " + valid);
}

bool score_kind_has_parameters(ScoreKind kind) {
  return kind == ScoreKind::general || kind == ScoreKind::additive || kind == ScoreKind::concat ||
         kind == ScoreKind::location;
}

Tensor2 dot_scores(const Tensor2& queries, const Tensor2& keys) {
  require_same_size(queries, keys, "dot_scores");
  return matmul_nt(queries, keys);
}

Tensor2 scaled_dot_scores(const Tensor2& queries, const Tensor2& keys) {
  require_same_size(queries, keys, "scaled_dot_scores");
  Tensor2 out = matmul_nt(queries, keys);
  out *= 1.f / std::sqrt(static_cast<float>(keys.shape(1)));
  return out;
}

Tensor2 general_scores(const Tensor2& queries, const Tensor2& keys, const Tensor2& w) {
  require_nonempty(queries, keys, "general_scores");
  require_param_shape(w, queries.shape(1), keys.shape(1), "general_scores", "W");
  // sᵀ W h for all pairs: (S W) Hᵀ, S [Q, Ds], W [Ds, Dh], H [T, Dh].
  return matmul_nt(matmul(queries, w), keys);
}

Tensor2 additive_scores(const Tensor2& queries, const Tensor2& keys, const Tensor2& w1, const Tensor2& w2,
                        const Tensor1& v) {
  require_nonempty(queries, keys, "additive_scores");
  const std::size_t na = v.shape(0);
  ATTN_REQUIRE(na > 0, "additive_scores", "v is empty; it must be [A] with A >= 1");
  require_param_shape(w1, na, queries.shape(1), "additive_scores", "W1");
  require_param_shape(w2, na, keys.shape(1), "additive_scores", "W2");
  return additive_from_projections(matmul_nt(queries, w1), matmul_nt(keys, w2), v);
}

Tensor2 concat_scores(const Tensor2& queries, const Tensor2& keys, const Tensor2& w, const Tensor1& v) {
  require_nonempty(queries, keys, "concat_scores");
  const std::size_t na = v.shape(0), ds = queries.shape(1), dh = keys.shape(1);
  ATTN_REQUIRE(na > 0, "concat_scores", "v is empty; it must be [A] with A >= 1");
  require_param_shape(w, na, ds + dh, "concat_scores", "W");
  // W [s; h] = W[:, :Ds] s + W[:, Ds:] h, so concat is additive with W split by columns.
  const Tensor2 ws = xt::view(w, xt::all(), xt::range(0, ds));
  const Tensor2 wh = xt::view(w, xt::all(), xt::range(ds, ds + dh));
  return additive_from_projections(matmul_nt(queries, ws), matmul_nt(keys, wh), v);
}

Tensor2 location_scores(const Tensor2& queries, const Tensor2& keys, const Tensor2& w) {
  require_nonempty(queries, keys, "location_scores");
  require_param_shape(w, keys.shape(0), queries.shape(1), "location_scores", "W");
  return matmul_nt(queries, w);
}

Tensor2 cosine_scores(const Tensor2& queries, const Tensor2& keys) {
  require_same_size(queries, keys, "cosine_scores");
  Tensor2 out = matmul_nt(queries, keys);
  const Tensor1 qn = xt::sqrt(xt::sum(queries * queries, {1}));
  const Tensor1 kn = xt::sqrt(xt::sum(keys * keys, {1}));
  for (std::size_t q = 0; q < out.shape(0); ++q) {
    for (std::size_t t = 0; t < out.shape(1); ++t) {
      const float denom = qn(q) * kn(t);
      out(q, t) = denom > 0.f ? out(q, t) / denom : 0.f;
    }
  }
  return out;
}

Tensor2 scores(ScoreKind kind, const Tensor2& queries, const Tensor2& keys, const ScoreParams& params) {
  switch (kind) {
    case ScoreKind::dot:
      return dot_scores(queries, keys);
    case ScoreKind::scaled_dot:
      return scaled_dot_scores(queries, keys);
    case ScoreKind::general:
      return general_scores(queries, keys, params.w);
    case ScoreKind::additive:
      return additive_scores(queries, keys, params.w1, params.w2, params.v);
    case ScoreKind::concat:
      return concat_scores(queries, keys, params.w, params.v);
    case ScoreKind::location:
      return location_scores(queries, keys, params.w);
    case ScoreKind::cosine:
      return cosine_scores(queries, keys);
  }
  throw std::invalid_argument("scores: unknown scoring function");
}

Tensor1 scores(ScoreKind kind, const Tensor1& query, const Tensor2& keys, const ScoreParams& params) {
  const Tensor2 queries = xt::reshape_view(query, {std::size_t{1}, query.shape(0)});
  const Tensor2 out = scores(kind, queries, keys, params);
  return xt::view(out, 0, xt::all());
}

}  // namespace attn
