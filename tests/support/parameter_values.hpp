// Copies of every parameter's values, to compare a model's weights between points of a run.
#pragma once

#include <vector>

#include "attn/layers/parameter.hpp"

namespace attn::test {

// One vector per parameter, in the published order.
inline std::vector<std::vector<float>> parameter_values(const ParameterList& params) {
  std::vector<std::vector<float>> out;
  for (const Parameter& p : params) out.emplace_back(p.value, p.value + p.size);
  return out;
}

}  // namespace attn::test
