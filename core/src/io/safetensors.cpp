#include "attn/io/safetensors.hpp"

#include <cstring>
#include <set>
#include <stdexcept>

#include "attn/io/flat_json.hpp"

namespace attn {

std::vector<std::uint8_t> write_safetensors(const std::vector<NamedTensor>& tensors,
                                            const std::vector<std::pair<std::string, std::string>>& metadata) {
  std::string header = "{";
  if (!metadata.empty()) {
    header += "\"__metadata__\":{";
    for (std::size_t i = 0; i < metadata.size(); ++i) {
      header += (i ? "," : "") + json_quote(metadata[i].first) + ":" + json_quote(metadata[i].second);
    }
    header += "}";
  }
  std::set<std::string> names;
  std::size_t offset = 0;  // in bytes, from the start of the data
  for (const NamedTensor& t : tensors) {
    if (t.name.empty() || t.name == "__metadata__" || !names.insert(t.name).second) {
      throw std::invalid_argument("write_safetensors: tensor name '" + t.name + "' is empty, reserved or used twice");
    }
    std::size_t count = 1;
    std::string shape;
    for (std::size_t d : t.shape) {
      count *= d;
      shape += (shape.empty() ? "" : ",") + std::to_string(d);
    }
    if (count != t.values.size()) {
      throw std::invalid_argument("write_safetensors: tensor '" + t.name + "' has " + std::to_string(t.values.size()) +
                                  " values but its shape [" + shape + "] holds " + std::to_string(count));
    }
    const std::size_t end = offset + 4 * count;
    header += std::string(header.size() > 1 ? "," : "") + json_quote(t.name) + ":{\"dtype\":\"F32\",\"shape\":[" +
              shape + "],\"data_offsets\":[" + std::to_string(offset) + "," + std::to_string(end) + "]}";
    offset = end;
  }
  header += "}";
  header.append((8 - (8 + header.size()) % 8) % 8, ' ');

  std::vector<std::uint8_t> out;
  out.reserve(8 + header.size() + offset);
  for (int i = 0; i < 8; ++i)
    out.push_back(static_cast<std::uint8_t>((std::uint64_t{header.size()} >> (8 * i)) & 0xFF));
  out.insert(out.end(), header.begin(), header.end());
  for (const NamedTensor& t : tensors) {
    for (float v : t.values) {
      std::uint32_t bits;
      std::memcpy(&bits, &v, 4);
      for (int i = 0; i < 4; ++i) out.push_back(static_cast<std::uint8_t>((bits >> (8 * i)) & 0xFF));
    }
  }
  return out;
}

}  // namespace attn
