// libFuzzer target: FlatJson::parse on arbitrary text. Malformed text may only throw
// std::invalid_argument; text that parses must survive dump -> parse -> dump unchanged.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <stdexcept>
#include <string>

#include "attn/io/flat_json.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  attn::FlatJson json;
  try {
    json = attn::FlatJson::parse(text);
  } catch (const std::invalid_argument&) {
    return 0;
  }
  const std::string dumped = json.dump();
  std::string again;
  try {
    again = attn::FlatJson::parse(dumped).dump();
  } catch (const std::invalid_argument&) {
    std::abort();  // our own output must parse
  }
  if (again != dumped) std::abort();
  for (const std::string& key : json.keys()) {
    try {
      json.get_size(key);
    } catch (const std::invalid_argument&) {
    }
  }
  return 0;
}
