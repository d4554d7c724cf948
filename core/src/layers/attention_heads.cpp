#include "attention_heads.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

#include "attn/kernels/gemm.hpp"
#include "attn/kernels/softmax_rows.hpp"

namespace attn::layers_detail {
namespace {
// out[c, r] (row stride ld_out) = in[r, c] for in [rows, cols] (row stride cols).
void transpose_into(const float* in, std::size_t rows, std::size_t cols, float* out, std::size_t ld_out) {
  for (std::size_t c = 0; c < cols; ++c) {
    for (std::size_t r = 0; r < rows; ++r) out[c * ld_out + r] = in[r * cols + c];
  }
}
void zero_columns(float* first, std::size_t rows, std::size_t width, std::size_t stride) {
  for (std::size_t t = 0; t < rows; ++t) std::fill(first + t * stride, first + t * stride + width, 0.f);
}
}  // namespace

void fill_key_bias(const Mask2* key_padding, std::size_t batch, std::size_t keys, Tensor2& key_bias, Mask1& padded) {
  ensure_shape(key_bias, std::array<std::size_t, 2>{batch, keys});
  ensure_shape(padded, std::array<std::size_t, 1>{batch});
  const float neg_inf = -std::numeric_limits<float>::infinity();
  for (std::size_t bi = 0; bi < batch; ++bi) {
    bool any = false;
    for (std::size_t i = 0; i < keys; ++i) {
      const bool real_key = key_padding == nullptr || (*key_padding)(bi, i) != 0;
      key_bias(bi, i) = real_key ? 0.f : neg_inf;
      any = any || !real_key;
    }
    padded(bi) = any ? 1 : 0;
  }
}

void fill_query_key_bias(const Mask2& mask, const Mask2* key_padding, std::size_t batch, Tensor2& key_bias,
                         Mask1& padded) {
  const std::size_t nq = mask.shape(0), nk = mask.shape(1);
  ensure_shape(key_bias, std::array<std::size_t, 2>{batch, nq * nk});
  ensure_shape(padded, std::array<std::size_t, 1>{batch});
  const float neg_inf = -std::numeric_limits<float>::infinity();
  for (std::size_t bi = 0; bi < batch; ++bi) {
    for (std::size_t t = 0; t < nq; ++t) {
      for (std::size_t i = 0; i < nk; ++i) {
        const bool visible = mask(t, i) != 0 && (key_padding == nullptr || (*key_padding)(bi, i) != 0);
        key_bias(bi, t * nk + i) = visible ? 0.f : neg_inf;
      }
    }
    padded(bi) = 1;
  }
}

void attend_heads(const HeadsShape& s, const float* q, const float* k, const float* v, const float* key_bias,
                  std::size_t key_bias_stride, const std::uint8_t* padded, bool causal,
                  const std::vector<bool>& head_enabled, const char* where, float* probs, float* heads) {
  const std::size_t nq = s.queries, nk = s.keys, d = s.d_model, nh = s.heads, hd = d / nh;
  const float scale = 1.f / std::sqrt(static_cast<float>(hd));
  for (std::size_t bi = 0; bi < s.batch; ++bi) {
    const float* bias =
        key_bias != nullptr && padded != nullptr && padded[bi] != 0 ? key_bias + bi * key_bias_stride : nullptr;
    for (std::size_t h = 0; h < nh; ++h) {
      const std::size_t qcol = bi * nq * d + h * hd;       // head h's first entry in Q and C
      const std::size_t kcol = bi * s.kv_stride + h * hd;  // ... and in K and V
      float* p = probs + (bi * nh + h) * nq * nk;
      // S_h = Q_h K_hᵀ / √d, written where P_h goes; then P_h = masked softmax over keys, row by row.
      kernels::gemm(false, true, nq, nk, hd, scale, q + qcol, d, k + kcol, d, 0.f, p, nk);
      for (std::size_t t = 0; t < nq; ++t) {
        const float* row_bias = bias == nullptr ? nullptr : bias + t * s.bias_query_stride;
        if (!kernels::softmax_row(p + t * nk, nk, causal ? t + 1 : nk, row_bias)) {
          throw std::invalid_argument(std::string(where) + ": the attention scores of sequence " + std::to_string(bi) +
                                      ", head " + std::to_string(h) + ", query " + std::to_string(t) +
                                      " hold NaN or +inf; the input or the weights are not finite");
        }
      }
      // O_h = P_h V_h, written into head h's columns of C.
      if (head_enabled[h]) {
        kernels::gemm(false, false, nq, hd, nk, 1.f, p, nk, v + kcol, d, 0.f, heads + qcol, d);
      } else {
        zero_columns(heads + qcol, nq, hd, d);
      }
    }
  }
}

void attend_heads_backward(const HeadsShape& s, const float* q, const float* k, const float* v, const float* probs,
                           bool causal, const std::vector<bool>& head_enabled, const float* dheads, float* dprobs,
                           float* transposed, float* dq, float* dk, float* dv) {
  const std::size_t nq = s.queries, nk = s.keys, d = s.d_model, nh = s.heads, hd = d / nh;
  const float scale = 1.f / std::sqrt(static_cast<float>(hd));
  for (std::size_t bi = 0; bi < s.batch; ++bi) {
    for (std::size_t h = 0; h < nh; ++h) {
      const std::size_t qcol = bi * nq * d + h * hd;
      const std::size_t kcol = bi * s.kv_stride + h * hd;
      if (!head_enabled[h]) {  // O_h = 0: no gradient reaches Q_h, K_h, V_h
        zero_columns(dq + qcol, nq, hd, d);
        zero_columns(dk + kcol, nk, hd, d);
        zero_columns(dv + kcol, nk, hd, d);
        continue;
      }
      const float* p = probs + (bi * nh + h) * nq * nk;
      const float* dout = dheads + qcol;
      // O_h = P_h V_h  ->  dP_h = dO_h V_hᵀ,  dV_h = P_hᵀ dO_h
      kernels::gemm(false, true, nq, nk, hd, 1.f, dout, d, v + kcol, d, 0.f, dprobs, nk);
      // dV_h is formed transposed, dV_hᵀ = dO_hᵀ P_h [d, Tk]: the GEMM then packs the small dO_hᵀ
      // rather than all of P_hᵀ [Tk, Tq], and its tiles span Tk columns instead of d.
      kernels::gemm(true, false, hd, nk, nq, 1.f, dout, d, p, nk, 0.f, transposed, nk);
      transpose_into(transposed, hd, nk, dv + kcol, d);
      // P_h = masked softmax(S_h)  ->  dS_h / √d (in place over dP_h; hidden entries 0: P is 0 there)
      for (std::size_t t = 0; t < nq; ++t) {
        float* row = dprobs + t * nk;
        kernels::softmax_row_backward(p + t * nk, row, row, nk, causal ? t + 1 : nk, scale);
      }
      // S_h = Q_h K_hᵀ / √d  ->  dQ_h = dS_h K_h / √d,  dK_h = dS_hᵀ Q_h / √d
      kernels::gemm(false, false, nq, hd, nk, 1.f, dprobs, nk, k + kcol, d, 0.f, dq + qcol, d);
      kernels::gemm(true, false, hd, nk, nq, 1.f, q + qcol, d, dprobs, nk, 0.f, transposed, nk);  // dK_hᵀ = Q_hᵀ dS_h
      transpose_into(transposed, hd, nk, dk + kcol, d);
    }
  }
}

}  // namespace attn::layers_detail
