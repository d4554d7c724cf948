// A trainable parameter as seen by optimisers and serialisation: a name, a shape and views of
// the value and gradient buffers (owned by the layer). See layers/README.md for the contract.
#pragma once

#include <string>
#include <vector>

#include "attn/tensor.hpp"

namespace attn {

using TokenIds = xt::xtensor<std::int32_t, 2>;  // [B, T]

struct Parameter {
  std::string name;                // e.g. "encoder.forward.w_x"
  std::vector<std::size_t> shape;  // e.g. {32, 128}
  float* value = nullptr;          // `size` floats, row-major
  float* grad = nullptr;           // `size` floats, same layout
  std::size_t size = 0;
};

using ParameterList = std::vector<Parameter>;

// Appends a view of `value`/`grad` (same shape) named prefix + name. The tensors must outlive
// the list and must not be resized while it is in use.
template <class T>
void add_parameter(ParameterList& out, const std::string& prefix, const std::string& name, T& value, T& grad) {
  ATTN_REQUIRE(value.shape() == grad.shape(), "add_parameter",
               prefix + name + ": value has shape " + shape_string(value.shape()) + " but grad has shape " +
                   shape_string(grad.shape()));
  Parameter p;
  p.name = prefix + name;
  p.shape.assign(value.shape().begin(), value.shape().end());
  p.value = value.data();
  p.grad = grad.data();
  p.size = value.size();
  out.push_back(std::move(p));
}

// Sets every gradient in the list to zero (once per training step).
void zero_grads(const ParameterList& params);
// Total number of scalars in the list.
std::size_t parameter_count(const ParameterList& params);

// A copy of every parameter's values (trainers keep the best and the last good parameters).
using ParameterSnapshot = std::vector<std::vector<float>>;
// into[i] = params[i].value; reuses into's storage when the sizes are unchanged.
void take_snapshot(const ParameterList& params, ParameterSnapshot& into);
// params[i].value = from[i]; `from` must come from take_snapshot of the same list.
void restore_snapshot(const ParameterList& params, const ParameterSnapshot& from);

}  // namespace attn
