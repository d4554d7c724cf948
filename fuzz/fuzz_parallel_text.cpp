// libFuzzer target: load_parallel_text (tab-separated sentence pairs) on arbitrary bytes; it may
// only throw DataError or TextError, and every pair it returns has a non-empty source and target.
#include <cstddef>
#include <cstdint>
#include <cstdlib>

#include "attn/data/parallel_text.hpp"
#include "attn/text/utf8.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  attn::ParallelLimits limits;
  // Small limits so the length and count checks are reached by small inputs.
  limits.max_line_bytes = 256;
  limits.max_examples = 64;
  try {
    for (const attn::ParallelExample& pair : attn::load_parallel_text_bytes(data, size, "fuzz.tsv", limits)) {
      if (pair.source.empty() || pair.target.empty()) std::abort();
    }
  } catch (const attn::DataError&) {
  } catch (const attn::TextError&) {
  }
  return 0;
}
