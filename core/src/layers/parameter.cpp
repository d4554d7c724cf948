#include "attn/layers/parameter.hpp"

#include <algorithm>

namespace attn {

void zero_grads(const ParameterList& params) {
  for (const Parameter& p : params) std::fill(p.grad, p.grad + p.size, 0.f);
}

std::size_t parameter_count(const ParameterList& params) {
  std::size_t n = 0;
  for (const Parameter& p : params) n += p.size;
  return n;
}

void take_snapshot(const ParameterList& params, ParameterSnapshot& into) {
  into.resize(params.size());
  for (std::size_t i = 0; i < params.size(); ++i) into[i].assign(params[i].value, params[i].value + params[i].size);
}

void restore_snapshot(const ParameterList& params, const ParameterSnapshot& from) {
  for (std::size_t i = 0; i < params.size(); ++i) std::copy(from[i].begin(), from[i].end(), params[i].value);
}

}  // namespace attn
