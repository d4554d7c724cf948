// libFuzzer target: load_sentence_files on arbitrary bytes, split at the first NUL byte into the
// positive file and the negative one (no NUL: all positive, an empty negative file); it may only
// throw DataError or TextError.
#include <algorithm>
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
  const std::uint8_t* split = std::find(data, data + size, std::uint8_t{0});
  const std::size_t positive_size = static_cast<std::size_t>(split - data);
  const std::size_t negative_offset = std::min(size, positive_size + 1);
  attn::MemorySource positive(data, positive_size, "fuzz.pos");
  attn::MemorySource negative(data + negative_offset, size - negative_offset, "fuzz.neg");
  try {
    const auto examples = attn::load_sentence_files(positive, negative, limits);
    attn::check_two_classes(examples, "the two files");
  } catch (const attn::DataError&) {
  } catch (const attn::TextError&) {
  }
  return 0;
}
