// libFuzzer target: the aclImdb .tar.gz reader (gzip + inflate + tar + review selection).
// First byte even: the rest is the .tar.gz as is (inflate and the gzip framing are fuzzed, the
// CRC-32 rejects most mutations at the end). Odd: the rest is a tar that the harness wraps in a
// valid gzip member, so mutations reach the tar parser and the review selection. Bit 1 picks the
// split. The loader may only throw DataError or TextError.
#include <cstddef>
#include <cstdint>

#include "attn/data/review_loaders.hpp"
#include "attn/text/utf8.hpp"
#include "fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const std::uint8_t mode = data[0];
  fuzz::Bytes bytes = (mode & 1u) ? fuzz::gzip_stored(data + 1, size - 1) : fuzz::copy(data + 1, size - 1);
  attn::LoadLimits limits;
  // A 256 KiB output bound keeps every run fast; a small-input zip bomb must stop there.
  limits.max_decompressed_bytes = 256 << 10;
  limits.max_example_bytes = 4096;
  limits.max_examples = 64;
  attn::MemorySource source(bytes.data(), bytes.size(), "fuzz.tar.gz");
  try {
    attn::load_aclimdb_archive(source, (mode & 2u) ? "test" : "train", limits);
  } catch (const attn::DataError&) {
  } catch (const attn::TextError&) {
  }
  return 0;
}
