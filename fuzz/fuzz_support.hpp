// Helpers shared by the libFuzzer targets (fuzz/fuzz_<target>.cpp) and the seed-corpus writer.
//
// No tensors here (the shape legend B, T, D, H, V, U, A does not apply). A target feeds the
// fuzzer's bytes to one reader of user data and lets only that reader's documented error types
// through; any other exception, a crash, a sanitizer finding, a leak or a hang is a bug.
//
// Checksums stop mutation-based fuzzing at the first byte changed, so targets whose format has
// one use the first input byte as a mode: "as is" (the checksum must reject it) or "checksum
// repaired by the harness" (the fuzzer reaches the parser behind it).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "attn/io/gzip.hpp"
#include "attn/io/model_file.hpp"

namespace fuzz {

using Bytes = std::vector<std::uint8_t>;

inline void put_le16(Bytes& out, std::uint32_t v) {
  out.push_back(static_cast<std::uint8_t>(v));
  out.push_back(static_cast<std::uint8_t>(v >> 8));
}
inline void put_le32(Bytes& out, std::uint32_t v) {
  put_le16(out, v & 0xffffu);
  put_le16(out, v >> 16);
}

// A gzip member holding `plain` in stored (uncompressed) deflate blocks, with a correct CRC-32
// and ISIZE: turns a mutated tar into a well-formed .tar.gz.
inline Bytes gzip_stored(const std::uint8_t* plain, std::size_t size) {
  Bytes out = {0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff};
  std::size_t pos = 0;
  do {
    const std::size_t n = size - pos < 65535 ? size - pos : 65535;
    out.push_back(pos + n == size ? 1 : 0);  // BFINAL, BTYPE 00 (stored), then byte-aligned
    put_le16(out, static_cast<std::uint32_t>(n));
    put_le16(out, static_cast<std::uint32_t>(~n & 0xffffu));
    out.insert(out.end(), plain + pos, plain + pos + n);
    pos += n;
  } while (pos < size);
  put_le32(out, attn::crc32_update(0, plain, size));
  put_le32(out, static_cast<std::uint32_t>(size));
  return out;
}

// A libFuzzer target must not write outside its input: copies are made for the repairs above.
inline Bytes copy(const std::uint8_t* data, std::size_t size) { return Bytes(data, data + size); }

// A model file (io/model_file.hpp, trailing little-endian CRC-32) from a fuzzer input: the first
// byte is the mode, the rest the file. Even: as is (the CRC rejects almost every mutation). Odd:
// the trailing CRC-32 is rewritten to match, so mutations reach what lies behind it.
inline Bytes model_file_input(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return {};
  Bytes bytes = copy(data + 1, size - 1);
  if ((data[0] & 1u) && bytes.size() >= 4) {
    const std::uint32_t crc = attn::crc32(bytes.data(), bytes.size() - 4);
    for (int i = 0; i < 4; ++i) bytes[bytes.size() - 4 + i] = static_cast<std::uint8_t>(crc >> (8 * i));
  }
  return bytes;
}

}  // namespace fuzz
