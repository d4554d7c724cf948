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

}  // namespace attn
