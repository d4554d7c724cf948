// The safetensors format (Hugging Face's; what PyTorch users load weights from), written for
// float32 tensors:
//
//   [8 bytes]  N, the header's length, unsigned 64-bit little-endian
//   [N bytes]  a JSON object: "name": {"dtype": "F32", "shape": [...], "data_offsets": [begin, end]}
//              for every tensor, plus "__metadata__": {string: string}; padded with spaces so the
//              data starts at a multiple of 8
//   [rest]     the tensors' values back to back, row-major, little-endian float32; offsets count
//              from the start of this part, in the order the tensors were given, with no gaps
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace attn {

struct NamedTensor {
  std::string name;
  std::vector<std::size_t> shape;  // [] for a scalar
  std::vector<float> values;       // row-major, product of shape values
};

// Throws std::invalid_argument when a name is empty, repeated or "__metadata__", or when a tensor's
// values do not match its shape.
std::vector<std::uint8_t> write_safetensors(const std::vector<NamedTensor>& tensors,
                                            const std::vector<std::pair<std::string, std::string>>& metadata = {});

}  // namespace attn
