// libFuzzer target: load_tsv on arbitrary bytes; it may only throw DataError or TextError.
#include <cstddef>
#include <cstdint>

#include "attn/data/review_loaders.hpp"
#include "attn/text/utf8.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  attn::LoadLimits limits;
  // Small limits so the length checks are reached by small inputs.
  limits.max_example_bytes = 256;
  limits.max_line_bytes = 512;
  limits.max_examples = 64;
  attn::MemorySource source(data, size, "fuzz.tsv");
  try {
    const auto examples = attn::load_tsv(source, limits);
    attn::check_two_classes(examples, "fuzz.tsv");
  } catch (const attn::DataError&) {
  } catch (const attn::TextError&) {
  }
  return 0;
}
