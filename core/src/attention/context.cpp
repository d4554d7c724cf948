#include "attn/attention/context.hpp"

#include "attn/linalg.hpp"

namespace attn {
namespace {
void require_weights_match(std::size_t n_weights, const Tensor2& annotations, const char* where,
                           const std::string& weights_shape) {
  ATTN_REQUIRE(annotations.shape(0) == n_weights, where,
               "weights has shape " + weights_shape + " but annotations has shape " +
                   shape_string(annotations.shape()) + "; need one weight per annotation");
}
}  // namespace

Tensor2 weighted_annotations(const Tensor1& weights, const Tensor2& annotations) {
  require_weights_match(weights.shape(0), annotations, "weighted_annotations", shape_string(weights.shape()));
  const Tensor2 column = xt::view(weights, xt::all(), xt::newaxis());
  return column * annotations;
}

Tensor1 context_vector(const Tensor1& weights, const Tensor2& annotations) {
  require_weights_match(weights.shape(0), annotations, "context_vector", shape_string(weights.shape()));
  const Tensor2 row = xt::view(weights, xt::newaxis(), xt::all());
  const Tensor2 out = matmul(row, annotations);
  return xt::view(out, 0, xt::all());
}

Tensor2 context_vectors(const Tensor2& weights, const Tensor2& annotations) {
  require_weights_match(weights.shape(1), annotations, "context_vectors", shape_string(weights.shape()));
  return matmul(weights, annotations);
}

}  // namespace attn
