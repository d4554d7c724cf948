// Small hand-set parameters for optimiser tests: each tensor's value and grad are chosen by the
// test, and `params` publishes them like a layer would.
#pragma once

#include <initializer_list>
#include <vector>

#include "attn/layers/parameter.hpp"

namespace attn::test {

struct ToyParameters {
  std::vector<Tensor1> values, grads;
  ParameterList params;

  // One rank-1 tensor per list of initial values, named "p0", "p1", ...
  ToyParameters(std::initializer_list<std::initializer_list<float>> tensors) {
    values.reserve(tensors.size());  // add_parameter keeps pointers: no reallocation after it
    grads.reserve(tensors.size());
    for (const auto& t : tensors) {
      Tensor1 v = xt::zeros<float>({t.size()});
      std::size_t i = 0;
      for (float x : t) v(i++) = x;
      values.push_back(v);
      grads.push_back(xt::zeros<float>({t.size()}));
    }
    for (std::size_t k = 0; k < values.size(); ++k) {
      add_parameter(params, "", "p" + std::to_string(k), values[k], grads[k]);
    }
  }

  void set_grad(std::size_t k, std::initializer_list<float> g) {
    std::size_t i = 0;
    for (float x : g) grads[k](i++) = x;
  }
};

}  // namespace attn::test
