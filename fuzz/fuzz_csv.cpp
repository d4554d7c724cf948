// libFuzzer target: load_csv on arbitrary bytes. The first byte picks the options (header or
// not, column by name / index / default) so every column-selection path is reached; the loader
// may only throw DataError or TextError.
#include <cstddef>
#include <cstdint>

#include "attn/data/review_loaders.hpp"
#include "attn/text/utf8.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const std::uint8_t mode = data[0];
  attn::CsvOptions options;
  options.has_header = (mode & 1u) == 0;
  if (mode & 2u) options.text_index = mode >> 5;
  if (mode & 4u) options.label_index = (mode >> 3) & 3u;
  if (mode & 8u) options.text_column = "review";
  if (mode & 16u) options.label_column = "sentiment";
  // Small limits so the length checks are reached by small inputs.
  options.limits.max_example_bytes = 256;
  options.limits.max_line_bytes = 512;
  options.limits.max_examples = 64;
  attn::MemorySource source(data + 1, size - 1, "fuzz.csv");
  try {
    const auto examples = attn::load_csv(source, options);
    attn::check_two_classes(examples, "fuzz.csv");
  } catch (const attn::DataError&) {
  } catch (const attn::TextError&) {
  }
  return 0;
}
